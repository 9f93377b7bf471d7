"""`referee replay`: one HTML page that holds a record's positions, sentences, diagnostics and
charts, and needs nothing from outside (the browser test steps through it: test_replay_browser)."""

import functools
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.pictures.replay_page import build

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "specs"
MAX_PAGE_BYTES = 2_000_000  # a full game, five players


@functools.cache
def example(game: str, name: str):
    """The replay page of a shipped example, built once for the tests that read it."""
    path = EXAMPLES / game / "examples" / name
    return build(path.read_bytes(), name, [])


def page_data(page: str) -> dict:
    raw = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(raw)


def position_svg(data: dict, index: int) -> str:
    ids = data["positions"][index]["parts"]
    return data["parts"][ids[0]] + "".join(data["parts"][i] for i in ids[1:]) + "</svg>"


class Outside(HTMLParser):
    """Everything a page would fetch: scripts, styles, images, frames by URL."""

    def __init__(self):
        super().__init__()
        self.fetched: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "img", "iframe", "audio", "video", "source", "embed") and attrs.get("src"):
            self.fetched.append(attrs["src"])
        if tag == "link":
            self.fetched.append(attrs.get("href", ""))


@pytest.mark.parametrize("record", sorted(EXAMPLES.glob("*/examples/*.log")), ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_example_becomes_a_self_contained_page(site, record):
    """Read off the site, whose build makes each example's page as `referee replay` does
    (`referee.site.replays.files`): drawn once a session, not again here."""
    game = record.parent.parent.name
    page = (site / game / "replays" / f"{record.stem}.html").read_text(encoding="utf-8")
    report = check_bytes(record.read_bytes(), record.name)
    assert report.status == "legal"
    outside = Outside()
    outside.feed(page)
    assert outside.fetched == []
    assert "url(" not in page and "@import" not in page
    data = page_data(page)
    moves = [e for e in data["entries"] if e["number"]]
    assert len(moves) == report.moves
    assert all(e["sentence"] for e in data["entries"])
    for index in {0, len(data["positions"]) // 2, len(data["positions"]) - 1}:
        root = ET.fromstring(position_svg(data, index))
        assert root.get("viewBox") and root.get("width") == "100%"
    assert page.count('class="chart"') == 2


def test_moves_are_told_in_plain_sentences():
    def sentences(game: str, name: str) -> list[str]:
        page, _ = example(game, name)
        return [e["sentence"] for e in page_data(page)["entries"]]

    told = sentences("speicherstadt", "purchase-queue.log")
    assert "beige places a worker on slot 1 (Warehouse), 1st in its queue" in told
    assert "beige passes on the Warehouse at 4 coins" in told
    assert "purple buys the Warehouse for 1 coin" in told
    sample = sentences("speicherstadt", "sample-3p.log")
    assert any(re.fullmatch(r"\w+ buys the Coffee Roaster for \d coins?", s) for s in sample)
    assert any(s.startswith("the Spring (B) fire (") for s in sample)
    canterbury = sentences("canterbury", "random-4p-seed7.log")
    assert any(re.fullmatch(r"\w+ takes a Levy of \d+ shillings", s) for s in canterbury)
    assert any(re.match(r"\w+ builds an? [A-Z][\w' ]+ in [a-e][1-5] for \d+ shillings? \(Full Build\)", s) for s in canterbury)
    hamburgum = sentences("hamburgum", "quick-start.log")
    assert any(re.match(r"\w+ moves to (Beer|Sugar|Cloth) and produces \d (beer|sugar|cloth)", s) for s in hamburgum)


def test_diagnostics_are_shown_at_their_lines(tmp_path):
    record = (EXAMPLES / "speicherstadt" / "examples" / "purchase-queue.log").read_text(encoding="utf-8")
    record = record.replace("check purple: offer 1", "check purple: offer 3").replace("purple: buy 1", "purple: buy 2")
    page, report = build(record.encode(), "bad.log", [])
    assert report.status == "illegal"
    data = page_data(page)
    lines = record.split("\n")
    flagged = {e["line"]: e for e in data["entries"] if e["problems"]}
    checkpoint = lines.index("check purple: offer 3") + 1
    assert flagged[checkpoint]["problems"][0]["rule"] == "speicherstadt/checkpoint"
    assert flagged[checkpoint]["number"] is None and flagged[checkpoint]["text"] == "check purple: offer 3"
    refused = lines.index("purple: buy 2") + 1
    assert flagged[refused]["problems"][0]["rule"] == "speicherstadt/purchase-turn"
    # the refused move shows the position before it: the one of the entry above
    index = next(i for i, e in enumerate(data["entries"]) if e["line"] == refused)
    assert data["entries"][index]["position"] == data["entries"][index - 1]["position"]
    assert 'class="entry has-error"' in page


def test_a_record_that_cannot_be_read_whole_is_replayed_up_to_the_bad_line(tmp_path, capsys):
    record = tmp_path / "bad.log"
    record.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\nreveal warehouse\nreveal coffee-roaster\nbeige: plaze 1\n', encoding="utf-8")
    out = tmp_path / "bad.html"
    assert main(["replay", str(record), "-o", str(out)]) == 3
    assert "unexpected 'plaze'" in capsys.readouterr().err
    data = page_data(out.read_text(encoding="utf-8"))
    assert [e["number"] for e in data["entries"]] == [None, 1, 2, None]
    assert data["entries"][-1]["line"] == 5 and "plaze" in data["entries"][-1]["problems"][0]["message"]


def test_a_full_game_page_stays_small(tmp_path):
    game = subprocess.run([sys.executable, "-m", "referee", "play", "speicherstadt", "--players", "5", "--seed", "3"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    page, report = build(game.encode(), "five.log", [])
    assert report.complete
    assert len(page.encode("utf-8")) < MAX_PAGE_BYTES
    data = page_data(page)
    assert len(data["parts"]) < 4 * len(data["positions"]) + 1  # groups are shared between positions (+1: the key, one for all)
    key = [i for i, part in enumerate(data["parts"]) if part.startswith('<g class="key">')]
    assert len(key) == 1 and all(key[0] in position["parts"] for position in data["positions"])


def test_the_chart_follows_each_players_score_and_money_by_round():
    page, report = example("canterbury", "random-2p-seed7.log")
    charts = re.findall(r'<div class="chart">(<svg.*?</svg>)</div>', page, re.S)
    assert len(charts) == 2
    prosperity, money = (ET.fromstring(c) for c in charts)
    assert prosperity.findtext("{http://www.w3.org/2000/svg}title") == "prosperity by round"
    assert money.findtext("{http://www.w3.org/2000/svg}title") == "money by round"
    lines = [n for n in prosperity.iter("{http://www.w3.org/2000/svg}polyline")]
    assert len(lines) == len(report.standings)
    last = {s.seat.colour: s.total for s in report.standings}
    for node in lines:
        colour = node.findtext("{http://www.w3.org/2000/svg}title").split(" ")[0].rstrip(":")
        assert node.findtext("{http://www.w3.org/2000/svg}title").endswith(f", {last[colour]}")
