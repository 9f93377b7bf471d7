"""The Speicherstadt in text, for `referee show`: the players' figures, the display and its
worker queues, the draw pile, the bag and what each player holds.

A queue is shown from the worker offered first, each at the price the card would cost them
(the queue's length less the workers offered before). During Purchase a bought card has left
the display: its slot says who bought it and for how much, and the slot on offer says to whom
and at what price. Points that rest on provisional spec values so far carry a `?`.
"""

from __future__ import annotations

from referee.drawing.words import amount, mark
from referee.games.base import rests_on
from referee.games.speicherstadt.rules import Card, Slot, SpeicherstadtState
from referee.i18n import current


def card_text(state: SpeicherstadtState, card: Card) -> str:
    """A card as a person names it: "Fireman 3", "Contract coffee tea", "Fire 4 points"."""
    spec = state.game.spec
    name = spec.name(state.game.types.get(card.type), current(), card.type)
    face = []
    for key, value in card.face.items():
        if value is None:
            continue
        if key == "points":
            face.append(amount(value, "point"))
        elif isinstance(value, (list, tuple)):
            face.append(" ".join(spec.name(spec["components"]["goods"].get(g), current(), g) for g in value))
        else:
            face.append(str(value))
    return " ".join([name, *face])


def queue_prices(slot: Slot, offered_from: int = 0) -> list[tuple[str, int]]:
    """Each worker still in a queue with the price the card costs them, first offer first."""
    length = len(slot.queue)
    return [(colour, length - i) for i, colour in enumerate(slot.queue) if i >= offered_from]


def offered_from(state: SpeicherstadtState, index: int) -> int:
    """How many workers of a slot's queue have been offered the card and passed."""
    offer = state.current_offer()
    return state.offer_index if offer is not None and index == state.purchase_slot else 0


def points(state: SpeicherstadtState, colour: str) -> int:
    return sum(state.breakdown(state.players[colour]).values())


def player_table(state: SpeicherstadtState) -> tuple[list[str], list[list[object]]]:
    to_act = state.situation().to_act
    points_q = rests_on(state, "cards", "scoring")
    rows: list[list[object]] = []
    for colour, p in state.players.items():
        done = sum(1 for c in p.contracts if c.complete)
        notes = ["to act"] if colour in to_act else []
        if state.seats[state.start].colour == colour:
            notes.append("start player")
        rows.append(
            [
                p.seat.label,
                p.coins,
                mark(points(state, colour), points_q),
                len(p.cards),
                f"{done}/{len(p.contracts)}",
                " ".join(sorted(p.warehouse)),
                " ".join(sorted(p.hall)),
                " ".join(sorted(p.dock)),
                ", ".join(notes),
            ]
        )
    return ["player", "coins", "points", "cards", "contracts", "warehouse", "hall", "unloaded", ""], rows


def board_text(state: SpeicherstadtState) -> list[str]:
    game = state.game
    pile = ", ".join(f"{game.season_name(s)} {len(cards)}" for s, cards in state.deck.items() if cards) or "empty"
    bag = ", ".join(f"{g} {n}" for g, n in sorted(state.bag.items()) if n) or "empty"
    lines = [f"draw pile: {pile}", f"bag: {bag}"]
    stock = +state.goods_stock
    if stock:
        lines.append("goods stock: " + ", ".join(f"{g} {n}" for g, n in sorted(stock.items())))
    if state.slots:
        lines += ["", "display (each queue from the first offer, with the price for each worker):"]
        width = max(len(card_text(state, s.card)) for s in state.slots)
        for i, slot in enumerate(state.slots):
            lines.append(f"  slot {i + 1}  " + slot_text(state, i, slot, width))
    offer = state.current_offer()
    if offer is not None:
        lines.append(f"Purchase: slot {state.purchase_slot + 1} is offered to {offer.colour} at {amount(offer.price, 'coin')}")
    holdings = []
    for colour, p in state.players.items():
        if p.cards:
            holdings.append(f"  {colour}: " + ", ".join(card_text(state, c) for c in p.cards))
        for n, contract in enumerate(p.contracts, 1):
            covered = f"; covered: {' '.join(sorted(contract.covered))}" if contract.covered else ""
            holdings.append(f"  {colour} contract {n}: {' '.join(contract.goods)}{covered}{' (complete)' if contract.complete else ''}")
    if holdings:
        lines += ["", "cards held:", *holdings]
    return lines


def slot_text(state: SpeicherstadtState, index: int, slot: Slot, width: int) -> str:
    card = card_text(state, slot.card)
    if slot.buyer is not None:
        return f"{card:<{width}}  bought by {slot.buyer} for {amount(slot.price, 'coin')}: it has left the display"
    if slot.discarded:
        return f"{card:<{width}}  nobody bought it: discarded"
    cargo = f" [{' '.join(slot.cubes)}]" if slot.cubes else ""
    queue = ", ".join(f"{colour} {price}" for colour, price in queue_prices(slot, offered_from(state, index)))
    return f"{card + cargo:<{width}}  {queue or 'no workers'}"


def chart_figures(state: SpeicherstadtState) -> dict[str, dict[str, int]]:
    """What the replay's chart follows: points (fires during the game, the final score at the end), and coins."""
    return {
        "points": {c: points(state, c) for c in state.players},
        "coins": {c: p.coins for c, p in state.players.items()},
    }
