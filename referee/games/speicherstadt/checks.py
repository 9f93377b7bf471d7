"""The Speicherstadt's cross-checks of its spec: what a schema cannot say.

The cards of each season add up to the season's size and the seasons to the
deck; faces listed for a season are no more than its cards of that type; a
trader buys a good that exists; the bag holds every good's cubes; every player
count has a set-up whose removed cards exist; and the deck has a fire. Tables keyed by a
count or a name have no entry the game cannot reach (`check_keyed`). A failed check is a
spec error at the key it names, before any record is read.
"""

from __future__ import annotations

from collections import Counter

from referee.errors import SpecError
from referee.spec.keyed import check_keys, counts, player_counts, span
from referee.spec.loader import Spec


def check_spec(spec: Spec) -> None:
    cards = spec["cards"]
    path = spec.path_of("cards")
    seasons = {s["id"]: s["cards"] for s in cards["seasons"]}
    totals = Counter()
    for tid, t in cards["types"].items():
        for season, n in t["counts"].items():
            if season not in seasons:
                raise SpecError(path, f"types.{tid}.counts.{season}", f"no season {season}")
            totals[season] += n
        faces = t.get("faces") or []
        per_season = Counter(f["season"] for f in faces)
        for season, n in per_season.items():
            if n > t["counts"].get(season, 0):
                raise SpecError(path, f"types.{tid}.faces", f"{n} faces listed for season {season}, which has {t['counts'].get(season, 0)} such cards")
        if "trader" in t and t["trader"]["good"] not in spec["components"]["goods"]:
            raise SpecError(path, f"types.{tid}.trader.good", f"unknown good {t['trader']['good']!r}")
    for season, expected in seasons.items():
        if totals[season] != expected:
            raise SpecError(path, f"seasons.{season}", f"season {season} should hold {expected} cards; the card types add up to {totals[season]}")
    if sum(seasons.values()) != cards["deck"]:
        raise SpecError(path, "deck", f"the deck has {cards['deck']} cards; the seasons add up to {sum(seasons.values())}")
    goods = spec["components"]["goods"]
    if sum(g["cubes"] for g in goods.values()) != spec["components"]["bag"]["cubes"]:
        raise SpecError(spec.path_of("components"), "bag.cubes", "the bag's cube count does not equal the goods' cubes added up")
    players = spec.meta["players"]
    by_players = spec["setup"]["by_players"]
    ids = {f.get("id") for t in cards["types"].values() for f in (t.get("faces") or []) if f.get("id")}
    for n in range(players["min"], players["max"] + 1):
        if n not in by_players and str(n) not in by_players:
            raise SpecError(spec.path_of("setup"), f"by_players.{n}", f"no setup for {n} players")
    for n, entry in by_players.items():
        for i, name in enumerate(entry["removed"]):
            if name not in cards["types"] and name not in ids:
                raise SpecError(spec.path_of("setup"), f"by_players.{n}.removed.{i}", f"no card type or card id {name!r}")
    if not any("points" == (t.get("face") or {}).get("field") for t in cards["types"].values()):
        raise SpecError(path, "types", "the deck needs a fire card type (face field 'points')")
    check_keyed(spec)


def check_keyed(spec: Spec) -> None:
    """Entries keyed by a count or a name that the game has no such thing for."""
    types = spec["cards"]["types"]
    players = player_counts(spec)
    check_keys(spec, "setup", "by_players", players, f"a set-up for {{key}} players; the game is for {span(players)}")
    office = spec["scoring"]["counting_offices"]["card"]
    if office not in types:
        raise SpecError(spec.path_of("scoring"), "counting_offices.card", f"no card type {office!r}")
    offices = sum(types[office]["counts"].values())
    check_keys(spec, "scoring", "counting_offices.points", counts(1, offices), f"a points step for {{key}} counting offices; the deck has {offices}, so a player owns {span(counts(1, offices))}")
    for tid, t in types.items():
        sizes = (t.get("face") or {}).get("sizes")
        if sizes is not None:
            check_keys(spec, "cards", f"types.{tid}.points_by_size", sizes, f"points for a {tid} of {{key}} goods; its sizes are {', '.join(map(str, sizes))}")
        seasons = [s for s, n in t["counts"].items() if n]
        check_keys(spec, "cards", f"types.{tid}.play_points", seasons, f"stand-in points for a {tid} of season {{key}}; it comes in {', '.join(seasons) or 'no season'}")
