"""How good a position is for each player: what the `greedy` agent maximises and what the
cut-off playouts of `mcts` are scored by.

Final scoring applied to the position as it is (`State.standings_now`) is the base. It is a
poor guide where final scoring counts only what is finished: in The Speicherstadt a contract
half filled or a fireman bought scores nothing yet and has cost coins, in Civitas Hamburgum
building materials are worth their end-sale price only, so a player who went by it alone
would never buy a contract or build a house. Each game may add its *prospects*: the points
the position is likely to be worth later, by the weights of evaluation.yaml (an agent's
judgement, not rules) applied to the game's own numbers read from its specs. Canterbury,
which scores as it goes, has none.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources

import yaml

from referee.games.base import Standing, State


@cache
def weights() -> dict:
    """The weights of evaluation.yaml, by game."""
    text = resources.files("referee.lab").joinpath("evaluation.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    return {k: v for k, v in data.items() if k != "kind"}


def _speicherstadt(state: State, standings: list[Standing], w: dict) -> dict[str, float]:
    """Coins (they buy cards), contracts not yet complete (a share of their points, more the
    more of their goods are covered), cubes unloaded or kept in the market hall, workers
    queued for cards on display (`_queued`), and the fires
    still in the deck (their points, as `referee play` invents them), a share of which the
    player with the most firemen now would win and the one with the fewest would lose."""
    game, types = state.game, state.spec["cards"]["types"]
    sizes = types[game.contract]["points_by_size"]
    fire_points = types[game.fire]["play_points"]
    at_stake = w["fires"] * sum(fire_points[card.season] for cards in state.deck.values() for card in cards if card.type == game.fire)
    firemen = {colour: state.figures(colour, only=("firemen",))["firemen"] for colour in state.players}
    high, low = max(firemen.values()), min(firemen.values())
    out = {}
    for colour, player in state.players.items():
        extra = w["coin"] * player.coins + w["unloaded"] * len(player.dock) + w["stored"] * len(player.hall)
        for contract in player.contracts:
            if not contract.complete:
                share = w["contract_held"] + w["contract_covered"] * len(contract.covered) / len(contract.goods)
                extra += share * sizes[len(contract.goods)]
        extra += _queued(state, colour, w)
        if high != low:
            extra += at_stake if firemen[colour] == high else -at_stake if firemen[colour] == low else 0.0
        out[colour] = extra
    return out


def _queued(state: State, colour: str, w: dict) -> float:
    """What the colour's workers queued for cards on display are worth: for each card, the
    lowest of them gets its offer once the workers below it pass, at a coin for each worker
    from it up."""
    worth, total = w["worth"], 0.0
    for slot in state.slots:
        if slot.on_display and colour in slot.queue:
            below = slot.queue.index(colour)
            price = len(slot.queue) - below
            total += w["queue"] * max(0.0, worth.get(slot.card.type, 0.0) - w["coin"] * price) / (1 + below)
    return total


def _hamburgum(state: State, standings: list[Standing], w: dict) -> dict[str, float]:
    """The money left after final scoring has bought prestige with it (a share of a point, where
    final scoring counts it only for the tie-break), building materials beyond their end-sale
    price (they build houses and pay donations), production houses (each adds a cube to every
    production of its good still to come) and ships in the harbour."""
    game = state.game
    price = state.spec["scoring"]["prestige_price"]
    out = {}
    for standing in standings:
        colour = standing.seat.colour
        player = state.players[colour]
        money = dict((key, value) for key, value, _ in standing.tiebreak).get("money", 0)
        figures = state.figures(colour, only=(*game.materials, *game.goods, "ships", "houses"))
        goods = sum(figures[g] for g in game.goods)
        materials = sum(figures[m] for m in game.materials)
        producing = sum(1 for house in player.houses if house in game.producer_of.values())
        out[colour] = w["money"] * money / price + w["material"] * materials + w["good"] * goods + w["house"] * figures["houses"] + w["production_house"] * producing + w["ship"] * figures["ships"]
    return out


PROSPECTS: dict[str, Callable[[State, list[Standing], dict], dict[str, float]]] = {"speicherstadt": _speicherstadt, "hamburgum": _hamburgum}


def totals(state: State) -> tuple[list[Standing], dict[str, float]]:
    """Final scoring applied now, and each colour's total with its prospects added (none once
    the game is over: then final scoring is all there is)."""
    standings = state.standings_now()
    found = {s.seat.colour: float(s.total) for s in standings}
    prospects = PROSPECTS.get(state.game.name)
    if prospects is not None and not state.is_over():
        for colour, extra in prospects(state, standings, weights()[state.game.name]).items():
            found[colour] += extra
    return standings, found


def value_for(state: State, colour: str) -> tuple:
    """How good a position is for a colour: its total with prospects, less the best of the
    others', then the rules' tie-breaks for it (standings' own keys)."""
    standings, found = totals(state)
    mine = next(s for s in standings if s.seat.colour == colour)
    others = [v for c, v in found.items() if c != colour]
    return (round(found[colour] - (max(others) if others else 0.0), 6), *(sign * value for _, value, sign in mine.tiebreak))
