"""The districts Canterbury's board keeps as open to connectivity (`Board.linked`) are those a
fresh look at the board finds, whatever was placed, demolished or copied since they were last
worked out."""

from __future__ import annotations

import random

from referee.games.base import Unrecorded
from referee.games.canterbury.play import random_move
from referee.lab.random_game import random_game_start


def _fresh(game, board):
    tiles = board.tiles
    return [d for d, info in game.districts.items() if tiles[d] or any(tiles[n] for n in info.neighbours)]


def test_the_kept_districts_match_a_fresh_look_at_every_position_of_random_games():
    looked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        _, game, state = random_game_start("canterbury", players)
        rng = random.Random(seed)
        while not state.is_over():
            board = state.board
            assert board.linked(game) == _fresh(game, board)
            trial = board.copy()  # a copy keeps what its original knows, and learns on its own
            empty = next((d for d in game.district_ids if not trial.tiles[d]), None)
            if empty is not None:
                trial.place(empty, game.buildable[0])
                assert trial.linked(game) == _fresh(game, trial)
                trial.remove(empty, game.buildable[0])
                assert trial.linked(game) == _fresh(game, trial) == board.linked(game)
            state.apply(random_move(state, rng))
            looked += 1
    assert looked > 100


def test_a_district_that_loses_its_last_tile_is_looked_at_again():
    _, game, state = random_game_start("canterbury", 3)
    state.trace = Unrecorded()
    board = state.board.copy()
    well = next(d for d in game.district_ids if board.tiles[d])
    before = board.linked(game)
    for tile in list(board.tiles[well]):
        board.remove(well, tile)
    after = board.linked(game)
    assert after == _fresh(game, board) and len(after) < len(before)
