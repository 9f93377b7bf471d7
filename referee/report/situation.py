"""What a person sees of a position, shared by `show`, `draw` and `replay`.

Each game says what its players' figures and its board look like (its `view`, `picture` and
`sentences` modules); this module holds what they share: the line that says where the game
stands (from `State.situation()`), a plain text table, which figures rest on provisional
spec values so far, and a way to read a state without recording rules as used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from referee.games.base import Situation, State, Trace
from referee.i18n import _, current, ngettext


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
        return _("The game is over")
    parts = [_("Round {n}").format(n=situation.round)] if situation.round is not None else []
    if situation.phase:
        parts.append(situation.phase)
    parts.append(_("to act: {players}").format(players=", ".join(situation.to_act)) if situation.to_act else _("the table reveals"))
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
    """A word with "a" or "an" before it, as an English sentence says it: "an Aqueduct", "a
    Well"; in Hungarian and German the sentence's own words carry it, and the word stands alone."""
    if current() != "en":
        return word
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _units(count: int) -> dict[str, str]:
    """The units sentences count in, each in the reader's language (a count is said in words
    that depend on it: 1 coin, 3 coins)."""
    return {
        "coin": ngettext("{n} coin", "{n} coins", count),
        "point": ngettext("{n} point", "{n} points", count),
        "points": ngettext("{n} point", "{n} points", count),
        "shilling": ngettext("{n} shilling", "{n} shillings", count),
        "prosperity": ngettext("{n} prosperity", "{n} prosperity", count),
        "prestige": ngettext("{n} prestige", "{n} prestige", count),
        "thaler": ngettext("{n} thaler", "{n} thalers", count),
        "prestige point": ngettext("{n} prestige point", "{n} prestige points", count),
        "step": ngettext("{n} step", "{n} steps", count),
    }


def amount(count: int, unit: str, plural: str | None = None) -> str:
    """A count with its unit: "1 coin", "3 coins"."""
    known = _units(count).get(unit) if current() != "en" else None  # English as it always was
    if known and plural is None:
        return known.format(n=count)
    return f"{count} {unit if count == 1 else (plural or unit + 's')}"


def signed(count: int, unit: str) -> str:
    """A change: "+3 prosperity", "-2 points"."""
    known = _units(abs(count)).get(unit) if current() != "en" else None
    sign = "+" if count > 0 else ""
    if known:
        return sign + known.format(n=count)
    return f"{sign}{count} {unit}"


def listing(words) -> str:
    """Words as a sentence lists them: "coffee, tea and tea"."""
    words = [str(w) for w in words]
    if not words:
        return _("nothing")
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])}{_(' and ')}{words[-1]}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st (1., 2. in Hungarian and German)."""
    if current() != "en":
        return f"{n}."
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
