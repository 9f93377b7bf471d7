"""Canterbury in text, for `referee show`: the players' figures and the city as a grid.

The city is laid out from the board graph (`referee.pictures.grid`), each district with its name
(the spec's, or its id), its structures and a row of service slots from water to culture,
each slot showing whose cube is there. Figures that rest on provisional spec values so far
(the structures' printed numbers, the treasury) carry a `?`.
"""

from __future__ import annotations

import textwrap

from referee.drawing.grid import grid
from referee.drawing.words import mark
from referee.games.base import rests_on
from referee.games.canterbury.moves import LEVY
from referee.games.canterbury.rules import CanterburyState
from referee.i18n import N_, _, current, localized

EMPTY_SLOT = "·"
HEADS = (N_("player"), N_("money"), N_("prosperity"), N_("cubes left"))
# the ring a district lies in, in a word that fits beside its name (board.yaml: rings)
RING_WORDS = {"outer": N_("outer"), "inner": N_("inner"), "centre": N_("centre")}


def district_name(state: CanterburyState, district: str) -> str:
    return state.spec.name(state.spec["board"]["districts"].get(district), current(), default=district)


def ring_word(ring: str) -> str:
    return _(RING_WORDS[ring]) if ring in RING_WORDS else ring


def structure_title(state: CanterburyState, sid: str) -> str:
    return localized(state.game.structure_named(sid))


def layout(state: CanterburyState) -> dict[str, tuple[int, int]]:
    return grid({d: info.neighbours for d, info in state.game.districts.items()})


def owners(state: CanterburyState) -> list[str]:
    """Who may own a service cube: the players, the neutral player, the city."""
    names = list(state.order)
    if state.neutral:
        names.append(state.neutral["name"])
    names.append(state.spec["board"]["city_cube"]["owner"])
    return names


def owner_colour(state: CanterburyState, owner: str) -> str:
    """The colour a cube's owner is painted in: a player's own, the neutral's, the city's."""
    if state.neutral and owner == state.neutral["name"]:
        return state.neutral_colour or owner
    city = state.spec["board"]["city_cube"]
    if owner == city["owner"]:
        return city.get("colour", owner)
    return owner


def initials(names: list[str]) -> dict[str, str]:
    """The shortest distinct upper-case beginning of each name (B for blue, R for red)."""
    out = {}
    for name in names:
        size = 1
        while any(other != name and other[:size].lower() == name[:size].lower() for other in names) and size < len(name):
            size += 1
        out[name] = name[:size].capitalize()
    return out


def player_table(state: CanterburyState) -> tuple[list[str], list[list[object]]]:
    to_act = state.situation().to_act
    prosperity_q = rests_on(state, "structures", "scoring")
    money_q = rests_on(state, "treasury", "scoring", "structures")
    rows: list[list[object]] = []
    for colour in state.order:
        p = state.players[colour]
        notes = []
        if colour in to_act:
            notes.append(_("to act"))
        if p.must_full_build and not state.over:
            notes.append(_("{action} next (after a {levy})").format(action=state.game.action_title(state.spec["setup"]["after_levy"]), levy=state.game.action_title(LEVY)))
        if state.neutral:
            notes.append(_("marker Build") if p.marker_build else _("marker No Build"))
            stack = state.neutral_stack(p)
            notes.append(_("neutral's next tile: {structure}").format(structure=structure_title(state, stack[0])) if stack else _("stacks empty"))
        rows.append([p.seat.shown, mark(p.money, money_q), mark(p.prosperity, prosperity_q), state.cube_stock(colour) - state.board.used[colour], "; ".join(notes)])
    if state.neutral:
        name = state.neutral["name"]
        rows.append([f"{name} ({state.neutral_colour})", "", "", state.cube_stock(name) - state.board.used[name], _("builds from the players' stacks")])
    return [*(_(head) for head in HEADS), ""], rows


def board_text(state: CanterburyState) -> list[str]:
    city = state.city
    treasury = state.spec["treasury"]
    levy_q = rests_on(state, "treasury")
    lines = [
        _("city: prosperity {prosperity} (space {space} of {track}, {discs} of {all} discs); Levy {levy}, Tax {tax}; district scorings {scorings}").format(
            prosperity=city.prosperity,
            space=state.city_position(),
            track=treasury["track_length"],
            discs=city.discs,
            all=treasury["city"]["discs"],
            levy=mark(state.levy(), levy_q),
            tax=mark(state.tax(), levy_q),
            scorings=state.scorings,
        ),
        "",
    ]
    places = layout(state)
    columns = max(x for x, _ in places.values()) + 1
    rows = max(y for _, y in places.values()) + 1
    codes = initials(owners(state))
    width = state.spec["picture"]["text"]["district"]
    cells = {place: _cell(state, district, codes) for district, place in places.items()}
    height = max(len(c) for c in cells.values())
    rule = "+" + "+".join("-" * (width + len("  ")) for _ in range(columns)) + "+"
    lines.append(rule)
    for y in range(rows):
        for i in range(height):
            parts = []
            for x in range(columns):
                cell = cells.get((x, y), [])
                parts.append(f" {(cell[i] if i < len(cell) else ''):<{width}} ")
            lines.append("|" + "|".join(parts) + "|")
        lines.append(rule)
    services = ", ".join(localized(state.game.service_named(s)) for s in state.game.services)
    legend = ", ".join(f"{code} {name}" for name, code in codes.items())
    lines.append(_("service slots ({services}): {legend}; {empty} empty").format(services=services, legend=legend, empty=EMPTY_SLOT))
    return lines


def _cell(state: CanterburyState, district: str, codes: dict[str, str]) -> list[str]:
    """A district in text: its name and ring, its structures, its service slots."""
    width, lines = state.spec["picture"]["text"]["district"], state.spec["picture"]["text"]["structure_lines"]
    info = state.game.districts[district]
    tiles = state.board.tiles[district]
    names = ", ".join(structure_title(state, t) for t in tiles)
    body = textwrap.wrap(names, width, max_lines=lines, placeholder="…") or [""]
    body += [""] * (lines - len(body))
    cubes = state.board.cubes[district]
    slots = "".join(codes.get(cubes[s], "?")[:1] if s in cubes else EMPTY_SLOT for s in state.game.services)
    ring = ring_word(info.ring)
    return [f"{district_name(state, district)[: width - len(ring) - 1]} {ring}"[:width], *body, slots]


def chart_figures(state: CanterburyState) -> dict[str, dict[str, int]]:
    """What the replay's chart follows: prosperity, and money."""
    return {
        "prosperity": {c: p.prosperity for c, p in state.players.items()},
        "money": {c: p.money for c, p in state.players.items()},
    }
