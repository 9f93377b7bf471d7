"""A replay page in a real browser: headless Chromium opens it from file:// with the network
off, steps forward and back with the arrow keys and sees the picture change, and finds the
charts. Screenshots are kept in `artifacts/` at the project root (git-ignored), as
`replay-<game>-<step>.png`, for a person to look at after a run.
"""

from pathlib import Path

import pytest

from referee.pictures.replay_page import build
from tests.browser import chromium

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
RECORDS = {
    "speicherstadt": ROOT / "specs" / "speicherstadt" / "examples" / "purchase-queue.log",
    "canterbury": ROOT / "specs" / "canterbury" / "examples" / "opening-a-district.log",
    "hamburgum": ROOT / "specs" / "hamburgum" / "examples" / "quick-start.log",
}


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium"), "--window-size=1280,1000", "--proxy-bypass-list=<-loopback>")
    yield driver
    driver.quit()


def picture(driver) -> str:
    return driver.execute_script("return document.getElementById('picture').innerHTML")


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_replay_steps_through_the_record_offline(browser, tmp_path, game):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page, report = build(RECORDS[game].read_bytes(), RECORDS[game].name, [])
    path = tmp_path / f"{game}.html"
    path.write_text(page, encoding="utf-8")
    browser.get(path.as_uri())
    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0  # nothing fetched
    body = browser.find_element(By.TAG_NAME, "body")
    start = picture(browser)
    assert "<svg" in start and browser.find_element(By.ID, "counter").text.startswith("1 / ")
    browser.save_screenshot(str(ARTIFACTS / f"replay-{game}-start.png"))
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    third = picture(browser)
    assert third != start
    assert browser.find_element(By.ID, "counter").text.startswith("4 / ")
    current = browser.find_element(By.CSS_SELECTOR, "#moves li.current")
    assert current.get_attribute("data-index") == "3" and "3." in current.text
    assert browser.find_element(By.ID, "caption").text.startswith("Move 3 (line ")
    browser.save_screenshot(str(ARTIFACTS / f"replay-{game}-move-3.png"))
    body.send_keys(Keys.ARROW_LEFT)
    second = picture(browser)
    assert second not in (third, start)
    body.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    assert picture(browser) == start
    body.send_keys(Keys.END)
    assert browser.find_element(By.ID, "counter").text == f"{len(browser.find_elements(By.CSS_SELECTOR, '#moves li'))} / {len(browser.find_elements(By.CSS_SELECTOR, '#moves li'))}"
    charts = browser.find_elements(By.CSS_SELECTOR, "#charts .chart svg")
    assert len(charts) == 2 and all(c.is_displayed() for c in charts)
    assert browser.find_elements(By.CSS_SELECTOR, "#charts polyline")
    browser.execute_script("document.getElementById('charts').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / f"replay-{game}-charts.png"))
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_the_picture_scales_to_a_phones_width(browser, tmp_path):
    from selenium.webdriver.common.by import By

    page, _ = build(RECORDS["canterbury"].read_bytes(), "c.log", [])
    path = tmp_path / "phone.html"
    path.write_text(page, encoding="utf-8")
    browser.set_window_size(390, 844)
    try:
        browser.get(path.as_uri())
        svg = browser.find_element(By.CSS_SELECTOR, "#picture svg")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert 0 < svg.size["width"] <= width
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width  # no sideways scrolling
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "replay-phone.png"))
    finally:
        browser.set_window_size(1280, 1000)
