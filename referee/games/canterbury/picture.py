"""Canterbury as a picture: the city's districts on their grid, the prosperity track, the players.

Each district shows its name (the spec's, or its id), its ring, the structures standing in it
(a bar as wide as the building spaces each takes) and its service slots from water to culture,
each filled in the colour of the cube's owner: a player, the neutral player, or the city. The
grid comes from the board graph and every name, count and colour from the spec, so a variant's
board or names show in the picture; the drawing's sizes are in `specs/canterbury/picture.yaml`.
"""

from __future__ import annotations

from referee.drawing import svg
from referee.games.base import Illustration, rests_on, situation_line
from referee.games.canterbury.rules import CanterburyState
from referee.games.canterbury.view import district_name, initials, layout, owner_colour, ring_word, structure_title
from referee.i18n import N_, Message, _, current, localized
from referee.notation.colours import colour_named

# The pictures the rulebook site shows under a rule (docs/replays.py draws them).
ILLUSTRATIONS = (
    Illustration(
        "canterbury/district-names",
        "opening-a-district.log",
        lambda state: True,
        Message(
            N_(
                "The city when a game begins: each district under the name a record gives it, its ring, and its six service slots from water to culture; the Roman well and the city's water cube stand in the central district."
            )
        ),
    ),
    Illustration(
        "canterbury/opening-bonus",
        "opening-a-district.log",
        lambda state: False,
        Message(N_("The city after green opens c2 (the rulebook's example): c2 holds 4 service cubes at the end of the turn, and green scores 4.")),
    ),
    Illustration(
        "canterbury/demolition",
        "guildhall-demolitions.log",
        lambda state: False,
        Message(N_("The city after green's guildhall in d3 (the rulebook's demolition example): the well, garden, chapel and merchant stall are gone, each for a reason the rules accept.")),
    ),
    Illustration(
        "canterbury/district-scoring",
        "shortened/six-spaces.log",
        lambda state: False,
        Message(N_("The city at the first district scoring (the rulebook's example): all six spaces of d3 are built; red, with the most cubes there, scores 6 and blue, second, 3.")),
        ("overlays/city-at-70.yaml",),
    ),
    Illustration(
        "canterbury/kings-favour",
        "shortened/kings-favour.log",
        lambda state: False,
        Message(N_("The city at the end (the rulebook's King's favour example): green serves 10 districts with defense and red 8, so green scores 10 and red 4.")),
        ("overlays/short-and-rich.yaml",),
    ),
)


def draw(state: CanterburyState, caption: str) -> svg.Drawing:
    game = state.game
    title = game.spec.name(game.spec.meta, current(), game.name)
    sizes = svg.Layout(state.spec["picture"])
    d = svg.Drawing(sizes.width, sizes.width, f"{title}: {caption}")
    top = svg.heading(d, title, caption, situation_line(state.situation()), sizes.margin)
    places = layout(state)
    rings = list(state.spec["board"]["rings"])
    step = sizes.district.size + sizes.district.gap
    short = service_letters(state)  # the letters an empty service slot shows
    for district, (x, y) in places.items():
        _district(d.part(f"district {district}"), state, sizes, district, sizes.margin + x * step, top + y * step, rings, short)
    rows = max(y for _, y in places.values()) + 1
    top += rows * step + sizes.district.gap
    _track(d.part("track"), state, sizes, top)
    bottom = _players(d, state, sizes, top + sizes.track.height)
    bottom = svg.key_row(d, [(None, short[service], localized(game.service_named(service))) for service in game.services], bottom, _("service slots:"))
    d.finish(bottom)
    return d


def service_letters(state: CanterburyState) -> dict[str, str]:
    """The letters of each service's name in the language in use, as few as tell them apart."""
    names = {service: localized(state.game.service_named(service)) for service in state.game.services}
    letters = initials(list(names.values()))
    return {service: letters[name].lower() for service, name in names.items()}


def _district(g, state: CanterburyState, sizes: svg.Layout, district: str, x: float, y: float, rings: list[str], short: dict[str, str]) -> None:
    game, cell = state.game, sizes.district
    info = game.districts[district]
    shades = sizes.ring_shades
    shade = shades[rings.index(info.ring) % len(shades)] if info.ring in rings else shades[-1]
    svg.rect(g, x, y, cell.size, cell.size, fill=shade, stroke=svg.LINE, rx=svg.RADIUS)
    room = svg.inside(cell.size, svg.PAD)
    ring = ring_word(info.ring)
    svg.text(g, x + svg.PAD, y + cell.name, district_name(state, district), size=svg.BODY, weight="bold", limit=svg.fit(room - len(ring) * svg.TINY * svg.CHAR, svg.BODY))
    svg.text(g, x + cell.size - svg.PAD, y + cell.name, ring, size=svg.TINY, anchor="end", fill=svg.MUTED)
    unit = svg.half(room) / state.spec["board"]["building_spaces"]
    for i, tile in enumerate(state.board.tiles[district]):
        structure = game.structures[tile]
        row_y = y + cell.structures + i * cell.row
        bar = svg.rect(g, x + svg.PAD, row_y, max(unit, structure.spaces * unit), cell.bar, fill="#8c6d46", stroke=None, rx=svg.half(svg.RADIUS))
        name = structure_title(state, structure.id)
        svg.tip(
            bar,
            _("{structure}: {size}, {service}, {n} building space(s)").format(
                structure=name, size=localized(game.size_named(structure.size)), service=localized(game.service_named(structure.service)), n=structure.spaces
            ),
        )
        svg.text(
            g,
            x + svg.PAD + svg.RADIUS + structure.spaces * unit,
            row_y + cell.bar,
            name,
            size=svg.TINY,
            limit=svg.fit(room - structure.spaces * unit, svg.TINY),
        )
    cubes = state.board.cubes[district]
    for i, service in enumerate(game.services):
        sx, sy = x + svg.PAD + i * (cell.slot + cell.slot_gap), y + cell.size - cell.slot - svg.PAD
        owner = cubes.get(service)
        service_name = localized(game.service_named(service))
        if owner is None:
            svg.tip(svg.rect(g, sx, sy, cell.slot, cell.slot, fill="#ffffff", stroke=svg.LINE, rx=svg.half(svg.RADIUS)), _("{service}: no cube").format(service=service_name))
            svg.text(g, svg.middle(sx, cell.slot), sy + cell.slot - svg.RADIUS, short[service], size=svg.MICRO, anchor="middle", fill=svg.MUTED)
        else:
            svg.cube(g, sx, sy, cell.slot, owner_colour(state, owner), _("{service}: {owner}'s cube").format(service=service_name, owner=colour_named(owner).translated()))


def _track(g, state: CanterburyState, sizes: svg.Layout, top: float) -> None:
    treasury, track = state.spec["treasury"], sizes.track
    length = treasury["track_length"]
    left, right = sizes.margin + track.inset, sizes.width - sizes.margin - track.inset
    y = top + track.bar

    def at(position: int) -> float:
        return left + (right - left) * (position % length) / length

    words = _("prosperity track: city at {prosperity} ({discs} of {all} discs), Levy {levy}, Tax {tax}").format(
        prosperity=state.city.prosperity, discs=state.city.discs, all=treasury["city"]["discs"], levy=state.levy(), tax=state.tax()
    )
    svg.text(g, sizes.margin, top + track.title, words, size=svg.LABEL, weight="bold", limit=svg.fit(right - left, svg.LABEL))
    if rests_on(state, "treasury"):
        svg.provisional(g, right, top + track.title)
    svg.rect(g, left, y - svg.half(track.thickness), right - left, track.thickness, fill="#efe7d6", stroke=svg.LINE, rx=svg.RADIUS)
    for mark in range(0, length, svg.nice_step(length)):
        svg.line(g, at(mark), y - track.thickness, at(mark), y + track.thickness)
        svg.text(g, at(mark), y + track.labels, mark, size=svg.MICRO, anchor="middle", fill=svg.MUTED)
    city = state.spec["board"]["city_cube"]
    half = svg.half(track.marker)
    marker = svg.rect(g, at(state.city_position()) - half, y - half, track.marker, track.marker, fill=svg.paint(city.get("colour")).fill, stroke=svg.INK)
    svg.tip(marker, _("{owner}: prosperity {n}").format(owner=city["owner"], n=state.city.prosperity))
    # markers on one space stack up as far as the room under the title goes, then side by side:
    # never over the track's title
    levels = max(1, int((y - track.marker - (top + track.title)) // track.stack))
    stacked: dict[int, int] = {}
    for colour in state.order:
        p = state.players[colour]
        spot = p.prosperity % length
        height = stacked.get(spot, 0)
        stacked[spot] = height + 1
        level, column = height % levels, height // levels
        svg.piece(
            g,
            at(spot) + column * (track.piece + track.piece),
            y - track.marker - (level + 1) * track.stack + track.piece,
            track.piece,
            colour,
            _("{owner}: prosperity {n}").format(owner=p.seat.shown, n=p.prosperity),
        )


def _players(d: svg.Drawing, state: CanterburyState, sizes: svg.Layout, top: float) -> float:
    """A row per player, each its own group (the replay page stores each distinct group once)."""
    columns, left = sizes.players.columns, sizes.margin
    g = d.part("players")
    svg.text(g, left, top, _("player"), size=svg.SMALL, fill=svg.MUTED)
    for label, x in ((N_("money"), columns.money), (N_("prosperity"), columns.prosperity), (N_("cubes left"), columns.cubes)):
        svg.text(g, x, top, _(label), size=svg.SMALL, anchor="end", fill=svg.MUTED)
    to_act = state.situation().to_act
    prosperity_q = rests_on(state, "structures", "scoring")
    money_q = rests_on(state, "treasury", "scoring", "structures")
    names = svg.fit(columns.money - left - sizes.players.row)
    y = top
    for colour in state.order:
        y += sizes.players.row
        p = state.players[colour]
        g = d.part(f"player {colour}")
        svg.swatch_label(g, left, y, colour, p.seat.shown, weight="bold" if colour in to_act else None, limit=names)
        svg.figure(g, columns.money, y, p.money, money_q, anchor="end")
        svg.figure(g, columns.prosperity, y, p.prosperity, prosperity_q, anchor="end")
        svg.text(g, columns.cubes, y, state.cube_stock(colour) - state.board.used[colour], anchor="end")
        notes = [_("to act")] if colour in to_act else []
        if p.must_full_build and not state.over:
            notes.append(_("{action} next").format(action=state.game.action_title(state.spec["setup"]["after_levy"])))
        if state.neutral:
            notes.append(_("marker: Build") if p.marker_build else _("marker: No Build"))
        svg.band_notes(g, columns.notes, y, notes, sizes.width - left - columns.notes)
    if state.neutral:
        y += sizes.players.row
        g = d.part("neutral")
        name = state.neutral["name"]
        svg.swatch_label(g, left, y, state.neutral_colour or name, f"{name} ({state.neutral_colour})", limit=names)
        svg.text(g, columns.cubes, y, state.cube_stock(name) - state.board.used[name], anchor="end")
    return y + sizes.district.gap
