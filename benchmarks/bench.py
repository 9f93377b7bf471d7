"""How fast the referee checks records, measured against python-chess reading PGN.

    python -m pip install -e '.[bench]' && python benchmarks/bench.py [--quick] [--json FILE]

Measures, in one run on this machine:

- `check` throughput per game (moves/s, records/s, cost per move) on random
  legal games of every player count, replayed in this process after the spec
  is loaded, as `referee check` does for each file;
- python-chess reading and validating random legal chess games of similar
  length (`chess.pgn.read_game`, then every move checked and pushed on a
  board), and the ratio of the two costs per move (target: at most 1);
- start-up: `referee --version`, and `referee check` on one complete record
  of each game (target: under 0.3 s wall, start-up included);
- `referee check -j N` on many records for N = 1 .. the number of cores.

Timings are the best of several repeats, so that other work on the machine
disturbs them less; the core count and the load are printed with them.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from referee.engine import check_bytes, record_variants
from referee.games import load_game
from referee.notation import Move, parse, parser_for
from referee.play import play_game
from referee.spec import available_games

START_UP_TARGET = 0.3


@dataclass
class Throughput:
    name: str
    records: int
    moves: int
    words: int  # whitespace-separated words of the text read, headers and checkpoints included
    seconds: float

    @property
    def per_move_us(self) -> float:
        return self.seconds / self.moves * 1e6

    @property
    def per_word_us(self) -> float:
        return self.seconds / self.words * 1e6

    def line(self) -> str:
        return (
            f"  {self.name:<26} {self.records:>4} records {self.moves:>7} moves  "
            f"{self.moves / self.seconds:>9.0f} moves/s {self.records / self.seconds:>7.1f} records/s  {self.per_move_us:>6.1f} us/move"
            f"  ({self.words / self.moves:4.1f} words/move, {self.per_word_us:4.1f} us/word)"
        )


def summed(name: str, parts: list[Throughput]) -> Throughput:
    return Throughput(name, *(sum(getattr(t, f) for t in parts) for f in ("records", "moves", "words", "seconds")))


def best_of(repeats: int, fn) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


# --- the referee ------------------------------------------------------------------


def random_records(game: str, per_count: int) -> list[str]:
    players = load_game(game).spec.meta["players"]
    return [play_game(game, n, seed) for n in range(players["min"], players["max"] + 1) for seed in range(1, per_count + 1)]


def move_count(record: str, game: str) -> int:
    parsed = parse(record, "bench", game, load_game(game, record_variants(record, game)).build_move)
    return sum(isinstance(e, Move) for e in parsed.entries)


def without_checkpoints(record: str) -> str:
    """The record as a PGN holds a chess game: moves only, none of the figures `play` writes
    down after each round for the referee to confirm."""
    return "\n".join(line for line in record.split("\n") if not line.lstrip().startswith("check "))


def lark_throughput(game: str, records: list[str], repeats: int) -> Throughput:
    """Lark's LALR parser alone on the records: the floor under any replay, since every
    record is parsed with it before a single rule is checked."""
    parser = parser_for(game)
    moves = sum(move_count(r, game) for r in records)
    words = sum(len(r.split()) for r in records)
    return Throughput(f"{game} (Lark parse)", len(records), moves, words, best_of(repeats, lambda: [parser.parse(r) for r in records]))


def referee_throughput(game: str, records: list[str], repeats: int, label: str | None = None) -> Throughput:
    data = [r.encode("utf-8") for r in records]
    for d in data[:3]:  # load the spec, its variants and the parser before timing
        check_bytes(d, "bench.log")
    moves = sum(move_count(r, game) for r in records)

    def check_all():
        for d in data:
            report = check_bytes(d, "bench.log")
            if report.status != "legal":
                raise SystemExit(f"bench: a random {game} game is not legal: {[x.message for x in report.errors]}")

    words = sum(len(r.split()) for r in records)
    return Throughput(label or game, len(records), moves, words, best_of(repeats, check_all))


# --- python-chess -----------------------------------------------------------------


def chess_pgns(count: int, plies: int, seed: int = 1) -> list[str]:
    """Random legal chess games of about `plies` half-moves, written as PGN by python-chess."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    pgns = []
    while len(pgns) < count:
        board = chess.Board()
        while not board.is_game_over() and board.ply() < plies:
            board.push(rng.choice(list(board.legal_moves)))
        pgns.append(str(chess.pgn.Game.from_board(board)))
    return pgns


def chess_throughput(pgns: list[str], repeats: int) -> Throughput:
    import chess.pgn

    plies = 0
    for pgn in pgns:
        plies += sum(1 for _ in chess.pgn.read_game(io.StringIO(pgn)).mainline_moves())

    def read_all():
        for pgn in pgns:
            game = chess.pgn.read_game(io.StringIO(pgn))
            board = game.board()
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    raise SystemExit("bench: python-chess wrote an illegal move")
                board.push(move)

    words = sum(len(p.split()) for p in pgns)
    return Throughput("python-chess", len(pgns), plies, words, best_of(repeats, read_all))


# --- processes --------------------------------------------------------------------


def referee_command() -> list[str]:
    """The installed console script next to this Python (not a version manager's shim)."""
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "referee"]


def wall_times(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"bench: {' '.join(argv)} exited {done.returncode}")
    return times


def start_up(records: dict[str, str], workdir: Path, runs: int) -> dict[str, list[float]]:
    command = referee_command()
    subprocess.run([*command, "check", "-q", str(_write(workdir, "warm.log", next(iter(records.values()))))], capture_output=True)  # fills the parser cache
    out = {"python -c pass": wall_times([sys.executable, "-c", "pass"], runs), "referee --version": wall_times([*command, "--version"], runs)}
    for game, record in records.items():
        out[f"referee check ({game})"] = wall_times([*command, "check", "-q", str(_write(workdir, f"{game}.log", record))], runs)
    return out


def parallel(records: list[str], workdir: Path, cores: int, runs: int) -> dict[int, float]:
    files = [str(_write(workdir, f"many-{i}.log", r)) for i, r in enumerate(records)]
    command = referee_command()
    return {n: min(wall_times([*command, "check", "-q", "-j", str(n), *files], runs)) for n in sorted({1, 2, cores} | set(range(1, cores + 1)))}


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the run ------------------------------------------------------------------------


def loadable_games() -> list[str]:
    games = []
    for game in available_games():
        try:
            load_game(game)
            games.append(game)
        except Exception as exc:  # a game still being written
            print(f"note: {game} is not measured; its module does not load yet ({type(exc).__name__}: {exc})", file=sys.stderr)
    return games


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer games and repeats (a smoke run, not for the figures)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = p.parse_args(argv)
    per_count, repeats, runs = (2, 1, 3) if args.quick else (8, 3, 10)
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores (nproc), load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, Python {sys.version.split()[0]}")

    games = loadable_games()
    records = {g: random_records(g, per_count) for g in games}
    ours = [referee_throughput(g, records[g], repeats) for g in games]
    total = summed("all games", ours)
    bare = [referee_throughput(g, [without_checkpoints(r) for r in records[g]], repeats, f"{g} (moves)") for g in games]
    bare_total = summed("all (moves)", bare)
    floor = [lark_throughput(g, [without_checkpoints(r) for r in records[g]], repeats) for g in games]
    plies = round(total.moves / total.records)
    theirs = chess_throughput(chess_pgns(max(20, total.records), plies), repeats)

    print("\ncheck throughput (in one process, after the spec is loaded); records as `play` writes them,")
    print("then the same records with their checkpoint lines taken out, holding only moves as a PGN does:")
    for t in [*ours, total, *bare, bare_total, theirs]:
        print(t.line())
    print("\nLark's LALR parser alone on the moves-only records (no rule checked, no move built):")
    for t in floor:
        print(t.line() + f"   {t.per_move_us / theirs.per_move_us:4.2f} x python-chess's whole cost per move")
    print(f"\ncost per move and per word, referee / python-chess (PGN games of about {plies} plies):")
    for t in [*ours, total, *bare, bare_total]:
        verdict = "ok" if t.per_move_us <= theirs.per_move_us else "SLOWER than python-chess"
        print(f"  {t.name:<26} per move {t.per_move_us / theirs.per_move_us:5.2f}   per word {t.per_word_us / theirs.per_word_us:5.2f}   {verdict}")

    workdir = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        longest = {g: max(records[g], key=len) for g in games}
        starts = start_up(longest, workdir, runs)
        print(f"\nstart-up, wall time over {runs} runs (target for one full game: under {START_UP_TARGET} s):")
        for name, times in starts.items():
            flag = ""
            if name.startswith("referee check"):
                flag = "  ok" if statistics.median(times) < START_UP_TARGET else "  OVER TARGET"
            print(f"  {name:<30} best {min(times):.3f} s, median {statistics.median(times):.3f} s{flag}")
        many = [r for g in games for r in records[g]]
        scaling = parallel(many, workdir, cores, max(1, runs // 5))
        print(f"\nreferee check -j N on {len(many)} records:")
        for n, seconds in scaling.items():
            print(f"  -j {n:<3} {seconds:6.2f} s  {len(many) / seconds:6.1f} records/s  speed-up {scaling[1] / seconds:4.2f}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    ratio = total.per_move_us / theirs.per_move_us
    bare_ratio = bare_total.per_move_us / theirs.per_move_us
    print(f"\nsummary: per-move cost {ratio:.2f} x python-chess ({bare_ratio:.2f} x on moves alone); referee --version {statistics.median(starts['referee --version']):.3f} s; "
          + "; ".join(f"check one {g} game {statistics.median(starts[f'referee check ({g})']):.3f} s" for g in games)
          + f"; {cores} cores")
    if args.json:
        figures = {
            "cores": cores,
            "throughput": [asdict(t) | {"per_move_us": t.per_move_us, "per_word_us": t.per_word_us} for t in [*ours, total, *bare, bare_total, *floor, theirs]],
            "ratio_per_move": ratio,
            "ratio_per_move_moves_only": bare_ratio,
            "start_up": {k: {"best": min(v), "median": statistics.median(v)} for k, v in starts.items()},
            "parallel": scaling,
        }
        Path(args.json).write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
