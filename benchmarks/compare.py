"""How much faster (or slower) `referee play` is than at an earlier commit, paired game by game.

    python benchmarks/compare.py REV [--games N] [--only GAME,...] [--check]

With `--check` the two sides check records instead: the same random records (written by the
working tree's `play`), each read and replayed by both sides' `check_bytes`, paired record by
record like the games.

The package, specs and grammars of commit REV are taken out of git (`git archive`) into a
temporary folder and imported under another name beside the working tree's `referee`, in
this one process. Both then write the same random games (every player count in turn, the
seeds the same for both sides) one game at a time, the two sides in an order drawn afresh
for every game, the garbage collector emptied before each. A game's two timings are taken
moments apart, so a slow phase of the machine slows both: the median of the per-game ratios
barely moves with it, where games a second measured minutes apart move by a fifth.

A speed change is one that keeps the games: the script first checks that both sides write
the same record for a few seeds, and says so when they do not (then the ratio compares two
different random players). With `--check` it asks the same of the reports: both sides find
each record legal with the same standings.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from referee.engine import replay as current_engine  # noqa: E402
from referee.games import load_game  # noqa: E402
from referee.lab import random_game as current  # noqa: E402

GAMES = ("canterbury", "hamburgum", "speicherstadt")


@dataclass
class Comparison:
    """The per-game ratios (the earlier side's time over the working tree's: above 1 is faster
    now) and the total time of each side."""

    game: str
    ratios: list[float]
    earlier: float
    now: float
    same_games: bool
    unit: str = "game"  # what was timed: a game played, or a record checked

    def summary(self) -> str:
        q1, _, q3 = statistics.quantiles(self.ratios, n=4)
        count, unit = len(self.ratios), self.unit
        differ = "write different games" if unit == "game" else "report differently"
        same = "" if self.same_games else f"  (the two sides {differ}: not a pure speed change)"
        return (
            f"{self.game:<14} {statistics.median(self.ratios):5.3f} times as fast per {unit} (quartiles {q1:5.3f} to {q3:5.3f}), "
            f"{self.earlier / self.now:5.3f} in all; {count / self.earlier:6.1f} against {count / self.now:6.1f} {unit}s a second, "
            f"{count} {unit}s{same}"
        )


def earlier_play(rev: str, into: Path) -> ModuleType:
    """The module that writes random games at commit `rev` (`lab/random_game.py`, or `play.py`
    before the package had subpackages), imported under `referee_<rev>` from a copy of that
    commit's package, specs and grammars (the package finds its data beside it); the rest of
    that package (its engine, say) is then importable under the same name. A package that
    imports itself by its name (`from referee.x import ...`) is made to name the copy."""
    name = "referee_" + "".join(c if c.isalnum() else "_" for c in rev)
    archive = into / "earlier.tar"
    with open(archive, "wb") as out:
        subprocess.run(["git", "-C", str(REPO), "archive", rev, "referee", "specs", "grammar"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    (into / "referee").rename(into / name)
    for module in (into / name).rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        module.write_text(re.sub(r"\breferee(?=\.[a-z_]|\s+import\s)", name, text), encoding="utf-8")
    sys.path.insert(0, str(into))
    try:
        try:
            return importlib.import_module(f"{name}.lab.random_game")
        except ModuleNotFoundError:
            return importlib.import_module(f"{name}.play")
    finally:
        sys.path.remove(str(into))


def compare(game: str, earlier: Callable[..., str], now: Callable[..., str], games: int, seed: int = 5000) -> Comparison:
    """`games` random games written by each of two `play_game` functions, alternated game by game."""
    meta = load_game(game).spec.meta["players"]
    counts = list(range(meta["min"], meta["max"] + 1))
    for play_game in (earlier, now):
        play_game(game, counts[0], 1)  # specs, modules and caches loaded before the clock starts
    same = all(_moves(earlier(game, n, seed + n)) == _moves(now(game, n, seed + n)) for n in counts)
    order = random.Random(seed)
    jobs = [lambda play_game, i=i: play_game(game, counts[i % len(counts)], seed + i) for i in range(games)]
    return _paired(game, jobs, earlier, now, order, same, "game")


def compare_checks(game: str, earlier: Callable[..., object], now: Callable[..., object], records: int, seed: int = 5000) -> Comparison:
    """`records` random records (the working tree's games) checked by each of two
    `check_bytes` functions, alternated record by record."""
    meta = load_game(game).spec.meta["players"]
    counts = list(range(meta["min"], meta["max"] + 1))
    data = [current.play_game(game, counts[i % len(counts)], seed + i).encode("utf-8") for i in range(records)]
    for check in (earlier, now):
        check(data[0], "compare.log")  # specs, grammars and modules loaded before the clock starts
    same = all(_verdict(earlier(d, "compare.log")) == _verdict(now(d, "compare.log")) for d in data[: len(counts)])
    jobs = [lambda check, d=d: check(d, "compare.log") for d in data]
    return _paired(game, jobs, earlier, now, random.Random(seed), same, "record")


def _paired(game: str, jobs: list[Callable[[Callable], object]], earlier: Callable, now: Callable, order: random.Random, same: bool, unit: str) -> Comparison:
    """Each job run by both sides, in an order drawn afresh for every job, the garbage
    collector emptied before each run."""
    ratios: list[float] = []
    totals = {"earlier": 0.0, "now": 0.0}
    sides = [("earlier", earlier), ("now", now)]
    for job in jobs:
        order.shuffle(sides)
        taken = {}
        for side, function in sides:
            gc.collect()
            start = time.perf_counter()
            job(function)
            taken[side] = time.perf_counter() - start
        ratios.append(taken["earlier"] / taken["now"])
        for side in totals:
            totals[side] += taken[side]
    return Comparison(game, ratios, totals["earlier"], totals["now"], same, unit)


def _verdict(report) -> tuple:
    """What a report concludes: its status, exit code and final standings, as plain values."""
    standings = [(s.seat.colour, s.total, sorted(s.breakdown.items()), repr(s.tiebreak)) for s in report.standings or ()]
    return report.status, report.exit_code, standings


def _moves(record: str) -> list[str]:
    """A record without its header, whose tags name the date and the command that wrote it."""
    return [line for line in record.splitlines() if not line.startswith("[")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="referee play against an earlier commit, paired game by game in one process.")
    parser.add_argument("rev", help="the earlier commit (anything git names: a hash, HEAD~3, a tag)")
    parser.add_argument("--games", type=int, default=400, help="games of each game (default: 400)")
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated games (default: all three)")
    parser.add_argument("--check", action="store_true", help="time `referee check` of random records instead of `referee play`")
    args = parser.parse_args(argv)
    wanted = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = [g for g in wanted if g not in GAMES]
    if unknown or args.games < 4:
        parser.error(f"unknown game {unknown[0]!r}" if unknown else "--games takes at least 4")
    with tempfile.TemporaryDirectory() as folder:
        try:
            before = earlier_play(args.rev, Path(folder))
        except (subprocess.CalledProcessError, ImportError) as exc:
            print(f"compare.py: cannot load the package of {args.rev!r}: {exc}", file=sys.stderr)
            return 2
        if args.check:
            package = before.__name__.split(".")[0]
            try:
                earlier_engine = importlib.import_module(package + ".engine.replay")
            except ModuleNotFoundError:
                earlier_engine = importlib.import_module(package + ".engine")
            print(f"referee check at {args.rev} against the working tree, {args.games} records each, alternated record by record:")
            for game in wanted:
                print(compare_checks(game, earlier_engine.check_bytes, current_engine.check_bytes, args.games).summary(), flush=True)
            return 0
        print(f"referee play at {args.rev} against the working tree, {args.games} games each, alternated game by game:")
        for game in wanted:
            print(compare(game, before.play_game, current.play_game, args.games).summary(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
