"""The rulebook site in Hungarian and German: every generated page in each language, with the
same anchors and a switch between them, and search that works when the built site is opened
from disk with no network at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import site as docs
from referee.cli.arguments import build_parser
from referee.i18n import speaking
from referee.i18n.catalogue import translations
from referee.site.markdown import PAGE_LANGS, page_file
from referee.spec.loader import available_games, load_spec
from tests.browser import chromium
from tests.test_site import search

STEMS = ("index", "rules", "tables", "variants", "notation", "gallery", "verify", "replays")  # a game's pages in every language


@pytest.fixture(scope="module")
def pages():
    """The generated pages, rendered while the locale asks for Hungarian: each page is in its
    own language all the same."""
    with speaking("hu"):
        return {page.path: page for page in docs.render_site(cli=build_parser)}


def test_every_game_page_and_the_command_line_exist_in_every_language(pages):
    assert {f"cli.{lang}.md" for lang in ("hu", "de")} | {"cli.md"} <= set(pages)
    for game in available_games():
        for stem in STEMS:
            for lang in PAGE_LANGS:
                page = pages[f"{game}/{page_file(stem, lang)}"]
                assert page.lang == lang
                links = [f"[{name}]({page_file(stem, code)})" for code, name in (("en", "English"), ("hu", "Magyar"), ("de", "Deutsch")) if code != lang]
                assert all(link in page.text for link in links), (page.path, links)


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_translated_page_speaks_its_language_and_links_within_it(pages, lang):
    t = translations(lang).gettext
    for game in available_games():
        name = load_spec(game).meta["names"][lang]
        tables = pages[f"{game}/tables.{lang}.md"].text
        assert tables.startswith("# " + t("{game}: components and tables").format(game=name) + "\n")
        overview = pages[f"{game}/index.{lang}.md"].text
        assert "## " + t("Turn structure") + " {#turn-structure}" in overview and "## Turn structure" not in overview
        # links lead to the pages of the same language, under the same anchors as in English
        assert f"(rules.{lang}.md#section-" in overview and "(rules.md#" not in overview
        english = pages[f"{game}/index.md"].text
        assert set(re.findall(r"\{#([a-z0-9-]+)\}", overview)) == set(re.findall(r"\{#([a-z0-9-]+)\}", english))
        assert set(re.findall(r'<span id="([^"]+)">', tables)) == set(re.findall(r'<span id="([^"]+)">', pages[f"{game}/tables.md"].text))
    cli = pages[f"cli.{lang}.md"].text
    assert "# " + t("Command line") in cli and t("the port to listen on (default: 8765)")[1:20] in cli


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_gallery_verify_and_replays_pages_speak_their_language_with_the_same_anchors(pages, lang):
    t = translations(lang).gettext
    for game in available_games():
        name = load_spec(game).meta["names"][lang]
        gallery, verify, replays = (pages[f"{game}/{stem}.{lang}.md"].text for stem in ("gallery", "verify", "replays"))
        assert gallery.startswith("# " + t("{game}: the components").format(game=name) + "\n")
        assert verify.startswith("# " + t("Verify with your box: {game}").format(game=name) + "\n")
        assert replays.startswith("# " + t("Replays of {game}").format(game=name) + "\n")
        assert "## " + t("Your box's numbers, step by step") + " {#your-box}" in verify and "step by step" not in verify
        assert f"({page_file('rules', lang)}#" in verify and "(rules.md#" not in verify
        assert f'href="verify.{lang}.html#' in gallery and 'href="verify.html#' not in gallery
        assert f"({page_file('notation', lang)}#example-" in replays
        for stem, anchor in (("gallery", r'id="([^"]+)"'), ("verify", r'<span id="([^"]+)">'), ("replays", r"\{#([a-z0-9-]+)\}")):
            english = set(re.findall(anchor, pages[f"{game}/{stem}.md"].text))
            assert english and set(re.findall(anchor, pages[f"{game}/{stem}.{lang}.md"].text)) == english, (game, stem)
    assert "English" not in pages[f"speicherstadt/gallery.{lang}.md"].text.split("\n")[2].replace("[English]", "")


def test_the_english_pages_stay_english_under_another_locale(pages):
    assert "## Turn structure {#turn-structure}" in pages["speicherstadt/index.md"].text
    assert "| Command | Does |" in pages["cli.md"].text
    assert "## Your box's numbers, step by step {#your-box}" in pages["canterbury/verify.md"].text
    assert pages["canterbury/gallery.md"].text.startswith("# Canterbury: the components\n")


def test_the_summary_comes_from_the_rule_texts_of_the_language(pages):
    for game in available_games():
        spec = load_spec(game)
        for lang in ("hu", "de"):
            summary = spec.files[f"rules.{lang}"]["summary"]
            assert summary != spec.meta["summary"] and summary in pages[f"{game}/index.{lang}.md"].text


def test_the_navigation_has_a_section_per_language_in_each_game(pages):
    entries = docs.nav(list(pages.values()))
    game = next(e for e in entries if "The Speicherstadt" in e)["The Speicherstadt"]
    sections = {name: items for entry in game for name, items in entry.items() if isinstance(items, list)}
    assert set(sections) == {"Magyar", "Deutsch"}
    assert [next(iter(item.values())) for item in sections["Magyar"]] == [f"speicherstadt/{page_file(stem, 'hu')}" for stem in STEMS]


def test_the_built_site_has_the_pages_in_each_language(site):
    for game in available_games():
        for stem in STEMS:
            for lang in ("hu", "de"):
                assert (site / game / f"{stem}.{lang}.html").is_file(), (game, stem, lang)
    assert (site / "cli.hu.html").is_file() and (site / "cli.de.html").is_file()
    assert (site / "search" / "search_index.js").is_file()  # the offline plugin's index, read by a script tag
    for lang in ("hu", "de"):  # a home page in each language, whose games table leads to that language's pages
        home = (site / f"index.{lang}.html").read_text(encoding="utf-8")
        assert f'href="speicherstadt/index.{lang}.html"' in home and f'href="speicherstadt/tables.{lang}.html"' in home


@pytest.fixture(scope="module")
def from_disk(site, tmp_path_factory):
    """Chromium with no network at all (even this machine's addresses go to a proxy that is not
    there), on the built site opened from disk."""
    driver = chromium(tmp_path_factory.mktemp("chromium-disk"), "--window-size=1280,1024", "--proxy-bypass-list=<-loopback>")
    driver.get((site / "speicherstadt" / "index.hu.html").as_uri())
    yield driver
    driver.quit()


@pytest.mark.parametrize(
    "query, page",
    [
        ("szonyeg", "speicherstadt/tables.hu.html"),  # szőnyeg, on the Hungarian tables page
        ("munkasok", "speicherstadt/rules.hu.html"),  # munkások, a word of the Hungarian rules
        ("Spielablauf", "canterbury/index.de.html"),  # a heading of the German overviews
    ],
)
def test_search_works_from_disk_without_a_network(from_disk, site, query, page):
    from selenium.webdriver.common.by import By

    assert from_disk.current_url.startswith("file://")
    # from disk, the index is read (by a script tag, not fetched) when the search box takes focus
    from_disk.find_element(By.CSS_SELECTOR, "input.md-search__input").click()
    found = [Path("/" + path).relative_to(site).as_posix() for path in search(from_disk, query)]
    assert page in found, f"{query!r}: {found}"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_diagnostic_in_a_language_links_to_its_rule_on_that_languages_page(pages, lang):
    from referee.report.diagnostics import rule_link

    for game in available_games():
        spec = load_spec(game)
        page = pages[f"{game}/{page_file('rules', lang)}"].text
        for rule in spec.rules.values():
            link = rule_link(rule.id, lang)
            assert link.rsplit("/", 1)[1] == f"rules.{lang}.html#{rule.anchor}"
            assert f"{{#{rule.anchor}}}" in page, (game, lang, rule.id)
