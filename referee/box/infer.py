"""Learning printed numbers from records (`referee box GAME --infer RECORDS...`).

A checkpoint states a figure the table wrote down; the referee's own figure at that line
follows from the spec. Where the figure grows by printed numbers (a Canterbury build takes
the tile's cost from the builder's money and adds its points to the builder's prosperity),
each checkpoint is one linear equation over those numbers with whole coefficients (how many
of each tile the player built so far):

    written figure = referee's figure + sum of count * (true number - number used)

The equations of all records are solved exactly, with fractions, by Gauss-Jordan
elimination. A number whose row holds no other unknown is determined, and the checkpoints
that row was combined from are the lines that prove it; the others are left open. A row
that reduces to 0 = c, or a determined number that is not whole or is below zero, means that no numbers
satisfy those lines: the record (or the records together) is refused.

Everything else a move changes (a Levy, which reads the city track, a district scoring)
follows the spec, so the replay is done again with the numbers found until nothing changes:
a few rounds at most. The game names the figures that follow the printed numbers alone
(Canterbury's city prosperity): the first round reads only those, so that from the second on
the replay has the city marker where the record has it, and the Levy and the scorings come
as they came at the table. Where the city rests on a number no checkpoint pins down (a tile
built just before the marker's last space), the players' later figures are not read at all:
when a scoring came is no longer known, and a wrong reading is worse than none.
"""

from __future__ import annotations

import importlib
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from referee.box.template import write_box
from referee.errors import RecordError, UsageError, Violation
from referee.games.base import Trace
from referee.i18n import _, localized
from referee.notation.parser import Checkpoint, Move, Ruling, decode, game_of, parse
from referee.terminal import readable_name, visible

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


class Unsupported(UsageError):
    """A game whose records teach no printed numbers."""


def printed_rules(game):
    name = type(game).printed_module
    if not name:
        raise Unsupported(_("the {game} records teach no printed numbers yet: --infer knows Canterbury, Civitas Hamburgum and The Speicherstadt").format(game=game.name))
    return importlib.import_module(name)


def equations(game, text: str, name: str, pinned: set[str] | None = None) -> list[Equation]:
    """The checkpoint equations of one record, replayed with the game's current numbers.
    A move the current numbers make illegal (a build the stand-in cost makes too dear) is
    played all the same with the rule set aside: the numbers, not the record, may be wrong.
    `pinned`: the numbers that the figures solved first (the game's `first`) determine; a
    figure changed by an amount read from those figures while they rest on any other number
    is not read from then on (None: every figure is read)."""
    from referee.engine.players import Players
    from referee.engine.players import resolve as resolve_players

    rules = printed_rules(game)
    record = parse(text, name, game.name, game.build_move, None, game.keywords())
    seats, start = game.seats_from_header(record.header)
    resolve_players(record.entries, Players(seats))
    state = game.new_state(seats, start, record.header, Trace())
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    found: list[Equation] = []
    off_course = False  # the replay's course has left the record's (see the game's `course`)
    first = rules.first(game)
    tainted: set[tuple[str, str]] = set()
    entries = record.entries
    for index, entry in enumerate(entries):
        ruling = entries[index + 1] if index + 1 < len(entries) and isinstance(entries[index + 1], Ruling) else None
        if isinstance(entry, Move):
            if ruling is not None and ruling.verdict == "void":
                continue  # the table took it back
            added = rules.terms(state, entry)
            before, state = state, _played(state, entry)
            for owner, figure, address, coefficient in added:
                counts[(owner, figure)][address] += coefficient
            if pinned is not None and any(a not in pinned for key in first for a, c in counts[key].items() if c):
                tainted.update(rules.follows_first(before, entry, state))
        elif isinstance(entry, Checkpoint):
            if ruling is not None:
                continue  # the table adopted its own figures: they say nothing of the numbers
            owner = state.seat(entry.player, entry.pos).colour
            figures = state.figures(entry.player, {f.key for f in entry.figures})
            for fig in entry.figures:
                ours = figures.get(fig.key)
                if rules.course(state, owner, fig.key) and ours != fig.value:
                    off_course = True
            for fig in entry.figures:
                ours = figures.get(fig.key)
                if not isinstance(fig.value, int) or not isinstance(ours, int) or isinstance(ours, bool) or not rules.linear(state, owner, fig.key, fig.value):
                    continue
                if (off_course and (owner, fig.key) not in first) or (owner, fig.key) in tainted:
                    continue
                terms = tuple(sorted((a, c) for a, c in counts[(owner, fig.key)].items() if c))
                line = fig.pos.line if fig.pos else entry.pos.line
                found.append(Equation(name, line, owner, fig.key, fig.value, ours, terms))
    return found


def _played(state, move):
    """The state after the move, with every rule it breaks set aside (engine/rulings.py);
    a move that cannot be carried out at all is the record's error."""
    from referee.engine.rulings import Refused, accept

    try:
        state.apply(move)  # a move the rules refuse leaves the state as it was
        return state
    except Violation as broken:
        try:
            return accept(state, move, broken, holding=False)[0]
        except Refused as why:
            raise RecordError(_("the move cannot be played whatever the printed numbers: {why}").format(why=why), move.pos) from None


# --- solving ------------------------------------------------------------------------------


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
        right = Fraction(eq.written - eq.ours) + sum(Fraction(c) * _number(used.get(a)) for a, c in eq.coefficients)
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
    out = dict(coefficients)
    for a, c in p_coefficients.items():
        value = out.get(a, Fraction(0)) - times * c
        if value:
            out[a] = value
        else:
            out.pop(a, None)
    combined = dict(made)
    for k, v in p_made.items():
        value = combined.get(k, Fraction(0)) - times * v
        if value:
            combined[k] = value
        else:
            combined.pop(k, None)
    return out, right - times * p_right, combined


def _number(value: Any) -> Fraction:
    """A number in use as a fraction: a dash (None) counts as 0 (a record builds nothing there)."""
    return Fraction(value) if isinstance(value, int) and not isinstance(value, bool) else Fraction(0)


# --- the records, round by round ----------------------------------------------------------


def infer(game_name: str, paths: list[str], variants=()) -> Finding:
    """The printed numbers the records' checkpoints determine, worked out round by round."""
    from referee.games import load_game
    from referee.spec.boxfile import box_in_use
    from referee.spec.loader import read_answers

    records = [_read(path) for path in paths]
    for text, name in records:
        found = game_of(text)
        if not found or found[0].strip().lower() != game_name:
            if found:
                raise UsageError(_("{file} is not a {game} record (it is {other})").format(file=name, game=game_name, other=visible(repr(found[0]))))
            raise UsageError(_("{file} is not a {game} record (no [Game] tag)").format(file=name, game=game_name))
    base = load_game(game_name, variants)
    box = box_in_use(game_name)
    answers = dict(read_answers(box, game_name)) if box else {}
    if type(base).printed_module is None:
        from referee.box.learn import learn, learns

        if learns(game_name):
            return learn(game_name, records, variants, base, answers)
    rules = printed_rules(base)
    learnt: dict[str, int] = {}
    pinned: set[str] | None = None
    with tempfile.TemporaryDirectory(prefix="referee-infer-") as folder:
        for rounds in range(1, ROUNDS + 1):
            trial = Path(folder) / f"round-{rounds}" / f"{game_name}.yaml" if learnt else None
            games = _games(game_name, records, variants, trial, {**answers, **learnt})
            used = _values(games[0][1] if games else base, rules.addresses(base))
            each: dict[str, list[Equation]] = {}
            unplayable: dict[str, str] = {}
            for (text, name), (_wanted, game) in zip(records, games):
                try:
                    each[name] = equations(game, text, name, pinned)
                except RecordError as exc:
                    unplayable[name] = _("line {line}: {message}").format(line=exc.pos.line if exc.pos else "?", message=localized(exc.message))
            # the records taken together, their earliest checkpoints first; one that clashes
            # with those before it (it may follow the numbers in other ways too, as a Levy
            # follows where the city marker stands) waits for a later round
            mixed = interleaved(each)
            if rounds == 1:  # the figures that follow the printed numbers alone come first
                alone = rules.first(base)
                mixed = [eq for eq in mixed if (eq.owner, eq.figure) in alone] or mixed
            solution = solve(mixed, used, skip=True)
            pinned = _pinned(each, rules.first(base), used)
            changed = {a: int(v) for a, v in solution.values.items() if _number(used.get(a)) != v}
            if not changed and rounds > 1:
                break
            learnt.update(changed)
    return finding(each, unplayable, used, rules.addresses(base), rounds, answers)


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


def _pinned(each: dict[str, list[Equation]], first: set, used: dict) -> set[str] | None:
    """The numbers the first figures determine (None when no checkpoint states one of those
    figures: the others are then read as they come, the best the records allow)."""
    rows = [eq for mine in each.values() for eq in mine if (eq.owner, eq.figure) in first]
    return set(solve(rows, used, skip=True).values) if rows else None


def _why(rows: list[Equation], contradiction: list[int]) -> str:
    lines = ", ".join(str(rows[i].line) for i in contradiction[:8]) + (" ..." if len(contradiction) > 8 else "")
    return _("no printed numbers satisfy its checkpoints on lines {lines} together").format(lines=lines)


def _games(game_name: str, records, variants, trial: Path | None, answers: dict) -> list:
    """Each record's game (its own variants) with the numbers tried in this round."""
    from referee.engine.replay import record_variants
    from referee.games import load_game, load_game_with_box

    if trial is not None:
        trial.parent.mkdir(parents=True, exist_ok=True)
        write_box(trial, game_name, answers)
    out, made = [], {}
    for text, _name in records:
        wanted = tuple(dict.fromkeys(record_variants(text, game_name) + list(variants)))
        if wanted not in made:
            made[wanted] = load_game_with_box(game_name, trial, wanted) if trial is not None else load_game(game_name, wanted)
        out.append((wanted, made[wanted]))
    return out


def _values(game, addresses: list[str]) -> dict[str, Any]:
    out = {}
    for address in addresses:
        try:
            out[address] = game.spec.get(address)
        except (KeyError, IndexError, TypeError, ValueError):
            pass
    return out


def _read(path: str) -> tuple[str, str]:
    from referee.engine.replay import read_source

    try:
        data, name = read_source(path)
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {reason}").format(path=readable_name(path), reason=exc.strerror or exc)) from None
    try:
        return decode(data), readable_name(name)
    except RecordError as exc:
        raise UsageError(f"{readable_name(name)}: {localized(exc.message)}") from None
