"""Random draws as `random.Random` makes them, without the lists it builds for them.

A random game (`referee play`) draws a weighted choice several times a move. The games it
writes for a seed must stay the games it wrote before, so each draw here takes the very
numbers the standard library's method takes and answers as it answers; only the lists it
builds around the one number are left out.
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate
from math import isfinite
from typing import Sequence


def weighted_index(rng: random.Random, weights: Sequence[float]) -> int:
    """The index that `rng.choices(range(len(weights)), weights)[0]` picks, drawn the same."""
    cumulative = list(accumulate(weights))
    total = cumulative[-1] + 0.0  # no weights: an IndexError, as from `choices`
    if total <= 0.0:
        raise ValueError("Total of weights must be greater than zero")
    if not isfinite(total):
        raise ValueError("Total of weights must be finite")
    return bisect(cumulative, rng.random() * total, 0, len(cumulative) - 1)
