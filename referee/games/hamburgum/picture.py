"""Civitas Hamburgum as a picture: the rondel with each player's marker, the harbour's berths
with their ships, the goods' prices, each church with its donations and its parish's citizens,
the office stack's top, and every player's figures.

The rondel's spaces go clockwise in the spec's order, from the top; a player not yet placed
waits in the centre. The berths are drawn from the one ships leave from to the one they enter,
each with room for as many ships as the spec allows. Names, orders, counts and colours come
from the spec; the drawing's sizes from `specs/hamburgum/picture.yaml`.
"""

from __future__ import annotations

import math
import textwrap

from referee.drawing import svg
from referee.games.base import Illustration, situation_line
from referee.games.hamburgum.rules import DUTCHMAN, HamburgumState
from referee.games.hamburgum.sentences import Names
from referee.games.hamburgum.view import office_top, parishes, prestige_rests_on_stand_ins, ship_owner, space_name
from referee.i18n import N_, Message, _, current

# The pictures the rulebook site shows under a rule (docs/replays.py draws them).
ILLUSTRATIONS = (
    Illustration(
        "hamburgum/rondel-steps",
        "quick-start.log",
        lambda state: all(p.space for p in state.players.values()),
        Message(N_("The rondel's spaces in clockwise order, from the top, with each player's marker once everyone has placed it; steps beyond the free ones cost prestige.")),
    ),
)


def draw(state: HamburgumState, caption: str) -> svg.Drawing:
    title = state.spec.name(state.spec.meta, current(), state.spec.meta["names"]["en"])
    sizes = svg.Layout(state.spec["picture"])
    d = svg.Drawing(sizes.width, sizes.width, f"{title}: {caption}")
    top = svg.heading(d, title, caption, situation_line(state.situation()), sizes.margin)
    reach = sizes.rondel.radius + sizes.rondel.space  # from the rondel's middle to its edge
    _rondel(d, state, sizes, sizes.margin + reach, top + reach + sizes.gap)
    _harbour(d.part("harbour"), state, sizes, reach + reach + sizes.margin + sizes.gap + sizes.gap, top + sizes.gap)
    top = _churches(d, state, sizes, top + reach + reach + sizes.gap + sizes.gap)
    for colour in state.order:
        top = _player(d.part(f"player {colour}"), state, sizes, colour, top)
    d.finish(top)
    return d


def _rondel(d: svg.Drawing, state: HamburgumState, sizes: svg.Layout, cx: float, cy: float) -> None:
    """The spaces (the same in every position) and the markers on them, as two groups."""
    game, rondel = state.game, sizes.rondel
    g = d.part("rondel")
    svg.circle(g, cx, cy, rondel.radius, "none", stroke="#d8cfbf", stroke_width=rondel.space)
    count = len(game.spaces)
    to_act = state.situation().to_act

    def spot(i: int) -> tuple[float, float]:
        """Where the i-th space lies: clockwise from the top."""
        angle = math.tau * i / count - svg.half(math.pi)
        return cx + rondel.radius * math.cos(angle), cy + rondel.radius * math.sin(angle)

    for i, space in enumerate(game.spaces):
        x, y = spot(i)
        node = svg.circle(g, x, y, rondel.space, "#fbf6ea", stroke=svg.LINE)
        svg.tip(node, _("space {n} clockwise: {space}").format(n=i + 1, space=space_name(state, space)))
        words = space_name(state, space).split(" ", 1)
        first = y - svg.half(rondel.line * len(words))
        for n, word in enumerate(words):
            last = n == len(words) - 1
            svg.text(g, x, first + n * rondel.line, word, size=svg.SMALL, anchor="middle", weight="bold" if last else None, limit=svg.fit(rondel.space + rondel.space))
    svg.text(g, cx, cy, Names(game).of(game.rondel, "rondel"), size=svg.LABEL, anchor="middle", fill=svg.MUTED)
    markers = d.part("rondel-markers")
    names = Names(game)
    for i, space in enumerate(game.spaces):
        x, y = spot(i)
        here = [c for c in state.order if state.players[c].space == space]
        for k, colour in enumerate(here):
            px = x + (k - svg.half(len(here) - 1)) * rondel.marker_step
            seat = names.seat(state.players[colour].seat)
            svg.piece(markers, px, y + rondel.markers, rondel.marker, colour, _("{player} (to act)").format(player=seat) if colour in to_act else seat)
    waiting = [c for c in state.order if state.players[c].space is None]
    for k, colour in enumerate(waiting):
        svg.piece(markers, cx + (k - svg.half(len(waiting) - 1)) * rondel.marker_step, cy + rondel.markers, rondel.marker, colour, _("{colour}: not yet placed").format(colour=names.colour(colour)))


def _hull(g, sizes: svg.Layout, x: float, y: float, owner: str, label: str) -> None:
    harbour = sizes.harbour
    fill = svg.INK if owner == DUTCHMAN else svg.paint(owner).fill
    bow = svg.half(harbour.hull)
    node = svg.polygon(g, [(x, y), (x + harbour.ship, y), (x + harbour.ship - bow, y + harbour.hull), (x + bow, y + harbour.hull)], fill=fill, stroke=svg.INK)
    svg.tip(node, label)
    mast = svg.middle(x, harbour.ship)
    svg.line(g, mast, y, mast, y - harbour.hull, stroke=svg.INK)


def _harbour(g, state: HamburgumState, sizes: svg.Layout, x: float, top: float) -> None:
    game, harbour = state.game, sizes.harbour
    room = sizes.width - sizes.margin - x
    names = Names(game)
    svg.text(g, x, top + svg.PAD, names.of(state.spec["harbour"], "harbour"), size=svg.BODY, weight="bold")
    svg.text(g, x + harbour.title_note, top + svg.PAD, _("ships leave from the first berth"), size=svg.TINY, fill=svg.MUTED, limit=svg.fit(room - harbour.title_note, svg.TINY))
    y = top + harbour.first_berth
    for berth in game.berth_order:
        svg.text(g, x, y + harbour.hull, _("berth {n}").format(n=berth), size=svg.SMALL)
        svg.text(g, x, y + harbour.hull + harbour.note, _("{n} a ship").format(n=game.goods_per_ship[berth]), size=svg.MICRO, fill=svg.MUTED)
        for k in range(state.berth_capacity):
            sx = x + harbour.ships + k * (harbour.ship + harbour.ship_gap)
            if k < len(state.harbour[berth]):
                owner = state.harbour[berth][k]
                _hull(g, sizes, sx, y + svg.PAD, owner, _("berth {berth}: {owner}'s ship").format(berth=berth, owner=ship_owner(state, owner)))
            else:
                svg.rect(g, sx, y + svg.PAD, harbour.ship, harbour.hull, fill="none", stroke=svg.FAINT, rx=svg.half(svg.RADIUS))
        y += harbour.berth
    y += svg.PAD
    svg.text(g, x, y, _("prices"), size=svg.SMALL, fill=svg.MUTED)
    px = x + harbour.prices
    for good in game.goods:
        colour = state.spec["components"]["goods"][good].get("colour")
        svg.cube(g, px, y - harbour.price_cube + svg.half(svg.RADIUS), harbour.price_cube, colour, names.good(good))
        svg.text(g, px + harbour.price_cube + svg.half(svg.PAD), y, state.price(good), size=svg.LABEL)
        px += harbour.price_step
    y += harbour.line + svg.RADIUS
    svg.text(g, x, y, _("offices: {offices}").format(offices=office_top(state)), size=svg.SMALL, limit=svg.fit(room))
    svg.text(g, x, y + harbour.line, _("Flying Dutchmen left: {n}").format(n=state.dutchmen), size=svg.SMALL, fill=svg.MUTED)


def _churches(d: svg.Drawing, state: HamburgumState, sizes: svg.Layout, top: float) -> float:
    """A group per church, each with its donations and its parish's citizens: the replay page
    stores each distinct group once."""
    game, church_sizes = state.game, sizes.church
    width = svg.inside(sizes.width, sizes.margin) / max(1, len(state.churches))
    citizens = parishes(state)
    names = Names(game)
    for i, (church, c) in enumerate(state.churches.items()):
        g = d.part(f"church {church}")
        x = sizes.margin + i * width
        left = x + svg.PAD + church_sizes.inset
        svg.rect(g, x + church_sizes.inset, top, svg.inside(width, church_sizes.inset), church_sizes.height, fill="#eef2f7" if not c.complete else "#dfe9d8", stroke=svg.LINE, rx=svg.RADIUS)
        for n, part in enumerate(textwrap.wrap(names.church(church), svg.fit(width - svg.PAD))[: church_sizes.lines]):
            svg.text(g, left, top + church_sizes.line + svg.RADIUS + n * church_sizes.line, part, size=svg.SMALL, weight="bold")
        if c.complete:
            svg.text(g, left, top + church_sizes.donations, _("finished ({n})").format(n=state.completed.index(church) + 1), size=svg.SMALL, fill=svg.MUTED)
        else:
            svg.text(g, left, top + church_sizes.donations, _("donations {n}").format(n=len(c.discs)), size=svg.TINY, fill=svg.MUTED)
            for k, colour in enumerate(c.discs):
                svg.piece(g, left + church_sizes.disc + k * church_sizes.disc_step, top + church_sizes.discs, church_sizes.disc, colour, _("{colour}'s donation").format(colour=names.colour(colour)))
            svg.text(g, left, top + church_sizes.tokens, _("tokens left {n}").format(n=len(c.tokens_left)), size=svg.TINY, fill=svg.MUTED)
        svg.text(g, left, top + church_sizes.citizens, _("citizens"), size=svg.TINY, fill=svg.MUTED)
        for k, (colour, n) in enumerate(citizens.get(church, {}).items()):
            cx = left + church_sizes.disc + k * church_sizes.citizen_step
            svg.piece(g, cx, top + church_sizes.citizen_row, church_sizes.disc, colour, _("{n} {colour} citizen(s) in this parish").format(n=n, colour=names.colour(colour)))
            svg.text(g, cx + church_sizes.disc + svg.half(svg.RADIUS), top + church_sizes.citizen_row + svg.RADIUS, n, size=svg.TINY)
    return top + church_sizes.height + sizes.gap


def _player(g, state: HamburgumState, sizes: svg.Layout, colour: str, top: float) -> float:
    game, band = state.game, sizes.player
    names = Names(game)
    p = state.players[colour]
    to_act = colour in state.situation().to_act
    y = svg.player_band(g, sizes.margin, top, svg.inside(sizes.width, sizes.margin), band.height - band.gap, colour, names.seat(p.seat), to_act)
    svg.labelled(g, band.money, y, _("money"), p.money)
    svg.labelled(g, band.prestige, y, _("prestige"), p.prestige, prestige_rests_on_stand_ins(state), width=band.prestige_width)
    where = space_name(state, p.space) if p.space else _("centre")
    svg.text(g, band.space, y, where, size=svg.SMALL, fill=svg.HIGHLIGHT if to_act else svg.MUTED, limit=svg.fit(band.counts - band.space))
    counts = _("ships {ships} · citizens {citizens} · tokens {tokens}").format(ships=state.ships_in_harbour(colour), citizens=len(p.citizens), tokens=len(p.tokens))
    svg.text(g, band.counts, y, counts, size=svg.TINY, fill=svg.MUTED, limit=svg.fit(sizes.width - sizes.margin - band.counts, svg.TINY))
    x = sizes.margin + svg.PAD
    y += band.line
    components = state.spec["components"]
    for kind in (*game.goods, *game.materials):
        if not p.stock[kind]:
            continue
        entry = components["goods"].get(kind) or components["materials"].get(kind) or {}
        words = f"{p.stock[kind]} {names.good(kind)}"
        svg.cube(g, x, y - band.cube + svg.half(svg.RADIUS), band.cube, entry.get("colour"), names.good(kind))
        svg.text(g, x + band.cube + svg.half(svg.PAD), y, words, size=svg.TINY)
        x += band.stock_gap + len(words) * svg.TINY * svg.CHAR
    if p.offices:
        svg.text(g, x + svg.PAD, y, _("offices: {offices}").format(offices=", ".join(names.office(o) for o in p.offices)), size=svg.TINY, fill=svg.MUTED, limit=svg.fit(sizes.width - x, svg.TINY))
    return top + band.height
