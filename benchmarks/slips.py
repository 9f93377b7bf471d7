"""How often `check --keep-going` repairs a scribe's slip to the line the table played.

    python benchmarks/slips.py [--records N] [--seed S] [--json FILE]

For every game and every kind of slip (another player, a neighbouring number, a misspelt
name, a missing line, two lines swapped, a line twice, a line too many), random legal games
(`referee play`) get one slip each at a random move line. A slip is *repaired* when the check
reports exactly one error and the record with its proposed repair applied is the game as
played again (the same moves and checkpoints); *equivalent* when the repair is another line
under which the repaired record is legal and ends with the same standings. A slip that leaves a legal record (two independent lines swapped, a number
that is also legal and changes nothing a checkpoint states) is *unnoticed*: no referee can
see it. Besides, a record gets a *wrong repair* when the check proposes repairs and the
record with them applied is neither the game as played nor an equivalent one (the false
repairs), and an *illegal repair* when every problem has a repair and the record with them
applied does not replay legal (there should be none). Then the time that repairs cost: a record of about 400 lines with three slips,
checked with and without --keep-going, in seconds and in processor time (which
another program's load on the machine changes less).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter

from referee.engine.repair import repaired_text
from referee.engine.replay import check_bytes
from referee.lab.random_game import play_game
from referee.notation.parser import Move

GAMES = {"speicherstadt": (2, 5), "canterbury": (2, 4), "hamburgum": (2, 5)}
KINDS = ("player", "number", "name", "missing", "swap", "twice", "extra")
FLAGS = ("wrong repair", "illegal repair")  # counted besides a record's verdict


def move_lines(lines: list[str]) -> list[int]:
    """Indexes of the lines that hold a move (not a tag, a checkpoint, the result, a blank)."""
    return [i for i, line in enumerate(lines) if line.strip() and not line.startswith(("[", "check ", "result ", "#"))]


def slip(lines: list[str], kind: str, rng: random.Random, colours: list[str]) -> list[str] | None:
    """The record's lines with one slip of `kind` at a random move line; None when the record
    offers no line for that kind of slip."""
    moves = move_lines(lines)
    out = list(lines)
    if kind == "player":
        picks = [i for i in moves if lines[i].split(":", 1)[0] in colours]
        if not picks:
            return None
        i = rng.choice(picks)
        actor, rest = lines[i].split(":", 1)
        out[i] = rng.choice([c for c in colours if c != actor]) + ":" + rest
    elif kind == "number":
        picks = [i for i in moves if re.search(r"\d", lines[i])]
        if not picks:
            return None
        i = rng.choice(picks)
        found = list(re.finditer(r"\d+", lines[i]))
        m = rng.choice(found)
        value = int(m.group())
        value = value + 1 if value == 0 or rng.random() < 0.5 else value - 1
        out[i] = lines[i][: m.start()] + str(value) + lines[i][m.end() :]
    elif kind == "name":
        picks = [(i, m) for i in moves for m in re.finditer(r"[a-z]{4,}", lines[i].split(":", 1)[-1])]
        if not picks:
            return None
        i, m = rng.choice(picks)
        offset = len(lines[i]) - len(lines[i].split(":", 1)[-1])
        word = m.group()
        k = rng.randrange(1, len(word) - 2)
        typo = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
        if typo == word:
            typo = word[:k] + word[k + 1 :]
        out[i] = lines[i][: offset + m.start()] + typo + lines[i][offset + m.end() :]
    elif kind == "missing":
        del out[rng.choice(moves)]
    elif kind == "swap":
        picks = [i for i in moves if i + 1 in moves and lines[i] != lines[i + 1]]
        if not picks:
            return None
        i = rng.choice(picks)
        out[i], out[i + 1] = out[i + 1], out[i]
    elif kind == "twice":
        i = rng.choice(moves)
        out.insert(i, lines[i])
    elif kind == "extra":
        i = rng.choice(moves)
        out.insert(i, lines[rng.choice(moves)])
    return out


def same_game(a: str, b: str) -> bool:
    """Whether two records hold the same game: the same moves in the same order, a move
    written one way or another, and the same checkpoint lines (a line missing just before a
    group of checkpoints may go back in before or after them)."""
    from referee import read_record
    from referee.errors import RecordError

    try:
        (ra, game), (rb, _) = read_record(a), read_record(b)
    except RecordError:
        return False

    def moves(record):
        return [game.format_move(e) for e in record.entries if isinstance(e, Move)]

    def others(record):
        return sorted(record.line(e.pos.line).strip() for e in record.entries if not isinstance(e, Move))

    return moves(ra) == moves(rb) and others(ra) == others(rb)


def judge(original: str, slipped: str, name: str) -> tuple[str, set[str]]:
    """What the check made of one slip (see the module's docstring), and the flags of its
    repairs: `wrong` when the check proposes a repair and the record with its repairs
    applied is neither the game as played nor an equivalent one, `illegal` when every
    problem has a repair and the record with them applied does not replay legal.
    `equivalent`: the repair is another line than the original, and the repaired record is
    legal and ends with the same standings (`blue: sugar` for `blue: sugar 1`, one of two
    cubes that both fit)."""
    report = check_bytes(slipped.encode(), name, keep_going=True)
    errors = report.errors
    if not errors:
        return "unnoticed", set()
    repaired = repaired_text(slipped, report.repairs, mark=False)
    flags = set()
    same = repaired == original or same_game(repaired, original)
    after = check_bytes(repaired.encode(), name) if report.repairs and not same else None
    if after is not None and all(d.repair for d in errors) and after.errors:
        flags.add("illegal")
    equivalent = False
    if after is not None and not after.errors:
        before = check_bytes(original.encode(), name)
        equivalent = [(s.seat.colour, s.total) for s in after.standings] == [(s.seat.colour, s.total) for s in before.standings]
    if report.repairs and not same and not equivalent:
        flags.add("wrong")
    if len(errors) > 1:
        return "more problems", flags
    if same:
        return "repaired", flags
    if not report.repairs:
        return "no repair", flags
    return ("equivalent" if equivalent else "another repair"), flags


def share(records: int, seed: int) -> dict:
    """By game and kind of slip: how many records the check made what of (`judge`), with
    `wrong repair` and `illegal repair` counted besides."""
    rng = random.Random(seed)
    results: dict[str, dict[str, Counter]] = {}
    for game, (low, high) in GAMES.items():
        results[game] = {kind: Counter() for kind in KINDS}
        for n in range(records):
            players = low + n % (high - low + 1)
            original = play_game(game, players, seed=rng.randrange(2**31))
            lines = original.split("\n")
            colours = re.search(r'\[Players "([^"]*)"\]', original).group(1).split(", ")
            for kind in KINDS:
                slipped = slip(lines, kind, rng, colours)
                if slipped is not None:
                    verdict, flags = judge(original, "\n".join(slipped), f"{game}-{kind}-{n}.log")
                    results[game][kind][verdict] += 1
                    results[game][kind].update(f"{flag} repair" for flag in flags)
    return results


def cost(seed: int, rounds: int = 5) -> dict:
    """Seconds that --keep-going adds to a plain check of a record with three slips."""
    rng = random.Random(seed)
    original = play_game("speicherstadt", 4, seed=seed)
    lines = original.split("\n")
    colours = re.search(r'\[Players "([^"]*)"\]', original).group(1).split(", ")
    for kind in ("player", "name", "missing"):
        lines = slip(lines, kind, rng, colours)
    data = "\n".join(lines).encode()
    check_bytes(original.encode(), "warm.log")
    plain, going, plain_cpu, going_cpu = [], [], [], []
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        check_bytes(data, "three.log")
        plain.append(time.perf_counter() - t)
        plain_cpu.append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        report = check_bytes(data, "three.log", keep_going=True)
        going.append(time.perf_counter() - t)
        going_cpu.append(time.process_time() - c)
    return {
        "lines": len(lines),
        "errors": len(report.errors),
        "plain_s": statistics.median(plain),
        "keep_going_s": statistics.median(going),
        "added_s": statistics.median(g - p for g, p in zip(going, plain)),
        "added_cpu_s": statistics.median(g - p for g, p in zip(going_cpu, plain_cpu)),  # the same on a loaded machine
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=8, help="random games per game; each gets every kind of slip once (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures to this file as well")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results = share(args.records, args.seed)
    total = Counter()
    print(f"{'game':<14} {'slip':<8} {'records':>7} {'repaired':>8} {'equivalent':>10} {'unnoticed':>9} {'wrong':>5}  other")
    for game, kinds in results.items():
        for kind, counts in kinds.items():
            total.update(counts)
            n = sum(v for k, v in counts.items() if k not in FLAGS)
            others = ", ".join(f"{k} {v}" for k, v in counts.items() if k not in ("repaired", "equivalent", "unnoticed", "wrong repair"))
            print(f"{game:<14} {kind:<8} {n:>7} {counts['repaired']:>8} {counts['equivalent']:>10} {counts['unnoticed']:>9} {counts['wrong repair']:>5}  {others}")
    n = sum(v for k, v in total.items() if k not in FLAGS)
    noticed = n - total["unnoticed"]
    print(
        f"all: {n} records, {total['repaired']} repaired to the original ({total['repaired'] / n:.1%}; "
        f"{total['repaired'] / max(1, noticed):.1%} of the {noticed} slips a check can see), "
        f"{total['equivalent']} to an equivalent line, {total['unnoticed']} unnoticed; "
        f"a wrong repair proposed in {total['wrong repair']} ({total['wrong repair'] / max(1, noticed):.1%}), "
        f"repairs that do not replay legal in {total['illegal repair']}"
    )
    timing = cost(args.seed)
    print(
        f"three slips in {timing['lines']} lines: plain check {timing['plain_s'] * 1000:.0f} ms, --keep-going {timing['keep_going_s'] * 1000:.0f} ms "
        f"(+{timing['added_s'] * 1000:.0f} ms; +{timing['added_cpu_s'] * 1000:.0f} ms of processor time), {timing['errors']} errors reported"
    )
    print(f"({time.perf_counter() - started:.0f} s in all)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"results": {g: {k: dict(c) for k, c in ks.items()} for g, ks in results.items()}, "total": dict(total), "cost": timing}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
