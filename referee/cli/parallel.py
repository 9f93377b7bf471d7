"""Checking many records on several cores (`referee check -j N`): when it is worth it, and
what the workers find loaded.

A worker that loads the games itself pays the start of a whole `referee check` again, which
on a few records costs more than the work it takes over. So the games that the records name
(their specs, rules tables and parsers) are loaded once, here, and the workers are forked
from this process afterwards (workers.py runs them): each inherits them loaded and only
replays its records. A few small records are checked in this process, without workers.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


# Below this many bytes of records in all, checking them here is quicker than starting worker
# processes: a start (multiprocessing's import, forking, a pipe, the first job's round trip in
# a process that has yet to touch its copy of the loaded games) costs about what 40 kilobytes
# of record take to check, and two workers save half of the work at most, less on a machine
# whose two processors share a core. Measured on such a machine (benchmarks/bench.py), two
# workers took 0.96 to 1.10 times as long as one process on 34 to 79 KB of records, and 0.84
# on 112 KB.
PARALLEL_MIN_BYTES = 96 * 1024


def worth_processes(paths: Iterable[str]) -> bool:
    """Whether the records are enough work for worker processes to save time (a file that
    cannot be read counts for nothing: its worker only reports it). A record that is no
    regular file (a FIFO, a device) may keep its reader waiting as long as its writer
    pleases: in a worker of its own, it holds back none of the other files."""
    total = 0
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        if stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) or stat.S_ISSOCK(info.st_mode):
            return True
        total += info.st_size
        if total >= PARALLEL_MIN_BYTES:
            return True
    return False


def load_games_of(paths: Iterable[str], variants: list[str]) -> None:
    """Load every game (with its variants) and parser that these records name, so that the
    workers forked afterwards find them loaded. A record that cannot be read, is no regular
    file (a FIFO is read by its worker alone: here it could wait for ever) or names no game
    is left to its worker, which reports it."""
    from referee.engine.replay import record_variants
    from referee.errors import RecordError, SpecError
    from referee.games import load_game
    from referee.notation.parser import MAX_RECORD_BYTES, game_of, parser_for
    from referee.spec.files import read_bytes
    from referee.spec.loader import grammar_root

    root = str(grammar_root())  # as the parse in the workers asks for it
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for path in paths:
        try:
            text = read_bytes(path, MAX_RECORD_BYTES).decode("utf-8", errors="replace")
            found = game_of(text)
            if found is None:
                continue
            game = found[0]
            wanted = (game, tuple(dict.fromkeys(record_variants(text, game) + list(variants))))
            if wanted in seen:
                continue
            seen.add(wanted)
            keywords = load_game(*wanted).keywords()
            parser_for(game, root, keywords)
        except (OSError, RecordError, SpecError, LookupError, TypeError, ValueError):
            continue  # the worker meets the same problem and reports it


def map_in_processes(fn: Callable[[T], R], jobs: list[T], workers: int, prepare: Callable[[], None] | None = None) -> list[R]:
    """`[fn(job) for job in jobs]` on `workers` processes, in order. `prepare` runs here first;
    where the system can fork, the workers start as copies of this process after it."""
    from referee.cli._workers import in_order

    return list(in_order(fn, jobs, max(1, min(workers, len(jobs))), _lost, prepare=prepare))


class WorkerLost(RuntimeError):
    """A worker process stopped (killed, out of memory) before it finished a job."""


def _lost(job: Any, why: str) -> Any:
    raise WorkerLost(why)
