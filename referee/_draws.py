"""Random draws as `random.Random` makes them, without the work it does around them.

A random game (`referee play`) draws a weighted choice and a plain one several times a move,
and Canterbury's random player shuffles the districts for every structure it thinks of. The
games it writes for a seed must stay the games it wrote before, so each draw here takes the
very numbers the standard library's method takes and answers as it answers; only the lists
and the calls it makes around them are left out.
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate
from math import isfinite
from typing import Sequence, TypeVar

T = TypeVar("T")


def weighted_index(rng: random.Random, weights: Sequence[float]) -> int:
    """The index that `rng.choices(range(len(weights)), weights)[0]` picks, drawn the same."""
    return cumulative_index(rng, cumulative_weights(weights))


def cumulative_weights(weights: Sequence[float]) -> list[float]:
    """The running totals of the weights, which `cumulative_index` draws against, refused
    where `choices` refuses the weights: worked out once for weights drawn from many times."""
    cumulative = list(accumulate(weights))
    total = cumulative[-1] + 0.0  # no weights: an IndexError, as from `choices`
    if total <= 0.0:
        raise ValueError("Total of weights must be greater than zero")
    if not isfinite(total):
        raise ValueError("Total of weights must be finite")
    return cumulative


def cumulative_index(rng: random.Random, cumulative: list[float]) -> int:
    """`weighted_index` of the weights whose running totals these are."""
    return bisect(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(cumulative) - 1)


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """The item `rng.choice(items)` picks, drawn the same: a place drawn by rejection from just
    enough random bits (one draw even from a single item), without the two calls around it."""
    size = len(items)
    if not size:
        raise IndexError("Cannot choose from an empty sequence")
    bits = size.bit_length()
    j = rng.getrandbits(bits)
    while j >= size:
        j = rng.getrandbits(bits)
    return items[j]


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle `items` in place as `rng.shuffle(items)` does, number for number: from the last
    place down, each swaps with a place drawn below it by rejection from just enough random
    bits. The standard method makes a call for each of those draws; a search shuffles the
    districts for every structure it tries, and the calls were a sixth of its time."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        size = i + 1
        bits = size.bit_length()
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
