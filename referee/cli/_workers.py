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
from collections.abc import Callable, Iterator
from typing import Any

from referee.i18n import _

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


def _in_processes(work: Callable[[Any], Any], jobs: list, workers: int, lost: Callable[[Any, str], Any]) -> Iterator[Any]:
    """The jobs handed to the workers one at a time (a long one holds back no batch behind
    it), no further than a few ahead of the one whose result is yielded next.

    The pool is a pipe to each worker and nothing else: no threads, queues or locks that a
    worker killed half way through could leave held (the standard library's process pool
    can then wait for ever). A worker's pipe reads as closed when the worker dies, so the
    one wait below hears of a result and of a death alike."""
    from multiprocessing.connection import wait

    crew: list[_Worker] = []
    for _worker in range(workers):
        try:
            crew.append(_Worker(work, [worker.pipe for worker in crew]))
        except OSError:  # no more processes to be had (a limit on them): fewer workers
            break
    if not crew:
        yield from map(work, jobs)
        return
    workers = len(crew)
    done: dict[int, Any] = {}  # results that came back ahead of their turn
    busy: dict[_Worker, int] = {}  # the job each worker is on
    handed = shown = 0
    broken: str | None = None
    try:
        while shown < len(jobs):
            for worker in crew:
                if broken is None and worker not in busy and handed < min(len(jobs), shown + workers * IN_FLIGHT_PER_WORKER):
                    if worker.hand(handed, jobs[handed]):
                        busy[worker] = handed
                        handed += 1
                    else:
                        broken = _("a worker process stopped before this file was checked")
            if shown in done:
                yield done.pop(shown)
                shown += 1
                continue
            if broken is not None:  # nothing more comes back: the rest are not checked
                yield lost(jobs[shown], broken)
                shown += 1
                continue
            for worker in _ready(wait, crew):
                index = busy.pop(worker, None)
                try:
                    answer = worker.answer()
                except (EOFError, OSError):
                    broken = _("a worker process stopped (killed?) before this file was checked")
                    continue
                if index is not None:
                    done[index] = _returned(answer)
    finally:
        for worker in crew:
            worker.stop(at_once=broken is not None or shown < len(jobs))  # stopped early (the output failed, Ctrl-C): no waiting


def _ready(wait: Callable, crew: list[_Worker]) -> list[_Worker]:
    by_pipe = {worker.pipe: worker for worker in crew}
    return [by_pipe[pipe] for pipe in wait(list(by_pipe))]


def _returned(answer: tuple[bool, Any]) -> Any:
    ok, value = answer
    if not ok:
        raise value
    return value


class _Worker:
    """One worker process and the pipe to it; started as a copy of this process where the
    system can fork, so that it finds loaded what this process loaded."""

    def __init__(self, work: Callable[[Any], Any], others: list) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork") if os.name == "posix" and "fork" in multiprocessing.get_all_start_methods() else multiprocessing.get_context()
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(work, theirs, [self.pipe, *others], os.getpid()), daemon=True)
        self.process.start()
        theirs.close()  # so that the pipe reads as closed once the worker is gone

    def hand(self, index: int, job: Any) -> bool:
        """Give the worker a job; False if it is gone."""
        try:
            self.pipe.send((index, job))
            return True
        except (OSError, ValueError):
            return False

    def answer(self) -> tuple[bool, Any]:
        return self.pipe.recv()

    def stop(self, at_once: bool) -> None:
        if at_once:
            self.process.terminate()
        else:
            self.hand(-1, None)
        self.process.join(None if not at_once else PARENT_CHECK_SECONDS * 4)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.pipe.close()


def _serve(work: Callable[[Any], Any], pipe: Any, parents_ends: list, parent: int) -> None:
    """A worker's life: jobs in, results out, until told to stop or the pipe closes."""
    for end in parents_ends:  # copies a forked worker holds, which would keep those pipes open
        end.close()
    _start_worker(parent)
    while True:
        try:
            index, job = pipe.recv()
        except (EOFError, OSError):
            return
        if index < 0:
            return
        try:
            answer: tuple[bool, Any] = (True, work(job))
        except Exception as exc:  # the parent raises it, as if the work had been done there
            answer = (False, exc)
        try:
            pipe.send(answer)
        except (OSError, ValueError):
            return  # the parent is gone
        except Exception as exc:  # a result that cannot be pickled
            pipe.send((False, RuntimeError(f"a worker's result could not be sent back: {exc}")))


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
