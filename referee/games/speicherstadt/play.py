"""The Speicherstadt: the legal next moves, and random legal ones for `referee play`.

The rules (rules.py) decide whether a move is legal; this module lists
moves. Loading is listed one step at a time (a single cube, or the smallest
market-hall batch). Random games follow the odds in `specs/speicherstadt/play.yaml`,
which favour useful loading without leaving out the odd moves the rules allow.
The game object (game.py) asks this module; the rules never do.
"""

from __future__ import annotations

import random
from collections import Counter

from referee.games.speicherstadt.moves import Load, Offer, Place, Reveal, RoundStart
from referee.games.speicherstadt.rules import DEMAND, FINAL_FIRES, LOADING, PURCHASE, SUPPLY, Player, SpeicherstadtState
from referee.i18n import N_, _
from referee.notation.parser import Move


def legal_moves(state: SpeicherstadtState) -> list[Move]:
    if state.phase in (SUPPLY, FINAL_FIRES):
        season = state.current_season()
        if season is None:
            return []
        seen, moves = set(), []
        for card in state.deck[season]:
            key = (card.type, tuple(sorted((k, v) for k, v in card.face.items() if v is not None)))
            if key not in seen:
                seen.add(key)
                moves.append(Reveal(card.type, **{k: v for k, v in card.face.items() if v is not None}))  # a face the box gives is part of the move
        return moves
    if state.phase == DEMAND:
        colour = state.to_place()
        spaces = state.spec["components"]["board"]["building_spaces"]
        return [Place(colour, i + 1) for i, s in enumerate(state.slots) if len(s.queue) < spaces]
    if state.phase == PURCHASE:
        offer = state.current_offer()
        moves = [Offer(offer.colour, False, state.purchase_slot + 1)]
        if state.players[offer.colour].coins >= offer.price:
            moves.insert(0, Offer(offer.colour, True, state.purchase_slot + 1))
        return moves
    if state.phase == LOADING:
        moves: list[Move] = []
        for colour in loading_order(state):
            moves.extend(loading_options(state, state.players[colour]))
        moves.append(RoundStart(state.round + 1) if not state.last_round else Reveal(state.game.fire))
        return moves
    return []


def loading_order(state: SpeicherstadtState) -> list[str]:
    return state.loading_order()


def loading_options(state: SpeicherstadtState, player: Player) -> list[Load]:
    """One-step loading moves for a player (single cubes, or the smallest hall batches)."""
    colour, game = player.seat.colour, state.game
    hall = state.spec["components"]["market_hall"]
    moves: list[Load] = []
    for g in sorted(set(player.dock)):
        for i, c in enumerate(player.contracts):
            if g in c.open:
                moves.append(Load(colour, "contract", (g,), contract=i + 1))
        trader = game.trader_for(g)
        if trader and player.owns(trader):
            moves.append(Load(colour, "sell", (g,)))
        if player.owns(game.warehouse) and len(player.warehouse) < game.warehouse_capacity():
            moves.append(Load(colour, "warehouse_in", (g,)))
        if len(player.hall) < hall["store"]:
            moves.append(Load(colour, "hall_keep", (g,)))
        moves.append(Load(colour, "spoil", (g,)))
    dock = sorted(player.dock)
    if len(dock) >= hall["sell"]["give"]:
        moves.append(Load(colour, "hall_sell", tuple(dock[: hall["sell"]["give"]])))
    give = hall["exchange"]["give"]
    if len(dock) >= give:
        returned = tuple(dock[:give])
        stock = state.goods_stock + Counter(returned)
        for g in sorted(g for g, k in stock.items() if k > 0):
            moves.append(Load(colour, "hall_exchange", returned, take=(g,) * hall["exchange"]["take"]))
    for g in sorted(set(player.warehouse)):
        moves.append(Load(colour, "warehouse_out", (g,)))
    for g in sorted(set(player.hall)):
        moves.append(Load(colour, "hall_take", (g,)))
    return moves


def random_move(state: SpeicherstadtState, rng: random.Random) -> Move:
    if state.phase in (SUPPLY, FINAL_FIRES):
        return _random_reveal(state, rng)
    if state.phase == LOADING:
        return _random_loading(state, rng)
    moves = legal_moves(state)
    if state.phase == PURCHASE and moves[0].buy and rng.random() < state.spec["play"]["buy"]:
        return moves[0]  # buy more often than not, so that games have cards to play with
    return rng.choice(moves)


def chosen(state: SpeicherstadtState, move: Move) -> list[str]:
    """What a move chose, for the lab's tally of choices: the card a purchase buys (by its
    type), the loading action, the slot's card a worker queues for."""
    if isinstance(move, Offer):
        offer = state.current_offer()
        return [f"buy {offer.slot.card.type}"] if move.buy and offer is not None else []
    if isinstance(move, Place) and 0 < move.slot <= len(state.slots):
        return [f"queue for {state.slots[move.slot - 1].card.type}"]
    if isinstance(move, Load):
        return [move.action]
    return []


# the lab's words for what a purchase or a placement chose (`chosen`), and for each loading action
CHOSEN_CARD = {"buy": N_("buy the {card}"), "queue for": N_("queue for the {card}")}
CHOSEN_LOADING = {
    "contract": N_("cover a contract"),
    "sell": N_("sell goods"),
    "spoil": N_("let goods spoil"),
    "warehouse_in": N_("store goods in the warehouse"),
    "warehouse_out": N_("take goods out of the warehouse"),
    "hall_keep": N_("keep goods in the market hall"),
    "hall_take": N_("take goods back from the market hall"),
    "hall_sell": N_("sell goods at the market hall"),
    "hall_exchange": N_("exchange goods at the market hall"),
}


def choice_name(game, choice: str) -> str:
    """A choice of `chosen` in the reader's language (`queue for the Ship`)."""
    for verb, words in CHOSEN_CARD.items():
        if choice.startswith(verb + " "):
            return _(words).format(card=game.word_name(choice[len(verb) + 1 :]))
    return _(CHOSEN_LOADING[choice]) if choice in CHOSEN_LOADING else game.word_name(choice)


def table_move(state: SpeicherstadtState, rng: random.Random) -> Move:
    """What no player chooses: a card revealed, or, once every player is done loading, the
    next round's heading (after the last round, the fires left are revealed)."""
    if state.phase == LOADING:
        return RoundStart(state.round + 1) if not state.last_round else _random_reveal(state, rng)
    return random_move(state, rng)


def _random_reveal(state: SpeicherstadtState, rng: random.Random) -> Reveal:
    game = state.game
    season = state.current_season()
    card = rng.choice(state.deck[season])
    face = dict(card.face)
    kind = game.face_fields(card.type)
    if "value" in kind and face.get("value") is None:
        f = game.face_spec(card.type)
        face["value"] = rng.randint(f["min"], f["max"])
    if "points" in kind and face.get("points") is None:
        face["points"] = game.play_points(card.season)
    if "goods" in kind and face.get("goods") is None:
        size = rng.choice(game.face_spec(card.type)["sizes"])
        face["goods"] = tuple(sorted(rng.choice(game.goods) for _ in range(size)))
    cubes: tuple[str, ...] = ()
    if game.is_ship(card.type):
        pool = list(state.bag.elements())
        cubes = tuple(sorted(rng.sample(pool, state.spec["components"]["ship_cubes"])))
    return Reveal(card.type, value=face.get("value"), points=face.get("points"), goods=tuple(face.get("goods") or ()), cubes=cubes)


def _random_loading(state: SpeicherstadtState, rng: random.Random) -> Move:
    """Move goods about: mostly useful moves, sometimes odd ones, so every kind is reached."""
    order = loading_order(state)
    busy = [c for c in order if state.players[c].dock]
    idle = [c for c in order if not state.players[c].dock and (state.players[c].warehouse or state.players[c].hall)]
    odds = state.spec["play"]["loading"]
    if busy and rng.random() < odds["busy"]:
        player = state.players[rng.choice(busy)]
        options = loading_options(state, player)
        useful = [m for m in options if m.action in ("contract", "sell")]
        if useful and rng.random() < odds["useful"]:
            return rng.choice(useful)
        return rng.choice(options)
    if idle and rng.random() < odds["idle"]:
        return rng.choice(loading_options(state, state.players[rng.choice(idle)]))
    return RoundStart(state.round + 1) if not state.last_round else _random_reveal(state, rng)
