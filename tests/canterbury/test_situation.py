"""Where a Canterbury game stands: the round, the action the player to act chooses, the
neutral's tile in the two-player variant, and the end."""

from pathlib import Path

from referee.games.base import Situation

from ..situations import at, walk

EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "canterbury" / "examples"
FOUR = (EXAMPLES / "random-4p-seed7.log").read_text()  # blue, red, green, yellow; blue starts
TWO = (EXAMPLES / "random-2p-seed7.log").read_text()  # blue, red and the neutral player
CHOICE = "Levy, Full Build or Tax & Build"


def test_the_first_round_is_a_full_build_for_each_player_in_turn():
    assert at(FOUR, 0) == Situation(1, "Full Build", ["blue"], "blue: Full Build where one is possible (first round)", False)
    assert at(FOUR, 1) == Situation(1, "Full Build", ["red"], "red: Full Build where one is possible (first round)", False)
    assert at(FOUR, 3) == Situation(1, "Full Build", ["yellow"], "yellow: Full Build where one is possible (first round)", False)


def test_from_the_second_round_each_player_chooses_one_of_the_three_actions():
    assert at(FOUR, 4) == Situation(2, CHOICE, ["blue"], f"blue: {CHOICE}", False)
    assert at(FOUR, 5) == Situation(2, CHOICE, ["red"], f"red: {CHOICE}", False)


def test_after_a_levy_the_next_turn_is_a_full_build():
    # blue took a Levy in move 5; blue's turn in round 3 (move 9) is a Full Build
    assert at(FOUR, 8) == Situation(3, "Full Build", ["blue"], "blue: Full Build where one is possible (after a Levy)", False)
    # red, green and yellow levied in round 3 (moves 10-12); blue did not
    assert at(FOUR, 12) == Situation(4, CHOICE, ["blue"], f"blue: {CHOICE}", False)
    assert at(FOUR, 13).phase == "Full Build"


def test_the_neutral_tile_opens_a_turn_whose_marker_shows_build():
    # round 1: blue and red build; round 2 opens with blue placing the well for the neutral
    assert at(TWO, 1) == Situation(1, "Full Build", ["red"], "red: Full Build where one is possible (first round)", False)
    assert at(TWO, 2) == Situation(2, CHOICE, ["blue"], "blue places the Well for the neutral player", False)
    assert at(TWO, 3) == Situation(2, CHOICE, ["blue"], f"blue: {CHOICE}", False)
    assert at(TWO, 4) == Situation(2, CHOICE, ["red"], "red places the Well for the neutral player", False)
    # blue levied in round 3 (move 7); in round 4 the neutral's garden comes first, then blue's Full Build
    assert at(TWO, 8) == Situation(4, "Full Build", ["blue"], "blue places the Garden for the neutral player", False)
    assert at(TWO, 9) == Situation(4, "Full Build", ["blue"], "blue: Full Build where one is possible (after a Levy)", False)


def test_the_game_ends_over_with_nobody_to_act():
    for text, _players in ((FOUR, 4), (TWO, 2)):
        steps, end = walk(text)
        assert not any(s.over for s, _ in steps)
        assert end.over and end.to_act == [] and end.pending == "game over" and end.phase is None
        # the last move was the last player's turn of the last round
        assert end.round == steps[-1][0].round
        assert len(steps[-1][0].to_act) == 1
