"""The Speicherstadt's moves told in one plain sentence each, for the replay page.

A sentence is made from the move and the states before and after it: the card a worker
queues for, what a purchase cost, whom a fire rewards and punishes, what goods were sold for,
and the end of a round (income) when a move opens the next one.
"""

from __future__ import annotations

from referee.drawing.words import amount, article, listing, ordinal, signed
from referee.games.speicherstadt.moves import LOAD_ACTIONS, Load, Offer, Place, Reveal, RoundStart
from referee.games.speicherstadt.rules import SpeicherstadtState
from referee.games.speicherstadt.view import card_text
from referee.i18n import N_, _, current, localized
from referee.notation.colours import colour_named
from referee.notation.parser import Move


def describe_move(before: SpeicherstadtState, move: Move, after: SpeicherstadtState) -> str:
    opening = _("round {n} ends and income is paid; ").format(n=before.round) if after.round > before.round else ""
    if isinstance(move, RoundStart):
        return _("round {n} begins").format(n=move.round)
    if isinstance(move, Reveal):
        return opening + _reveal(before, move, after)
    if isinstance(move, Place):
        slot = after.slots[move.slot - 1]
        return _("{player} places a worker on slot {slot} ({card}), {place} in its queue").format(
            player=colour(move.player), slot=move.slot, card=card_text(after, slot.card), place=ordinal(len(slot.queue))
        )
    if isinstance(move, Offer):
        return _offer(before, move, after)
    if isinstance(move, Load):
        return _load(before, move, after)
    return after.game.format_move(move)


def _reveal(before: SpeicherstadtState, move: Reveal, after: SpeicherstadtState) -> str:
    game = after.game
    if move.card == game.fire:
        card = after.discards[-1]
        changes = [f"{colour(c)} {signed(after.players[c].points - before.players[c].points, 'points')}" for c in after.players if after.players[c].points != before.players[c].points]
        season = localized(game.season_named(card.season))
        outcome = ", ".join(changes) if changes else _("the firemen are level, nobody scores")
        return _("the {season} fire ({points}) is resolved: {outcome}").format(season=season, points=amount(card.face["points"], "point"), outcome=outcome)
    slot = after.slots[-1]
    card = article(card_text(after, slot.card))
    if slot.cubes:
        return _("{card} carrying {cubes} is revealed into slot {slot}").format(card=card, cubes=listing(goods_names(game, slot.cubes)), slot=len(after.slots))
    return _("{card} is revealed into slot {slot}").format(card=card, slot=len(after.slots))


def _offer(before: SpeicherstadtState, move: Offer, after: SpeicherstadtState) -> str:
    offer = before.current_offer()
    card = card_text(after, offer.slot.card)
    price, player = amount(offer.price, "coin"), colour(move.player)
    if move.buy:
        if offer.slot.cubes:
            return _("{player} buys the {card} for {price} and unloads {cubes}").format(player=player, card=card, price=price, cubes=listing(goods_names(after.game, offer.slot.cubes)))
        return _("{player} buys the {card} for {price}").format(player=player, card=card, price=price)
    if after.slots[before.purchase_slot].discarded:
        return _("{player} passes on the {card} at {price}; nobody bought it, so it is discarded").format(player=player, card=card, price=price)
    return _("{player} passes on the {card} at {price}").format(player=player, card=card, price=price)


# What each loading step is told as: {who} moves {goods}, {coins} earned, {take} taken.
LOADING = {
    "sell": N_("{who} sells {goods} to their traders for {coins}"),
    "spoil": N_("{who} lets {goods} spoil"),
    "warehouse_in": N_("{who} stores {goods} in the warehouse"),
    "warehouse_out": N_("{who} takes {goods} out of the warehouse"),
    "hall_keep": N_("{who} keeps {goods} in the market hall"),
    "hall_take": N_("{who} takes {goods} back from the market hall"),
    "hall_sell": N_("{who} sells {goods} at the market hall for {coins}"),
    "hall_exchange": N_("{who} exchanges {goods} at the market hall for {take}"),
}


def _load(before: SpeicherstadtState, move: Load, after: SpeicherstadtState) -> str:
    game = after.game
    who, goods = move.player, listing(goods_names(game, move.goods))
    if move.action == "contract":
        contract = after.players[who].contracts[move.contract - 1]
        if contract.complete:
            return _("{who} covers {goods} on contract {n}, completing it").format(who=colour(who), goods=goods, n=move.contract)
        return _("{who} covers {goods} on contract {n}").format(who=colour(who), goods=goods, n=move.contract)
    coins = amount(after.players[who].coins - before.players[who].coins, "coin")
    template = _(LOADING[move.action]) if move.action in LOADING else "{who}: " + LOAD_ACTIONS.get(move.action, move.action) + " {goods}"
    return template.format(who=colour(who), goods=goods, coins=coins, take=listing(goods_names(game, move.take)))


def goods_names(game, goods) -> list[str]:
    """Goods as the reader's language names them (coffee, kávé, Kaffee)."""
    return [game.spec.name(game.spec["components"]["goods"].get(g), current(), g) for g in goods]


def colour(name: str) -> str:
    """A player's colour in the reader's language."""
    return localized(colour_named(name))
