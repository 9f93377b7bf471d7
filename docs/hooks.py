"""mkdocs hooks: the generated pages of the rulebook site come from `referee.site` at every build."""

from __future__ import annotations

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from referee import site as docs
from referee.cli.arguments import build_parser
from referee.errors import SpecError
from referee.games import forget_loaded_data

_pages: list[docs.Page] = []
_files: list[tuple[str, str]] = []  # the replay pages, pictures and counter-example records, which are not Markdown


def on_config(config):
    """Called for every build, including each rebuild of `mkdocs serve` after a spec changes
    (mkdocs.yml watches specs/ and grammar/), so the data is read afresh each time."""
    global _pages, _files
    forget_loaded_data()
    try:
        _pages = docs.render_site(cli=build_parser)  # the command-line reference from the command's own parser
        _files = docs.site_files()
    except SpecError as exc:
        raise PluginError(f"the rulebook pages cannot be rendered: {exc}") from None
    config.nav = (config.nav or []) + docs.nav(_pages)
    return config


def on_files(files, config):
    for page in _pages:
        files.append(File.generated(config, page.path, content=page.text))
    for path, text in _files:
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown, page, config, files):
    try:
        return docs.expand_snippets(markdown, lang=docs.language_of_page(page.file.src_uri))
    except SpecError as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from None
