"""Cross-checks of the Canterbury data that a schema cannot express: totals, references
between files, agreement of stand-in tables with the numbers the rulebook prints, and no
entry in a table keyed by a count or a name that the game has no such thing for."""

from __future__ import annotations

from collections import Counter

from referee.errors import SpecError
from referee.games.canterbury.scoring import divide, keyed, printed_at
from referee.spec.keyed import check_keys, counts, player_counts, span
from referee.spec.loader import Spec


def check_board(spec: Spec) -> None:
    board = spec["board"]
    path = spec.path_of("board")
    districts = board["districts"]
    rings = Counter(d["ring"] for d in districts.values())
    for ring, entry in board["rings"].items():
        if rings[ring] != entry["districts"]:
            raise SpecError(path, f"rings.{ring}.districts", f"{entry['districts']} {ring} districts expected; the district list has {rings[ring]}")
    for d, entry in districts.items():
        if entry["ring"] not in board["rings"]:
            raise SpecError(path, f"districts.{d}.ring", f"no ring {entry['ring']!r}")
        for n in entry["neighbours"]:
            if n not in districts:
                raise SpecError(path, f"districts.{d}.neighbours", f"no district {n!r}")
            if d not in districts[n]["neighbours"]:
                raise SpecError(path, f"districts.{d}.neighbours", f"{d} borders {n}, but {n} does not list {d}")
    for alias, d in (board.get("aliases") or {}).items():
        if d not in districts:
            raise SpecError(path, f"aliases.{alias}", f"no district {d!r}")
    for key in ("roman_well", "city_cube"):
        if board[key]["district"] not in districts:
            raise SpecError(path, f"{key}.district", f"no district {board[key]['district']!r}")
    structures = spec["structures"]["structures"]
    well = board["roman_well"]["structure"]
    if well not in structures or not structures[well].get("set_out"):
        raise SpecError(path, "roman_well.structure", f"{well!r} is not a structure marked set_out in structures.yaml")
    services = [s["id"] for s in spec["services"]["services"]]
    if board["city_cube"]["service"] not in services:
        raise SpecError(path, "city_cube.service", f"no service {board['city_cube']['service']!r}")
    if len(services) != board["service_slots"]:
        raise SpecError(path, "service_slots", f"{board['service_slots']} slots per district, but services.yaml lists {len(services)} services")


def check_structures(spec: Spec) -> None:
    data = spec["structures"]
    path = spec.path_of("structures")
    services = [s["id"] for s in spec["services"]["services"]]
    rings = spec["board"]["rings"]
    totals: Counter = Counter()
    for size, entry in data["sizes"].items():
        if f"canterbury/demolish-{size}" not in spec.rules:
            raise SpecError(path, f"sizes.{size}", f"rules.yaml needs a rule canterbury/demolish-{size} for demolishing {size} structures")
        for key, sizes in (entry["demolition"] or {}).items():
            for other in sizes:
                if other not in data["sizes"]:
                    raise SpecError(path, f"sizes.{size}.demolition.{key}", f"no size {other!r}")
    for sid, s in data["structures"].items():
        if s["service"] not in services:
            raise SpecError(path, f"structures.{sid}.service", f"no service {s['service']!r}")
        if s["size"] not in data["sizes"]:
            raise SpecError(path, f"structures.{sid}.size", f"no size {s['size']!r}")
        if s.get("counts_as") and s["counts_as"] not in data["structures"]:
            raise SpecError(path, f"structures.{sid}.counts_as", f"no structure {s['counts_as']!r}")
        player = s["printed"].get("player")
        if isinstance(player, dict):
            for ring in rings:
                if ring not in player:
                    raise SpecError(path, f"structures.{sid}.printed.player", f"no points for the {ring} ring (write null for a dash)")
        totals[s["size"]] += s["printed"]["tiles"]
    for size, count in data["tiles"].items():
        if totals[size] != count:
            raise SpecError(path, f"tiles.{size}", f"the box holds {count} {size} tiles; the structures add up to {totals[size]}")


def check_treasury(spec: Spec) -> None:
    treasury = spec["treasury"]
    path = spec.path_of("treasury")
    if len(treasury["levy"]) != treasury["track_length"]:
        raise SpecError(path, "levy", f"the treasury track needs one entry per space: {treasury['track_length']}, not {len(treasury['levy'])}")
    for position, amount in (treasury.get("levy_known") or {}).items():
        if treasury["levy"][int(position)] != amount:
            raise SpecError(path, "levy", f"the rulebook gives {amount} shillings at position {position}; the track says {treasury['levy'][int(position)]}")
    city = treasury["city"]
    if city["start"] >= city["discs"] * treasury["track_length"]:
        raise SpecError(path, "city.start", f"the city cannot start at {city['start']}: the game ends when it reaches {city['discs'] * treasury['track_length']}")
    if not 0 <= city["final_position"] < treasury["track_length"]:
        raise SpecError(path, "city.final_position", f"the city marker's last space must be on the track (0 to {treasury['track_length'] - 1}), not {city['final_position']}")
    tax = treasury["tax"]
    for levy, amount in (tax.get("printed") or {}).items():
        if divide(int(levy), tax["divisor"], tax["rounding"]) != amount:
            raise SpecError(path, "tax", f"the printed table gives a tax of {amount} for a Levy of {levy}; the rule gives {divide(int(levy), tax['divisor'], tax['rounding'])}")


def check_scoring(spec: Spec) -> None:
    scoring = spec["scoring"]
    path = spec.path_of("scoring")
    services = [s["id"] for s in spec["services"]["services"]]
    for service in services:
        if service not in scoring["kings_favour"]:
            raise SpecError(path, "kings_favour", f"no King's favour table for {service}")
    for i, known in enumerate(scoring.get("kings_favour_known") or []):
        table = scoring["kings_favour"].get(known["service"])
        if table is None or printed_at(table[known["place"]], known["position"]) != known["points"]:
            raise SpecError(
                path, f"kings_favour_known.{i}", f"the rulebook's example gives {known['points']} for {known['place']} place at position {known['position']} in {known['service']}; the table does not"
            )
    for rank in range(1, spec.meta["players"]["max"] + 1):
        if keyed(scoring["rank_markers"], rank) is None:
            raise SpecError(path, "rank_markers", f"no rank marker {rank}")


def check_neutral(spec: Spec) -> None:
    neutral = spec["setup"]["neutral"]
    if not neutral:
        return
    path = spec.path_of("setup")
    structures = spec["structures"]["structures"]
    need: Counter = Counter()
    for i, stack in enumerate(neutral["stacks"]):
        for tile in stack["tiles"]:
            if tile not in structures:
                raise SpecError(path, f"neutral.stacks.{i}.tiles", f"no structure {tile!r}")
            if structures[tile]["size"] != stack["size"]:
                raise SpecError(path, f"neutral.stacks.{i}.tiles", f"the {tile} is {structures[tile]['size']}, not {stack['size']}")
            need[tile] += max(neutral["players"])
    for tile, count in need.items():
        if structures[tile]["printed"]["tiles"] < count:
            raise SpecError(path, "neutral.stacks", f"the stacks need {count} {tile} tiles; the box has {structures[tile]['printed']['tiles']}")
    for key in neutral["set_aside"]:
        if key not in spec["setup"]["cubes"]["set_aside"]:
            raise SpecError(path, "neutral.set_aside", f"no cube use {key!r} in cubes.set_aside")


def check_keyed(spec: Spec) -> None:
    """Entries keyed by a count or a name that the game has no such thing for."""
    players = player_counts(spec)
    check_keys(spec, "setup", "required_variants", players, f"a variant required for {{key}} players; the game is for {span(players)}")
    ranks = counts(1, spec.meta["players"]["max"])
    check_keys(spec, "setup", "ranks", ranks, f"rank {{key}}; with at most {ranks[-1]} players the ranks are {span(ranks)}")
    check_keys(spec, "scoring", "rank_markers", ranks, f"a rank marker for rank {{key}}; the ranks are {span(ranks)}")
    services = [s["id"] for s in spec["services"]["services"]]
    check_keys(spec, "scoring", "kings_favour", services, f"a King's favour table for {{key}}, which is no service ({', '.join(services)})")
    districts = counts(1, len(spec["board"]["districts"]))
    for service in spec["scoring"]["kings_favour"]:
        for place in spec["scoring"]["kings_favour"][service]:
            check_keys(spec, "scoring", f"kings_favour.{service}.{place}", districts, f"a King's favour number for {{key}} districts served; the city has {districts[-1]} districts")
    treasury = spec["treasury"]
    track = range(treasury["track_length"])
    check_keys(spec, "treasury", "levy_known", track, f"a known Levy at space {{key}}; the track's spaces are {span(track)}")
    sizes = list(spec["structures"]["sizes"])
    check_keys(spec, "structures", "tiles", sizes, f"tiles of size {{key}}, which is no size ({', '.join(sizes)})")
    rings = list(spec["board"]["rings"])
    for sid, _structure in spec["structures"]["structures"].items():
        check_keys(spec, "structures", f"structures.{sid}.printed.player", rings, f"points for the {{key}} ring, which the board does not have ({', '.join(rings)})")
