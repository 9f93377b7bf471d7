"""Work on many files in worker processes: results in order, memory flat, no orphans.

`check -j N` hands files to worker processes. Three things are kept true whatever happens:

- results come back in the order of the command line, each as soon as it and those before
  it are done, with only a few files' work in flight at a time, so that ten thousand files
  print steadily and take no more memory than ten;
- a worker that dies (killed, out of memory) loses no result already made: the files done
  are reported, and every file not done is handed to `lost`, to be marked as not checked;
- the workers die with the process that started them, even one killed at once (SIGKILL),
  instead of running on, re-parented, for ever.

A worker that loads what its work needs pays a whole start again, so `prepare` runs in this
process first and the workers are forked from it afterwards (where the system can fork):
each inherits what it loaded. Whether a batch is worth processes at all, and what to load,
is the caller's to say (parallel.py for `check -j`).
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections import deque
from typing import Any, Callable, Iterator

IN_FLIGHT_PER_WORKER = 4  # jobs handed out ahead of the one whose result is printed next
PARENT_CHECK_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # Linux prctl option: a signal for this process when its parent dies


def usable_processors() -> int:
    """The processors this process may run on: more workers than these only wait and take memory."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def in_order(work: Callable[[Any], Any], jobs: list, workers: int, lost: Callable[[Any, str], Any], prepare: Callable[[], None] | None = None) -> Iterator[Any]:
    """`work(job)` for each job, yielded in the order of `jobs`; with more than one worker,
    in that many processes, forked after `prepare` has run here. A job whose worker died
    yields `lost(job, why)` instead."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield work(job)
        return
    if prepare is not None:
        prepare()
    # What is loaded now is kept out of the collector's sight, so that a worker's collection
    # does not touch, and so copy, every page it shares with this process.
    gc.freeze()
    try:
        yield from _in_processes(work, jobs, workers, lost)
    finally:
        gc.unfreeze()


_NO_MORE = object()


def _in_processes(work: Callable[[Any], Any], jobs: list, workers: int, lost: Callable[[Any, str], Any]) -> Iterator[Any]:
    """The jobs handed to the workers one at a time (a long one holds back no batch behind
    it), a few ahead of the one whose result is yielded next."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("fork") if os.name == "posix" and "fork" in multiprocessing.get_all_start_methods() else None
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),))
    pending: deque = deque()
    waiting: Iterator = iter(jobs)
    broken: str | None = None
    finished = False
    try:
        while True:
            while broken is None and len(pending) < workers * IN_FLIGHT_PER_WORKER:
                job = next(waiting, _NO_MORE)
                if job is _NO_MORE:
                    break
                try:
                    pending.append((job, pool.submit(work, job)))
                except (BrokenProcessPool, RuntimeError):
                    broken = "a worker process stopped before this file was checked"
                    pending.append((job, None))
            if not pending:
                break
            job, future = pending.popleft()
            try:
                if future is None:
                    raise BrokenProcessPool(broken)
                result = future.result()
            except BrokenProcessPool:
                broken = "a worker process stopped (killed?) before this file was checked"
                result = lost(job, broken)
            yield result
        for job in waiting:  # only after a worker died
            yield lost(job, broken or "a worker process stopped")
        finished = True
    finally:
        if not finished:  # stopped early (the output failed, Ctrl-C): no waiting for work in flight,
            for process in list((getattr(pool, "_processes", None) or {}).values()):  # which may wait for ever
                process.terminate()
        pool.shutdown(wait=finished, cancel_futures=True)


def _start_worker(parent: int) -> None:
    """In each worker: leave Ctrl-C to the parent (which stops the pool), and die with it."""
    import signal  # here, in the worker: a check of one file in one process needs none of it

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the watch below does it
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)
