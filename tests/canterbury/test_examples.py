"""The rulebook's worked examples as records whose checkpoints carry the rulebook's numbers,
the sample records, and the examples in the grammar's documentation."""

import re

import pytest

from .records import CITY_AT_70, EXAMPLES, ROOT, SHORT_AND_RICH, SHORTENED, check, figures


def _check_file(path, variants=()):
    return check(path.read_text(encoding="utf-8"), variants)


def _assert_all_confirmed(report, text):
    assert report.status == "legal", [d.message for d in report.diagnostics]
    stated = sum(len(line.split(":", 1)[1].split(",")) for line in text.splitlines() if line.startswith("check "))
    assert report.checkpoints_confirmed == stated


def test_opening_a_district_scores_its_four_cubes():
    path = EXAMPLES / "opening-a-district.log"
    text = path.read_text()
    report = _check_file(path)
    _assert_all_confirmed(report, text)
    assert "check green: money 10, opening 1" in text and "check green: money 1, opening 5" in text
    board = report.state.board
    assert board.tiles["c2"] == ["chapel", "watchtower"]
    assert sorted(board.cubes["c2"].values()) == ["blue", "green", "green", "red"]


def test_district_with_six_spaces_built_gives_six_and_three():
    path = SHORTENED / "six-spaces.log"
    text = path.read_text()
    report = _check_file(path, [CITY_AT_70])
    _assert_all_confirmed(report, text)
    for line in ("check red: districts 6", "check blue: districts 3", "check city: prosperity 102, position 2, discs 1"):
        assert line in text
    state = report.state
    assert len(state.board.tiles["d3"]) == 6 and state.scorings == 1
    # rank markers paid their first amounts at that scoring
    assert state.players["red"].money == 8 and figures(report, "blue")["money"] == 27


def test_kings_favour_first_ten_second_four():
    path = SHORTENED / "kings-favour.log"
    text = path.read_text()
    report = _check_file(path, [SHORT_AND_RICH])
    _assert_all_confirmed(report, text)
    assert report.complete
    assert "check green: favour-defense 10" in text and "check red: favour-defense 4" in text
    assert figures(report, "green")["defense"] == 10 and figures(report, "red")["defense"] == 8
    assert figures(report, "blue")["favour-defense"] == 0


def test_guildhall_demolitions_in_a_district_of_six_small_structures():
    path = EXAMPLES / "guildhall-demolitions.log"
    text = path.read_text()
    before = check(text.split("green: full build guildhall")[0])
    assert before.state.board.tiles["d3"] == ["well", "garden", "chapel", "watchtower", "stall", "wagon"]
    report = _check_file(path)
    _assert_all_confirmed(report, text)
    state = report.state
    assert state.board.tiles["d3"] == ["watchtower", "wagon", "guildhall"]
    # the demolished tiles leave the game; the cubes they placed stay
    assert state.board.supply["stall"] == before.state.board.supply["stall"]
    assert state.board.cubes["d3"] == before.state.board.cubes["d3"]
    assert figures(report, "green")["upgrade"] == 3


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.log")), ids=lambda p: p.name)
def test_sample_records_are_legal(path):
    report = _check_file(path)
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.checkpoints_confirmed > 0
    if path.name.startswith("random-"):
        assert report.complete
        players = re.search(r'\[Players "([^"]*)"\]', path.read_text()).group(1).count(",") + 1
        assert len(report.standings) == players


def test_sample_records_cover_four_players_and_the_two_player_variant():
    texts = [p.read_text() for p in EXAMPLES.glob("random-*.log")]
    assert any('[Players "blue, red, green, yellow"]' in t for t in texts)
    assert any('[Variant "two-player"]' in t and ": neutral " in t for t in texts)


def test_the_grammar_documentation_examples_are_legal_records():
    grammar = (ROOT / "grammar" / "canterbury.lark").read_text()
    comment = [line[2:] for line in grammar.splitlines() if line.startswith("//")]
    blocks, current = [], []
    for line in comment:
        if line.startswith("   "):
            current.append(line[3:])
        elif current and not line.strip():
            current.append("")
        elif current:
            blocks.append("\n".join(current).strip() + "\n")
            current = []
    if current:
        blocks.append("\n".join(current).strip() + "\n")
    records = [b for b in blocks if b.startswith('[Game "canterbury"]')]
    assert len(records) == 2
    for text in records:
        report = check(text)
        assert report.status == "legal", [d.message for d in report.diagnostics]
        assert report.checkpoints_confirmed > 0
