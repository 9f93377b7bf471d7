"""Positions set up directly, for tests of a rule in a situation no short record reaches.

(The rulebook's worked examples are records of specs/hamburgum/examples instead.) The helpers
below put the pieces in place (donations with their tokens and discs, citizens on sites, ships
in the harbour), and `play` then applies one turn exactly as a record would state it.
"""

from collections import Counter

from referee.games import load_game
from referee.games.base import Seat, Trace
from referee.games.hamburgum.moves import Site
from referee.notation.parser import Header, parse


def position(colours, variants=()):
    game = load_game("hamburgum", tuple(variants))
    return game.new_state([Seat(c) for c in colours], 0, Header(), Trace())


def donate(state, colour, church, kind, scored=False):
    """A donation made earlier in the game (its cost paid then): token, disc, completion."""
    player = state.players[colour]
    state._donate(player, church, kind, Counter(), state.game.rule("donation-cost"))
    player.tokens[-1].scored = scored


def settle(state, colour, site, kind="brewery"):
    """A house built earlier in the game, with its citizen on `site` ("petri-2")."""
    parish, _, number = site.rpartition("-")
    place = Site(parish, int(number))
    player = state.players[colour]
    state.sites[place] = colour
    player.citizens.append(place)
    player.houses.append(kind)
    state.built[kind] += 1


def give(state, colour, **stock):
    """Set a player's money and stock counts (those named; the rest stay as they are)."""
    player = state.players[colour]
    money = stock.pop("money", None)
    if money is not None:
        player.money = money
    for key, n in stock.items():
        player.stock[key] = n


def play(state, colour, line, space="sugar"):
    """Apply one turn of `colour`, whose marker stands on `space` and whose turn it is."""
    state.turn = state.order.index(colour)
    state.players[colour].space = space
    text = f'[Game "hamburgum"]\n[Players "{", ".join(state.order)}"]\n\n{line}\n'
    move = parse(text, "example", "hamburgum", state.game.build_move).entries[0]
    state.apply(move)
    return state.players[colour]
