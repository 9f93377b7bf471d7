"""What a Canterbury move changes by a number printed on a tile, for `referee box --infer`.

Every build changes its builder's money by the tile's cost and prosperity by the builder's
points of the ring it stands in, and moves the city marker by the tile's city points (a
tile built for the neutral player moves only the city marker). These are the terms of the
linear equations that checkpoints give for the printed numbers; everything else a move
changes (the Levy, the tax, cubes, district scorings) the inference takes as the spec says.
"""

from __future__ import annotations

from referee.games.canterbury.moves import Action, NeutralStep

MONEY, PROSPERITY, POSITION = "money", "prosperity", "position"


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
                out += [(city, PROSPERITY, info.printed("city"), 1), (city, POSITION, info.printed("city"), 1)]
    elif isinstance(move, NeutralStep) and move.district is not None and city_moves and state.neutral and state.neutral["city_points"]:
        info = game.structures.get(move.structure)
        if info is not None:
            out += [(city, PROSPERITY, info.printed("city"), 1), (city, POSITION, info.printed("city"), 1)]
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


def first(game) -> set[tuple[str, str]]:
    """The figures that follow the printed numbers alone: the city marker moves by the city
    points and nothing else, while the tax, the Levy and the district scorings follow where
    the marker stands. These are solved first, so that the replay the rest is read from
    has the marker where the record has it."""
    city = game.spec["board"]["city_cube"]["owner"]
    return {(city, PROSPERITY), (city, POSITION)}


def settled(state) -> set[tuple[str, str]]:
    """The figures that no longer follow the printed numbers linearly: the city's, once the
    last disc has set the marker to its final space."""
    city = state.spec["board"]["city_cube"]["owner"]
    return {(city, PROSPERITY), (city, POSITION)} if state.city.discs >= state.spec["treasury"]["city"]["discs"] else set()
