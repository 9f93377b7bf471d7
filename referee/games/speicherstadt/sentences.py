"""The Speicherstadt's moves told in one plain sentence each, for the replay page.

A sentence is made from the move and the states before and after it: the card a worker
queues for, what a purchase cost, whom a fire rewards and punishes, what goods were sold for,
and the end of a round (income) when a move opens the next one.
"""

from __future__ import annotations

from referee.notation.parser import Move
from referee.report.situation import amount, article, listing, ordinal, signed
from referee.games.speicherstadt.moves import LOAD_ACTIONS, Load, Offer, Place, Reveal, RoundStart
from referee.games.speicherstadt.rules import SpeicherstadtState
from referee.games.speicherstadt.view import card_text


def describe_move(before: SpeicherstadtState, move: Move, after: SpeicherstadtState) -> str:
    opening = f"round {before.round} ends and income is paid; " if after.round > before.round else ""
    if isinstance(move, RoundStart):
        return f"round {move.round} begins"
    if isinstance(move, Reveal):
        return opening + _reveal(before, move, after)
    if isinstance(move, Place):
        slot = after.slots[move.slot - 1]
        return f"{move.player} places a worker on slot {move.slot} ({card_text(after, slot.card)}), {ordinal(len(slot.queue))} in its queue"
    if isinstance(move, Offer):
        return _offer(before, move, after)
    if isinstance(move, Load):
        return _load(before, move, after)
    return after.game.format_move(move)


def _reveal(before: SpeicherstadtState, move: Reveal, after: SpeicherstadtState) -> str:
    game = after.game
    if move.card == game.fire:
        card = after.discards[-1]
        changes = [f"{c} {signed(after.players[c].points - before.players[c].points, 'points')}" for c in after.players
                   if after.players[c].points != before.players[c].points]
        season = game.season_name(card.season)
        outcome = ", ".join(changes) if changes else "the firemen are level, nobody scores"
        return f"the {season} fire ({amount(card.face['points'], 'point')}) is resolved: {outcome}"
    slot = after.slots[-1]
    cargo = f" carrying {listing(slot.cubes)}" if slot.cubes else ""
    return f"{article(card_text(after, slot.card))}{cargo} is revealed into slot {len(after.slots)}"


def _offer(before: SpeicherstadtState, move: Offer, after: SpeicherstadtState) -> str:
    offer = before.current_offer()
    card = card_text(after, offer.slot.card)
    if move.buy:
        sentence = f"{move.player} buys the {card} for {amount(offer.price, 'coin')}"
        if offer.slot.cubes:
            sentence += f" and unloads {listing(offer.slot.cubes)}"
        return sentence
    sentence = f"{move.player} passes on the {card} at {amount(offer.price, 'coin')}"
    if after.slots[before.purchase_slot].discarded:
        sentence += "; nobody bought it, so it is discarded"
    return sentence


# What each loading step is told as: {who} moves {goods}, {coins} earned, {take} taken.
LOADING = {
    "sell": "{who} sells {goods} to their traders for {coins}",
    "spoil": "{who} lets {goods} spoil",
    "warehouse_in": "{who} stores {goods} in the warehouse",
    "warehouse_out": "{who} takes {goods} out of the warehouse",
    "hall_keep": "{who} keeps {goods} in the market hall",
    "hall_take": "{who} takes {goods} back from the market hall",
    "hall_sell": "{who} sells {goods} at the market hall for {coins}",
    "hall_exchange": "{who} exchanges {goods} at the market hall for {take}",
}


def _load(before: SpeicherstadtState, move: Load, after: SpeicherstadtState) -> str:
    who, goods = move.player, listing(move.goods)
    if move.action == "contract":
        contract = after.players[who].contracts[move.contract - 1]
        done = ", completing it" if contract.complete else ""
        return f"{who} covers {goods} on contract {move.contract}{done}"
    coins = amount(after.players[who].coins - before.players[who].coins, "coin")
    template = LOADING.get(move.action, "{who}: " + LOAD_ACTIONS.get(move.action, move.action) + " {goods}")
    return template.format(who=who, goods=goods, coins=coins, take=listing(move.take))
