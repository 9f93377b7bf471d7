"""Civitas Hamburgum in text, for `referee show`: the players' figures, the rondel with each
player's marker, the prices, the harbour's berths, the churches' donations, the houses built
by parish and the office stack's top, in the reader's language. Names and orders come from
the spec (the rondel's spaces clockwise, the berths from the one ships leave from). Prestige
that rests on provisional spec values so far (the churches' tokens and completion bonuses)
carries a `?`.
"""

from __future__ import annotations

from collections import Counter

from referee.drawing.words import mark
from referee.games.base import rests_on
from referee.games.hamburgum.rules import DUTCHMAN, HamburgumState
from referee.games.hamburgum.sentences import Names
from referee.i18n import N_, _, ngettext

DUTCHMAN_LABEL = "Flying Dutchman"


def space_name(state: HamburgumState, space: str) -> str:
    """A rondel space as the board names it, in the reader's language: its action, with its
    side where two share one."""
    return Names(state.game).space(space)


def ship_owner(state: HamburgumState, owner: str) -> str:
    """A ship's owner as shown: a player's colour, or the Flying Dutchman, in the reader's language."""
    names = Names(state.game)
    return names.of(state.spec["components"]["flying_dutchmen"], DUTCHMAN_LABEL) if owner == DUTCHMAN else names.colour(owner)


def parishes(state: HamburgumState) -> dict[str, Counter]:
    """Citizens on the board by parish and colour, parishes in the spec's order."""
    out: dict[str, Counter] = {p: Counter() for p in state.spec["board"]["parishes"]}
    for site, colour in state.sites.items():
        out.setdefault(site.parish, Counter())[colour] += 1
    return out


def office_top(state: HamburgumState) -> str:
    game, left = state.game, len(state.office_stack)
    if not left:
        return _("every office is built")
    office = Names(game).office
    mode = game.office_mode
    if mode == "numbered":
        return _("top: {office} ({n} left)").format(office=office(state.office_stack[0]), n=left)
    if mode == "choice":
        return _("{n} left to choose from").format(n=left)
    face = _("face up: {office}").format(office=office(state.face_up)) if state.face_up else _("none face up")
    return _("{n} left, shuffled; {face}").format(n=left, face=face)


def prestige_rests_on_stand_ins(state: HamburgumState) -> bool:
    return rests_on(state, "churches", "scoring", "market")


HEADS = (N_("player"), N_("rondel"), N_("money"), N_("prestige"), N_("goods"), N_("materials"), N_("ships"), N_("citizens"), N_("tokens unscored"))


def player_table(state: HamburgumState) -> tuple[list[str], list[list[object]]]:
    game, names = state.game, Names(state.game)
    to_act = state.situation().to_act
    prestige_q = prestige_rests_on_stand_ins(state)
    rows: list[list[object]] = []
    for colour in state.order:
        p = state.players[colour]
        goods = " ".join(f"{p.stock[g]} {names.good(g)}" for g in game.goods if p.stock[g])
        materials = " ".join(f"{p.stock[m]} {names.good(m)}" for m in game.materials if p.stock[m])
        rows.append(
            [
                names.seat(p.seat),
                space_name(state, p.space) if p.space else _("centre"),
                p.money,
                mark(p.prestige, prestige_q),
                goods,
                materials,
                state.ships_in_harbour(colour),
                len(p.citizens),
                f"{len(p.unscored())}/{len(p.tokens)}",
                _("to act") if colour in to_act else "",
            ]
        )
    return [*(_(head) for head in HEADS), ""], rows


def board_text(state: HamburgumState) -> list[str]:
    game, names = state.game, Names(state.game)
    markers = {s: [names.colour(c) for c in state.order if state.players[c].space == s] for s in game.spaces}
    rondel = " → ".join(space_name(state, s) + (f" [{', '.join(markers[s])}]" if markers[s] else "") for s in game.spaces)
    lines = [_("{rondel} (clockwise): {spaces}").format(rondel=names.of(state.spec["rondel"], "rondel"), spaces=rondel)]
    waiting = [names.colour(c) for c in state.order if state.players[c].space is None]
    if waiting:
        lines.append("  " + _("in the centre, not yet placed: {players}").format(players=", ".join(waiting)))
    lines.append(_("prices: {prices}").format(prices=", ".join(f"{names.good(g)} {state.price(g)}" for g in game.goods)))
    lines.append("")
    harbour = names.of(state.spec["harbour"], "harbour")
    lines.append(_("{harbour} (ships leave from berth {first}; new ships enter berth {last}):").format(harbour=harbour, first=game.berth_order[0], last=game.berth_order[-1]))
    for berth in game.berth_order:
        ships = ", ".join(ship_owner(state, o) for o in state.harbour[berth]) or _("empty")
        lines.append("  " + _("berth {berth} ({n} a ship, room for {room}): {ships}").format(berth=berth, n=game.goods_per_ship[berth], room=state.berth_capacity, ships=ships))
    lines += ["", _("churches:")]
    for church, c in state.churches.items():
        if c.complete:
            status = _("complete ({n} of {count} finished)").format(n=state.completed.index(church) + 1, count=len(state.completed))
        else:
            donors = f" ({', '.join(names.colour(d) for d in c.discs)})" if c.discs else ""
            tokens = ", ".join(names.token(k) for k in c.tokens_left)
            status = ngettext("{n} donation{donors}; tokens left: {tokens}", "{n} donations{donors}; tokens left: {tokens}", len(c.discs)).format(n=len(c.discs), donors=donors, tokens=tokens)
        lines.append(f"  {names.church(church)}: {status}")
    built = [f"  {names.church(parish)}: {', '.join(f'{names.colour(c)} {n}' for c, n in counts.items())}" for parish, counts in parishes(state).items() if counts]
    lines += ["", _("citizens by parish:") if built else _("citizens by parish: none yet"), *built]
    lines.append(_("office stack: {top}").format(top=office_top(state)))
    return lines


def chart_figures(state: HamburgumState) -> dict[str, dict[str, int]]:
    """What the replay's chart follows: prestige (the final score at the end), and money, each
    by its name in the reader's language (the chart's title says it)."""
    return {
        _("prestige"): {s.seat.colour: s.total for s in state.standings()},
        _("money"): {c: p.money for c, p in state.players.items()},
    }
