"""Golden playthroughs: a readable transcript of fixed random games, step by step.

    python scripts/golden.py            # write tests/golden/*.txt again
    python scripts/golden.py --check    # compare, name the first differing line, exit 1 on a difference

Each transcript replays a game that `referee play` writes for a fixed seed and
shows, for every move, how many legal moves the position had, the move, and
the figures (a checkpoint's keys) that the move changed; it ends with the
final standings. `tests/test_golden.py` compares the files line by line, so a
change in a game's rules, its random play or its data shows up as a diff
that a reviewer can read. When the change is intended, run this script and
commit the new files.

The transcript is built from the moves, not from the record's text, so the
date that `play` writes into the header does not enter it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.findings import rank
from referee.engine.replay import record_variants
from referee.games import load_game
from referee.games.base import Trace
from referee.lab.random_game import play_game
from referee.notation.parser import Move, parse
from referee.spec.loader import available_games

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden"


@dataclass(frozen=True)
class Playthrough:
    game: str
    players: int
    seed: int

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.game}-{self.players}p-seed{self.seed}.txt"


def playthroughs(game: str) -> list[Playthrough]:
    """Two games per game: the fewest players with seed 1 and the most with seed 2."""
    players = load_game(game).spec.meta["players"]
    return [Playthrough(game, players["min"], 1), Playthrough(game, players["max"], 2)]


def transcript(p: Playthrough) -> list[str]:
    record = play_game(p.game, p.players, p.seed)
    variants = record_variants(record, p.game)
    game = load_game(p.game, variants)
    parsed = parse(record, "golden", p.game, game.build_move)
    seats, start = game.seats_from_header(parsed.header)
    state = game.new_state(seats, start, parsed.header, Trace())
    colours = [s.colour for s in seats]
    lines = [
        f"# Golden playthrough: {p.game}, {p.players} players, seed {p.seed}" + (f", variants {', '.join(variants)}" if variants else ""),
        f"# Made by `python scripts/golden.py` from `referee play {p.game} --players {p.players} --seed {p.seed}`.",
        "# Each step: the move number, the legal moves the position had, the move; then the figures it changed.",
        "",
    ]
    before = {c: state.figures(c) for c in colours}
    for c in colours:
        lines.append(f"start  {c}: " + ", ".join(f"{k} {_shown(v)}" for k, v in before[c].items()))
    number = 0
    for entry in parsed.entries:
        if not isinstance(entry, Move):
            continue  # checkpoints and the result are checked by `referee check`, not shown here
        number += 1
        legal = len(state.game.legal_moves(state))
        lines.append(f"{number:>5}  [{legal} legal]  {game.format_move(entry)}")
        state.apply(entry)
        for c in colours:
            after = state.figures(c)
            changed = [f"{k} {_shown(before[c].get(k))} -> {_shown(v)}" for k, v in after.items() if before[c].get(k) != v]
            if changed:
                lines.append(f"         {c}: " + ", ".join(changed))
            before[c] = after
    state.end_of_record()
    lines.append(f"end    {'game over' if state.is_over() else 'game NOT over'} after {number} moves")
    for s in rank(state.standings()):
        parts = ", ".join(f"{k} {v}" for k, v in s.breakdown.items() if v)
        lines.append(f"  {s.rank}. {s.seat.colour} {s.total} points ({parts or 'none'})")
    return lines


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(map(str, value)) + "]"
    return str(value)


def first_difference(expected: list[str], actual: list[str]) -> tuple[int, str, str] | None:
    """The first line (1-based) where two transcripts differ, with both versions of it."""
    for i in range(max(len(expected), len(actual))):
        want = expected[i] if i < len(expected) else "<end of file>"
        got = actual[i] if i < len(actual) else "<end of file>"
        if want != got:
            return i + 1, want, got
    return None


def loadable_games() -> tuple[list[str], dict[str, str]]:
    """The games whose rules module loads, and why the others do not (yet)."""
    games, skipped = [], {}
    for game in available_games():
        try:
            load_game(game)
            games.append(game)
        except Exception as exc:  # a game still being written
            skipped[game] = f"{type(exc).__name__}: {exc}"
    return games, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = parser.parse_args(argv)
    games, skipped = loadable_games()
    for game, why in skipped.items():
        print(f"note: {game} has no golden playthrough; its module does not load yet ({why})", file=sys.stderr)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    differences = 0
    for game in games:
        for p in playthroughs(game):
            lines = transcript(p)
            if not args.check:
                p.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                print(f"wrote {p.path} ({len(lines)} lines)")
                continue
            stored = p.path.read_text(encoding="utf-8").splitlines() if p.path.exists() else []
            diff = first_difference(stored, lines)
            if diff:
                differences += 1
                print(f"{p.path}:{diff[0]}: differs\n  golden: {diff[1]}\n  now:    {diff[2]}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
