"""Civitas Hamburgum in text, for `referee show`: the players' figures, the rondel with each
player's marker, the prices, the harbour's berths, the churches' donations, the houses built
by parish and the office stack's top. Names and orders come from the spec (the rondel's
spaces clockwise, the berths from the one ships leave from). Prestige that rests on
provisional spec values so far (the churches' tokens and completion bonuses) carries a `?`.
"""

from __future__ import annotations

from collections import Counter

from referee.drawing.words import mark
from referee.games.base import rests_on
from referee.games.hamburgum.rules import DUTCHMAN, HamburgumState

DUTCHMAN_LABEL = "Flying Dutchman"


def space_name(state: HamburgumState, space: str) -> str:
    """A rondel space as the board names it: its action, with its side where two share one."""
    game = state.game
    action = state.spec.name(game.rondel["actions"].get(game.space_action(space)), default=space)
    side = game.space_side(space)
    return f"{state.spec.name(game.rondel['sides'].get(side), default=side)} {action}" if side else action


def ship_owner(state: HamburgumState, owner: str) -> str:
    return state.spec.name(state.spec["components"]["flying_dutchmen"], default=DUTCHMAN_LABEL) if owner == DUTCHMAN else owner


def parishes(state: HamburgumState) -> dict[str, Counter]:
    """Citizens on the board by parish and colour, parishes in the spec's order."""
    out: dict[str, Counter] = {p: Counter() for p in state.spec["board"]["parishes"]}
    for site, colour in state.sites.items():
        out.setdefault(site.parish, Counter())[colour] += 1
    return out


def office_top(state: HamburgumState) -> str:
    game, left = state.game, len(state.office_stack)
    if not left:
        return "every office is built"
    mode = state.game.office_mode
    if mode == "numbered":
        return f"top: {game.office_name(state.office_stack[0])} ({left} left)"
    if mode == "choice":
        return f"{left} left to choose from"
    face = f"face up: {game.office_name(state.face_up)}" if state.face_up else "none face up"
    return f"{left} left, shuffled; {face}"


def prestige_rests_on_stand_ins(state: HamburgumState) -> bool:
    return rests_on(state, "churches", "scoring", "market")


def player_table(state: HamburgumState) -> tuple[list[str], list[list[object]]]:
    game = state.game
    to_act = state.situation().to_act
    prestige_q = prestige_rests_on_stand_ins(state)
    rows: list[list[object]] = []
    for colour in state.order:
        p = state.players[colour]
        goods = " ".join(f"{p.stock[g]} {g}" for g in game.goods if p.stock[g])
        materials = " ".join(f"{p.stock[m]} {m}" for m in game.materials if p.stock[m])
        rows.append(
            [
                p.seat.label,
                space_name(state, p.space) if p.space else "centre",
                p.money,
                mark(p.prestige, prestige_q),
                goods,
                materials,
                state.ships_in_harbour(colour),
                len(p.citizens),
                f"{len(p.unscored())}/{len(p.tokens)}",
                "to act" if colour in to_act else "",
            ]
        )
    return ["player", "rondel", "money", "prestige", "goods", "materials", "ships", "citizens", "tokens unscored", ""], rows


def board_text(state: HamburgumState) -> list[str]:
    game = state.game
    markers = {s: [c for c in state.order if state.players[c].space == s] for s in game.spaces}
    rondel = " → ".join(space_name(state, s) + (f" [{', '.join(markers[s])}]" if markers[s] else "") for s in game.spaces)
    lines = [f"rondel (clockwise): {rondel}"]
    waiting = [c for c in state.order if state.players[c].space is None]
    if waiting:
        lines.append(f"  in the centre, not yet placed: {', '.join(waiting)}")
    lines.append("prices: " + ", ".join(f"{g} {state.price(g)}" for g in game.goods))
    lines.append("")
    lines.append(f"harbour (ships leave from berth {game.berth_order[0]}; new ships enter berth {game.berth_order[-1]}):")
    for berth in game.berth_order:
        ships = ", ".join(ship_owner(state, o) for o in state.harbour[berth]) or "empty"
        lines.append(f"  berth {berth} ({game.goods_per_ship[berth]} a ship, room for {state.berth_capacity}): {ships}")
    lines += ["", "churches:"]
    for church, c in state.churches.items():
        if c.complete:
            status = f"complete ({state.completed.index(church) + 1} of {len(state.completed)} finished)"
        else:
            donors = f" ({', '.join(c.discs)})" if c.discs else ""
            status = f"{len(c.discs)} donation{'s' if len(c.discs) != 1 else ''}{donors}; tokens left: {', '.join(c.tokens_left)}"
        lines.append(f"  {game.church_name(church)}: {status}")
    built = [f"  {game.church_name(parish)}: {', '.join(f'{c} {n}' for c, n in counts.items())}" for parish, counts in parishes(state).items() if counts]
    lines += ["", "citizens by parish:" if built else "citizens by parish: none yet", *built]
    lines.append(f"office stack: {office_top(state)}")
    return lines


def chart_figures(state: HamburgumState) -> dict[str, dict[str, int]]:
    """What the replay's chart follows: prestige (the final score at the end), and money."""
    return {
        "prestige": {s.seat.colour: s.total for s in state.standings()},
        "money": {c: p.money for c, p in state.players.items()},
    }
