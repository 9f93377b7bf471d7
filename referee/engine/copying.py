"""Independent copies of a game in progress, for rulings, trials, undo and search."""

from __future__ import annotations

import copy

from referee.games.base import State


def copy_state(state: State) -> State:
    """An independent copy of a game in progress (its trace included); the game, with its
    spec, is shared, as nothing in a replay changes it."""
    game = state.game
    return copy.deepcopy(state, {id(game): game, id(game.spec): game.spec})
