"""The rulebook site as users get it: `mkdocs build --strict`, the `see:` links, search in a browser."""

import re
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest

from referee.engine.replay import check_bytes
from referee.report.diagnostics import format_report, rule_link
from referee.spec.loader import available_games, data_root, load_spec
from tests.browser import chromium, serve_folder
from tests.built_site import mkdocs_build

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"

# One query per game and language; the page that must be among the results.
QUERIES = [
    ("speicherstadt", "en", "fireman", "speicherstadt/tables.html"),
    ("speicherstadt", "de", "Feuerwehrmann", "speicherstadt/tables.html"),
    ("speicherstadt", "hu", "tűzoltó", "speicherstadt/tables.html"),
    ("canterbury", "en", "chapel", "canterbury/tables.html"),
    ("canterbury", "de", "Bezirk", "canterbury/tables.html"),
    ("canterbury", "hu", "kápolna", "canterbury/tables.html"),
    ("hamburgum", "en", "harbour master", "hamburgum/tables.html"),
    ("hamburgum", "de", "Hafenmeister", "hamburgum/tables.html"),
    ("hamburgum", "hu", "kikötőmester", "hamburgum/tables.html"),
]
NOT_YET_IN_SPEC: set = set()  # (game, language) pairs whose names no source gives yet


def test_the_site_builds_strictly_with_every_page(site):
    for page in ("index", "getting-started", "notation", "cli"):
        assert (site / f"{page}.html").is_file()
    for game in available_games():
        for page in ("index", "rules", "tables", "variants", "verify", "notation", "replays"):
            assert (site / game / f"{page}.html").is_file(), f"{game}/{page}"


def test_the_rules_pages_in_hungarian_and_german_have_every_rule_under_its_anchor(site):
    """Each game's rules page is also built in Hungarian and German, with every rule's heading
    in that language under the same anchor as on the English page (each language's site has its
    own, hu/<game>/rules.html), a link from each rule to the English one, and a switch between them."""
    import html as html_module

    for game in available_games():
        spec = load_spec(game)
        english = (site / game / "rules.html").read_text(encoding="utf-8")
        assert f'href="../hu/{game}/rules.html" hreflang="hu"' in english and f'href="../de/{game}/rules.html" hreflang="de"' in english
        for lang in ("hu", "de"):
            page = (site / lang / game / "rules.html").read_text(encoding="utf-8")
            assert f'href="../../{game}/rules.html" hreflang="en"' in page
            for rule in spec.rules.values():
                title, _ = rule.words(lang)
                heading = re.search(rf'<h3 id="{re.escape(rule.anchor)}">(.*?)<a class="headerlink"', page, re.S)
                assert heading, f"{game} {lang}: no heading #{rule.anchor}"
                assert html_module.unescape(re.sub(r"<[^>]+>", "", heading.group(1))).strip() == title, (game, lang, rule.id)
                assert f'href="../../{game}/rules.html#{rule.anchor}"' in page
                assert f'id="{rule.anchor}"' in english


def test_the_search_index_holds_the_translated_rules(site):
    """The search of the Hungarian and German sites indexes their rules pages; its accent
    folding lets a Hungarian word typed without accents find the Hungarian page (see
    test_search_forgives_accents)."""
    import json

    def index(lang: str) -> list[dict]:
        return json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]

    assert "speicherstadt/rules.html#purchase-funds" in {doc["location"] for doc in index("hu")}
    assert "canterbury/rules.html#tax-build" in {doc["location"] for doc in index("de")}
    texts = " ".join(doc["text"] + doc["title"] for doc in index("hu") if doc["location"].startswith("speicherstadt/rules.html"))
    assert "Az ár a sorban álló munkások száma" in texts


def test_every_example_record_has_a_replay_page_on_the_site(site):
    import xml.etree.ElementTree as ET

    for game in available_games():
        listing = (site / game / "replays.html").read_text(encoding="utf-8")
        for record in sorted((ROOT / "specs" / game / "examples").glob("*.log")):
            page = site / game / "replays" / f"{record.stem}.html"
            assert page.is_file(), page
            assert f'href="replays/{record.stem}.html"' in listing
            assert 'id="replay-data"' in page.read_text(encoding="utf-8")
            for lang in ("hu", "de"):  # each language's site has the replay pages in its language
                listing_in = (site / lang / game / "replays.html").read_text(encoding="utf-8")
                assert f'href="replays/{record.stem}.html"' in listing_in
                assert f'<html lang="{lang}">' in (site / lang / game / "replays" / f"{record.stem}.html").read_text(encoding="utf-8")
    pictures = {"canterbury": "district-names", "hamburgum": "rondel-steps", "speicherstadt": "purchase-turn"}
    for game, anchor in pictures.items():
        rules = (site / game / "rules.html").read_text(encoding="utf-8")
        assert f'src="pictures/{anchor}.svg"' in rules
        section = rules[rules.index(f'id="{anchor}"') :]
        assert section.index(f'src="pictures/{anchor}.svg"') < section.index("<h3")  # under its own rule
        root = ET.parse(site / game / "pictures" / f"{anchor}.svg").getroot()
        assert root.get("viewBox") and root.get("width") == "100%"


def test_every_see_link_leads_to_its_rule(site, monkeypatch):
    assert rule_link("speicherstadt/purchase-funds") == (data_root() / "site").as_uri() + "/speicherstadt/rules.html#purchase-funds"
    monkeypatch.setenv("REFEREE_DOCS_URL", site.as_uri() + "/")
    for game in available_games():
        html = (site / game / "rules.html").read_text(encoding="utf-8")
        for rule in load_spec(game).rules:
            link = urlparse(rule_link(rule))
            assert Path(link.path) == site / game / "rules.html"
            assert f'id="{link.fragment}"' in html, rule


def test_a_diagnostic_in_a_report_opens_the_rule(site, monkeypatch):
    monkeypatch.setenv("REFEREE_DOCS_URL", site.as_uri())
    report = check_bytes(b'[Game "speicherstadt"]\n[Players "beige, orange"]\n\nreveal warehouse\nreveal fireman 9\n', "bad.log")
    link = urlparse(re.search(r"^see: (\S+)$", format_report(report), re.M).group(1))
    page = Path(link.path).read_text(encoding="utf-8")
    assert link.fragment == "card-face" and 'id="card-face"' in page


def test_a_rule_without_text_fails_the_build(tmp_path):
    for part in ("common", "schema", "speicherstadt"):
        shutil.copytree(ROOT / "specs" / part, tmp_path / "data" / "specs" / part)
    shutil.copytree(ROOT / "grammar", tmp_path / "data" / "grammar")
    rules = tmp_path / "data" / "specs" / "speicherstadt" / "rules.yaml"
    rules.write_text(re.sub(r"text: A warehouse never holds more than \{cards:types\.warehouse\.capacity\} cubes at any moment\.", "text: ' '", rules.read_text(encoding="utf-8")), encoding="utf-8")
    result = mkdocs_build(tmp_path / "site", data=tmp_path / "data")
    assert result.returncode != 0
    assert "speicherstadt/warehouse-capacity: a rule needs a title and text" in result.stdout + result.stderr


# --- search in a real browser ---------------------------------------------------------


@pytest.fixture(scope="module")
def browser(site, tmp_path_factory):
    server = serve_folder(site)
    driver = chromium(tmp_path_factory.mktemp("chromium"), "--window-size=1280,1024")
    driver.get(f"http://127.0.0.1:{server.server_port}/index.html")
    yield driver
    driver.quit()
    server.shutdown()


def search(driver, query: str) -> list[str]:
    """Type a query into the site's search box; the paths of the pages among the results."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    if not box.is_displayed():
        driver.find_element(By.CSS_SELECTOR, "label.md-search__icon").click()
    # Everything on the page is read in one script each time: the search redraws its results
    # as it ranks them, and an element found in one call may be gone by the next (a busy
    # machine once met a stale result link between finding it and reading its address).
    meta = "const m = document.querySelector('.md-search-result__meta'); return m ? m.textContent : ''"
    hrefs = "return [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href)"
    # the theme's words for the result count, in the page's language (its configuration has them)
    words = driver.execute_script("return JSON.parse(document.getElementById('__config').textContent).translations")
    placeholder, none = words["search.result.placeholder"], words["search.result.none"]
    counts = [re.compile(re.escape(words[key]).replace("\\#", r"\d+")) for key in ("search.result.one", "search.result.other")]
    # the index is built in the background when the page opens: typed sooner, the words
    # wait for it (until then the line says it is initializing; after, what to type, or the
    # count of an earlier query's results)
    WebDriverWait(driver, 20).until(lambda d: (lambda line: line in (placeholder, none) or any(c.fullmatch(line) for c in counts))(d.execute_script(meta).strip()))
    box.clear()
    box.send_keys(query)
    # The search runs at each key typed, so the results of a shorter query ("f" for
    # "fireman") may be on the page for a moment: read them once the page shows the same
    # results twice, half a second apart.
    seen: list = [None]

    def settled(d) -> bool:
        now = (d.execute_script(meta).strip(), d.execute_script(hrefs))
        counted = any(c.fullmatch(now[0]) for c in counts)
        if not (counted and now[1]) and now[0] != none:
            seen[0] = None
            return False
        same, seen[0] = now == seen[0], now
        return same

    WebDriverWait(driver, 25, poll_frequency=0.5).until(settled)
    return [urlparse(href).path.lstrip("/") for href in seen[0][1]]


@pytest.mark.parametrize("game, lang, query, page", QUERIES, ids=[f"{g}-{lang}" for g, lang, *_ in QUERIES])
def test_search_finds_a_component_by_its_name_in_each_language(browser, game, lang, query, page):
    if game not in available_games():
        pytest.skip(f"there is no spec of {game} yet")
    if (game, lang) in NOT_YET_IN_SPEC and query not in str(load_spec(game).files):
        pytest.skip(f"the {game} spec has no {lang} name {query!r} yet")
    found = search(browser, query)
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"search-{game}-{lang}.png"))
    assert page in found, f"{query!r}: {found}"


def test_the_home_page_links_every_games_variants_page(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    for game in available_games():
        assert f'href="{game}/variants.html"' in home, game
        assert (site / game / "variants.html").is_file()


def test_no_table_on_an_overview_has_an_empty_header_row(site):
    for game in available_games():
        html = (site / game / "index.html").read_text(encoding="utf-8")
        for head in re.findall(r"<thead>(.*?)</thead>", html, re.S):
            cells = re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)
            assert any(re.sub(r"<[^>]+>", "", c).strip() for c in cells), f"{game}: {head}"


def test_the_notation_reference_is_whole_at_1280_pixels(browser):
    """Each game's moves reference fits the content column of a 1280 px wide window: no line is
    cut off behind a scroll bar."""
    base = browser.current_url.rsplit("/", 1)[0]
    ARTIFACTS.mkdir(exist_ok=True)
    for game in available_games():
        browser.get(f"{base}/{game}/notation.html")
        assert browser.execute_script("return window.innerWidth") == 1280
        blocks = browser.execute_script("return [...document.querySelectorAll('.notation-reference code')].map(c => [c.scrollWidth, c.clientWidth, c.textContent.slice(0, 40)])")
        browser.save_screenshot(str(ARTIFACTS / f"notation-{game}-1280.png"))
        assert blocks, f"{game}: no notation reference on the page"
        for scroll, client, start in blocks:
            assert scroll <= client + 1, f"{game}: {start!r} is {scroll} px wide in a {client} px column"
    browser.get(f"{base}/index.html")


def cleared(driver) -> None:
    """The search box emptied as a person empties it (select all, delete), and the page back
    to what it shows before a query (what to type), as a freshly opened page is; its index
    stays built, which opening the page again would make it build anew (seconds)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    if not box.is_displayed():
        driver.find_element(By.CSS_SELECTOR, "label.md-search__icon").click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    placeholder = driver.execute_script("return JSON.parse(document.getElementById('__config').textContent).translations")["search.result.placeholder"]
    meta = "const m = document.querySelector('.md-search-result__meta'); return m ? m.textContent.trim() : ''"
    results = "return document.querySelectorAll('.md-search-result__item').length"
    WebDriverWait(driver, 20).until(lambda d: box.get_attribute("value") == "" and d.execute_script(meta) == placeholder and d.execute_script(results) == 0)


def search_links(driver, query: str) -> list[str]:
    """The result links of a search, page and heading (`rules.html#purchase-funds`), best first.

    The list is read in one script, and again until two readings agree: the search shows its
    results while it is still ranking them."""
    import time

    cleared(driver)  # no results of an earlier query on the page
    search(driver, query)
    read = "return [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href)"
    hrefs, previous = driver.execute_script(read), None
    for _ in range(50):
        if hrefs and hrefs == previous:
            break
        time.sleep(0.2)
        hrefs, previous = driver.execute_script(read), hrefs
    links = []
    for href in hrefs:
        url = urlparse(href)
        links.append(url.path.lstrip("/") + (f"#{url.fragment}" if url.fragment else ""))
    return links


@pytest.mark.parametrize("game, rule", [("speicherstadt", "purchase-funds"), ("hamburgum", "rondel-steps"), ("canterbury", "tax-build")])
def test_searching_a_rule_id_finds_its_heading_first(browser, game, rule):
    for query in (rule, f"{game}/{rule}"):
        headings = [link for link in search_links(browser, query) if "#" in link]
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"search-rule-{rule}.png"))
        assert headings and headings[0] == f"{game}/rules.html#{rule}", f"{query!r}: {headings[:5]}"


@pytest.mark.parametrize(
    "query, page",
    [
        ("szonyeg", "speicherstadt/tables.html"),  # szőnyeg typed without its accents
        ("kaffeeroester", "speicherstadt/tables.html"),  # Kaffeeröster with the umlaut written out
        ("Brunnen", "canterbury/tables.html"),  # Canterbury's German names
    ],
)
def test_search_forgives_accents(browser, query, page):
    found = search(browser, query)
    assert page in found, f"{query!r}: {found}"


def test_no_page_loads_a_script_from_the_network(site):
    """Opened without a network, every script a page needs is the site's own (the offline
    plugin's worker shim is bundled, docs/assets/javascripts)."""
    remote = re.compile(r"<script[^>]*\bsrc=[\"']?(?:https?:)?//", re.IGNORECASE)
    pages = sorted(site.rglob("*.html"))
    assert pages
    assert [str(p.relative_to(site)) for p in pages if remote.search(p.read_text(encoding="utf-8"))] == []
