"""Where a Speicherstadt game stands: round, phase, who acts and what the game waits for."""

from pathlib import Path

from referee.engine.replay import check_bytes
from referee.games.base import Situation
from referee.games.speicherstadt.moves import Load, Reveal, RoundStart
from referee.lab.random_game import play_game

from ..situations import at, walk

EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "speicherstadt" / "examples"
# The rulebook's purchase example: round 1, four reveals, nine workers placed (14 moves); the
# queue above slot 1 is beige, orange, beige, purple; above slot 2 purple, orange.
PURCHASE = (EXAMPLES / "purchase-queue.log").read_text()


def test_a_fresh_game_waits_for_the_first_winter_card():
    assert at(PURCHASE, 0) == Situation(1, "Supply", [], "reveal the next card of the Winter (A) stack", False)
    assert at(PURCHASE, 2) == Situation(1, "Supply", [], "reveal the next card of the Winter (A) stack", False)


def test_demand_names_the_player_who_places_next():
    # the four cards are out after move 5; beige (the start player) places first, then orange
    assert at(PURCHASE, 5) == Situation(1, "Demand", ["beige"], "beige places a worker", False)
    assert at(PURCHASE, 6) == Situation(1, "Demand", ["orange"], "orange places a worker", False)
    assert at(PURCHASE, 13) == Situation(1, "Demand", ["purple"], "purple places a worker", False)


def test_purchase_names_the_slot_the_player_and_the_price_of_the_offer():
    expected = [(14, "beige", 4), (15, "orange", 3), (16, "beige", 2), (17, "purple", 1)]
    for moves, colour, price in expected:
        situation = at(PURCHASE, moves)
        coins = "coin" if price == 1 else "coins"
        assert situation == Situation(1, "Purchase", [colour], f"slot 1 offered to {colour} at {price} {coins}", False)
    # purple bought slot 1; slot 2's queue is purple, orange: purple is asked first, at 2
    report = check_bytes(PURCHASE.encode(), "x", stop_after=18)
    offer = report.state.current_offer()
    assert (report.state.purchase_slot + 1, offer.colour, offer.price) == (2, "purple", 2)
    assert report.state.situation() == Situation(1, "Purchase", ["purple"], "slot 2 offered to purple at 2 coins", False)


def test_loading_lets_every_player_act_from_the_start_player_on():
    text = play_game("speicherstadt", 3, 15)
    steps, _ = walk(text)
    loads = [(s, m) for s, m in steps if isinstance(m, Load)]
    assert loads
    for situation, move in loads:
        assert situation.phase == "Loading"
        assert move.player in situation.to_act
        assert len(situation.to_act) == 3
    # the end of round 1's Loading announces round 2, which opens with a reveal
    i = next(i for i, (_, m) in enumerate(steps) if isinstance(m, RoundStart) and m.round == 2)
    assert steps[i][0] == Situation(1, "Loading", ["beige", "orange", "purple"], "players move their goods, then round 2 begins", False)
    assert steps[i + 1][0] == Situation(2, "Supply", [], "reveal the next card of the Winter (A) stack", False)


def test_the_fires_after_the_last_round_and_the_end():
    # seed 15 ends with two fires: the 3rd (closing the last round's Loading) and the 4th
    text = play_game("speicherstadt", 3, 15)
    steps, end = walk(text)
    (before_3rd, third), (before_4th, fourth) = steps[-2:]
    assert isinstance(third, Reveal) and isinstance(fourth, Reveal)
    last = before_3rd.round
    assert before_3rd == Situation(last, "Loading", before_3rd.to_act, "players move their goods, then the fires left are revealed", False)
    assert before_4th == Situation(last, None, [], "reveal the fires left after the last round: the next card of the 4th fire (E) stack", False)
    assert end == Situation(last, None, [], "game over", True)


def test_a_bundled_example_ends_over():
    text = (EXAMPLES / "sample-3p.log").read_text()
    steps, end = walk(text)
    assert end.over and end.to_act == [] and end.pending == "game over"
    assert not any(s.over for s, _ in steps)
