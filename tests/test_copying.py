"""The structural copy of a game state (referee/copying.py): independent of the original in
both directions, and playing on exactly as the original does."""

from __future__ import annotations

import copy
import random

import pytest

from referee.copying import copy_state
from referee.lab.random_game import random_game_start


def _midgame(name: str, players: int, moves: int, seed: int = 3):
    _, game, state = random_game_start(name, players)
    rng = random.Random(seed)
    choose = game.random_player()
    for _ in range(moves):
        if state.is_over():
            break
        state.apply(choose(state, rng))
    return game, state


def _play_out(game, state, seed: int) -> list:
    rng, choose, moves = random.Random(seed), game.random_player(), []
    while not state.is_over():
        move = choose(state, rng)
        moves.append(move)
        state.apply(move)
    return moves


@pytest.mark.parametrize("name,players,moves", [("speicherstadt", 3, 70), ("hamburgum", 4, 50), ("canterbury", 2, 20)])
def test_a_copy_plays_on_as_the_original_and_leaves_it_alone(name, players, moves):
    game, state = _midgame(name, players, moves)
    reference = copy.deepcopy(state, {id(game): game, id(game.spec): game.spec})
    before = repr(state.describe())
    copied = copy_state(state)
    assert copied is not state and copied.game is state.game and copied.spec is state.spec
    played = _play_out(game, copied, seed=11)
    assert played, "the copy was played to its end"
    assert repr(state.describe()) == before, "playing the copy changed the original"
    assert _play_out(game, reference, seed=11) == played, "the copy plays on as a deep copy does"
    assert [s.total for s in copied.standings()] == [s.total for s in reference.standings()]
    # and the other way round: the original played on leaves an earlier copy as it was
    again = copy_state(state)
    snapshot = repr(again.describe())
    _play_out(game, state, seed=5)
    assert repr(again.describe()) == snapshot


def test_shared_pieces_stay_shared_and_mutable_ones_are_new():
    game, state = _midgame("speicherstadt", 3, 40)
    copied = copy_state(state)
    for colour, player in state.players.items():
        twin = copied.players[colour]
        assert twin is not player and twin.cards is not player.cards
        # the seat is held by the state's seat list and by the player: one copy for both
        assert twin.seat is next(s for s in copied.seats if s.colour == colour)
        assert twin.seat is not player.seat
    assert copied.bag == state.bag and copied.bag is not state.bag
    assert type(copied.bag) is type(state.bag)


def test_a_frozen_piece_that_holds_a_mutable_one_is_copied():
    from referee.games.speicherstadt.rules import Card, Offered, Slot

    slot = Slot(Card("ship", "spring"))
    holder = type("Holder", (), {})()
    holder.slot, holder.offer, holder.fixed = slot, Offered(slot, "red", 3), ("a", 1)
    copied = copy_state(holder)
    assert copied.offer is not holder.offer and copied.offer.slot is copied.slot is not slot
    assert copied.fixed is holder.fixed  # nothing in it can change: shared
    copied.slot.cubes.append("coffee")
    assert slot.cubes == []
