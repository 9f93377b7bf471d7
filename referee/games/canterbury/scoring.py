"""Canterbury's scoring rules as small pure functions of counts and printed tables.

District scoring and the King's favour share one shape: a first place, a second place
for a lone runner-up behind a lone leader, and ties that share or lose a bonus.
"""

from __future__ import annotations

from typing import Any

# The two rows of a King's favour table (scoring.yaml, kings_favour).
FIRST, SECOND = "first", "second"


def divide(value: int, divisor: int, rounding: str) -> int:
    """Division with the rounding a rule names ("down" or "up")."""
    return -(-value // divisor) if rounding == "up" else value // divisor


def podium(counts: dict[str, int]) -> tuple[list[str], str | None]:
    """Those tied for most, and the single runner-up (None when the most are tied, nobody is
    second, or several are tied for second): both district scoring and the King's favour
    award a second place only to a lone runner-up behind a lone leader."""
    best = max(counts.values(), default=0)
    if best <= 0:
        return [], None
    leaders = [o for o, n in counts.items() if n == best]
    if len(leaders) > 1:
        return sorted(leaders), None
    # the runner-up in one pass (every district is scored four times a game): the most below
    # the leader, and whether nobody else holds as many
    second, runner, lone = 0, None, False
    for owner, n in counts.items():
        if 0 < n < best:
            if n > second:
                second, runner, lone = n, owner, True
            elif n == second:
                lone = False
    return leaders, runner if lone else None


def district_awards(counts: dict[str, int], primary: int, secondary: dict, split: str) -> dict[str, int]:
    """Primary and secondary bonus of one district, by the cubes each owner has there."""
    leaders, runner = podium(counts)
    if len(leaders) > 1:
        share = divide(primary, len(leaders), split)
        return {o: share for o in leaders}
    awards = {o: primary for o in leaders}
    if runner is not None:
        awards[runner] = divide(primary, secondary["divisor"], secondary["rounding"])
    return awards


def favour_awards(positions: dict[str, int], first: dict, second: dict, split: str) -> dict[str, int]:
    """King's favour for one service: the numbers printed under the leaders' and runner-up's cubes."""
    leaders, runner = podium(positions)
    if len(leaders) > 1:
        position = positions[leaders[0]]
        share = divide(printed_at(first, position) + printed_at(second, position), len(leaders), split)
        return {o: share for o in leaders}
    awards = {o: printed_at(first, positions[o]) for o in leaders}
    if runner is not None:
        awards[runner] = printed_at(second, positions[runner])
    return awards


def favour_cells(positions: dict[str, int]) -> list[tuple[str, int]]:
    """The printed numbers favour_awards reads, as (row, position): both rows at the position of
    tied leaders, else the first row at the leader's and the second at a lone runner-up's."""
    leaders, runner = podium(positions)
    if len(leaders) > 1:
        return [(FIRST, positions[leaders[0]]), (SECOND, positions[leaders[0]])]
    return [(FIRST, positions[o]) for o in leaders] + ([(SECOND, positions[runner])] if runner is not None else [])


def printed_at(table: dict, position: int) -> int:
    """A printed number by position; positions without a number score nothing."""
    value = table.get(position, table.get(str(position)))
    return value or 0


def keyed(table: dict, key: int) -> Any:
    """A value from a YAML mapping whose keys may be read as numbers or as strings."""
    return table.get(key, table.get(str(key)))
