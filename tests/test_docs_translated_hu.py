"""Every hand-written page of the site has its Hungarian page, with the same code blocks: the
commands, records, files and outputs of a translation are the English page's, and only the prose,
the headings, the tables and the comments are in Hungarian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p.name[: -len(".md")] for p in DOCS.glob("*.md") if p.name.count(".") == 1)
FENCE = re.compile(r"^( *)```([^\n`]*)\n(.*?)^\1```$", re.MULTILINE | re.DOTALL)
MARKER = re.compile(r"<!-- [^>]*? -->")
COMMENT = re.compile(r"(^|\s)#(\s.*)?$")  # a `#` at the start of a line or after a space, to the end
LINK = re.compile(r"\]\(([^)\s#]+)(?:#([^)\s]*))?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
# The home page's sections and links are its own; the site build checks them.
TRANSLATED = [page for page in PAGES if page != "index"]


def hungarian(page: str) -> Path:
    return DOCS / f"{page}.hu.md"


def code(body: str, lang: str) -> list[str]:
    """A block's lines as a program reads them: comments dropped, and of a file tree (a `text`
    block that starts with a folder) only the file names, whose descriptions are prose (a
    description's second line starts with a word, not a file name)."""
    lines = [line.rstrip() for line in body.rstrip("\n").split("\n")]
    if lang == "text" and lines and lines[0].endswith("/"):
        names = [line.split()[0] for line in lines if line.strip()]
        return [name for name in names if "." in name or name.endswith("/")]
    if lang in ("sh", "console", "yaml", "python"):
        return [COMMENT.sub("", line).rstrip() for line in lines]
    return lines


def blocks(text: str) -> list[tuple[str, list[str]]]:
    return [(m.group(2).strip(), code(m.group(3), m.group(2).strip())) for m in FENCE.finditer(text)]


def test_the_hand_written_pages_are_found():
    assert {"index", "getting-started", "notation", "variants", "lab", "architecture", "api"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_each_page_has_its_hungarian_page_with_the_same_code(page):
    english = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    assert hungarian(page).is_file(), f"docs/{page}.hu.md is missing"
    translated = hungarian(page).read_text(encoding="utf-8")
    assert blocks(translated) == blocks(english), page
    assert MARKER.findall(translated) == MARKER.findall(english), page  # snippets, and the markers tests read
    assert IMAGE.findall(translated) == IMAGE.findall(english), page


@pytest.mark.parametrize("page", PAGES)
def test_each_hungarian_page_leaves_the_switch_to_the_theme(page):
    """The site's language switch leads to the same page in English and German; a link to
    `page.md` on the Hungarian page would lead back to the Hungarian page itself."""
    lines = hungarian(page).read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# ") and lines[1] == "", page
    assert f"]({page}.md)" not in hungarian(page).read_text(encoding="utf-8"), page


def headings(text: str) -> list[str]:
    """The headings below the title, outside code blocks."""
    return re.findall(r"^##+ (.*?)\s*$", FENCE.sub("", text), re.MULTILINE)


@pytest.mark.parametrize("page", TRANSLATED)
def test_each_hungarian_heading_keeps_the_english_anchor(page):
    """A link into a section (`notation.hu.md#rulings`) works in either language."""
    english = headings((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    translated = headings(hungarian(page).read_text(encoding="utf-8"))
    ids = [re.fullmatch(r"(.*?) *\{#([^}]+)\}", h) for h in translated]
    assert all(ids), [h for h, found in zip(translated, ids) if not found]
    assert [found.group(2) for found in ids] == [slugify(h, "-") for h in english], page
    untranslated = {found.group(1) for found in ids} & set(english)
    assert not untranslated, untranslated


@pytest.mark.parametrize("page", TRANSLATED)
def test_each_hungarian_page_links_to_the_hungarian_pages(page):
    text = FENCE.sub("", hungarian(page).read_text(encoding="utf-8").split("\n", 3)[3])  # after the switch
    for target, anchor in LINK.findall(text):
        if "://" in target or target.startswith("images/"):
            continue
        # every page of the site has a Hungarian version: the hand-written ones, the game pages
        # and the command line's
        assert target.endswith(".hu.md"), f"{page}.hu.md links to {target}, not to its Hungarian page"
        path = DOCS / target
        if path.is_file() and anchor:  # the game pages' anchors are checked by the site build
            ids = re.findall(r"\{#([^}]+)\}", path.read_text(encoding="utf-8"))
            assert anchor in ids, f"{page}.hu.md: no #{anchor} in {target}"
