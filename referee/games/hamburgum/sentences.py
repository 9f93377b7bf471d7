"""Civitas Hamburgum's moves told in one plain sentence each, for the replay page.

A sentence is made from the move and the states before and after it: the rondel space the
marker reaches and what extra steps cost in prestige, what was produced, sold or bought and
for how much, the ships built, the donations and tokens scored, the houses built, and a
church finished or the game's end.
"""

from __future__ import annotations

from referee.drawing.words import amount, article, listing
from referee.games.hamburgum.moves import ChurchTurn, Dockyard, Guildhall, Produce, Reveal, Trade
from referee.games.hamburgum.rules import HamburgumState
from referee.i18n import _, current, localized, ngettext
from referee.notation.colours import colour_named
from referee.notation.parser import Move


def describe_move(before: HamburgumState, move: Move, after: HamburgumState) -> str:
    game = after.game
    names = Names(game)
    if isinstance(move, Reveal):
        return _("the {office} is turned up on the office stack").format(office=names.office(move.office))
    colour = localized(colour_named(move.player))
    old, new = before.players[move.player], after.players[move.player]
    where = names.space(new.space)
    steps = ""
    if old.space is not None:
        count = game.steps(old.space, new.space)
        cost = game.step_cost(count)
        steps = f" ({amount(count, 'step')}, {amount(cost, 'prestige point')})" if cost else ""
    sentence = _("{colour} moves to {space}{steps} and {action}").format(colour=colour, space=where, steps=steps, action=_action(before, move, after, names))
    finished = [c for c in after.completed if c not in before.completed]
    for church in finished:
        sentence += _("; {church} is finished").format(church=names.church(church))
    if after.over and not before.over:
        sentence += _("; the sixth church is finished and the game ends") if not finished else _("; the game ends")
    return sentence


class Names:
    """The game's things as the reader's language names them (the rules' own messages keep
    English names, so that a record's report is the same in every language)."""

    def __init__(self, game):
        self.game, self.spec, self.lang = game, game.spec, current()

    def _name(self, entry, default: str) -> str:
        return self.spec.name(entry, self.lang, default)

    def office(self, office: str | None) -> str:
        return self._name(self.game.offices.get(office or ""), office or "office")

    def church(self, church: str) -> str:
        return self._name(self.spec["churches"]["churches"].get(church), church)

    def house(self, kind: str) -> str:
        return self._name(self.game.house_types.get(kind), kind)

    def good(self, good: str) -> str:
        return self._name(self.spec["components"]["goods"].get(good) or self.spec["components"]["materials"].get(good), good)

    def space(self, space: str) -> str:
        return self.game.space_name(space, self.lang)

    def token(self, kind: str) -> str:
        """A donation token's kind: its id in English, as it always was; its name otherwise."""
        return kind if self.lang == "en" else self._name(self.spec["churches"]["tokens"].get(kind), kind)

    def of(self, entry: dict | None, default: str) -> str:
        """A spec entry that has `names` (the rondel, the harbour, the Flying Dutchmen)."""
        return self._name(entry, default)

    def colour(self, colour: str) -> str:
        return localized(colour_named(colour))

    def seat(self, seat) -> str:
        """A player as a table shows them: the colour in the reader's language, and their name."""
        return seat.shown


def _action(before: HamburgumState, move: Move, after: HamburgumState, names: Names) -> str:
    game = after.game
    colour = move.player
    old, new = before.players[colour], after.players[colour]
    money = new.money - old.money

    def goods(amounts) -> str:
        return listing(f"{n} {names.good(g)}" for g, n in amounts)

    if isinstance(move, Produce):
        good = game.produces[move.action]
        return _("produces {n} {good}").format(n=new.stock[good] - old.stock[good], good=names.good(good))
    if isinstance(move, Trade):
        parts = []
        if move.sell:
            parts.append(_("ships {goods} abroad").format(goods=goods(move.sell)))
        if move.bank:
            parts.append(_("sells {goods} to the bank").format(goods=goods(move.bank)))
        if parts:
            return _("{trades} for {money}").format(trades=_(" and ").join(parts), money=amount(money, "thaler"))
        if move.buy:
            return _("buys {goods} for {money}").format(goods=goods(move.buy), money=amount(-money, "thaler"))
        return _("trades nothing")
    if isinstance(move, Dockyard):
        return ngettext("builds {n} ship at the dockyard", "builds {n} ships at the dockyard", move.ships).format(n=move.ships)
    if isinstance(move, ChurchTurn):
        parts = []
        for donation in move.donations:
            tokens = ngettext("taking the {tokens} token", "taking the {tokens} tokens", len(donation.tokens)).format(tokens=listing(names.token(t) for t in donation.tokens))
            parts.append(_("donates to {church}, {tokens}").format(church=names.church(donation.church), tokens=tokens))
        if move.scores:
            gained = new.prestige - old.prestige
            scored = listing(_("the {kind} token of {church}").format(kind=names.token(kind), church=names.church(church)) for church, kind in move.scores)
            parts.append(_("scores {tokens} for {prestige}").format(tokens=scored, prestige=amount(gained, "prestige point")))
        return _(" and ").join(parts) or _("makes no donation")
    if isinstance(move, Guildhall):
        houses = []
        offices = iter(new.offices[len(old.offices) :])  # the offices this move built, in order
        for house in move.houses:
            office = next(offices, None) if house.kind == game.office_type else None
            name = f"{names.house(house.kind)} ({names.office(office)})" if office else names.house(house.kind)
            houses.append(_("{house} on {site}").format(house=article(name), site=house.site.name))
        return _("builds {houses}").format(houses=listing(houses)) if houses else _("builds nothing")
    return game.format_move(move)
