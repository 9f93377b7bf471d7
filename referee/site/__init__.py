"""The rulebook site's pages, rendered from the specs.

Every game gets eight pages, one module each: an overview (`overview`), its rules
(`rules`: each rule's anchor is the part of its id after the game, which is where a
diagnostic's `see:` link points, with each rule's counter-example from `counterexamples`), a
gallery of its components drawn as tiles (`gallery`), its components and tables (`tables`), its variants
with values before and after each overlay (`variants`), the values to verify against
a physical box (`verify`), and its notation with the complete example records
(`notation`), and its example records as replays to step through (`replays`, which also
draws the pictures the rules page shows; the replay pages and pictures themselves are files
of their own, `site_files`). The command-line reference (`commandline`) is rendered from the
argument parser. Nothing here is copied by hand from a rulebook: when a spec
changes, the next build shows the change.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.errors import UsageError
from referee.i18n import N_, _, current, speaking
from referee.site import commandline, counterexamples, gallery, notation, overview, replays, rules, tables, variants, verify
from referee.site.markdown import LANGS, PAGE_LANGS, DocsError, page_file, table
from referee.site.tables import GamePages
from referee.spec.loader import Spec, available_games, data_root, load_spec, no_games

__all__ = ["Page", "DocsError", "GamePages", "render_site", "site_files", "game_pages", "write_docs", "nav", "nav_translations", "expand_snippets", "language_of_page"]


@dataclass
class Page:
    """One page of the rulebook site, written from the specs."""

    path: str  # relative to the site's docs directory, e.g. "speicherstadt/rules.md"
    title: str  # its title in the navigation
    group: str | None  # the navigation section it belongs to (a game's name)
    text: str
    lang: str = "en"  # the language it is written in; a game's pages in another are a section of their own


def game_specs(data: Path | None = None) -> tuple[Path, list[Spec]]:
    """The data root and the spec of every game in it (a spec that does not load raises)."""
    data = Path(data) if data else data_root()
    games = available_games(data / "specs")
    if not games:
        raise no_games(data / "specs")
    return data, [load_spec(game, root=data / "specs") for game in games]


def render_site(data: Path | None = None, cli: Callable[[], argparse.ArgumentParser] | None = None) -> list[Page]:
    """Every generated page: the command-line reference in each language (from the parser
    `cli` builds, which the command line or the mkdocs hooks hand in; none without it), then
    each game's pages."""
    data, specs = game_specs(data)
    pages = []
    if cli is not None:
        for lang in PAGE_LANGS:
            with speaking(lang):  # the parser's help is built in the language of its page
                pages.append(Page(page_file("cli"), _("Command line"), None, commandline.render(cli(), lang), lang))
    for spec in specs:
        pages += game_pages(spec, data)
    return pages


# A game's pages written in every language (the others are English only): title and renderer.
TRANSLATED_PAGES = {
    "index": (N_("Overview"), overview.render),
    "rules": (N_("Rules"), lambda doc: rules.render_in(doc, current())),
    "tables": (N_("Components and tables"), tables.render),
    "variants": (N_("Variants"), variants.render),
    "notation": (N_("Notation"), notation.render),
    "gallery": (N_("Component gallery"), gallery.render),
    "verify": (N_("Verify with your box"), verify.render),
    "replays": (N_("Replays"), replays.render),
}


def game_pages(spec: Spec, data: Path) -> list[Page]:
    """The eight pages of one game in English, and those of TRANSLATED_PAGES in Hungarian and
    German; each is rendered in its own language, whatever the locale of the build."""
    doc = GamePages(spec, data)
    game, title = doc.game, doc.title
    with speaking("en"):
        table_page = tables.render(doc)  # first: it records the anchors the other pages link to
        pages = [
            Page(f"{game}/index.md", "Overview", title, overview.render(doc)),
            Page(f"{game}/rules.md", "Rules", title, rules.render(doc)),
            Page(f"{game}/gallery.md", "Component gallery", title, gallery.render(doc)),
            Page(f"{game}/tables.md", "Components and tables", title, table_page),
            Page(f"{game}/variants.md", "Variants", title, variants.render(doc)),
            Page(f"{game}/verify.md", "Verify with your box", title, verify.render(doc)),
            Page(f"{game}/notation.md", "Notation", title, notation.render(doc)),
            Page(f"{game}/replays.md", "Replays", title, replays.render(doc)),
        ]
    for lang in PAGE_LANGS[1:]:
        with speaking(lang):
            own = spec.meta["names"].get(lang) or title
            pages += [Page(f"{game}/{page_file(stem)}", _(name), own, render(doc), lang) for stem, (name, render) in TRANSLATED_PAGES.items()]
    return pages


def site_files(data: Path | None = None, lang: str = "en") -> list[tuple[str, str]]:
    """The site's files that are not Markdown pages, in `lang`: each game's replay pages and
    the pictures its rules page shows, and the counter-example records under its rules, as
    (path, text). The site holds them once per language, those of Hungarian under hu/."""
    data, specs = game_specs(data)
    with speaking(lang):
        return [item for spec in specs for item in replays.files(GamePages(spec, data)) + gallery.files(GamePages(spec, data)) + counterexamples.files(spec)]


MARKER = ".referee-docs"  # in a folder `write_docs` wrote, which it may therefore replace


def write_docs(out: Path, data: Path | None = None, cli: Callable[[], argparse.ArgumentParser] | None = None) -> list[Path]:
    """Write the generated pages as Markdown under `out`, with the replay pages and pictures;
    returns the paths written.

    The files are written into a fresh folder beside `out`, which then takes its place: no
    page of an earlier build stays behind, and a failure leaves the old folder as it was. A
    folder that holds anything but files of `referee docs` is refused, not replaced.
    """
    out = Path(out)
    _check_writable(out)  # before the replays, which take most of the time: a refusal comes at once
    files = [(page.path, page.text) for page in render_site(data, cli)]  # first: a spec error leaves `out` untouched
    if out.exists() or out.is_symlink():
        games = {path.split("/")[0] for path, _ in files if "/" in path}
        _check_replaceable(out, {relative for relative, _ in files}, later=lambda rel: _game_folder(rel) in games)
    for lang in PAGE_LANGS:
        files += [(f"{lang}/{path}" if lang != "en" else path, text) for path, text in site_files(data, lang)]
    if out.exists() or out.is_symlink():
        _check_replaceable(out, {relative for relative, _ in files})
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(fresh, 0o777 & ~mask)  # as a folder made by mkdir would be, not private
        for relative, text in files:
            path = fresh / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        (fresh / MARKER).write_text("This folder is written by `referee docs`, which replaces it whole at each run.\n", encoding="utf-8")
        if out.exists() or out.is_symlink():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.rename(out, old / "pages")
            os.rename(fresh, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(fresh, out)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    return [out / relative for relative, _ in files]


def _game_folder(relative: str) -> str | None:
    """The game folder a path of the site is in (`hu/canterbury/replays/x.html`: canterbury)."""
    parts = relative.split("/")
    if parts[0] in PAGE_LANGS:
        parts = parts[1:]
    return parts[0] if len(parts) > 1 else None


def _check_writable(out: Path) -> None:
    """Refuse a place no folder can be made (inside a file, or a folder not writable) as
    making it would: with the OSError that names the path."""
    here = out.parent
    while not (here.exists() or here.is_symlink()) and here != here.parent:
        here = here.parent
    if not here.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(here))
    if not os.access(here, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(here))


def _check_replaceable(out: Path, ours: set[str], later: Callable[[str], bool] = lambda rel: False) -> None:
    """Only a folder of generated files may be replaced: one with the marker, or whose every
    file is one `referee docs` writes (a folder written before the marker existed). A file
    that `later` says may be one of the files not yet known is let pass."""
    if not out.is_dir():
        raise UsageError(_("{folder} is not a folder").format(folder=out))
    if (out / MARKER).is_file():
        return
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if path.is_symlink() or (not path.is_dir() and rel not in ours and not later(rel)):
            raise UsageError(_("{folder} holds files that referee docs did not write (such as {file}); give it a new or empty folder, or one it wrote before").format(folder=out, file=rel))


def nav(pages: list[Page]) -> list:
    """mkdocs navigation entries for the generated pages, a section per game, by their English
    pages: in the site of another language each entry leads to the page in that language
    where there is one (mkdocs-static-i18n finds `rules.hu.md` for `rules.md`), titled as
    `nav_translations` says."""
    entries: list = []
    groups: dict[str, list] = {}
    for page in pages:
        if page.lang != "en":
            continue
        if page.group is None:
            entries.append({page.title: page.path})
            continue
        if page.group not in groups:
            groups[page.group] = []
            entries.append({page.group: groups[page.group]})
        groups[page.group].append({page.title: page.path})
    return entries


def nav_translations(pages: list[Page], lang: str) -> dict[str, str]:
    """The navigation's titles in `lang` by their English (a game's name, "Rules"), from the
    pages written in that language."""
    english = {page.path: page for page in pages if page.lang == "en"}
    out = {}
    for page in pages:
        if page.lang != lang:
            continue
        original = english.get(page.path.replace(f".{lang}.md", ".md"))
        if original is not None:
            out[original.title] = page.title
            if original.group and page.group:
                out[original.group] = page.group
    return out


# --- snippets in the hand-written pages ----------------------------------------------------


def games_table(data: Path | None = None) -> str:
    """A table of the games with links to their pages, for the home page (in the language in
    use: its links lead to the pages in that language where there are some)."""
    rows = []
    words = [(_("rules"), "rules"), (_("gallery"), "gallery"), (_("tables"), "tables"), (_("variants"), "variants"), (_("notation"), "notation"), (_("verify"), "verify")]
    for spec in game_specs(data)[1]:
        names, players, game = spec.meta["names"], spec.meta["players"], spec.game
        rows.append(
            [
                f"[{names.get(current()) or names['en']}]({game}/{page_file('index')})",
                *(names.get(lang, "—") for lang in ("de", "hu")),
                f"{players['min']}–{players['max']}",
                " · ".join(f"[{word}]({game}/{page_file(stem)})" for word, stem in words),
            ]
        )
    return table([_("Game"), _(LANGS["de"]).capitalize(), _(LANGS["hu"]).capitalize(), _("Players"), _("Pages")], rows)


def notation_links(data: Path | None = None) -> str:
    """A list of the games' notation pages, for the general notation page, with the games'
    names in the language of the page (its links lead to the pages in that language)."""
    lines = []
    for spec in game_specs(data)[1]:
        names = spec.meta["names"]
        lines.append(f"- [{names.get(current(), names['en'])}]({spec.game}/notation.md)\n")
    return "".join(lines)


SNIPPETS = {"games": games_table, "notation": notation_links}
SNIPPET = re.compile(r"<!-- referee:([a-z-]+) -->")


def expand_snippets(markdown: str, data: Path | None = None, lang: str = "en") -> str:
    """Replace `<!-- referee:NAME -->` in a hand-written page by generated Markdown, in the
    page's language `lang`."""

    def expand(match: re.Match) -> str:
        if match.group(1) not in SNIPPETS:
            raise DocsError("docs", match.group(0), f"no generated snippet {match.group(1)!r}; known: {', '.join(SNIPPETS)}")
        with speaking(lang):
            return SNIPPETS[match.group(1)](data)

    return SNIPPET.sub(expand, markdown)


def language_of_page(path: str) -> str:
    """The language of a hand-written page by its file name: index.hu.md is Hungarian."""
    parts = path.rsplit("/", 1)[-1].split(".")
    return parts[-2] if len(parts) >= 3 and parts[-2] in PAGE_LANGS else "en"
