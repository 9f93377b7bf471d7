"""The Speicherstadt's final scoring, as arithmetic on what a player holds.

The rules (rules.py) gather what each player owns at the end of the game and note
which rules and spec values the score relied on; these functions only add up
points from the spec's tables (contracts by size, counting offices by count, the
end points printed on cards: traders, churches, the port, the warehouse). Fire points are
won and lost during the game and kept on the player, so they need no sum here.
"""

from __future__ import annotations


def by_count(table: dict, n: int) -> int:
    """Points for `n` from a table keyed by count; beyond its highest key the highest entry holds."""
    if n in table:
        return table[n]
    if str(n) in table:
        return table[str(n)]
    keys = sorted(int(k) for k in table)
    return by_count(table, keys[-1]) if n > keys[-1] else 0


def contracts(points_by_size: dict, completed_sizes: list[int]) -> int:
    """Each completed contract scores by the number of goods it shows."""
    return sum(by_count(points_by_size, size) for size in completed_sizes)


def counting_offices(points: dict, offices: int) -> int:
    """Counting offices score together, by how many a player owns."""
    return by_count(points, offices) if offices else 0


def card_points(card_type: dict, coins: int, ships: int, warehouse_cubes: int) -> int:
    """The end points a card type prints: a flat sum, or so many per coin, per ship or per stored cube."""
    pts = card_type.get("end_points", 0)
    pts += card_type.get("end_points_per_coin", 0) * coins
    pts += card_type.get("end_points_per_ship", 0) * ships
    pts += card_type.get("end_points_per_cube", 0) * warehouse_cubes
    return pts


def is_trader(card_type: dict) -> bool:
    """Whether a card's points go to the breakdown's one line for all traders."""
    return "trader" in card_type
