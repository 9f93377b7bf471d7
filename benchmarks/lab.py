"""How strong and how fast the `referee lab` agents are (figures in README.md, "lab").

    python benchmarks/lab.py [--only copy,speed,strength,ray] [--games N] [--mcts-games N] [-j N]

- copy: a state copied by `copy.deepcopy` (as rulings.copy_state does) and by the structural
  copy (referee/copying.py), per game, on positions every ten moves of random games; the
  median of each and of their ratio;
- speed: per game (3 players), moves a second of random play (the rules' own cost, with the
  random player's), greedy games a second, and one mcts game at its default budget;
- strength: per game (3 players, agents rotated through the seats so each sits everywhere
  equally), the share of games won by greedy against two random players, by mcts against
  two random and against two greedy, with Wilson 95% intervals (a fair share is 1/3);
- ray: the same batch of random games on a local Ray with 1 and with 2 workers.

Each part is sized to stay within about a minute on one core.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.copying import copy_state  # noqa: E402
from referee.lab import stats  # noqa: E402
from referee.lab.random_game import random_game_start  # noqa: E402
from referee.lab.runs import Task, play_task, run_local, tasks_for  # noqa: E402

GAMES = ("speicherstadt", "hamburgum", "canterbury")


def part_copy() -> None:
    print("copy: ms per copy, median over positions (deepcopy, structural, ratio)")
    for name in GAMES:
        _, game, state = random_game_start(name, 3)
        rng, choose, positions, count = random.Random(1), game.random_player(), [], 0
        while not state.is_over():
            state.apply(choose(state, rng))
            count += 1
            if count % 10 == 0:
                positions.append(copy.deepcopy(state, {id(game): game, id(game.spec): game.spec}))
        deep, fast, ratio = [], [], []
        for position in positions:
            memo = {id(game): game, id(game.spec): game.spec}
            t = time.perf_counter()
            for _ in range(20):
                copy.deepcopy(position, dict(memo))
            d = (time.perf_counter() - t) / 20
            t = time.perf_counter()
            for _ in range(20):
                copy_state(position)
            f = (time.perf_counter() - t) / 20
            deep.append(d * 1000)
            fast.append(f * 1000)
            ratio.append(d / f)
        print(f"  {name:14} {statistics.median(deep):.3f}  {statistics.median(fast):.3f}  {statistics.median(ratio):.1f}x  ({len(positions)} positions)")


def part_speed() -> None:
    print("speed, 3 players, one process, processor time (the machine's other work does not count)")
    for name in GAMES:
        _, game, state = random_game_start(name, 3)
        moves, spent, rng, choose = 0, 0.0, random.Random(2), game.random_player()
        for seed in range(20):
            _, game, state = random_game_start(name, 3)
            rng = random.Random(seed)
            t = time.process_time()
            while not state.is_over():
                state.apply(choose(state, rng))
                moves += 1
            spent += time.process_time() - t
        t = time.process_time()
        greedy = [play_task(Task(name, 3, (), ("greedy",), 9, n)) for n in range(10)]
        per_greedy = (time.process_time() - t) / len(greedy)
        t = time.process_time()
        play_task(Task(name, 3, (), ("mcts", "random"), 9, 0))
        mcts = time.process_time() - t
        print(f"  {name:14} random play {1e6 * spent / moves:.0f} us a move; greedy (all seats) {1 / per_greedy:.1f} games/s; one mcts game (one seat mcts, default budget) {mcts:.1f} s")


def _share(name: str, agents: list[str], games: int, seed: int, jobs: int = 1) -> str:
    results = run_local([(t, "") for t in tasks_for(name, 3, (), agents, games, seed, rotate=True)], jobs=jobs)
    r = stats.summarise(results)["agents"].get(agents[0])
    if not r:
        return "no finished game"
    return f"{r['wins']}/{r['n']} = {100 * r['rate']:.0f}% [{100 * r['ci'][0]:.0f}, {100 * r['ci'][1]:.0f}]"


def part_strength(games: int, mcts_games: int, names, pairings=None, seed: int = 11, jobs: int = 1) -> None:
    print("strength, 3 players, agents rotated; share of games won by the first agent (fair: 33%)")
    default = [("greedy", "random", games), ("mcts", "random", mcts_games), ("mcts", "greedy", mcts_games)]
    chosen = [(a, b, mcts_games if "mcts" in (a, b) else games) for a, b in pairings] if pairings else default
    for name in names:
        for n, (a, b, count) in enumerate(chosen):
            if count:
                print(f"  {name:14} {a} v {b}: {_share(name, [a, b], count, seed + n, jobs)} (seed {seed + n})")


def part_ray(games: int) -> None:
    try:
        from referee.lab import ray_runner
    except ImportError:
        print("ray: not installed")
        return
    items = [(t, "") for t in tasks_for("canterbury", 3, (), ["greedy", "random"], games, 21, rotate=True)]
    times = {}
    local = run_local(items)
    for workers in (1, 2):
        ray_runner.start(workers=workers)
        ray_runner.run_ray(items[:4])  # warm: the workers start and import the referee
        t = time.perf_counter()
        results = ray_runner.run_ray(items)
        times[workers] = time.perf_counter() - t
        ray_runner.stop()
        assert [r.to_json() for r in results] == [r.to_json() for r in local], "Ray plays the local run's games"
    print(f"ray: {games} canterbury games (greedy v random), 1 worker {times[1]:.1f} s, 2 workers {times[2]:.1f} s: {times[1] / times[2]:.2f}x; the same games as the local run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="copy,speed,strength,ray")
    parser.add_argument("--games", type=int, default=150, help="games per pairing for greedy v random")
    parser.add_argument("--mcts-games", type=int, default=6, help="games per pairing with mcts (0: none)")
    parser.add_argument("--ray-games", type=int, default=300)
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable) for the strength part")
    parser.add_argument("--pairing", action="append", default=[], metavar="A:B", help="strength of agent A against two of B (repeatable; default greedy:random, mcts:random, mcts:greedy)")
    parser.add_argument("--seed", type=int, default=11, help="the strength part's first seed (one more for each pairing)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes for the strength part (the same games as one process)")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} processors")
    if "copy" in parts:
        part_copy()
    if "speed" in parts:
        part_speed()
    if "strength" in parts:
        part_strength(args.games, args.mcts_games, args.game or GAMES, [tuple(p.split(":", 1)) for p in args.pairing], args.seed, args.jobs)
    if "ray" in parts:
        part_ray(args.ray_games)


if __name__ == "__main__":
    main()
