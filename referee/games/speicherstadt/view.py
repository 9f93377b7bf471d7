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
from referee.i18n import N_, _

HEADS = (N_("player"), N_("coins"), N_("points"), N_("cards"), N_("contracts"), N_("warehouse"), N_("hall"), N_("unloaded"))


def card_text(state: SpeicherstadtState, card: Card) -> str:
    """A card as a person names it: "Fireman 3", "Contract coffee tea", "Fire 4 points"."""
    game = state.game
    name = game.card_title(card.type)
    face = []
    for key, value in card.face.items():
        if value is None:
            continue
        if key == "points":
            face.append(amount(value, "point"))
        elif isinstance(value, (list, tuple)):
            face.append(game.goods_title(value))
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
    goods = state.game.goods_title
    rows: list[list[object]] = []
    for colour, p in state.players.items():
        done = sum(1 for c in p.contracts if c.complete)
        notes = [_("to act")] if colour in to_act else []
        if state.seats[state.start].colour == colour:
            notes.append(_("start player"))
        rows.append(
            [
                p.seat.shown,
                p.coins,
                mark(points(state, colour), points_q),
                len(p.cards),
                f"{done}/{len(p.contracts)}",
                goods(sorted(p.warehouse)),
                goods(sorted(p.hall)),
                goods(sorted(p.dock)),
                ", ".join(notes),
            ]
        )
    return [*(_(head) for head in HEADS), ""], rows


def board_text(state: SpeicherstadtState) -> list[str]:
    game = state.game
    pile = ", ".join(f"{game.season_title(s)} {len(cards)}" for s, cards in state.deck.items() if cards) or _("empty")
    bag = ", ".join(f"{game.good_title(g)} {n}" for g, n in sorted(state.bag.items()) if n) or _("empty")
    lines = [_("draw pile: {pile}").format(pile=pile), _("bag: {goods}").format(goods=bag)]
    stock = +state.goods_stock
    if stock:
        lines.append(_("goods stock: {goods}").format(goods=", ".join(f"{game.good_title(g)} {n}" for g, n in sorted(stock.items()))))
    if state.slots:
        lines += ["", _("display (each queue from the first offer, with the price for each worker):")]
        width = max(len(card_text(state, s.card)) for s in state.slots)
        for i, slot in enumerate(state.slots):
            lines.append("  " + _("slot {n}").format(n=i + 1) + "  " + slot_text(state, i, slot, width))
    offer = state.current_offer()
    if offer is not None:
        lines.append(_("Purchase: slot {n} is offered to {colour} at {price}").format(n=state.purchase_slot + 1, colour=offer.colour, price=amount(offer.price, "coin")))
    holdings = []
    for colour, p in state.players.items():
        if p.cards:
            holdings.append(f"  {colour}: " + ", ".join(card_text(state, c) for c in p.cards))
        for n, contract in enumerate(p.contracts, 1):
            line = _("{colour} contract {n}: {goods}").format(colour=colour, n=n, goods=game.goods_title(contract.goods))
            if contract.covered:
                line += _("; covered: {goods}").format(goods=game.goods_title(sorted(contract.covered)))
            holdings.append("  " + line + (_(" (complete)") if contract.complete else ""))
    if holdings:
        lines += ["", _("cards held:"), *holdings]
    return lines


def slot_text(state: SpeicherstadtState, index: int, slot: Slot, width: int) -> str:
    card = card_text(state, slot.card)
    if slot.buyer is not None:
        return f"{card:<{width}}  " + _("bought by {colour} for {price}: it has left the display").format(colour=slot.buyer, price=amount(slot.price, "coin"))
    if slot.discarded:
        return f"{card:<{width}}  " + _("nobody bought it: discarded")
    cargo = f" [{state.game.goods_title(slot.cubes)}]" if slot.cubes else ""
    queue = ", ".join(f"{colour} {price}" for colour, price in queue_prices(slot, offered_from(state, index)))
    return f"{card + cargo:<{width}}  " + (queue or _("no workers"))


def chart_figures(state: SpeicherstadtState) -> dict[str, dict[str, int]]:
    """What the replay's chart follows: points (fires during the game, the final score at the end), and coins."""
    return {
        "points": {c: points(state, c) for c in state.players},
        "coins": {c: p.coins for c, p in state.players.items()},
    }
