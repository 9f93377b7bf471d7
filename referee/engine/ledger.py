"""The ledger behind each figure: where every change of a checkpoint figure came from.

A replay with a ledger reads every figure of everyone a checkpoint may name
(`State.figures`) before the first entry and after each one, and keeps the
differences, each with its record line, the entry as written, and the parts the
rules noted while they made it (`Trace.note`: amount, rule, reason). Where the
notes do not add up to the change, the rest is kept as a part that names no rule,
so a ledger always sums to the figure the replay gives. A figure that is the sum
of others (`State.figure_totals`) is explained by the notes on its parts.

Reading every figure after every entry costs as much as the replay itself, so a
plain `check` keeps no ledger: it replays again with one only when a checkpoint is
contradicted, and `referee explain` asks for one. A session of `referee record` keeps
one from its first replay on, a few milliseconds a line.

A ledger goes back as its position does: `size` counts the entries it has taken, and
`cut(size)` forgets those after (`Position.snapshot` and `restore` keep it in step
with the state, for undo and for trials such as the final scoring of `explain`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee.games.base import State, Trace
from referee.i18n import _, localized
from referee.terminal import visible

END = "end of the record"  # what a change made after the last line (closing a phase, final scoring) is called


@dataclass
class Part:
    """One reason within a change: an amount, the rule that made it (or None), in words."""

    amount: int
    rule: str | None
    reason: str


@dataclass
class Change:
    """How a figure changed at one entry of the record."""

    line: int | None  # the record line; None for what the end of the record closes
    move: str  # the entry as written (text from the record: escape it before printing)
    amount: int = 0  # for a number
    added: list[str] = field(default_factory=list)  # for a list of words, such as goods
    removed: list[str] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    ruling: int | None = None  # the line of the ruling that let the move stand

    @property
    def rules(self) -> list[str]:
        return list(dict.fromkeys(p.rule for p in self.parts if p.rule))


class LedgerTrace(Trace):
    """A trace that keeps the notes the rules make, for the ledger to collect after each entry."""

    keeps_notes = True

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[tuple[str, str, int, str | None, str]] = []

    def note(self, owner: str, figure: str, amount: int, rule: str | None, reason: str) -> None:
        if amount:
            self.notes.append((owner, figure, amount, rule, reason))


class Ledger:
    """Every change of every figure of a replay, by owner and figure."""

    def __init__(self, state: State):
        self.owners = state.figure_owners()
        self.totals = state.figure_totals()
        self.start: dict[str, dict[str, Any]] = {o: _copy(state.figures(o)) for o in self.owners}
        self.now = {o: _copy(f) for o, f in self.start.items()}
        self.changes: dict[tuple[str, str], list[Change]] = {}
        self.over = state.is_over()
        self._log: list[tuple[str, str]] = []  # the figure of each change, in the order made
        self._taken: list[tuple[int | None, int, dict[str, dict[str, Any]], bool]] = []  # each entry's line, and the log, figures and end before it

    @property
    def size(self) -> int:
        """How many entries the ledger has taken (the one `cut` goes back to)."""
        return len(self._taken)

    def size_upto(self, line: int) -> int:
        """How many entries it had taken once the record's lines up to `line` were played."""
        taken = self._taken
        n = len(taken)
        while n and (taken[n - 1][0] is None or taken[n - 1][0] > line):
            n -= 1
        return n

    def cut(self, size: int) -> None:
        """Forget every entry after the first `size`, as if they had never been taken."""
        taken, log, changes = self._taken, self._log, self.changes
        while len(taken) > size:
            _line, logged, self.now, self.over = taken.pop()
            for key in reversed(log[logged:]):
                kept = changes[key]
                kept.pop()
                if not kept:
                    del changes[key]
            del log[logged:]

    def discard(self, state: State) -> None:
        """Forget the notes of an entry that the rules refused."""
        notes = getattr(state.trace, "notes", None)
        if notes is not None:
            notes.clear()

    def record(self, state: State, line: int | None, move: str, ruling: int | None = None) -> None:
        """Compare every figure with what it was before the entry, and keep the differences."""
        notes = list(getattr(state.trace, "notes", ()))
        self.discard(state)
        self._taken.append((line, len(self._log), dict(self.now), self.over))
        if not self.over and state.is_over():
            notes.extend(state.scoring_notes())
            self.over = True
        by_figure: dict[tuple[str, str], list[Part]] = {}
        for owner, figure, amount, rule, reason in notes:
            if amount:
                by_figure.setdefault((owner, figure), []).append(Part(amount, rule, reason))
        for owner in self.owners:
            figures = state.figures(owner)
            before = self.now[owner]
            for key, value in figures.items():
                old = before.get(key)
                if value == old:
                    continue
                change = Change(line, move, ruling=ruling)
                if isinstance(value, list) or isinstance(old, list):
                    now, was = Counter(value or []), Counter(old or [])
                    change.added = sorted((now - was).elements())
                    change.removed = sorted((was - now).elements())
                else:
                    change.amount = (value or 0) - (old or 0)
                    parts = list(by_figure.get((owner, key), ()))
                    for part_figure in self.totals.get(key, ()):
                        parts.extend(Part(p.amount, p.rule, p.reason or part_figure) for p in by_figure.get((owner, part_figure), ()))
                    rest = change.amount - sum(p.amount for p in parts)
                    if rest:
                        parts.append(Part(rest, None, ""))
                    change.parts = parts
                self.changes.setdefault((owner, key), []).append(change)
                self._log.append((owner, key))
            self.now[owner] = _copy(figures)

    def history(self, owner: str, figure: str, upto: int | None = None) -> tuple[Any, list[Change]]:
        """The start value and the changes of a figure up to a record line (None: the end).
        What the end of the record closes counts only at the end."""
        changes = [c for c in self.changes.get((owner, figure), []) if upto is None or (c.line is not None and c.line <= upto)]
        return self.start.get(owner, {}).get(figure), changes

    def value(self, owner: str, figure: str, upto: int | None = None) -> Any:
        """The figure as the ledger adds it up: the start value and every change."""
        start, changes = self.history(owner, figure, upto)
        if isinstance(start, list):
            held = Counter(start)
            for c in changes:
                held.update(c.added)
                held.subtract(c.removed)
            return sorted(held.elements())
        return (start or 0) + sum(c.amount for c in changes)


def _copy(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in figures.items()}


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def change_amount(change: Change) -> str:
    """A change in a few characters: `-2`, or `+coffee tea -rubber` for a list of words."""
    if change.added or change.removed:
        return " ".join(([f"+{' '.join(change.added)}"] if change.added else []) + ([f"-{' '.join(change.removed)}"] if change.removed else []))
    return signed(change.amount)


def change_reasons(change: Change) -> str:
    """Why a figure changed, in words with the rules: `bought slot 1 [speicherstadt/purchase-funds]`."""
    out: list[str] = []
    groups: list[tuple[str | None, list[str]]] = []  # parts in a row under one rule name it once
    for part in change.parts:
        words = localized(part.reason) if part.reason else _("by this move")
        if len(change.parts) > 1:
            words = f"{signed(part.amount)} {words}"
        if groups and groups[-1][0] == part.rule:
            groups[-1][1].append(words)
        else:
            groups.append((part.rule, [words]))
    for rule, words in groups:
        out.append(", ".join(words) + (f" [{rule}]" if rule else ""))
    ruling = _(" (let stand by the ruling on line {n})").format(n=change.ruling) if change.ruling is not None else ""
    return "; ".join(out) + ruling


MOVE_WIDTH = 32  # a move longer than this is cut in a ledger's lines


def change_line(change: Change) -> str:
    """One change on one line, for a terminal: where, the move as written, the amount, and why."""
    where = _("line {n}").format(n=change.line) if change.line is not None else _("at the end")
    move = visible(change.move.strip())
    move = move if len(move) <= MOVE_WIDTH else move[: MOVE_WIDTH - 3] + "..."
    return f"  {where:>9}  {move:<{MOVE_WIDTH}} {change_amount(change):>6}  {visible(change_reasons(change))}"


def change_json(change: Change) -> dict:
    out: dict[str, Any] = {"line": change.line, "move": change.move}
    if change.added or change.removed:
        out.update(added=change.added, removed=change.removed)
    else:
        out["amount"] = change.amount
    out["parts"] = [{"amount": p.amount, "rule": p.rule, "reason": p.reason or None} for p in change.parts]
    out["ruling_line"] = change.ruling
    return out
