"""Cross-checks of the Canterbury data that a schema cannot express: totals, references
between files, agreement of stand-in tables with the numbers the rulebook prints, and no
entry in a table keyed by a count or a name that the game has no such thing for."""

from __future__ import annotations

from collections import Counter

from referee.errors import SpecError
from referee.games.canterbury.scoring import divide, keyed, printed_at
from referee.i18n import Message, _
from referee.spec.keyed import check_keys, counts, player_counts, span
from referee.spec.loader import Spec


def check_board(spec: Spec) -> None:
    board = spec["board"]
    path = spec.path_of("board")
    districts = board["districts"]
    rings = Counter(d["ring"] for d in districts.values())
    for ring, entry in board["rings"].items():
        if rings[ring] != entry["districts"]:
            raise SpecError(path, f"rings.{ring}.districts", Message("{n} {ring} districts expected; the district list has {listed}", n=entry["districts"], ring=ring, listed=rings[ring]))
    for d, entry in districts.items():
        if entry["ring"] not in board["rings"]:
            raise SpecError(path, f"districts.{d}.ring", Message("no ring {ring}", ring=repr(entry["ring"])))
        for n in entry["neighbours"]:
            if n not in districts:
                raise SpecError(path, f"districts.{d}.neighbours", Message("no district {n}", n=repr(n)))
            if d not in districts[n]["neighbours"]:
                raise SpecError(path, f"districts.{d}.neighbours", Message("{d} borders {n}, but {n} does not list {d}", d=d, n=n))
    for alias, d in (board.get("aliases") or {}).items():
        if d not in districts:
            raise SpecError(path, f"aliases.{alias}", Message("no district {d}", d=repr(d)))
    for key in ("roman_well", "city_cube"):
        if board[key]["district"] not in districts:
            raise SpecError(path, f"{key}.district", Message("no district {district}", district=repr(board[key]["district"])))
    structures = spec["structures"]["structures"]
    well = board["roman_well"]["structure"]
    if well not in structures or not structures[well].get("set_out"):
        raise SpecError(path, "roman_well.structure", Message("{well} is not a structure marked set_out in structures.yaml", well=repr(well)))
    services = [s["id"] for s in spec["services"]["services"]]
    if board["city_cube"]["service"] not in services:
        raise SpecError(path, "city_cube.service", Message("no service {service}", service=repr(board["city_cube"]["service"])))
    if len(services) != board["service_slots"]:
        raise SpecError(path, "service_slots", Message("{slots} slots per district, but services.yaml lists {n} services", slots=board["service_slots"], n=len(services)))


def check_structures(spec: Spec) -> None:
    data = spec["structures"]
    path = spec.path_of("structures")
    services = [s["id"] for s in spec["services"]["services"]]
    rings = spec["board"]["rings"]
    totals: Counter = Counter()
    for size, entry in data["sizes"].items():
        if f"canterbury/demolish-{size}" not in spec.rules:
            raise SpecError(path, f"sizes.{size}", Message("rules.yaml needs a rule canterbury/demolish-{size} for demolishing {size} structures", size=size))
        for key, sizes in (entry["demolition"] or {}).items():
            for other in sizes:
                if other not in data["sizes"]:
                    raise SpecError(path, f"sizes.{size}.demolition.{key}", Message("no size {other}", other=repr(other)))
    for sid, s in data["structures"].items():
        if s["service"] not in services:
            raise SpecError(path, f"structures.{sid}.service", Message("no service {service}", service=repr(s["service"])))
        if s["size"] not in data["sizes"]:
            raise SpecError(path, f"structures.{sid}.size", Message("no size {size}", size=repr(s["size"])))
        if s.get("counts_as") and s["counts_as"] not in data["structures"]:
            raise SpecError(path, f"structures.{sid}.counts_as", Message("no structure {counts_as}", counts_as=repr(s["counts_as"])))
        player = s["printed"].get("player")
        if isinstance(player, dict):
            for ring in rings:
                if ring not in player:
                    raise SpecError(path, f"structures.{sid}.printed.player", Message("no points for the {ring} ring (write null for a dash)", ring=ring))
        totals[s["size"]] += s["printed"]["tiles"]
    for size, count in data["tiles"].items():
        if totals[size] != count:
            raise SpecError(path, f"tiles.{size}", Message("the box holds {count} {size} tiles; the structures add up to {total}", count=count, size=size, total=totals[size]))


def check_treasury(spec: Spec) -> None:
    treasury = spec["treasury"]
    path = spec.path_of("treasury")
    if len(treasury["levy"]) != treasury["track_length"]:
        raise SpecError(path, "levy", Message("the treasury track needs one entry per space: {spaces}, not {n}", spaces=treasury["track_length"], n=len(treasury["levy"])))
    for position, amount in (treasury.get("levy_known") or {}).items():
        if treasury["levy"][int(position)] != amount:
            raise SpecError(
                path, "levy", Message("the rulebook gives {amount} shillings at position {position}; the track says {levy}", amount=amount, position=position, levy=treasury["levy"][int(position)])
            )
    city = treasury["city"]
    if city["start"] >= city["discs"] * treasury["track_length"]:
        raise SpecError(path, "city.start", Message("the city cannot start at {start}: the game ends when it reaches {n}", start=city["start"], n=city["discs"] * treasury["track_length"]))
    if not 0 <= city["final_position"] < treasury["track_length"]:
        raise SpecError(path, "city.final_position", Message("the city marker's last space must be on the track (0 to {last}), not {n}", last=treasury["track_length"] - 1, n=city["final_position"]))
    tax = treasury["tax"]
    for levy, amount in (tax.get("printed") or {}).items():
        if divide(int(levy), tax["divisor"], tax["rounding"]) != amount:
            raise SpecError(
                path,
                "tax",
                Message(
                    "the printed table gives a tax of {amount} for a Levy of {levy}; the rule gives {computed}", amount=amount, levy=levy, computed=divide(int(levy), tax["divisor"], tax["rounding"])
                ),
            )


def check_scoring(spec: Spec) -> None:
    scoring = spec["scoring"]
    path = spec.path_of("scoring")
    services = [s["id"] for s in spec["services"]["services"]]
    for service in services:
        if service not in scoring["kings_favour"]:
            raise SpecError(path, "kings_favour", Message("no King's favour table for {service}", service=service))
    for i, known in enumerate(scoring.get("kings_favour_known") or []):
        table = scoring["kings_favour"].get(known["service"])
        if table is None or printed_at(table[known["place"]], known["position"]) != known["points"]:
            raise SpecError(
                path,
                f"kings_favour_known.{i}",
                Message(
                    "the rulebook's example gives {points} for {place} place at position {position} in {service}; the table does not",
                    points=known["points"],
                    place=known["place"],
                    position=known["position"],
                    service=known["service"],
                ),
            )
    for rank in range(1, spec.meta["players"]["max"] + 1):
        if keyed(scoring["rank_markers"], rank) is None:
            raise SpecError(path, "rank_markers", Message("no rank marker {rank}", rank=rank))


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
                raise SpecError(path, f"neutral.stacks.{i}.tiles", Message("no structure {tile}", tile=repr(tile)))
            if structures[tile]["size"] != stack["size"]:
                raise SpecError(path, f"neutral.stacks.{i}.tiles", Message("the {tile} is {size}, not {stack}", tile=tile, size=structures[tile]["size"], stack=stack["size"]))
            need[tile] += max(neutral["players"])
    for tile, count in need.items():
        if structures[tile]["printed"]["tiles"] < count:
            raise SpecError(path, "neutral.stacks", Message("the stacks need {count} {tile} tiles; the box has {n}", count=count, tile=tile, n=structures[tile]["printed"]["tiles"]))
    for key in neutral["set_aside"]:
        if key not in spec["setup"]["cubes"]["set_aside"]:
            raise SpecError(path, "neutral.set_aside", Message("no cube use {name} in cubes.set_aside", name=repr(key)))


def check_keyed(spec: Spec) -> None:
    """Entries keyed by a count or a name that the game has no such thing for."""
    players = player_counts(spec)
    check_keys(spec, "setup", "required_variants", players, _("a variant required for {key} players; the game is for {players}").format(key="{key}", players=span(players)))
    ranks = counts(1, spec.meta["players"]["max"])
    check_keys(spec, "setup", "ranks", ranks, _("rank {key}; with at most {n} players the ranks are {ranks}").format(key="{key}", n=ranks[-1], ranks=span(ranks)))
    check_keys(spec, "scoring", "rank_markers", ranks, _("a rank marker for rank {key}; the ranks are {ranks}").format(key="{key}", ranks=span(ranks)))
    services = [s["id"] for s in spec["services"]["services"]]
    check_keys(spec, "scoring", "kings_favour", services, _("a King's favour table for {key}, which is no service ({services})").format(key="{key}", services=", ".join(services)))
    districts = counts(1, len(spec["board"]["districts"]))
    for service in spec["scoring"]["kings_favour"]:
        for place in spec["scoring"]["kings_favour"][service]:
            check_keys(
                spec,
                "scoring",
                f"kings_favour.{service}.{place}",
                districts,
                _("a King's favour number for {key} districts served; the city has {districts} districts").format(key="{key}", districts=districts[-1]),
            )
    treasury = spec["treasury"]
    track = range(treasury["track_length"])
    check_keys(spec, "treasury", "levy_known", track, _("a known Levy at space {key}; the track's spaces are {spaces}").format(key="{key}", spaces=span(track)))
    sizes = list(spec["structures"]["sizes"])
    check_keys(spec, "structures", "tiles", sizes, _("tiles of size {key}, which is no size ({sizes})").format(key="{key}", sizes=", ".join(sizes)))
    rings = list(spec["board"]["rings"])
    for sid, _structure in spec["structures"]["structures"].items():
        check_keys(spec, "structures", f"structures.{sid}.printed.player", rings, _("points for the {key} ring, which the board does not have ({rings})").format(key="{key}", rings=", ".join(rings)))
