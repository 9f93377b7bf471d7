"""How many taps each round of The Speicherstadt takes on `referee serve`'s page.

    python scripts/round_taps.py [--players 5] [--seeds 0-12] [--variant FILE] [--round N]
    python scripts/round_taps.py --records GAME.log ... [--variant FILE] [--round N]

A random game (`referee play`) is entered into a new game of the server's tables as a phone
enters it: each line by the fewest taps its menus allow (a whole move, or the words and
goods that lead to it; a typed outcome where no list gives one counts as one tap), each
checkpoint by the one tap that confirms it. The record the tables keep must equal the
game's line for line. Printed per seed: the round with the most taps, its taps and its
lines (lines the rules leave no choice about, and passes a tap answers for, are entered
by themselves). With `--round N` and one seed, each line of that round with its taps.
With `--records`, the given records instead (games the lab's agents played, written with
`referee lab speicherstadt --players 5 --agent greedy --records-out DIR`, or a table's own).
With `--joined`, a player's lines in a row that differ in their last good only are first
joined into one line, as a table that taps the menu's "all at once" buttons writes them (the
record is checked to end the same).
tests/test_serve.py runs the same count on two games.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.lab.random_game import play_game  # noqa: E402
from referee.server import taps  # noqa: E402
from referee.server.tables import Table, Tables  # noqa: E402

MOST_TAPS_A_LINE = 40


@dataclass
class Step:
    """The lines one or more taps entered, in which round."""

    lines: list[str]
    taps: int
    round: int
    checkpoint: bool


def record_lines(text: str) -> list[str]:
    """A record's moves: the lines that are neither tags nor comments."""
    return [line for line in text.split("\n") if line.strip() and not line.startswith(("[", "#"))]


def joined(record: str, variants: list[str]) -> str:
    """The record with each run of a player's lines that differ in their last good only
    (`orange: contract 1 tea`, `orange: contract 1 saffron`) joined into one line; refused
    where the joined record does not end as the record does."""
    from referee.engine.replay import check_bytes

    out: list[str] = []
    for line in record.split("\n"):
        head, _space, last = line.rpartition(" ")
        before = out[-1].split(" ") if out else []
        if head and head.split()[0].endswith(":") and last.isalpha() and len(before) > len(head.split(" ")) and " ".join(before[: len(head.split(" "))]) == head:
            rest = before[len(head.split(" ")) :]
            if all(word.isalpha() for word in rest):
                out[-1] = f"{head} {' '.join(sorted([*rest, last]))}"
                continue
        out.append(line)
    text = "\n".join(out)
    reports = [check_bytes(t.encode(), "record.log", list(variants)) for t in (record, text)]
    if reports[1].status != "legal" or [(s.seat.colour, s.total) for s in reports[0].standings] != [(s.seat.colour, s.total) for s in reports[1].standings]:
        raise AssertionError("the joined record does not end as the record does")
    return text


def taps_to_enter(recording, lines: list[str]) -> tuple[list[str], int]:
    """The taps a phone takes to enter the first of `lines` from the menus, and the lines
    those taps enter: a button may enter the lines after it too (passes and the purchase
    after them)."""
    text, count, target = "", 0, lines[0]
    for _ in range(MOST_TAPS_A_LINE):
        menu = taps.menu(recording, text)
        text = menu.text
        several = [b for b in menu.buttons if b.enters and b.before and b.lines == lines[: len(b.lines)]]
        if several:
            return max(several, key=lambda b: len(b.lines)).lines, count + 1
        if menu.can_enter and text.strip() == target:
            return [target], count + 1
        if menu.free and target.startswith(menu.before_free) and " " not in target[len(menu.before_free) :]:
            return [target], count + 1
        leading = [b for b in menu.buttons if (b.enters and not b.before and b.text == target) or (not b.enters and (target.startswith(b.text) or target == b.text.strip()))]
        if not leading:
            raise AssertionError(f"no button leads to {target!r} from {text!r}")
        best = max(leading, key=lambda b: len(b.text))
        count += 1
        if best.enters:
            return [best.text], count
        text = best.text
    raise AssertionError(f"{target!r} takes more than {MOST_TAPS_A_LINE} taps")


def entered_by_taps(table: Table, lines: list[str]) -> Iterator[Step]:
    """Enter `lines` into `table` tap by tap; each step checked against the record: a
    checkpoint offered as the record writes it (its confirmation enters the next round's
    heading too, never a player's move), each tap accepted, the file the record so far."""
    i, round_ = 0, 1
    while i < len(lines):
        checkpoint = lines[i].startswith("check ")
        if checkpoint:
            offer, then = taps.checkpoint(table.recording)
            if not offer or offer != lines[i : i + len(offer)]:
                raise AssertionError(f"checkpoint offered {offer!r}, the record writes {lines[i : i + len(offer)]!r}")
            following = lines[i + len(offer)] if i + len(offer) < len(lines) else ""
            if then != (following if following.startswith("round ") else None):
                raise AssertionError(f"the checkpoint's confirmation enters {then!r}; next in the record: {following!r}")
            entered, count = offer + ([then] if then else []), 1
        else:
            entered, count = taps_to_enter(table.recording, lines[i:])
        outcome, _ = table.enter(entered, table.version)
        if not outcome.accepted:
            raise AssertionError("\n".join(outcome.messages))
        kept = record_lines(table.path.read_text("utf-8"))
        if kept != lines[: len(kept)] or len(kept) < i + len(entered):
            raise AssertionError(f"the file differs from the record after line {i + 1}")
        yield Step(kept[i:], count, round_, checkpoint)
        round_ += checkpoint
        i = len(kept)


def round_taps(steps: Iterator[Step]) -> dict[int, tuple[int, int]]:
    """Per round, its taps and its lines, from the card reveals to the checkpoint that ends
    it (the next round's heading, entered with the checkpoint, counts in the next)."""
    out: dict[int, tuple[int, int]] = {}
    for step in steps:
        heading = 1 if step.checkpoint and step.lines[-1].startswith("round ") else 0
        taps_, lines = out.get(step.round, (0, 0))
        out[step.round] = (taps_ + step.taps, lines + len(step.lines) - heading)
    return out


def new_table(folder: Path, record: str, variants: list[str]) -> Table:
    seats = record.split('[Players "')[1].split('"')[0]
    return Tables(folder).new_game("rounds", "speicherstadt", seats, None, variants)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seeds", default="0-12", help="a seed, or FIRST-LAST")
    parser.add_argument("--variant", action="append", default=[], metavar="FILE", help="a variant or box file, for the game and the tables (repeatable)")
    parser.add_argument("--round", type=int, default=None, help="show each line of this round (one seed)")
    parser.add_argument("--records", nargs="+", default=[], metavar="FILE", help="count these records instead of random games")
    parser.add_argument("--joined", action="store_true", help="join a player's lines that differ in their last good only, as the menu's 'all at once' buttons enter them")
    args = parser.parse_args(argv)
    first, _, last = args.seeds.partition("-")
    games = [(path, Path(path).read_text(encoding="utf-8")) for path in args.records] or [
        (f"seed {seed}", play_game("speicherstadt", args.players, seed, args.variant)) for seed in range(int(first), int(last or first) + 1)
    ]
    for seed, record in games:
        note = ""
        if args.joined:
            try:
                rounds = counted(joined(record, args.variant), args.variant, args.round)
            except AssertionError as exc:  # a run joined only in part: no button gives that line
                note, rounds = f" (not joined: {exc})", counted(record, args.variant, args.round)
        else:
            rounds = counted(record, args.variant, args.round)
        if rounds:
            worst = max(rounds, key=lambda r: rounds[r][0])
            print(f"{seed}: {len(rounds)} rounds; the most taps: round {worst}, {rounds[worst][0]} taps for {rounds[worst][1]} lines{note}", flush=True)
    return 0


def counted(record: str, variants: list[str], shown: int | None) -> dict[int, tuple[int, int]]:
    """The taps of each round of `record`; with `shown`, that round's lines printed instead."""
    with tempfile.TemporaryDirectory() as folder:
        steps = entered_by_taps(new_table(Path(folder), record, variants), record_lines(record))
        if shown is None:
            return round_taps(steps)
        for step in steps:
            if step.round == shown:
                print(f"{step.taps:2}  {' | '.join(step.lines)}")
    return {}


if __name__ == "__main__":
    sys.exit(main())
