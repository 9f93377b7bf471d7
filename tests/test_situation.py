"""In random games of every game, the situation before each move names the player who makes
it (when a player makes it), names nobody only before a chance outcome, and says the game is over exactly after the last move."""

import pytest

from referee.lab.random_game import play_game

from .situations import walk

# game, player counts, variants; each count is played for SEEDS seeds
GAMES = [
    ("speicherstadt", (2, 3, 4, 5), ()),
    ("canterbury", (2, 3, 4), ()),
    ("hamburgum", (2, 3, 4, 5), ()),
    ("hamburgum", (3,), ("advanced-2",)),
]
SEEDS = range(6)


@pytest.mark.parametrize(("game", "counts", "variants"), GAMES)
def test_the_situation_names_who_moves_next(game, counts, variants):
    for players in counts:
        for seed in SEEDS:
            steps, end = walk(play_game(game, players, seed, variants), variants)
            for number, (situation, move) in enumerate(steps, 1):
                assert not situation.over, (players, seed, number)
                colour = getattr(move, "player", None)
                if colour:
                    assert colour in situation.to_act, (players, seed, number, situation, move)
                if not situation.to_act:  # the table reveals a chance outcome: no player moves
                    assert not colour, (players, seed, number, situation, move)
                assert situation.pending, (players, seed, number)
            assert end.over and end.to_act == [], (players, seed, end)
            assert end.pending == "game over"
