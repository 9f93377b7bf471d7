"""Counters made without `collections.Counter`'s constructor.

A Counter keeps nothing but its dict; its constructor is Python code that asks whether its
argument is a mapping before it counts. The rules make counters many times a move (a
player's stock copied for a turn, a board's cube counts copied for every candidate action),
so they make them here, with dict's own update: the same Counter, sooner.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping


def counts_of(counts: Mapping) -> Counter:
    """`Counter(counts)` for a mapping."""
    made: Counter = Counter.__new__(Counter)
    dict.update(made, counts)
    return made


def no_counts() -> Counter:
    """`Counter()`."""
    return Counter.__new__(Counter)
