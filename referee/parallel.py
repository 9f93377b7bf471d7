"""Checking many records on several cores (`referee check -j N`).

A worker that loads the games itself pays the start of a whole `referee check` again, which
on a few records costs more than the work it takes over. So the games that the records name
(their specs, rules tables and parsers) are loaded once, here, and the workers are forked
from this process afterwards: each inherits them loaded and only replays its records.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")


# Below this many bytes of records in all, checking them here is quicker than starting worker
# processes: a start (forking, a pipe, the first job's round trip) costs about what a dozen
# kilobytes of record take to check, and two workers save half of the work at most.
PARALLEL_MIN_BYTES = 32 * 1024


def worth_processes(paths: Iterable[str]) -> bool:
    """Whether the records are enough work for worker processes to save time (a file that
    cannot be read counts for nothing: its worker only reports it)."""
    total = 0
    for path in paths:
        try:
            total += os.path.getsize(path)
        except OSError:
            continue
        if total >= PARALLEL_MIN_BYTES:
            return True
    return False


def load_games_of(paths: Iterable[str], variants: list[str]) -> None:
    """Load every game (with its variants) and parser that these records name, so that the
    workers forked afterwards find them loaded. A record that cannot be read or names no
    game is left to its worker, which reports it."""
    from .engine import record_variants
    from .errors import RecordError, SpecError
    from .games import load_game
    from .lalr import driver
    from .notation import MAX_RECORD_BYTES, game_of, grammar_of, parser_for

    seen: set[tuple[str, tuple[str, ...]]] = set()
    for path in paths:
        try:
            with open(path, "rb") as fh:
                text = fh.read(MAX_RECORD_BYTES).decode("utf-8", errors="replace")
            found = game_of(text)
            if found is None:
                continue
            game = found[0]
            wanted = (game, tuple(dict.fromkeys(record_variants(text, game) + list(variants))))
            if wanted in seen:
                continue
            seen.add(wanted)
            keywords = load_game(*wanted).keywords()
            driver(grammar_of(game, None, keywords), lambda: parser_for(game, None, keywords))
        except (OSError, RecordError, SpecError, LookupError, TypeError, ValueError):
            continue  # the worker meets the same problem and reports it


def map_in_processes(fn: Callable[[T], R], jobs: list[T], workers: int, prepare: Callable[[], None] | None = None) -> list[R]:
    """`[fn(job) for job in jobs]` on `workers` processes, in order. `prepare` runs here first;
    where the system can fork, the workers start as copies of this process after it."""
    if prepare is not None:
        prepare()
    workers = max(1, min(workers, len(jobs)))
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() and os.name == "posix" else None
    from concurrent.futures import ProcessPoolExecutor

    # What is loaded now is kept out of the collector's sight, so that a worker's collection
    # does not touch, and so copy, every page it shares with this process.
    gc.freeze()
    try:
        # Jobs go out one at a time, so that a long record does not hold back a batch behind it.
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            return list(pool.map(fn, jobs, chunksize=1))
    finally:
        gc.unfreeze()
