"""Civitas Hamburgum's moves told in one plain sentence each, for the replay page.

A sentence is made from the move and the states before and after it: the rondel space the
marker reaches and what extra steps cost in prestige, what was produced, sold or bought and
for how much, the ships built, the donations and tokens scored, the houses built, and a
church finished or the game's end.
"""

from __future__ import annotations

from referee.notation.parser import Move
from referee.report.situation import amount, article, listing
from referee.games.hamburgum.moves import ChurchTurn, Dockyard, Guildhall, Produce, Reveal, Trade
from referee.games.hamburgum.rules import HamburgumState
from referee.games.hamburgum.view import space_name


def describe_move(before: HamburgumState, move: Move, after: HamburgumState) -> str:
    game = after.game
    if isinstance(move, Reveal):
        return f"the {game.office_name(move.office)} is turned up on the office stack"
    colour = move.player
    old, new = before.players[colour], after.players[colour]
    where = space_name(after, new.space)
    steps = ""
    if old.space is not None:
        count = game.steps(old.space, new.space)
        cost = game.step_cost(count)
        steps = f" ({amount(count, 'step')}, {amount(cost, 'prestige point')})" if cost else ""
    sentence = f"{colour} moves to {where}{steps} and " + _action(before, move, after)
    finished = [c for c in after.completed if c not in before.completed]
    for church in finished:
        sentence += f"; {game.church_name(church)} is finished"
    if after.over and not before.over:
        sentence += "; the sixth church is finished and the game ends" if not finished else "; the game ends"
    return sentence


def _action(before: HamburgumState, move: Move, after: HamburgumState) -> str:
    game = after.game
    colour = move.player
    old, new = before.players[colour], after.players[colour]
    money = new.money - old.money
    if isinstance(move, Produce):
        good = game.produces[move.action]
        return f"produces {new.stock[good] - old.stock[good]} {good}"
    if isinstance(move, Trade):
        parts = []
        if move.sell:
            parts.append("ships " + listing(f"{n} {g}" for g, n in move.sell) + " abroad")
        if move.bank:
            parts.append("sells " + listing(f"{n} {g}" for g, n in move.bank) + " to the bank")
        if parts:
            return f"{' and '.join(parts)} for {amount(money, 'thaler')}"
        if move.buy:
            return f"buys {listing(f'{n} {m}' for m, n in move.buy)} for {amount(-money, 'thaler')}"
        return "trades nothing"
    if isinstance(move, Dockyard):
        return f"builds {amount(move.ships, 'ship')} at the dockyard"
    if isinstance(move, ChurchTurn):
        parts = []
        for donation in move.donations:
            parts.append(f"donates to {game.church_name(donation.church)}, taking the {listing(donation.tokens)} token{'s' if len(donation.tokens) > 1 else ''}")
        if move.scores:
            gained = new.prestige - old.prestige
            scored = listing(f"the {kind} token of {game.church_name(church)}" for church, kind in move.scores)
            parts.append(f"scores {scored} for {amount(gained, 'prestige point')}")
        return " and ".join(parts) or "makes no donation"
    if isinstance(move, Guildhall):
        houses = []
        offices = iter(new.offices[len(old.offices):])  # the offices this move built, in order
        for house in move.houses:
            office = next(offices, None) if house.kind == game.office_type else None
            name = f"{game.house_name(house.kind)} ({game.office_name(office)})" if office else game.house_name(house.kind)
            houses.append(f"{article(name)} on {house.site.name}")
        return f"builds {listing(houses)}" if houses else "builds nothing"
    return game.format_move(move)
