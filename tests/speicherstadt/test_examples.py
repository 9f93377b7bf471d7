"""The rulebook's worked examples, replayed with the table's figures as checkpoints."""

from pathlib import Path

import pytest

from referee.games import load_game
from referee.games.base import Seat, Trace
from referee.games.speicherstadt.moves import Reveal
from referee.games.speicherstadt.rules import Card
from referee.notation.parser import Header

from .records import check

EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "speicherstadt" / "examples"


def replay(name):
    return check((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.log")), ids=lambda p: p.name)
def test_every_bundled_example_is_legal_with_its_checkpoints_confirmed(path):
    report = check(path.read_text(encoding="utf-8"))
    assert report.status == "legal", report.diagnostics
    assert report.checkpoints_confirmed > 0


def test_purchase_queue_offers_4_3_2_1():
    report = replay("purchase-queue.log")
    # four offer checkpoints (4, 3, 2, 1) and purple's coins and cards after buying for 1
    assert report.checkpoints_confirmed == 6
    state = report.state.describe()
    assert state["players"]["purple"]["coins"] == 4
    assert state["players"]["purple"]["cards"] == ["warehouse"]


def test_purchase_queue_wrong_price_is_caught():
    text = (EXAMPLES / "purchase-queue.log").read_text().replace("check orange: offer 3", "check orange: offer 4")
    report = check(text)
    assert [d.rule for d in report.errors] == ["speicherstadt/checkpoint"]
    assert "rules give 3" in report.errors[0].message


def test_blue_unloads_two_ships():
    report = replay("unloading-two-ships.log")
    blue = report.state.describe()["players"]["blue"]
    assert blue["market_hall"] == ["carpet"]
    assert blue["contracts"][0] == {"goods": ["carpet", "coffee"], "covered": ["coffee"], "complete": False}
    assert blue["contracts"][1]["covered"] == ["rubber", "tea"]
    assert blue["coins"] == 8
    assert blue["unloaded"] == []


def test_fire_with_tied_leaders():
    report = replay("fire-ties.log")
    points = {c: p["points"] for c, p in report.state.describe()["players"].items()}
    assert points == {"beige": 2, "orange": 2, "purple": -2}


def _state_with_firemen(values):
    game = load_game("speicherstadt")
    colours = game.spec.meta["colours"][: len(values)]
    state = game.new_state([Seat(c) for c in colours], 0, Header(), Trace())
    for colour, held in zip(colours, values):
        for v in held:
            state.players[colour].cards.append(Card(game.fireman, "A", {"value": v}))
    return state, colours


@pytest.mark.parametrize(
    "firemen, expected",
    [
        ([[5], [3], [1, 1], []], [4, 0, 0, -4]),  # one leader, middle players get nothing
        ([[4], [4], [2], [2]], [4, 4, -4, -4]),  # ties at both ends
        ([[3], [1, 2], [2, 1], [3]], [0, 0, 0, 0]),  # everyone equal: nobody scores
        ([[], [], [1]], [-4, -4, 4]),  # no firemen counts as 0
    ],
)
def test_fire_resolution(firemen, expected):
    state, colours = _state_with_firemen(firemen)
    state._resolve_fire(Card(state.game.fire, "B", {"points": 4}), Reveal(state.game.fire, points=4))
    assert [state.players[c].points for c in colours] == expected
