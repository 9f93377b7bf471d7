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
from referee.i18n import Message, _, current
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
                raise SpecError(path, f"types.{tid}.counts.{season}", Message("no season {season}", season=season))
            totals[season] += n
        faces = t.get("faces") or []
        per_season = Counter(f["season"] for f in faces)
        for season, n in per_season.items():
            if n > t["counts"].get(season, 0):
                raise SpecError(path, f"types.{tid}.faces", Message("{n} faces listed for season {season}, which has {cards} such cards", n=n, season=season, cards=t["counts"].get(season, 0)))
        if "trader" in t and t["trader"]["good"] not in spec["components"]["goods"]:
            raise SpecError(path, f"types.{tid}.trader.good", Message("unknown good {good}", good=repr(t["trader"]["good"])))
    for season, expected in seasons.items():
        if totals[season] != expected:
            raise SpecError(
                path, f"seasons.{season}", Message("season {season} should hold {expected} cards; the card types add up to {total}", season=season, expected=expected, total=totals[season])
            )
    if sum(seasons.values()) != cards["deck"]:
        raise SpecError(path, "deck", Message("the deck has {deck} cards; the seasons add up to {total}", deck=cards["deck"], total=sum(seasons.values())))
    goods = spec["components"]["goods"]
    if sum(g["cubes"] for g in goods.values()) != spec["components"]["bag"]["cubes"]:
        raise SpecError(spec.path_of("components"), "bag.cubes", Message("the bag's cube count does not equal the goods' cubes added up"))
    players = spec.meta["players"]
    by_players = spec["setup"]["by_players"]
    ids = {f.get("id") for t in cards["types"].values() for f in (t.get("faces") or []) if f.get("id")}
    for n in range(players["min"], players["max"] + 1):
        if n not in by_players and str(n) not in by_players:
            raise SpecError(spec.path_of("setup"), f"by_players.{n}", Message("no setup for {n} players", n=n))
    for n, entry in by_players.items():
        for i, name in enumerate(entry["removed"]):
            if name not in cards["types"] and name not in ids:
                raise SpecError(spec.path_of("setup"), f"by_players.{n}.removed.{i}", Message("no card type or card id {name}", name=repr(name)))
    if not any("points" == (t.get("face") or {}).get("field") for t in cards["types"].values()):
        raise SpecError(path, "types", Message("the deck needs a fire card type (face field 'points')"))
    check_keyed(spec)


def check_keyed(spec: Spec) -> None:
    """Entries keyed by a count or a name that the game has no such thing for."""
    types = spec["cards"]["types"]
    players = player_counts(spec)
    check_keys(spec, "setup", "by_players", players, _("a set-up for {key} players; the game is for {players}").format(key="{key}", players=span(players)))
    office = spec["scoring"]["counting_offices"]["card"]
    if office not in types:
        raise SpecError(spec.path_of("scoring"), "counting_offices.card", Message("no card type {name}", name=repr(office)))
    offices = sum(types[office]["counts"].values())
    check_keys(
        spec,
        "scoring",
        "counting_offices.points",
        counts(1, offices),
        _("a points step for {key} counting offices; the deck has {n}, so a player owns {owned}").format(key="{key}", n=offices, owned=span(counts(1, offices))),
    )
    for tid, t in types.items():
        sizes = (t.get("face") or {}).get("sizes")
        if sizes is not None:
            check_keys(
                spec,
                "cards",
                f"types.{tid}.points_by_size",
                sizes,
                _("points for a {card} of {key} goods; its sizes are {sizes}").format(card=card_words(spec, tid), key="{key}", sizes=", ".join(map(str, sizes))),
            )
        seasons = [s for s, n in t["counts"].items() if n]
        check_keys(
            spec,
            "cards",
            f"types.{tid}.play_points",
            seasons,
            _("stand-in points for a {card} of season {key}; it comes in {seasons}").format(card=card_words(spec, tid), key="{key}", seasons=", ".join(seasons) or _("no season")),
        )


def card_words(spec: Spec, tid: str) -> str:
    """A card type in such a message: its id in English, the spec's name in another language."""
    return tid if current() == "en" else spec.name(spec["cards"]["types"].get(tid), current(), tid)
