"""The hand-written pages in German: each English page has its German page, with the same code
blocks (only the comments in them translated), the same anchors, no language line of its own (the theme switches) and
links that stay within the German pages where there is one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ("getting-started", "notation", "variants", "lab", "architecture", "api")
FENCE = re.compile(r"^( *)```(\w*)$")
COMMENTED = {"sh", "console", "python", "yaml"}  # languages whose `#` comments are translated
MARKER = re.compile(r"^<!-- (?:file|excerpt|exit): \S+ -->$")  # what tests/test_variants_page.py reads above a block


def blocks(text: str) -> list[tuple[str, list[str]]]:
    """(language, lines) of each fenced block, the lines without the block's indentation."""
    found, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        start = FENCE.match(lines[i])
        if start:
            indent = len(start.group(1))
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            found.append((start.group(2), [line[indent:] for line in lines[i + 1 : end]]))
            i = end
        i += 1
    return found


def code(lang: str, lines: list[str]) -> list[str]:
    """What a translation must keep of a block: everything but its comments. A listing of files
    (its first line a folder) keeps its file names; their descriptions are translated."""
    if lang in COMMENTED:
        return [re.sub(r"(^|\s+)#.*$", "", line).rstrip() for line in lines]
    if lines and lines[0].endswith("/") and " " not in lines[0]:
        return [line.split()[0] for line in lines if re.match(r"\s*\S*[./]\S*(\s|$)", line)]
    return lines


def german(page: str) -> str:
    path = DOCS / f"{page}.de.md"
    assert path.is_file(), f"docs/{page}.md has no German page docs/{page}.de.md"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES)
def test_the_german_page_keeps_every_code_block(page):
    english = blocks((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    translated = blocks(german(page))
    assert [lang for lang, _ in translated] == [lang for lang, _ in english], page
    for number, ((lang, en), (_, de)) in enumerate(zip(english, translated, strict=True), 1):
        assert code(lang, de) == code(lang, en), f"docs/{page}.de.md, code block {number} ({lang}) differs from the English one"


def comments(text: str) -> list[str]:
    return [m.group(1) for lang, lines in blocks(text) if lang in COMMENTED for line in lines for m in [re.search(r"(?:^|\s)(#.*)$", line)] if m]


@pytest.mark.parametrize("page", PAGES)
def test_the_comments_of_the_code_blocks_are_translated(page):
    english = comments((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    translated = comments(german(page))
    assert len(translated) == len(english) and not set(translated) & set(english), f"docs/{page}.de.md: {sorted(set(translated) & set(english))}"


@pytest.mark.parametrize("page", PAGES)
def test_the_markers_above_the_blocks_stay(page):
    def markers(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if MARKER.match(line.strip())]

    assert markers(german(page)) == markers((DOCS / f"{page}.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES)
def test_the_german_page_keeps_the_english_anchors(page):
    text = german(page)
    lines = text.splitlines()
    assert lines[0].startswith("# ") and lines[1] == ""
    assert f"]({page}.md)" not in text  # it would lead to this page itself: the theme's switch leads to the others
    english = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    slugs = {slug(line) for line in english.splitlines() if line.startswith("## ") or line.startswith("### ")}
    anchors = set(re.findall(r"\{#([a-z0-9-]+)\}", text))
    assert slugs <= anchors, f"docs/{page}.de.md lacks the English anchors {sorted(slugs - anchors)}"


def slug(heading: str) -> str:
    """The anchor mkdocs gives an English heading (the toc extension's default)."""
    text = heading.lstrip("#").strip()
    text = re.sub(r"[^\w\s-]", "", text.lower())
    return re.sub(r"[-\s]+", "-", text).strip("-")


@pytest.mark.parametrize("page", PAGES)
def test_links_lead_to_the_german_pages_where_there_is_one(page):
    text = german(page)
    for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", text):
        if target.endswith(".de.md"):
            continue  # a German page
        translated = target.removesuffix(".md") + ".de.md"
        generated = target == "cli.md" or target.split("/")[0] in GAMES  # pages made in every language
        assert not generated and not (DOCS / translated).is_file(), f"docs/{page}.de.md links to {target}, not to {translated}"


GAMES = ("speicherstadt", "canterbury", "hamburgum")
