"""The rulebook site's pages, rendered from the specs.

Every game gets seven pages, one module each: an overview (`overview`), its rules
(`rules`: each rule's anchor is the part of its id after the game, which is where a
diagnostic's `see:` link points), its components and tables (`tables`), its variants
with values before and after each overlay (`variants`), the values to verify against
a physical box (`verify`), and its notation with the complete example records
(`notation`), and its example records as replays to step through (`replays`, which also
draws the pictures the rules page shows; the replay pages and pictures themselves are files
of their own, `site_files`). The command-line reference (`commandline`) is rendered from the
argument parser. Nothing here is copied by hand from a rulebook: when a spec
changes, the next build shows the change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..spec import Spec, available_games, data_root, load_spec
from . import commandline, notation, overview, replays, rules, tables, variants, verify
from .markdown import LANGS, DocsError, table
from .tables import GamePages

__all__ = ["Page", "DocsError", "GamePages", "render_site", "site_files", "game_pages", "write_docs", "nav", "expand_snippets"]


@dataclass
class Page:
    path: str  # relative to the site's docs directory, e.g. "speicherstadt/rules.md"
    title: str  # its title in the navigation
    group: str | None  # the navigation section it belongs to (a game's name)
    text: str


def game_specs(data: Path | None = None) -> tuple[Path, list[Spec]]:
    """The data root and the spec of every game in it (a spec that does not load raises)."""
    data = Path(data) if data else data_root()
    return data, [load_spec(game, root=data / "specs") for game in available_games(data / "specs")]


def render_site(data: Path | None = None) -> list[Page]:
    """Every generated page: the command-line reference, then six pages per game."""
    data, specs = game_specs(data)
    pages = [Page("cli.md", "Command line", None, commandline.render())]
    for spec in specs:
        pages += game_pages(spec, data)
    return pages


def game_pages(spec: Spec, data: Path) -> list[Page]:
    """The six pages of one game."""
    doc = GamePages(spec, data)
    table_page = tables.render(doc)  # first: it records the anchors the other pages link to
    game, title = doc.game, doc.title
    return [
        Page(f"{game}/index.md", "Overview", title, overview.render(doc)),
        Page(f"{game}/rules.md", "Rules", title, rules.render(doc)),
        Page(f"{game}/tables.md", "Components and tables", title, table_page),
        Page(f"{game}/variants.md", "Variants", title, variants.render(doc)),
        Page(f"{game}/verify.md", "Verify with your box", title, verify.render(doc)),
        Page(f"{game}/notation.md", "Notation", title, notation.render(doc)),
        Page(f"{game}/replays.md", "Replays", title, replays.render(doc)),
    ]


def site_files(data: Path | None = None) -> list[tuple[str, str]]:
    """The site's files that are not Markdown pages: each game's replay pages and the pictures
    its rules page shows, as (path, text)."""
    data, specs = game_specs(data)
    return [item for spec in specs for item in replays.files(GamePages(spec, data))]


def write_docs(out: Path, data: Path | None = None) -> list[Path]:
    """Write the generated pages as Markdown under `out`, with the replay pages and pictures;
    returns the paths written."""
    written = []
    for relative, text in [(page.path, page.text) for page in render_site(data)] + site_files(data):
        path = Path(out) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def nav(pages: list[Page]) -> list:
    """mkdocs navigation entries for the generated pages, a section per game."""
    entries: list = []
    groups: dict[str, list] = {}
    for page in pages:
        if page.group is None:
            entries.append({page.title: page.path})
        else:
            if page.group not in groups:
                groups[page.group] = []
                entries.append({page.group: groups[page.group]})
            groups[page.group].append({page.title: page.path})
    return entries


# --- snippets in the hand-written pages ----------------------------------------------------


def games_table(data: Path | None = None) -> str:
    """A table of the games with links to their pages, for the home page."""
    rows = []
    for spec in game_specs(data)[1]:
        names, players, game = spec.meta["names"], spec.meta["players"], spec.game
        rows.append([
            f"[{names['en']}]({game}/index.md)",
            *(names.get(lang, "—") for lang in ("de", "hu")),
            f"{players['min']}–{players['max']}",
            f"[rules]({game}/rules.md) · [tables]({game}/tables.md) · [variants]({game}/variants.md) · [notation]({game}/notation.md) · [verify]({game}/verify.md)",
        ])
    return table(["Game", LANGS["de"], LANGS["hu"], "Players", "Pages"], rows)


def notation_links(data: Path | None = None) -> str:
    """A list of the games' notation pages, for the general notation page."""
    return "".join(f"- [{spec.meta['names']['en']}]({spec.game}/notation.md)\n" for spec in game_specs(data)[1])


SNIPPETS = {"games": games_table, "notation": notation_links}
SNIPPET = re.compile(r"<!-- referee:([a-z-]+) -->")


def expand_snippets(markdown: str, data: Path | None = None) -> str:
    """Replace `<!-- referee:NAME -->` in a hand-written page by generated Markdown."""

    def expand(match: re.Match) -> str:
        if match.group(1) not in SNIPPETS:
            raise DocsError("docs", match.group(0), f"no generated snippet {match.group(1)!r}; known: {', '.join(SNIPPETS)}")
        return SNIPPETS[match.group(1)](data)

    return SNIPPET.sub(expand, markdown)
