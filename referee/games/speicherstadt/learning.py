"""What The Speicherstadt's records teach of its printed numbers (`referee box speicherstadt
--infer`, referee/box/learn.py): the players' points follow the fire cards' points, read in
the result too, and a reveal that writes a fire's points states them outright. A contract's
reveal writes its goods: what the card shows, read off as it is."""

from __future__ import annotations

FIGURES = {"points"}  # the checkpoint figures the printed numbers move
AFTER_END = True  # final scoring adds no printed number of its own: the result is read too


def stated(position, move) -> list[tuple[str, int]]:
    """The fire card a reveal turns up, when the record writes its points: (address, points)."""
    game = position.game
    fire = getattr(game, "fire", None)
    if getattr(move, "card", None) != fire or getattr(move, "points", None) is None:
        return []
    season = position.state.current_season()
    faces = game.types[fire].get("faces") or []
    field_name = game.types[fire].get("face", {}).get("field", "points")
    found = [i for i, face in enumerate(faces) if face.get("season") == season]
    return [(f"cards:types.{fire}.faces.{found[0]}.{field_name}", move.points)] if len(found) == 1 else []


def start(spec, address: str) -> int | None:
    """The first number tried for a card face no source gives: the least the face may show."""
    parts = address.partition(":")[2].split(".")
    if len(parts) == 5 and parts[0] == "types" and parts[2] == "faces":
        face = spec.get(f"cards:types.{parts[1]}").get("face") or {}
        if face.get("field") == parts[4]:
            return int(face.get("min", 1))
    return None


def revealed(position, move) -> tuple[str, dict] | None:
    """A reveal of a card whose faces the data lists by season and the record writes (a
    contract and its goods): the address of the list, and the face with its season."""
    game = position.game
    contract = getattr(game, "contract", None)
    if getattr(move, "card", None) != contract or not getattr(move, "goods", None):
        return None
    return f"cards:types.{contract}.faces", {"season": position.state.current_season(), "goods": sorted(move.goods)}


def room(spec, address: str) -> dict[str, int]:
    """How many cards of the type whose faces `address` lists each season's stack holds."""
    card = address.partition(":")[2].split(".")[1]
    return {season: int(n) for season, n in spec.get(f"cards:types.{card}")["counts"].items()}
