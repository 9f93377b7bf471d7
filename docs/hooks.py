"""mkdocs hooks: the generated pages of the rulebook site come from `referee.site` at every build.

The site is built once per language by mkdocs-static-i18n (English at the top, Hungarian
under hu/, German under de/). The pages are rendered once, in the first of those builds; each
build then adds the pages of its language (a page not written in it: the English one) and the
replay pages and pictures drawn in it, after the plugin has sorted the hand-written files.

Search looks in the pages of the page's own language: the index of every language that the
plugin writes is split into one per language's site (hu/search/search_index.json, and the
offline plugin's search_index.js beside it), and a page of hu/ reads the one of hu/.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from types import SimpleNamespace

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from referee import site as docs
from referee.cli.arguments import build_parser
from referee.errors import SpecError
from referee.games import forget_loaded_data
from referee.site.markdown import PAGE_LANGS

_pages: list[docs.Page] = []
_files: dict[str, list[tuple[str, str]]] = {}  # by language: the replay pages, pictures and counter-example records
_hand_nav: dict[int, list] = {}  # the hand-written navigation of each configuration, before the generated entries


def _languages(config) -> tuple[str, list[str]]:
    """The language of this build and every language built (only English without the plugin)."""
    plugin = config.plugins.get("i18n")
    if plugin is None:
        return "en", ["en"]
    return plugin.current_language or plugin.default_language, plugin.build_languages


def on_config(config):
    """Called for every build, including each rebuild of `mkdocs serve` after a spec changes
    (mkdocs.yml watches specs/ and grammar/), so the data is read afresh each time; the builds
    of the other languages that follow the first use what it rendered."""
    global _pages, _files
    plugin = config.plugins.get("i18n")
    if plugin is None or not plugin.building:
        forget_loaded_data()
        try:
            _pages = docs.render_site(cli=build_parser)  # the command-line reference from the command's own parser
            _files = {lang: docs.site_files(lang=lang) for lang in PAGE_LANGS}
        except SpecError as exc:
            raise PluginError(f"the rulebook pages cannot be rendered: {exc}") from None
        for language in plugin.config.languages if plugin else []:
            if language.locale in PAGE_LANGS and language.locale != plugin.default_language:
                language["nav_translations"] = {**docs.nav_translations(_pages, language.locale), **(language.nav_translations or {})}
    hand = _hand_nav.setdefault(id(config), list(config.nav or []))
    config.nav = hand + docs.nav(_pages)
    return config


def _url(path: str, lang: str) -> str:
    """Where a page or file of the English site is in the site of `lang`."""
    html = path[: -len(".md")] + ".html" if path.endswith(".md") else path
    return html if lang == "en" else f"{lang}/{html}"


@event_priority(-200)  # after mkdocs-static-i18n has chosen the hand-written files of this language
def on_files(files, config):
    lang, built = _languages(config)
    translated = {page.path: page for page in _pages if page.lang == lang}
    for page in _pages:
        if page.lang != "en":
            continue
        own = translated.get(page.path.replace(".md", f".{lang}.md")) if lang != "en" else page
        shown = own or page
        file = File.generated(config, shown.path, content=shown.text)
        file.name = page.path.rsplit("/", 1)[-1].removesuffix(".md")  # index.hu.md is an index page too
        file.dest_uri = _url(page.path, lang)
        file.locale, file.localization, file.locale_alternate_of = shown.lang, (lang if own is not None and lang != "en" else None), lang
        file.alternates = {other: file if other == lang else SimpleNamespace(url=_url(page.path, other), page=None) for other in built}  # the language switch, the sitemap
        files.append(file)
    for path, text in _files.get(lang, []):
        file = File.generated(config, path, content=text)
        file.dest_uri = _url(path, lang)
        files.append(file)
    plugin = config.plugins.get("i18n")
    if plugin is not None:
        plugin.i18n_files_per_language[lang] = files.documentation_pages()
    return files


CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


def on_post_page(output, page, config):
    """A page of another language's site searches that site's index: the theme reads it from
    the `base` of the page's configuration, which is made that site's root."""
    lang, _built = _languages(config)
    if lang == "en":
        return output

    def rebased(match: re.Match) -> str:
        settings = json.loads(match.group(2))
        settings["base"] = posixpath.join(settings["base"], lang) + "/"  # a folder: the theme resolves search/... against it
        return match.group(1) + json.dumps(settings) + match.group(3)

    return CONFIG.sub(rebased, output, count=1)


@event_priority(-150)  # after i18n has written the index of every language and offline has inlined it
def on_post_build(config):
    plugin = config.plugins.get("i18n")
    if plugin is None or plugin.building:
        return
    folder = Path(config.site_dir) / "search"
    if not (folder / "search_index.json").is_file():
        return
    index = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))
    others = [lang for lang in plugin.build_languages if lang != plugin.default_language]
    english = [doc for doc in index["docs"] if not doc["location"].startswith(tuple(f"{lang}/" for lang in others))]
    for lang in [plugin.default_language, *others]:
        if lang == plugin.default_language:
            docs_of, target = english, folder
        else:
            own = [dict(doc, location=doc["location"][len(lang) + 1 :]) for doc in index["docs"] if doc["location"].startswith(f"{lang}/")]
            pages = {doc["location"].split("#")[0] for doc in own}
            # a page not written in the language is the English one in its site, and is found there too
            docs_of = own + [doc for doc in english if doc["location"].split("#")[0] not in pages]
            target = Path(config.site_dir) / lang / "search"
        target.mkdir(parents=True, exist_ok=True)
        text = json.dumps(dict(index, docs=docs_of), ensure_ascii=False, separators=(",", ":"))
        (target / "search_index.json").write_text(text, encoding="utf-8")
        (target / "search_index.js").write_text(f"var __index = {text}", encoding="utf-8")


# A link to a page in a language named by its suffix: [Deutsch](notation.de.md#anchor)
OTHER_LANGUAGE = re.compile(r"\[([^\]\n]+)\]\(((?:[^()\s#]*/)?[^()\s#/]+)\.(" + "|".join(PAGE_LANGS[1:]) + r")\.md(#[^()\s]*)?\)")


def other_languages(markdown: str, page, lang: str) -> str:
    """Links to a page of another language's site: that site's page is no file of this build,
    so such a link is made an address relative to this page (a link to the page of this
    language, or to `notation.md`, is left for mkdocs, which finds this language's page)."""

    def address(match: re.Match) -> str:
        text, stem, other, anchor = match.groups()
        if other == lang:
            return match.group(0)
        english = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), stem + ".md"))
        href = posixpath.relpath(_url(english, other), posixpath.dirname(page.file.url) or ".")
        return f'<a href="{href}{anchor or ""}" hreflang="{other}">{text}</a>'

    return OTHER_LANGUAGE.sub(address, markdown)


def on_page_markdown(markdown, page, config, files):
    lang, _built = _languages(config)
    try:
        markdown = docs.expand_snippets(markdown, lang=docs.language_of_page(page.file.src_uri))
    except SpecError as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from None
    return other_languages(markdown, page, lang)
