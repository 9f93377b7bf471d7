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
        assert 'href="verify.html#' in gallery and ".md#" not in gallery.split("<figure", 1)[-1]  # raw HTML: the verify page of the same language's site
        assert f"({page_file('notation', lang)}#example-" in replays
        for stem, anchor in (("gallery", r'id="([^"]+)"'), ("verify", r'<span id="([^"]+)">'), ("replays", r"\{#([a-z0-9-]+)\}")):
            english = set(re.findall(anchor, pages[f"{game}/{stem}.md"].text))
            assert english and set(re.findall(anchor, pages[f"{game}/{stem}.{lang}.md"].text)) == english, (game, stem)
    assert "English" not in pages[f"speicherstadt/gallery.{lang}.md"].text.split("\n")[2]


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_pictures_of_a_rules_page_and_their_worked_examples_speak_its_language(pages, lang):
    t = translations(lang).gettext
    for game in available_games():
        english, translated = pages[f"{game}/rules.md"].text, pages[f"{game}/rules.{lang}.md"].text
        captions = re.findall(r"^\*([^*\n]+)\*$", english, re.MULTILINE)  # a picture's caption stands under it
        shown = re.findall(r"^\*([^*\n]+)\*$", translated, re.MULTILINE)
        assert captions and len(shown) == len(captions), game
        assert not set(shown) & set(captions), game  # no caption is left in English
    worked = pages[f"hamburgum/rules.{lang}.md"].text
    assert load_spec("hamburgum").directory.joinpath("examples", "worked-examples.yaml").is_file()
    assert t("The moves of {file} as written").split("{")[0] in worked and "The moves of" not in worked
    assert "The worked example" not in worked and "- line " not in worked


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


def test_the_navigation_is_the_english_one_with_its_titles_in_each_language(pages):
    """One navigation, by the English pages: the site of each language puts its own page in
    each place (mkdocs-static-i18n) and titles it as `nav_translations` says."""
    entries = docs.nav(list(pages.values()))
    game = next(e for e in entries if "The Speicherstadt" in e)["The Speicherstadt"]
    assert [next(iter(item.values())) for item in game] == [f"speicherstadt/{stem}.md" for stem in ("index", "rules", "gallery", "tables", "variants", "verify", "notation", "replays")]
    assert all(page.lang == "en" for page in pages.values() if any(page.path in entry.values() for entry in game))
    for lang in ("hu", "de"):
        t = translations(lang).gettext
        titles = docs.nav_translations(list(pages.values()), lang)
        assert titles["The Speicherstadt"] == load_spec("speicherstadt").meta["names"][lang]
        assert titles["Rules"] == t("Rules") != "Rules" and titles["Command line"] == t("Command line")


def built(site: Path, lang: str, path: str) -> Path:
    """Where the site of `lang` has the page of the English site at `path`."""
    return site / path if lang == "en" else site / lang / path


def test_the_built_site_has_the_pages_in_each_language(site):
    for game in available_games():
        name = load_spec(game).meta["names"]
        for stem in STEMS:
            for lang in ("hu", "de"):
                page = built(site, lang, f"{game}/{stem}.html").read_text(encoding="utf-8")
                assert f'<html lang="{lang}"' in page, (game, stem, lang)
                # the theme's language switch leads to the same page in the others
                switch = dict(re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)" class="md-select__link"', page))
                assert {v: k for k, v in switch.items()} == {
                    "en": f"../../{game}/{stem}.html",
                    lang: f"{stem}.html",
                    ({"hu", "de"} - {lang}).pop(): f"../../{({'hu', 'de'} - {lang}).pop()}/{game}/{stem}.html",
                }
        overview = built(site, "hu", f"{game}/index.html").read_text(encoding="utf-8")
        assert html_text(name["hu"]) in overview
    for lang in ("hu", "de"):
        assert built(site, lang, "cli.html").is_file() and f'<html lang="{lang}"' in built(site, lang, "cli.html").read_text(encoding="utf-8")
    assert (site / "search" / "search_index.js").is_file()  # the offline plugin's index, read by a script tag
    for lang in ("hu", "de"):  # a home page in each language, whose games table leads to that language's pages
        home = built(site, lang, "index.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in home
        assert 'href="speicherstadt/index.html"' in home and 'href="speicherstadt/tables.html"' in home
        # the hand-written pages are titled in the navigation in the page's language
        titles = {"hu": ("Első lépések", "Saját változat"), "de": ("Erste Schritte", "Eine Variante machen")}[lang]
        assert all(re.search(rf">\s*{title}\s*<", home) for title in titles), lang
        assert not re.search(r">\s*Getting started\s*<", home)


def html_text(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def test_the_theme_speaks_the_language_of_each_page(site):
    """mkdocs-material's own words (search, table of contents) in the page's language, on pages
    translated and not."""
    words = {"en": ("Search", "Table of contents"), "hu": ("Keresés", "Tartalomjegyzék"), "de": ("Suche", "Inhaltsverzeichnis")}
    for lang, (search_word, contents) in words.items():
        for path in ("speicherstadt/rules.html", "speicherstadt/gallery.html", "index.html"):
            page = built(site, lang, path).read_text(encoding="utf-8")
            assert f'placeholder="{search_word}"' in page and f'aria-label="{contents}"' in page, (lang, path)
            assert f'placeholder="{words["en"][0]}"' not in page or lang == "en"


@pytest.fixture(scope="module")
def from_disk(site, tmp_path_factory):
    """Chromium with no network at all (even this machine's addresses go to a proxy that is not
    there), on the built site opened from disk."""
    driver = chromium(tmp_path_factory.mktemp("chromium-disk"), "--window-size=1280,1024", "--proxy-bypass-list=<-loopback>")
    yield driver
    driver.quit()


@pytest.mark.parametrize(
    "lang, query, page",
    [
        ("hu", "szonyeg", "hu/speicherstadt/tables.html"),  # szőnyeg, on the Hungarian tables page
        ("hu", "munkasok", "hu/speicherstadt/rules.html"),  # munkások, a word of the Hungarian rules
        ("de", "Spielablauf", "de/canterbury/index.html"),  # a heading of the German overviews
        ("hu", "Felépítés", "hu/architecture.html"),  # the heading of a hand-written page translated
    ],
)
def test_search_works_from_disk_without_a_network(from_disk, site, lang, query, page):
    """Search from a page finds the pages of its language's site, opened from disk."""
    from selenium.webdriver.common.by import By

    from_disk.get((site / lang / "speicherstadt" / "index.html").as_uri())
    assert from_disk.current_url.startswith("file://")
    # from disk, the index is read (by a script tag, not fetched) when the search box takes focus
    from_disk.find_element(By.CSS_SELECTOR, "input.md-search__input").click()
    found = [Path("/" + path).relative_to(site).as_posix() for path in search(from_disk, query)]
    assert page in found, f"{query!r}: {found}"
    assert all(path.startswith(f"{lang}/") for path in found), found  # only that language's site


def test_each_language_has_its_own_search_index(site):
    """The index of a language's site holds its pages (a page not translated: the English
    one), with locations within that site."""
    import json

    english = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert english and not [d for d in english if d["location"].startswith(("hu/", "de/"))]
    for lang in ("hu", "de"):
        docs_of = json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
        assert (site / lang / "search" / "search_index.js").read_text(encoding="utf-8").startswith("var __index = ")
        pages = {d["location"].split("#")[0] for d in docs_of}
        assert pages >= {d["location"].split("#")[0] for d in english}  # every page is found in every language
        assert all((site / lang / page).is_file() for page in pages if page)
        rules = " ".join(d["text"] for d in docs_of if d["location"].startswith("speicherstadt/rules.html"))
        assert load_spec("speicherstadt").rules["speicherstadt/purchase-funds"].words(lang)[0] in " ".join(d["title"] for d in docs_of)
        assert rules and "A buyer pays as many coins" not in rules  # the English page is the English site's


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_diagnostic_in_a_language_links_to_its_rule_on_that_languages_page(pages, lang):
    from referee.report.diagnostics import rule_link

    for game in available_games():
        spec = load_spec(game)
        page = pages[f"{game}/{page_file('rules', lang)}"].text
        for rule in spec.rules.values():
            link = rule_link(rule.id, lang)
            assert link.endswith(f"/{lang}/{game}/rules.html#{rule.anchor}")
            assert f"{{#{rule.anchor}}}" in page, (game, lang, rule.id)
