"""The Speicherstadt as a picture: the display with each card's worker queue, the draw pile and
the bag, and every player's coins, points, cards, contracts, warehouse and market hall.

A queue stands on its card as on the board: the first worker placed sits nearest the card and
is offered the card first, at the price written beside it (the queue's length less the workers
offered before). In Purchase the worker being asked is ringed, those who passed are faded, and
a bought card is shown as gone from the display with its buyer and price. Card and goods names,
the goods' colours, the building spaces above a card and the players' colours come from the
spec; the sizes of the drawing from `specs/speicherstadt/picture.yaml`.
"""

from __future__ import annotations

import textwrap

from referee.drawing import svg
from referee.drawing.words import amount
from referee.games.base import Illustration, rests_on, situation_line
from referee.games.speicherstadt.rules import PURCHASE, SpeicherstadtState
from referee.games.speicherstadt.view import card_text, offered_from, points
from referee.i18n import N_, Message, _, current
from referee.notation.colours import colour_named

# The pictures the rulebook site shows under a rule (docs/replays.py draws them).
ILLUSTRATIONS = (
    Illustration(
        "speicherstadt/purchase-turn",
        "purchase-queue.log",
        lambda state: state.phase == PURCHASE,
        Message(
            N_(
                "The display when Purchase begins (the rulebook's example): each card is offered up its queue from the first worker, at the queue's length, and one coin less for each worker who passed."
            )
        ),
    ),
    Illustration(
        "speicherstadt/fire-resolution",
        "fire-ties.log",
        lambda state: False,
        Message(N_("After the fire (the example of tied leaders): beige and orange, level on firemen, both gain the fire's 2 points; purple, alone with the fewest, loses 2.")),
    ),
    Illustration(
        "speicherstadt/loading-cubes",
        "unloading-two-ships.log",
        lambda state: False,
        Message(N_("Blue after unloading two ships (the rulebook's Loading example): rubber and tea on the large contract, the carpet kept in the market hall, the rest sold.")),
    ),
)


def draw(state: SpeicherstadtState, caption: str) -> svg.Drawing:
    game = state.game
    title = game.spec.name(game.spec.meta, current(), game.name)
    layout = svg.Layout(state.spec["picture"])
    d = svg.Drawing(layout.width, layout.width, f"{title}: {caption}")
    top = svg.heading(d, title, caption, situation_line(state.situation()), layout.margin)
    goods = state.spec["components"]["goods"]  # the key first: the same in every position, shared by a replay's pictures
    top = svg.key_row(d, [(goods_colour(state, good), "", game.good_title(good)) for good in goods], top - svg.BODY, _("goods:")) + svg.PAD
    top = _supplies(d.part("supplies"), state, layout, top)
    top = _display(d, state, layout, top + layout.gap + svg.BODY)
    for colour in state.players:
        top = _player(d.part(f"player {colour}"), state, layout, colour, top)
    d.finish(top)
    return d


def goods_colour(state: SpeicherstadtState, good: str) -> str | None:
    return state.spec["components"]["goods"].get(good, {}).get("colour")


def _cubes(g, state: SpeicherstadtState, layout: svg.Layout, x: float, y: float, goods, faded: bool = False) -> float:
    """A row of goods cubes; returns where the row ends."""
    for good in goods:
        node = svg.cube(g, x, y, layout.cube.size, goods_colour(state, good), state.game.good_title(good))
        if faded:
            svg.fade(node)
        x += layout.cube.size + layout.cube.gap
    return x


def _supplies(g, state: SpeicherstadtState, layout: svg.Layout, top: float) -> float:
    game, sizes, x = state.game, layout.supplies, layout.margin
    room = svg.inside(layout.width, layout.margin)
    pile = " · ".join(f"{game.season_title(s).split(' (')[0]} {len(cards)}" for s, cards in state.deck.items() if cards) or _("empty")
    svg.text(g, x, top + sizes.line, _("draw pile: {pile}").format(pile=pile), size=svg.LABEL, limit=svg.fit(room, svg.LABEL))
    y = top + sizes.line + sizes.line
    svg.text(g, x, y, _("bag:"), size=svg.LABEL)
    x += sizes.bag_label
    for good, count in sorted(state.bag.items()):
        svg.cube(g, x, y - sizes.bag_cube + layout.cube.gap, sizes.bag_cube, goods_colour(state, good), _("{good}: {n} in the bag").format(good=game.good_title(good), n=count))
        svg.text(g, x + sizes.bag_cube + layout.cube.gap, y, count, size=svg.LABEL)
        x += sizes.bag_step
    stock = +state.goods_stock
    if stock:
        words = _("stock: {goods}").format(goods=", ".join(f"{game.good_title(good)} {n}" for good, n in sorted(stock.items())))
        svg.text(g, x, y, words, size=svg.SMALL, fill=svg.MUTED, limit=svg.fit(layout.width - layout.margin - x))
    return y


def _display(d: svg.Drawing, state: SpeicherstadtState, layout: svg.Layout, top: float) -> float:
    """The display, a group per slot: a move changes one slot, and the replay page stores each
    distinct group once. The building spaces are a group of their own, the same in every position."""
    sizes = layout.display
    spaces = state.spec["components"]["board"]["building_spaces"]
    columns = max(len(state.slots), state.supply_size)
    width = min(sizes.widest, (svg.inside(layout.width, layout.margin)) / columns)
    card_top = top + spaces * sizes.space + svg.half(sizes.space)

    def worker_at(i: int, k: int) -> tuple[float, float]:
        """Where the k-th worker of slot i stands: the first nearest the card."""
        return svg.middle(layout.margin + i * width, width) - sizes.queue_left, card_top - (k + 1) * sizes.space + sizes.worker

    frame = d.part("display")
    svg.text(frame, layout.margin, top, _("display: each card's queue, first offer nearest the card, with its price"), size=svg.SMALL, fill=svg.MUTED)
    for i in range(columns):
        for k in range(spaces):
            svg.circle(frame, *worker_at(i, k), sizes.empty, "none", stroke=svg.FAINT)
    offer = state.current_offer()
    for i in range(columns):
        g = d.part(f"slot {i + 1}")
        slot = state.slots[i] if i < len(state.slots) else None
        passed = offered_from(state, i)
        queue = slot.queue if slot is not None and slot.on_display else []
        for k, colour in enumerate(queue):
            x, y = worker_at(i, k)
            price = len(queue) - k
            node = svg.piece(g, x, y, sizes.worker, colour, f"{colour}: {amount(price, 'coin')}")
            if k < passed:
                svg.fade(node)
            if offer is not None and i == state.purchase_slot and k == passed:
                svg.circle(g, x, y, sizes.asked, "none", stroke=svg.HIGHLIGHT, stroke_width=svg.half(svg.RADIUS))
            svg.text(g, x + sizes.price, y + svg.half(sizes.worker), price, size=svg.SMALL, fill=svg.MUTED if k < passed else svg.INK)
        _card(g, state, layout, i, slot, layout.margin + i * width + sizes.inset, card_top, svg.inside(width, sizes.inset))
    return card_top + sizes.card + layout.gap


def _card(g, state: SpeicherstadtState, layout: svg.Layout, index: int, slot, x: float, y: float, width: float) -> None:
    sizes = layout.display
    if slot is None:
        svg.rect(g, x, y, width, sizes.card, fill="none", stroke=svg.FAINT, rx=svg.RADIUS, stroke_dasharray="3 3")
        return
    gone = not slot.on_display
    box = svg.rect(g, x, y, width, sizes.card, fill="#fffaf0" if not gone else "#f0f0f0", stroke=svg.LINE, rx=svg.RADIUS)
    if gone:
        box.set("stroke-dasharray", "3 3")
    first = y + sizes.line + svg.half(svg.RADIUS)
    svg.text(g, x + svg.RADIUS, first, f"{index + 1}", size=svg.TINY, fill=svg.MUTED)
    for n, part in enumerate(textwrap.wrap(card_text(state, slot.card), svg.fit(width - sizes.name))[: sizes.lines]):
        svg.text(g, x + sizes.name, first + n * sizes.line, part, size=svg.SMALL, weight=None if n else "bold", fill=svg.MUTED if gone else svg.INK)
    if slot.cubes:
        _cubes(g, state, layout, x + svg.PAD, y + sizes.cargo, slot.cubes)
    bottom = y + sizes.card - svg.PAD
    if slot.buyer is not None:
        svg.piece(g, x + svg.half(sizes.name) + svg.RADIUS, bottom - svg.RADIUS, svg.RADIUS, slot.buyer, _("bought by {colour}").format(colour=colour_named(slot.buyer).translated()))
        svg.text(g, x + sizes.name + svg.RADIUS, bottom, _("bought, {price}").format(price=slot.price), size=svg.TINY, fill=svg.MUTED)
    elif slot.discarded:
        svg.text(g, x + svg.PAD, bottom, _("discarded"), size=svg.TINY, fill=svg.MUTED)


def held_cards(state: SpeicherstadtState, cards) -> str:
    """A player's cards, the same card once with its count (`3 x ship`), in the order first held."""
    counted: dict[str, int] = {}
    for card in cards:
        name = card_text(state, card)
        counted[name] = counted.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{n} x {name}" for name, n in counted.items()) or _("no cards")


def _player(g, state: SpeicherstadtState, layout: svg.Layout, colour: str, top: float) -> float:
    sizes, left = layout.player, layout.margin
    p = state.players[colour]
    to_act = colour in state.situation().to_act
    width = svg.inside(layout.width, left)
    # the whole hand, over as many lines as it takes: the band grows by the lines past the first
    hand = textwrap.wrap(_("cards: {cards}").format(cards=held_cards(state, p.cards)), svg.fit(width - svg.PAD, svg.SMALL)) or [_("cards: {cards}").format(cards="")]
    step = svg.SMALL + svg.RADIUS
    extra = step * (len(hand) - 1)
    y = svg.player_band(g, left, top, width, sizes.height - sizes.gap + extra, colour, p.seat.shown, to_act)
    svg.labelled(g, sizes.coins, y, _("coins"), p.coins)
    svg.labelled(g, sizes.points, y, _("points"), points(state, colour), rests_on(state, "cards", "scoring"))
    notes = ([_("to act")] if to_act else []) + ([_("start player")] if state.seats[state.start].colour == colour else [])
    svg.band_notes(g, sizes.notes, y, notes, layout.width - left - sizes.notes)
    for n, words in enumerate(hand):
        svg.text(g, left + svg.PAD, y + sizes.line + step * n, words, size=svg.SMALL)
    x, row = left + svg.PAD, y + sizes.goods + extra
    cube = layout.cube.size
    for n, contract in enumerate(p.contracts, 1):
        svg.text(g, x, row, _("contract {n}").format(n=n), size=svg.TINY, fill=svg.MUTED)
        covered = list(contract.covered)
        at = x + sizes.contract_label
        for good in contract.goods:
            done = good in covered
            if done:
                covered.remove(good)
            at = _cubes(g, state, layout, at, row - cube, [good], faded=not done)
        x = at + sizes.group_gap
    for label, goods in ((N_("warehouse"), p.warehouse), (N_("hall"), p.hall), (N_("unloaded"), p.dock)):
        label = _(label)
        if goods:
            svg.text(g, x, row, label, size=svg.TINY, fill=svg.MUTED)
            x = _cubes(g, state, layout, x + len(label) * svg.TINY * svg.CHAR + svg.PAD, row - cube, sorted(goods)) + sizes.group_gap
    return top + sizes.height + extra
