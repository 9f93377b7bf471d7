"""What a person sees of a position, shared by `show`, `draw` and `replay`.

Each game says what its players' figures and its board look like (its `view`, `picture` and
`sentences` modules); this module holds what they share: the line that says where the game
stands (from `State.situation()`), a plain text table, which figures rest on provisional
spec values so far, and a way to read a state without recording rules as used.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from referee.games.base import Situation, State, Trace

from dataclasses import dataclass


@contextmanager
def quietly(state: State) -> Iterator[State]:
    """Read a state for a picture or a summary without touching the replay's trace: reading a
    standing or a figure may record rules and values as used, and a report lists those."""
    trace = state.trace
    state.trace = Trace(rules_used=set(trace.rules_used), rules_applied=set(trace.rules_applied), values_used=set(trace.values_used))
    try:
        yield state
    finally:
        state.trace = trace


def situation_line(situation: Situation) -> str:
    """Where the game stands in one line: "Round 3 · Purchase · to act: orange · slot 2 offered ..."."""
    if situation.over:
        return "The game is over"
    parts = [f"Round {situation.round}"] if situation.round is not None else []
    if situation.phase:
        parts.append(situation.phase)
    parts.append(f"to act: {', '.join(situation.to_act)}" if situation.to_act else "the table reveals")
    parts.append(situation.pending)
    return " · ".join(parts)


def provisional_stems(state: State) -> set[str]:
    """The spec files whose provisional values the replay has relied on so far: a figure made
    from one of them rests on a stand-in, and pictures and summaries mark it."""
    spec, trace = state.game.spec, state.trace
    return {p.file for p in spec.relied_on(trace.rules_used, trace.values_used) if p.status == "provisional"}


def rests_on(state: State, *stems: str) -> bool:
    """True when a figure read from these spec files rests on a provisional value so far."""
    return bool(provisional_stems(state) & set(stems))


def table(headers: list[str], rows: list[list[object]]) -> list[str]:
    """A plain text table: the first column to the left, numbers to the right."""
    cells = [headers] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    numeric = [all(_numberish(row[i]) for row in cells[1:]) for i in range(len(headers))]
    out = []
    for row in cells:
        parts = [c.rjust(w) if numeric[i] and i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        out.append("  ".join(parts).rstrip())
    return out


def _numberish(cell: str) -> bool:
    return cell.rstrip("?").lstrip("-").isdigit() or cell == ""


def mark(value: object, provisional: bool) -> str:
    """A figure in text, with `?` when it rests on a provisional value."""
    return f"{value}?" if provisional else str(value)


def article(word: str) -> str:
    """A word with "a" or "an" before it, as a sentence says it: "an Aqueduct", "a Well"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def amount(count: int, unit: str, plural: str | None = None) -> str:
    """A count with its unit: "1 coin", "3 coins"."""
    return f"{count} {unit if count == 1 else (plural or unit + 's')}"


def signed(count: int, unit: str) -> str:
    """A change: "+3 prosperity", "-2 points"."""
    return f"{'+' if count > 0 else ''}{count} {unit}"


def listing(words) -> str:
    """Words as a sentence lists them: "coffee, tea and tea"."""
    words = [str(w) for w in words]
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Illustration:
    """A picture on the rulebook site's rules page, under the rule it explains: the first
    position of one of the game's example records where `when` holds, drawn."""

    rule: str  # the rule id it stands under
    record: str  # a file of the game's examples folder (a path inside it)
    when: Callable[[State], bool]
    caption: str
    variants: tuple[str, ...] = ()  # overlays of the examples folder the record is checked with
