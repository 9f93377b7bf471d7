"""`referee show` and `referee moves`: a readable summary, positions by move or by line, and
on a record with an error the position just before the offending line."""

import json

import pytest
import yaml

from referee.cli.main import main
from referee.engine.positions import find

from .speicherstadt.records import HEADER_2P, TO_SPRING

HEADER_3P = '[Game "speicherstadt"]\n[Players "beige, orange, purple"]\n[Start "beige"]\n\n'
# The rulebook's purchase example: beige, orange, beige, purple queue for the warehouse.
QUEUED = (
    HEADER_3P
    + """\
round 1
reveal warehouse
reveal coffee-roaster
reveal tea-taster
reveal spice-trader
beige: place 1
orange: place 1
purple: place 2
beige: place 1
orange: place 2
purple: place 1
beige: place 3
orange: place 3
purple: place 4
"""
)
BAD_LINE = 5  # the bank is a Summer card, not a Winter one
ILLEGAL = HEADER_2P.rstrip("\n") + "\nreveal warehouse\nreveal bank\nreveal tea-taster\n"
UNREADABLE = HEADER_2P.rstrip("\n") + "\nreveal warehouse\nreveal coffee-roaster\nreveal tea-taster\nbeige: plaze 1\n"


def write(tmp_path, text: str, name: str = "game.log"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_show_reads_as_a_summary_by_default(tmp_path, capsys):
    record = write(tmp_path, QUEUED)
    assert main(["show", record]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"{record}: The Speicherstadt, after move 14 (line 18): legal so far"
    assert lines[1] == "Round 1 · Purchase · to act: beige · slot 1 offered to beige at 4 coins"
    assert lines[3].split() == ["player", "coins", "points", "cards", "contracts", "warehouse", "hall", "unloaded"]
    assert "slot 1  Warehouse       beige 4, orange 3, beige 2, purple 1" in out
    assert "Purchase: slot 1 is offered to beige at 4 coins" in out


def test_show_keeps_the_dumps_as_yaml_and_json(tmp_path, capsys):
    record = write(tmp_path, QUEUED)
    assert main(["show", record, "--format", "yaml"]) == 0
    out = capsys.readouterr().out
    state = yaml.safe_load(out.split("\n", 1)[1])
    assert state["phase"] == "purchase" and len(state["supply"]) == 4
    assert main(["show", record, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["after_move"] == 14 and data["situation"]["to_act"] == ["beige"]


def test_a_bought_card_leaves_the_display_and_the_offer_is_shown(tmp_path, capsys):
    """The Purchase of the rulebook's example: beige and orange pass, beige buys at 2."""
    record = write(tmp_path, QUEUED + "beige: pass 1\norange: pass 1\nbeige: buy 1\n")
    assert main(["show", record, "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    assert [s["card"] for s in state["supply"]] == ["coffee-roaster", "tea-taster", "spice-trader"]
    assert state["bought"] == [{"slot": 1, "card": "warehouse", "by": "beige", "price": 2}]
    assert state["offer"] == {"slot": 2, "to": "purple", "price": 2}
    assert main(["show", record]) == 0
    out = capsys.readouterr().out
    assert "slot 1  Warehouse       bought by beige for 2 coins: it has left the display" in out
    assert "slot 2  Coffee Roaster  purple 2, orange 1" in out
    assert "Purchase: slot 2 is offered to purple at 2 coins" in out


def test_show_line_gives_the_position_after_that_line(tmp_path, capsys):
    record = write(tmp_path, QUEUED)
    # line 10 is "beige: place 1", the first worker (move 6 after the round line and four reveals)
    assert main(["show", record, "--line", "10", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["after_move"] == 6 and data["line"] == 10
    assert data["state"]["supply"][0]["queue"] == ["beige"]
    assert main(["show", record, "--at", "6", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == data["state"]
    # a blank or comment line holds no entry: the position after it is the one before
    assert main(["show", record, "--line", "4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["after_move"] == 0


def test_show_at_and_line_exclude_each_other(tmp_path, capsys):
    record = write(tmp_path, QUEUED)
    with pytest.raises(SystemExit) as exit_:
        main(["show", record, "--at", "2", "--line", "10"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["show", record, "--line", "0"]) == 2


@pytest.mark.parametrize("command", ["show", "moves"])
def test_on_an_illegal_record_the_position_stops_before_the_offending_line(tmp_path, capsys, command):
    record = write(tmp_path, ILLEGAL)
    assert main([command, record]) == 1
    captured = capsys.readouterr()
    assert f"{record}:{BAD_LINE}:1: error[speicherstadt/deck-season]" in captured.err
    assert f"before line {BAD_LINE}, the line with the first error; after move 1 (line 4)" in captured.out
    if command == "moves":
        assert "reveal coffee-roaster" in captured.out  # a Winter card would have been legal there


def test_on_an_unreadable_record_the_position_is_read_up_to_the_bad_line(tmp_path, capsys):
    record = write(tmp_path, UNREADABLE)
    assert main(["show", record, "--format", "json"]) == 3
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["before_error_line"] == 7 and data["after_move"] == 3 and data["status"] == "malformed"
    assert "unexpected 'plaze'" in captured.err
    assert main(["moves", record]) == 3
    out = capsys.readouterr().out
    assert "before line 7" in out and "beige: place 1" in out


def test_the_position_before_an_error_is_replayed_afresh():
    """A refused reveal of a ship takes its card before the cargo is found short; the position
    shown is replayed up to the line before, so the refused card is still in the pile."""
    text = TO_SPRING + "round 6\n"
    before = find(text.encode(), "r.log", [])
    assert before.error_line is None
    bad = text + "reveal ship coffee coffee coffee coffee\n"  # a ship carries three cubes
    position = find(bad.encode(), "r.log", [])
    assert position.error_line == bad.count("\n")
    assert sum(len(cards) for cards in position.state.deck.values()) == sum(len(cards) for cards in before.state.deck.values())


def test_one_legal_move_is_counted_in_the_singular(tmp_path, capsys):
    # two players put all six workers on the warehouse: at 6 coins beige (5 coins) can only pass
    record = write(tmp_path, HEADER_2P + "reveal warehouse\nreveal coffee-roaster\nreveal tea-taster\n" + "beige: place 1\norange: place 1\n" * 3)
    assert main(["moves", record]) == 0
    out = capsys.readouterr().out
    assert ": 1 legal next move after move 9" in out and "moves after" not in out
    assert out.splitlines()[1].strip() == "beige: pass 1"


def test_the_canterbury_summary_draws_the_city_as_a_grid(capsys):
    from tests.canterbury.records import EXAMPLES

    assert main(["show", str(EXAMPLES / "opening-a-district.log")]) == 0
    out = capsys.readouterr().out
    grid = [line for line in out.splitlines() if line.startswith(("|", "+"))]
    assert grid[0].count("+") == 6  # five columns
    assert sum(1 for line in grid if line.startswith("+")) == 6  # five rows
    assert "| c3 centre" in out and "Old Roman well" in out
    assert "service slots (water, food, religion, defense, commerce, culture)" in out


def test_a_figure_resting_on_a_provisional_value_is_marked(capsys):
    from tests.canterbury.records import EXAMPLES

    assert main(["show", str(EXAMPLES / "random-2p-seed7.log"), "--at", "10"]) == 0
    out = capsys.readouterr().out
    assert "? rests on a provisional spec value" in out
    row = next(line for line in out.splitlines() if line.startswith("blue"))
    assert row.split()[1].endswith("?")  # money: the Levy table is a stand-in


def test_text_from_the_record_is_escaped_in_the_summary(tmp_path, capsys):
    record = write(tmp_path, QUEUED.replace("beige, orange, purple", "beige \x1b[2JMallory, orange, purple"))
    assert main(["show", record]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2JMallory" in out
