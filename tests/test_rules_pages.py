"""The rules pages as a reader gets them: every picture with a text alternative, a page and its
pictures under 1 MB, and, in a real browser at a phone's width, every picture rendered and
scaled to the screen."""

import re

import pytest

from referee.site.replays import illustrations
from referee.site.tables import GamePages
from referee.spec.loader import available_games, data_root, load_spec
from tests.browser import chromium, serve_folder
from tests.test_site import ARTIFACTS

GAMES = available_games()
MAX_PAGE = 1_000_000  # bytes of a rules page with its pictures
PHONE = (390, 844)  # CSS pixels of a common phone's screen


def pictures(page: str) -> list[dict]:
    return [dict(re.findall(r'(\w+)="([^"]*)"', tag)) for tag in re.findall(r"<img\b[^>]*>", page)]


@pytest.mark.parametrize("game", GAMES)
def test_the_gallery_page_with_its_tiles_stays_small(site, game):
    page = site / game / "gallery.html"
    size = page.stat().st_size + sum(p.stat().st_size for p in (site / game / "gallery").glob("*.svg"))
    assert size < MAX_PAGE, f"{game}: {size} bytes"
    assert all(p.get("alt", "").strip() for p in pictures(page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("game", GAMES)
def test_every_picture_of_a_rules_page_has_a_text_alternative_and_the_page_stays_small(site, game):
    page = site / game / "rules.html"
    html = page.read_text(encoding="utf-8")
    found = pictures(html)
    drawn = illustrations(GamePages(load_spec(game), data_root()))
    assert len([p for p in found if p["src"].startswith("pictures/")]) == len(drawn) > 0
    size = page.stat().st_size
    for picture in found:
        assert picture.get("alt", "").strip(), picture
        if not picture["src"].startswith(("http:", "https:", "data:")):
            size += (page.parent / picture["src"]).stat().st_size
    assert size < MAX_PAGE, f"{game}: {size} bytes"


def test_each_svg_picture_scales_with_its_column(site):
    for game in GAMES:
        for svg in [*(site / game / "pictures").glob("*.svg"), *(site / game / "gallery").glob("*.svg")]:
            head = svg.read_text(encoding="utf-8")[:2000]
            assert 'viewBox="' in head and 'width="100%"' in head, svg
            assert "<title" in head, f"{svg}: an SVG picture names itself for screen readers"


@pytest.fixture(scope="module")
def phone(site, tmp_path_factory):
    server = serve_folder(site)
    width, height = PHONE
    driver = chromium(tmp_path_factory.mktemp("chromium-phone"), phone={"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0}})
    driver.base = f"http://127.0.0.1:{server.server_port}"
    yield driver
    driver.quit()
    server.shutdown()


RENDERED = """
const out = [];
for (const img of document.querySelectorAll('article img')) {
  img.scrollIntoView({block: 'center'});
  await new Promise(r => setTimeout(r, 50));
  if (!img.complete) await new Promise(r => { img.onload = img.onerror = r; setTimeout(r, 5000); });
  const box = img.getBoundingClientRect();
  out.push({src: img.getAttribute('src'), natural: img.naturalWidth, shown: box.width, alt: img.alt});
}
window.scrollTo(0, 0);
return out;
"""


@pytest.mark.parametrize("game, page", [(g, p) for g in GAMES for p in ("rules", "gallery")])
def test_a_rules_page_on_a_phone_shows_every_picture_rendered_and_scaled(phone, game, page):
    phone.get(f"{phone.base}/{game}/{page}.html")
    assert phone.execute_script("return window.innerWidth") == PHONE[0]
    shown = phone.execute_script(f"return (async () => {{ {RENDERED} }})()")
    assert shown, f"{game}: no picture on the rules page"
    for picture in shown:
        assert picture["natural"] > 0, f"{game}: {picture['src']} is broken"
        assert 0 < picture["shown"] <= PHONE[0], f"{game}: {picture['src']} is {picture['shown']} px wide on a {PHONE[0]} px screen"
        assert picture["alt"].strip()
    page_width = phone.execute_script("return document.documentElement.scrollWidth")
    assert page_width <= PHONE[0] + 1, f"{game}: the page scrolls sideways ({page_width} px)"
    first = phone.execute_script("const i = document.querySelector('article img'); i.scrollIntoView({block: 'start'}); return i.getAttribute('src')")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.save_screenshot(str(ARTIFACTS / f"{page}-{game}-phone.png"))
    assert first.startswith("pictures/" if page == "rules" else "gallery/")


@pytest.mark.parametrize("game", GAMES)
def test_each_worked_example_is_drawn_as_referee_draw_draws_it_with_its_figures_confirmed(site, game, capsys):
    from referee.cli.main import main
    from referee.engine.replay import check_bytes

    spec = load_spec(game)
    sections = (site / game / "rules.html").read_text(encoding="utf-8")
    for rule, picture in illustrations(GamePages(spec, data_root())).items():
        drawn = (site / game / "pictures" / f"{rule.split('/', 1)[1]}.svg").read_text(encoding="utf-8")
        at = re.search(r"<title>[^<]*, after move (\d+) \(line \d+\)</title>", drawn)
        record = spec.directory / "examples" / picture.record
        overlays = [str(spec.directory / "examples" / v) for v in picture.variants]
        assert main(["draw", str(record), "--at", at.group(1) if at else "0", *(a for v in overlays for a in ("--variant", v))]) == 0
        printed = capsys.readouterr().out.strip()
        assert printed == drawn.strip(), rule
        # under the picture: each figure line of the record, confirmed by the referee
        section = sections.split(f'id="{rule.split("/", 1)[1]}"', 1)[1].split("<h3", 1)[0]
        text = record.read_text(encoding="utf-8")
        lines = [line.strip() for line in text.splitlines() if line.startswith(("check ", "result "))]
        assert lines and all(f"<code>{line}</code> ✓" in section for line in lines), rule
        report = check_bytes(text.encode("utf-8"), record.name, overlays)
        assert report.status == "legal" and report.checkpoints_confirmed >= len(lines)
        assert f"the referee confirms all {report.checkpoints_confirmed} figures" in section
