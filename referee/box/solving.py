"""Solving the checkpoints' equations for the printed numbers they determine.

Both ways of learning a box's numbers from records (`infer` for the games whose moves add
printed numbers, `learn` for the games read by nudging each number) end in the same
linear system; this module states it and solves it exactly, with fractions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.i18n import _

ROUNDS = 6  # replays with the numbers found, at most; each round settles what the last one moved


@dataclass(frozen=True)
class Equation:
    """One checkpoint figure: written = referee's + sum of coefficient * (x - used)."""

    file: str
    line: int
    owner: str
    figure: str
    written: int
    ours: int
    coefficients: tuple[tuple[str, int], ...]

    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Finding:
    """What the records say about the printed numbers."""

    values: dict[str, int]  # determined: address -> number
    proofs: dict[str, list[Equation]]  # the checkpoints each determined number rests on
    open: list[str]  # numbers the records read but do not determine
    unread: list[str]  # numbers no record's moves touch
    refused: dict[str, str]  # record -> why no numbers can satisfy it
    conflict: list[Equation]  # checkpoints of several records that no numbers satisfy together
    used: dict[str, Any]  # the value in use at each address (the spec with the group's box)
    rounds: int
    figures: int  # checkpoint figures that the numbers enter
    further: dict[str, int] = field(default_factory=dict)  # for each number determined, the other checkpoint figures that read it
    relations: list[tuple[dict[str, Fraction], Fraction]] = field(default_factory=list)  # what the open numbers must satisfy
    box: dict[str, Any] = field(default_factory=dict)  # the answers of the group's box file in use
    named: dict[str, list[str]] = field(default_factory=dict)  # a name the checkpoints tell apart -> the choices that fit best
    assumed: dict[str, tuple[str, str]] = field(default_factory=dict)  # a number found -> the name it rests on, not told, and its choice
    faces: dict[str, list[dict]] = field(default_factory=dict)  # card faces the reveals show (a contract's goods), by address
    faces_cards: dict[str, int] = field(default_factory=dict)  # the cards each of those addresses lists, over every season
    faces_over: list[str] = field(default_factory=list)  # seasons whose reveals show more faces than the season has cards


@dataclass
class Solution:
    values: dict[str, Fraction]
    proofs: dict[str, list[int]]  # rows (indices into the equations)
    contradiction: list[int] | None  # rows that no values satisfy together
    skipped: list[int]  # rows left out, each contradicting those before it
    relations: list[tuple[dict[str, Fraction], Fraction]] = field(default_factory=list)  # sum(c * x) = r over open numbers


class Elimination:
    """Gauss-Jordan elimination over fractions, one equation at a time, kept in reduced row
    echelon form. Each row keeps the combination of equations it was made from, so that a
    value names the checkpoints that prove it, and a contradiction the ones that clash."""

    def __init__(self) -> None:
        self.rows: list[tuple[dict[str, Fraction], Fraction, dict[int, Fraction]]] = []
        self.pivots: dict[str, int] = {}

    def add(self, index: int, coefficients: dict[str, Fraction], right: Fraction) -> list[int] | None:
        """Take in equation `index`; the equations it contradicts together with it, or None."""
        row = (dict(coefficients), right, {index: Fraction(1)})
        for name in [n for n in row[0] if n in self.pivots]:
            if row[0].get(name):
                row = _subtract(row, self.rows[self.pivots[name]], row[0][name])
        coefficients, right, made = row
        if not coefficients:
            return None if right == 0 else sorted(made)
        name = min(coefficients)
        scale = coefficients[name]
        row = ({a: c / scale for a, c in coefficients.items()}, right / scale, {k: v / scale for k, v in made.items()})
        for r, other in enumerate(self.rows):
            if other[0].get(name):
                self.rows[r] = _subtract(other, row, other[0][name])
        self.pivots[name] = len(self.rows)
        self.rows.append(row)
        return None

    def relations(self) -> list[tuple[dict[str, Fraction], Fraction]]:
        """The rows that still hold more than one unknown: what the records say of the numbers
        they leave open."""
        return [(dict(c), right) for c, right, _made in self.rows if len(c) > 1]

    def values(self) -> tuple[dict[str, Fraction], dict[str, list[int]]]:
        """The values determined (a row with no other unknown left) and the equations of each."""
        values, proofs = {}, {}
        for name, r in self.pivots.items():
            coefficients, right, made = self.rows[r]
            if len(coefficients) == 1:
                values[name] = right
                proofs[name] = sorted(k for k, v in made.items() if v)
        return values, proofs


def solve(rows: list[Equation], used: dict[str, Any], skip: bool = False) -> Solution:
    """The values the equations sum(c * x) = written - ours + sum(c * used) determine.
    Without `skip` the first contradiction ends it; with it, an equation that contradicts those
    before it is left out and the rest are taken in. A determined value that is not a whole
    number is a contradiction too: printed numbers are whole and not below zero."""
    work = Elimination()
    skipped: list[int] = []
    for i, eq in enumerate(rows):
        right = Fraction(eq.written - eq.ours) + sum(Fraction(c) * in_use(used.get(a)) for a, c in eq.coefficients)
        clash = work.add(i, {a: Fraction(c) for a, c in eq.coefficients}, right)
        if clash is not None:
            if not skip:
                return Solution({}, {}, clash, skipped)
            skipped.append(i)
    values, proofs = work.values()
    for name, value in values.items():
        if value.denominator != 1 or value < 0:
            return Solution({}, {}, proofs[name], skipped)
    return Solution(values, proofs, None, skipped, work.relations())


def _subtract(row, pivot, times: Fraction):
    coefficients, right, made = row
    p_coefficients, p_right, p_made = pivot
    return _less(coefficients, p_coefficients, times), right - times * p_right, _less(made, p_made, times)


def _less(terms: dict, other: dict, times: Fraction) -> dict:
    """terms - times * other, keeping only the terms that are not zero."""
    out = dict(terms)
    for key, c in other.items():
        value = out.get(key, Fraction(0)) - times * c
        if value:
            out[key] = value
        else:
            out.pop(key, None)
    return out


def in_use(value: Any) -> Fraction:
    """A number in use as a fraction: a dash (None) counts as 0 (a record builds nothing there)."""
    return Fraction(value) if isinstance(value, int) and not isinstance(value, bool) else Fraction(0)


def finding(each: dict[str, list[Equation]], unplayable: dict[str, str], used: dict, every: list[str], rounds: int, box: dict) -> Finding:
    """What the equations of the last round say: each record alone (refused when no numbers
    satisfy it), then the records not refused together."""
    refused = dict(unplayable)
    for name, mine in each.items():
        alone = solve(mine, used)
        if alone.contradiction is not None:
            refused[name] = _why(mine, alone.contradiction)
    rows = [eq for name, mine in each.items() if name not in refused for eq in mine]
    solution = solve(rows, used)
    values = {a: int(v) for a, v in solution.values.items()}
    proofs = {a: [rows[i] for i in solution.proofs[a]] for a in values}
    conflict = [rows[i] for i in solution.contradiction] if solution.contradiction is not None else []
    read = {a for eq in rows for a, _c in eq.coefficients}
    proof_rows = {a: set(solution.proofs[a]) for a in values}
    further = {a: sum(1 for i, eq in enumerate(rows) if i not in proof_rows[a] and any(b == a for b, _c in eq.coefficients)) for a in values}
    return Finding(
        values,
        proofs,
        [a for a in every if a in read and a not in values],
        [a for a in every if a not in read],
        refused,
        conflict,
        used,
        rounds,
        sum(1 for eq in rows if eq.coefficients),
        further,
        solution.relations,
        box,
    )


def interleaved(each: dict[str, list[Equation]]) -> list[Equation]:
    """The equations of all records, the earliest of each record first."""
    return [eq for _i, _n, eq in sorted((i, n, eq) for n, mine in enumerate(each.values()) for i, eq in enumerate(mine))]


def _why(rows: list[Equation], contradiction: list[int]) -> str:
    lines = ", ".join(str(rows[i].line) for i in contradiction[:8]) + (" ..." if len(contradiction) > 8 else "")
    return _("no printed numbers satisfy its checkpoints on lines {lines} together").format(lines=lines)
