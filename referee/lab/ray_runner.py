"""The same games on a Ray cluster (`referee lab --ray [ADDRESS]`).

Each game is one Ray task running `runs.safe_play`, the function the local runner calls, on
the same `Task`; as every draw of a game comes from its seed and number, the results are
the games the local run plays, whichever node plays them. Results are put back in the order
of the tasks given.

Without an address, Ray starts a local cluster of this machine's cores (`ray.init()`); with
one (`ray start --head` on the head node, `ray start --address HEAD:6379` on the others, then
`--ray HEAD:6379` or `--ray auto` on any of them) the games spread over the cluster. Every
node needs the referee installed, with the same data (`pip install -e '.[lab]'`).

Ray is an optional extra; without it, `--ray` is a usage error that says how to install it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from referee.errors import UsageError
from referee.i18n import _
from referee.lab.runs import GameResult, Task, safe_play


def _ray():
    try:
        import ray
    except ImportError:
        raise UsageError(_("--ray needs Ray: pip install 'referee[lab]' (or pip install ray); without it, -j N runs N local worker processes")) from None
    return ray


def start(address: str | None = None, workers: int | None = None):
    """Connect to the cluster at `address`, or start a local one with `workers` CPUs (all
    of them when not given). A cluster already connected in this process is used as it is."""
    ray = _ray()
    if not ray.is_initialized():
        options = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address:
            ray.init(address=address, **options)
        else:
            # the games' data: the nodes read the same spec folder as this process
            env = {k: os.environ[k] for k in ("REFEREE_DATA", "REFEREE_CACHE") if k in os.environ}
            ray.init(num_cpus=workers, runtime_env={"env_vars": env} if env else None, **options)
    return ray


def stop() -> None:
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()


def run_ray(items: list[tuple[Task, str]], address: str | None = None, workers: int | None = None, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """The games played as Ray tasks, in the order of `items`."""
    ray = start(address, workers)
    remote = ray.remote(num_cpus=1)(safe_play)
    pending = {remote.remote(task, side): i for i, (task, side) in enumerate(items)}
    results: list[GameResult | None] = [None] * len(items)
    waiting = list(pending)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=min(len(waiting), 8), timeout=1.0)
        for ref in done:
            results[pending[ref]] = ray.get(ref)
            if progress:
                progress(1)
    return [r for r in results if r is not None]
