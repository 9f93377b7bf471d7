"""What Civitas Hamburgum's records teach of its printed numbers (`referee box hamburgum
--infer`, referee/box/learn.py): money and prestige follow the church table, the depot's
prices and the church tokens' points, read until the game ends (final scoring is no plain
sum of them); a church's building token also names the house type it counts."""

from __future__ import annotations

FIGURES = {"money", "prestige"}  # the checkpoint figures the printed numbers move
AFTER_END = False


def options(spec, address: str) -> list[str] | None:
    """The house types a church's building token may count: every type of house there is."""
    church, _dot, rest = address.removeprefix("churches:churches.").partition(".")
    if address.startswith("churches:churches.") and church and rest == "building.house":
        return list(spec.get("houses:types"))
    return None


def companions(address: str) -> set[str]:
    """The points per house printed on the same building token."""
    return {address.rsplit(".", 1)[0] + ".points"}
