"""What a Canterbury move changes by a number printed on a tile, for `referee box --infer`.

Every build changes its builder's money by the tile's cost and prosperity by the builder's
points of the ring it stands in, and adds the tile's city points to the city's prosperity (a
tile built for the neutral player adds only those). These are the terms of the
linear equations that checkpoints give for the printed numbers; everything else a move
changes (the Levy, the tax, cubes, district scorings) the inference takes as the spec says.
"""

from __future__ import annotations

from referee.games.canterbury.moves import Action, NeutralStep

MONEY, PROSPERITY = "money", "prosperity"


def terms(state, move) -> list[tuple[str, str, str, int]]:
    """(owner, figure, spec address, coefficient) for each printed number the move adds in."""
    game = state.game
    city = state.spec["board"]["city_cube"]["owner"]
    city_moves = state.city.discs < state.spec["treasury"]["city"]["discs"]
    out: list[tuple[str, str, str, int]] = []
    if isinstance(move, Action):
        for build in move.builds:
            info = game.structures.get(build.structure)
            district = game.districts.get(build.district)
            if info is None or district is None:
                continue
            out.append((move.player, MONEY, info.printed("cost"), -1))
            out.append((move.player, PROSPERITY, info.printed("player", district.ring), 1))
            if city_moves:
                out.append((city, PROSPERITY, info.printed("city"), 1))
    elif isinstance(move, NeutralStep) and move.district is not None and city_moves and state.neutral and state.neutral["city_points"]:
        info = game.structures.get(move.structure)
        if info is not None:
            out.append((city, PROSPERITY, info.printed("city"), 1))
    return out


def addresses(game) -> list[str]:
    """Every printed number a build reads: what the inference can hope to learn."""
    rings = sorted({d.ring for d in game.districts.values()})
    out = []
    for info in game.structures.values():
        if info.set_out:
            continue
        out += [info.printed("cost"), info.printed("city")]
        out += [info.printed("player", ring) for ring in rings] if isinstance(info.player, dict) else [info.printed("player")]
    return out


def follows_first(before, move, after) -> list[tuple[str, str]]:
    """The figures that follow where the city marker stands, once its prosperity rests on a
    number no checkpoint pins down: every player's money (a Levy, a tax, the rank markers at
    a district scoring) and prosperity (the district scoring comes when the marker passes a
    disc, and when it does is no longer known)."""
    return [(colour, figure) for colour in after.players for figure in (MONEY, PROSPERITY)]


def first(game) -> set[tuple[str, str]]:
    """The figures that follow the printed numbers alone: the city's prosperity grows by the
    city points and nothing else, while the tax, the Levy and the district scorings follow
    where the marker stands (and its position starts again at each disc). These are solved
    first, so that the replay the rest is read from has the marker where the record has it."""
    return {(game.spec["board"]["city_cube"]["owner"], PROSPERITY)}


def course(state, owner: str, figure: str) -> bool:
    """True for a figure that tells the course of the game: the city's discs. Where the
    replay's differ from the record's, the district scorings came at other times, and a
    player's figures after it are no longer sums of printed terms (until the numbers found
    bring the discs in step)."""
    return owner == state.spec["board"]["city_cube"]["owner"] and figure == "discs"


def linear(state, owner: str, figure: str, written: int) -> bool:
    """True when a checkpoint's figure is the sum of its printed terms and what the spec gives:
    a player's money always, and prosperity until the final scoring turns money into points
    (a whole share of it, not a sum); the city's prosperity until the last disc sets the
    marker to its final space (in the record or in the replay); the city's position never
    (it starts again at each disc: its prosperity says the same)."""
    city = state.spec["board"]["city_cube"]["owner"]
    if owner != city:
        return figure == MONEY or (figure == PROSPERITY and not state.is_over())
    treasury = state.spec["treasury"]
    most = treasury["city"]["discs"]
    return figure == PROSPERITY and state.city.discs < most and written < most * treasury["track_length"]
