"""Where a Civitas Hamburgum game stands: the round, the player to move on the rondel, an
office the table turns up in advanced game II, and the end."""

from referee.games.base import Situation
from referee.games.hamburgum.moves import Reveal, Turn
from referee.lab.random_game import play_game

from ..situations import at, walk
from .records import QUICK_START

QUICK = QUICK_START.read_text()  # red, blue, green; red starts; six rounds, 18 turns


def test_a_fresh_game_waits_for_the_start_player():
    assert at(QUICK, 0) == Situation(1, None, ["red"], "red moves on the rondel", False)


def test_players_move_in_turn_and_rounds_count_their_turns():
    assert at(QUICK, 1) == Situation(1, None, ["blue"], "blue moves on the rondel", False)
    assert at(QUICK, 2) == Situation(1, None, ["green"], "green moves on the rondel", False)
    assert at(QUICK, 3) == Situation(2, None, ["red"], "red moves on the rondel", False)
    # the quick start stops after six rounds, before the game is over
    assert at(QUICK, 18) == Situation(7, None, ["red"], "red moves on the rondel", False)


def test_advanced_game_ii_turns_up_an_office_before_the_next_turn():
    # seed 3: the first office is turned up before red's first turn, the next one after blue
    # builds the civil servant in round 13, before green's turn
    text = play_game("hamburgum", 3, 3, ["advanced-2"])
    steps, _ = walk(text)
    reveals = [i for i, (_, m) in enumerate(steps) if isinstance(m, Reveal)]
    assert reveals[0] == 0
    assert steps[0][0] == Situation(1, None, [], "turn up the next office of the shuffled stack", False)
    assert steps[1][0] == Situation(1, None, ["red"], "red moves on the rondel", False)
    second = reveals[1]
    assert steps[second - 1][1].player == "blue"
    assert steps[second][0] == Situation(steps[second + 1][0].round, None, [], "turn up the next office of the shuffled stack", False)
    assert steps[second + 1][0].to_act == ["green"]
    assert steps[second][0].round == 13
    turns = sum(1 for _, m in steps[:second] if isinstance(m, Turn))
    assert steps[second][0].round == turns // 3 + 1


def test_the_sixth_church_ends_the_game():
    text = play_game("hamburgum", 4, 2)
    steps, end = walk(text)
    turns = sum(1 for _, m in steps if isinstance(m, Turn))
    assert end == Situation((turns - 1) // 4 + 1, None, [], "game over", True)
    assert not any(s.over for s, _ in steps)
    assert steps[-1][0].round == end.round
