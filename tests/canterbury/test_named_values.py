"""What a Canterbury build action names of the spec (the values a report lists when they are
uncertain): every check it passes names its values, an action refused names those of the
checks it passed before the refusal and no others, and an action that passes them all names
them at once (`BuildNames`)."""

from __future__ import annotations

import random

import pytest

from referee.errors import Violation
from referee.games.base import Trace
from referee.games.canterbury.moves import FULL, TAX, Action
from referee.games.canterbury.play import random_move
from referee.lab.random_game import random_game_start


def _first_build(players: int, seed: int):
    """The game, its state just before the first build action of a random game, and that action."""
    _, game, state = random_game_start("canterbury", players)
    rng = random.Random(seed)
    while not state.is_over():
        move = random_move(state, rng)
        if isinstance(move, Action) and move.kind in (FULL, TAX) and move.builds:
            return game, state, move
        state.apply(move)
    raise AssertionError("a random game without a build action")


def _addresses(game, build):
    info = game.structures[build.structure]
    ring = game.districts[build.district].ring
    player = f"structures:structures.{info.id}.printed.player" + (f".{ring}" if isinstance(info.player, dict) else "")
    return {
        "supply": {f"structures:structures.{info.id}.printed.tiles"},
        "payment": {f"structures:structures.{info.id}.printed.cost"},
        "placed": {
            f"board:districts.{build.district}.neighbours",
            player,
            "board:aliases",
            f"board:districts.{build.district}",
            *(f"structures:structures.{s}.names" for s in (build.structure, *build.demolish)),
            *(f"board:districts.{d}" for d in build.serving),
        },
    }


def _refused(state, move) -> str:
    """The rule an action is refused for, executed under a fresh trace of the record."""
    state.trace = Trace()
    with pytest.raises(Violation) as refused:
        state.execute(move)
    return refused.value.rule


CASES = [(players, seed) for players in (2, 3, 4) for seed in (1, 2, 3)]


@pytest.mark.parametrize("players,seed", CASES)
def test_an_action_that_passes_every_check_names_the_values_of_each(players, seed):
    game, state, move = _first_build(players, seed)
    state.trace = Trace()
    state.execute(move)
    rule = game.rule
    for build in move.builds:
        names = _addresses(game, build)
        assert names["supply"] | names["payment"] | names["placed"] <= state.trace.values_used
    applied = {rule(r) for r in ("supply", "payment", "connectivity", "centre-forbidden", "player-marker", "structure-names", "district-names")}
    assert applied <= state.trace.rules_applied


@pytest.mark.parametrize("players,seed", CASES)
def test_an_action_refused_for_its_payment_names_its_supply_only(players, seed):
    game, state, move = _first_build(players, seed)
    player = state.players[move.player]
    player.money = -sum(game.structures[b.structure].cost for b in move.builds) - 50  # no tax can pay for it
    assert _refused(state, move) == game.rule("payment")
    for build in move.builds:
        names = _addresses(game, build)
        assert names["supply"] <= state.trace.values_used
        assert not names["payment"] & state.trace.values_used
    assert game.rule("supply") in state.trace.rules_applied
    assert not {game.rule(r) for r in ("payment", "connectivity", "player-marker", "district-names")} & state.trace.rules_applied


@pytest.mark.parametrize("players,seed", CASES)
def test_an_action_refused_for_the_supply_names_none_of_its_values(players, seed):
    game, state, move = _first_build(players, seed)
    state.board.supply[move.builds[-1].structure] = 0
    assert _refused(state, move) == game.rule("supply")
    for build in move.builds:
        names = _addresses(game, build)
        assert not (names["supply"] | names["payment"] | names["placed"]) & state.trace.values_used
    assert not {game.rule(r) for r in ("supply", "payment", "connectivity", "player-marker")} & state.trace.rules_applied
