"""Learning printed numbers by trying them: Civitas Hamburgum and The Speicherstadt.

Canterbury's moves say by themselves which printed number each one adds (a build adds its
tile's cost and points: infer.py). The other two games' numbers enter the figures in more
ways (a church's building token counts the donor's houses of a type when it is scored, the
depot's price for the number of items bought, the prestige for the n-th church finished, a
fire's points to those with the most and the fewest firemen), so they are found by asking
the engine instead of repeating its rules: each record is replayed through the public API
(`referee.Position`) with the numbers in use, then once more for each number with that
number one higher (or one lower), and the difference a checkpoint figure shows is that
number's coefficient in it:

    written figure = referee's figure + sum of coefficient * (true number - number used)

These equations are solved as Canterbury's are (infer.solve). Where the numbers found
change how the game went (a purchase the stand-in price made too dear can be paid now), the
replay is done again with them until nothing changes. A move the numbers in use make
illegal is played all the same under the table's `ruling accept`; where that would take a
figure below its floor (a purchase at a stand-in price above the purse), the move is played
as Canterbury's inference plays it (engine/rulings.accept with holding=False, on the
position's state): the numbers, not the record, may be wrong. A move that cannot be played
even so ends what that replay reads of the record.

A number the record states itself (The Speicherstadt's fire points, written when the card
is revealed) is a direct reading: the replay takes the record's number, and the line that
states it proves it.

Which figures are read comes from what each game's figures are: Hamburgum's money and
prestige until the game is over (the final sales and the prestige bought are not sums of the
numbers), The Speicherstadt's points at any time, the result included.

A name asked in the box (the house type a Hamburgum church's building token counts) is no
number to solve for: each choice is tried in turn, with the token's points set where the
most checkpoint figures agree, and the choices under which the most agree are kept; the
numbers are then worked out again with them. A number found under a name the checkpoints
leave open is said to rest on it. The city map (sites and brown lines) is not learnt: no
checkpoint figure counts it.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import referee
from referee.box.questions import questions
from referee.box.solving import ROUNDS, Equation, finding, interleaved, solve
from referee.errors import SpecError
from referee.i18n import _, localized

PASSES = 3  # passes over the names at most
STATED = "stated"  # the figure of an equation that is a number the record writes itself


@dataclass(frozen=True)
class Reader:
    """What the records of a game can teach: the figures that follow the printed numbers,
    whether they are read after the game is over (and in the result), and the numbers a move
    writes itself."""

    figures: frozenset[str]
    after_end: bool
    stated: Callable[[Any, Any], list[tuple[str, int]]] | None = None
    start: Callable[[Any, str], int | None] | None = None  # a first number to try for an unknown one
    options: Callable[[Any, str], list[str] | None] | None = None  # the names a named value may take
    companions: Callable[[str], set[str]] = lambda address: set()  # the numbers that go with a named value
    revealed: Callable[[Any, Any], tuple[str, dict] | None] | None = None  # a card face a reveal writes, by season
    room: Callable[[Any, str], dict[str, int]] | None = None  # the cards by season whose faces an address lists


def reader_of(game_name: str) -> Reader | None:
    """What the game's records teach (its `learning_module`), or None where they teach
    nothing this way."""
    from referee.games import game_class

    name = game_class(game_name).learning_module
    if name is None:
        return None
    module = importlib.import_module(name)
    hooks = {hook: getattr(module, hook) for hook in ("stated", "start", "options", "companions", "revealed", "room") if hasattr(module, hook)}
    return Reader(frozenset(module.FIGURES), module.AFTER_END, **hooks)


def learns(game_name: str) -> bool:
    return reader_of(game_name) is not None


# --- one replay -------------------------------------------------------------------------


@dataclass
class Run:
    """What one replay of a record read: each checkpoint figure by (entry, owner, figure),
    the numbers the record states, and where the replay could not go on."""

    readings: dict[tuple[int, str, str], tuple[int, int, int]] = field(default_factory=dict)  # -> (line, written, ours)
    stated: list[tuple[int, str, int]] = field(default_factory=list)  # (line, address, number)
    faces: list[tuple[str, dict]] = field(default_factory=list)  # (address, face): the cards the reveals show
    stopped: tuple[int, str] | None = None  # (line, why)
    stopped_stating: list[str] = field(default_factory=list)  # the numbers the move it stopped at writes


def replay(game, record, accept, reader: Reader) -> Run:
    """The record replayed on `game` one entry at a time (referee.Position); `accept` is a
    `ruling accept` entry, given with a move the numbers tried make illegal."""
    out = Run()
    position = referee.Position(game, record.header, record)
    position.resolve(record.entries)
    entries = record.entries
    for index, entry in enumerate(entries):
        ruling = entries[index + 1] if index + 1 < len(entries) and _kind(entries[index + 1]) == "Ruling" else None
        kind = _kind(entry)
        if kind == "Move":
            if ruling is not None and ruling.verdict == "void":
                continue  # the table took it back
            stated = reader.stated(position, entry) if reader.stated else []
            face = reader.revealed(position, entry) if reader.revealed else None
            try:
                why = _played(position, entry, ruling, accept)
            except referee.RecordError as exc:  # a move the game cannot read in this position
                why = str(localized(exc.message))
            if why is not None:
                out.stopped, out.stopped_stating = (entry.pos.line, why), [a for a, _n in stated]
                return out
            out.stated += [(entry.pos.line, a, n) for a, n in stated]
            out.faces += [face] if face else []
        elif kind == "Checkpoint":
            if ruling is not None:
                position.apply(entry, ruling)  # the table adopted its own figures: they say nothing of the numbers
                continue
            if position.is_over() and not reader.after_end:
                continue
            keys = {f.key for f in entry.figures if f.key in reader.figures}
            if not keys:
                continue
            try:
                ours = position.figures(entry.player, keys)
            except (referee.RecordError, referee.Violation, KeyError):
                continue  # a player the record does not seat: `check` says so
            owner = entry.player
            for fig in entry.figures:
                value = ours.get(fig.key)
                if fig.key in keys and _whole(fig.value) and _whole(value):
                    out.readings[(index, owner, fig.key)] = (fig.pos.line if fig.pos else entry.pos.line, fig.value, value)
        elif kind == "Result" and reader.after_end:
            position.end()
            if not position.is_over():
                continue
            totals = {s.seat.colour: s.total for s in position.standings()}
            score = position.state.score_figure
            for colour, points, pos in entry.scores:
                if colour in totals and _whole(points) and score in reader.figures:
                    out.readings[(index, colour, score)] = (pos.line if pos else entry.pos.line, points, totals[colour])
    return out


def _played(position, move, ruling, accept) -> str | None:
    """Play the move, under the table's `ruling accept` when the numbers tried make it
    illegal; None when it is played, else why not. A move the numbers tried make too dear
    (a purchase at a stand-in price above the purse) is played with the figure below its
    floor, as Canterbury's inference plays it (engine/rulings.py, holding=False): the
    numbers, not the record, may be wrong."""
    from referee.engine.rulings import Refused
    from referee.engine.rulings import accept as accepted

    outcome = position.apply(move, ruling, carry_on=True)
    if outcome.played:
        return None
    broken = next((d for d in outcome.diagnostics if d.severity == "error" and d.rule), None)
    outcome = position.apply(move, accept, carry_on=True)
    if outcome.played:
        return None
    why = next((str(localized(d.message)) for d in outcome.diagnostics if d.severity == "error"), "")
    if broken is None:
        return why
    try:
        position.state = accepted(position.state, move, referee.Violation(broken.rule, str(broken.message), move.pos), holding=False)[0]
    except Refused as refused:
        return str(refused)
    return None


def _kind(entry) -> str:
    """The kind of a record's entry by its class name (the notation's Move, Checkpoint,
    Ruling, Result, whichever game's move it is)."""
    for cls in type(entry).__mro__:
        if cls.__name__ in ("Move", "Checkpoint", "Ruling", "Result"):
            return cls.__name__
    return ""


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- the numbers, tried -----------------------------------------------------------------


class Trials:
    """The games to replay on: the game with the group's box and variants, loaded once, with
    the numbers tried written into a copy of its spec (one game per set of numbers)."""

    def __init__(self, game_name: str):
        self.game_name = game_name
        self.made: dict[tuple, Any] = {}
        self.runs: dict[tuple, Any] = {}  # what each record's replay read, by the numbers tried

    def game(self, variants: tuple, values: dict, leave_out: frozenset = frozenset()):
        """The game with these numbers (a number left out is not known, as shipped), or None
        when the game refuses them."""
        from referee.games import cross_check, game_class

        tried = {a: (None if a in leave_out else v) for a, v in values.items()}
        key = (variants, tuple(sorted(tried.items())))
        if key not in self.made:
            spec = referee.load_game(self.game_name, variants).spec
            files = dict(spec.files)
            for address, value in tried.items():
                _write(files, address, value)
            try:
                self.made[key] = cross_check(game_class(self.game_name), dataclasses.replace(spec, files=files))
            except SpecError:
                self.made[key] = None
        return self.made[key]


def _write(files: dict, address: str, value) -> None:
    """Set the value at `file:dotted.key` (as Spec.get finds it) in `files`, a copy of a
    spec's files: each table on the way is copied, the loaded spec is left as it is."""
    stem, _sep, key = address.partition(":")
    files[stem] = node = copy.copy(files[stem])
    *path, last = key.split(".")
    for part in path:
        index = _index(node, part)
        node[index] = copy.copy(node[index])
        node = node[index]
    node[_index(node, last)] = value


def _index(node, part: str):
    """The key or list index a segment of an address names in a table (as Spec.get reads it)."""
    if isinstance(node, list) or (part not in node and part.lstrip("-").isdigit() and int(part) in node):
        return int(part)
    return part


@dataclass
class Source:
    """One record: its text read, its variants, and the numbers it writes itself."""

    name: str
    record: Any
    variants: tuple
    leave_out: frozenset = frozenset()


def equations(source: Source, trials: Trials, values: dict, accept, reader: Reader, fixed: dict | None = None, only: set | None = None) -> tuple[list[Equation], tuple[int, str] | None]:
    """The checkpoint equations of one record around the numbers `values`, and where its
    replay stopped (None: at its end). `fixed`: names tried with them (a token's house
    type); `only`: the numbers whose coefficients are worked out (the others count 0)."""
    tried = {**(fixed or {}), **values}
    base = _run(source, trials, tried, accept, reader)
    if base is None:
        return [], (1, _("the spec refuses the numbers tried"))
    differences: dict[str, dict[tuple, int]] = {}
    for address, value in values.items():
        if address in source.leave_out or (only is not None and address not in only):
            continue  # the record writes this number itself, or it is not asked about
        differences[address] = _difference(source, trials, tried, address, value, base, accept, reader)
    found = []
    for key, (line, written, ours) in base.readings.items():
        if not all(key in d for d in differences.values()):
            continue  # a figure a number one off makes the replay miss: not read
        terms = tuple(sorted((a, d[key]) for a, d in differences.items() if d[key]))
        found.append(Equation(source.name, line, key[1], key[2], written, ours, terms))
    for line, address, number in base.stated:
        used = values.get(address)
        found.append(Equation(source.name, line, "", STATED, number, used if _whole(used) else 0, ((address, 1),)))
    found.sort(key=lambda e: e.line)
    return found, base.stopped


def _run(source: Source, trials: Trials, values: dict, accept, reader: Reader) -> Run | None:
    """A replay of the record with the numbers `values`; a number the record writes itself is
    left to it (found out the first time the replay stops at a line that writes it)."""
    key = (source.name, source.leave_out, tuple(sorted(values.items())))
    if key in trials.runs:  # the same numbers tried again (the house types, pass after pass)
        return trials.runs[key]
    while True:
        game = trials.game(source.variants, values, source.leave_out)
        if game is None:
            run = None
            break
        run = replay(game, source.record, accept, reader)
        new = set(run.stopped_stating) - source.leave_out
        if not new:
            break
        source.leave_out = source.leave_out | new
    trials.runs[key] = run
    return run


def _difference(source, trials, values, address, value, base: Run, accept, reader) -> dict[tuple, int]:
    """Each figure's change per unit of one number, at `values`: tried one higher, and one
    lower where one higher misses figures the numbers in use read."""
    number = value if _whole(value) else 0
    best: dict[tuple, int] = {}
    for step in (1, -1):
        if number + step < 0:
            continue
        tried = _run(source, trials, {**values, address: number + step}, accept, reader)
        if tried is None:
            continue
        found = {k: (tried.readings[k][2] - ours) * step for k, (_l, _w, ours) in base.readings.items() if k in tried.readings}
        if len(found) > len(best):
            best = found
        if len(best) == len(base.readings):
            break
    return best


def learn(game_name: str, records: list[tuple[str, str]], variants, base, answers: dict):
    """The printed numbers of Hamburgum or The Speicherstadt that the records determine (a
    Finding, as infer.infer gives it), and the names among those asked that they tell."""
    from referee.engine.replay import record_variants

    reader = reader_of(game_name)
    shipped = referee.load_game(game_name, box=False).spec
    every: list[str] = []
    values: dict[str, int | None] = {}
    named: dict[str, Any] = {}
    options: dict[str, list[str]] = {}
    for q in questions(shipped):
        choices = reader.options(shipped, q.address) if reader.options and isinstance(q.standin, str) else None
        if choices:
            named[q.address], options[q.address] = answers.get(q.address, q.standin), choices
            continue
        start = q.standin if _whole(q.standin) else (reader.start(shipped, q.address) if reader.start and q.standin is None else None)
        if start is None:
            continue
        every.append(q.address)
        used = answers.get(q.address, start)
        values[q.address] = used if _whole(used) else start
    sources, unreadable = [], {}
    for text, name in records:
        wanted = tuple(dict.fromkeys(record_variants(text, game_name) + list(variants)))
        try:
            record, _game = referee.read_record(text, name, wanted)
        except referee.RecordError as exc:
            unreadable[name] = _("line {line}: {message}").format(line=exc.pos.line, message=localized(exc.message))
            continue
        sources.append(Source(name, record, wanted))
    accept = referee.read_entry(base, "ruling accept")
    trials = Trials(game_name)
    rounds, each, stops = _settle(sources, trials, values, named, accept, reader)
    before = dict(named)
    allowed = _choose(sources, trials, values, named, options, accept, reader) if options else {}
    if named != before:  # a name the checkpoints put right: the numbers again, with it
        more, each, stops = _settle(sources, trials, values, named, accept, reader)
        rounds += more
    unplayable = unreadable | {name: _("line {line}: the move cannot be played with the numbers found: {why}").format(line=stop[0], why=stop[1]) for name, stop in stops.items() if stop}
    found = finding(each, unplayable, values, every, rounds, answers)
    found.named = allowed
    if reader.revealed:
        runs = [_run(source, trials, values, accept, reader) for source in sources if source.name not in unplayable]
        found.faces, found.faces_cards, found.faces_over = faces_read([run for run in runs if run], shipped, reader)
    for address in options:
        if len(allowed.get(address, ())) != 1:  # a number found with a name the checkpoints do not tell
            found.assumed |= {number: (address, named[address]) for number in reader.companions(address) if number in found.values}
    return found


def faces_read(runs: list[Run], spec, reader: Reader) -> tuple[dict[str, list[dict]], dict[str, int], list[str]]:
    """The card faces the records' reveals show, by the address that lists them: each face as
    many times as one record shows it at most (a record shows each card once; two records
    showing one face may show the same card); the cards each address counts over its seasons;
    and the seasons where the faces shown are more than the season's cards (the records
    contradict each other, or the card counts)."""
    most: dict[tuple[str, str], Counter] = {}
    for run in runs:
        mine = Counter((address, face["season"], json.dumps(face)) for address, face in run.faces)
        for (address, season, key), n in mine.items():
            counts = most.setdefault((address, season), Counter())
            counts[key] = max(counts[key], n)
    faces: dict[str, list[dict]] = {}
    cards: dict[str, int] = {}
    over: list[str] = []
    for (address, season), counts in sorted(most.items()):
        if sum(counts.values()) > reader.room(spec, address).get(season, 0):
            over.append(f"{address} ({season})")
            continue
        faces.setdefault(address, []).extend(json.loads(key) for key in sorted(counts) for _n in range(counts[key]))
    for address in faces:
        cards[address] = sum(reader.room(spec, address).values())
    return {a: f for a, f in faces.items() if not any(o.startswith(a + " ") for o in over)}, cards, over


def _settle(sources, trials, values: dict, named: dict, accept, reader) -> tuple[int, dict, dict]:
    """The numbers worked out round by round (changing `values`): the rounds it took, and the
    equations and stops of the last round by record."""
    rounds = 0
    while rounds < ROUNDS:
        rounds += 1
        each, stops = {}, {}
        for source in sources:
            each[source.name], stops[source.name] = equations(source, trials, values, accept, reader, named)
        solution = solve(interleaved(each), values, skip=True)
        changed = {a: int(v) for a, v in solution.values.items() if values.get(a) != v and v.denominator == 1 and v >= 0}
        if not changed:
            break
        values.update(changed)
    return rounds, each, stops


def _choose(sources, trials, values: dict, named: dict, options: dict, accept, reader) -> dict[str, list[str]]:
    """The names the checkpoints tell (a building token's house type), one at a time, the
    others as they are: for each choice, the number that goes with it (the token's points)
    is set where the most checkpoint figures agree, and the choices under which the most
    agree are kept (`named` and `values` take the first of them where the one in use is not
    among them). A pass is made again while a name changes, so that two names wrong at once
    are both put right. Only a name whose choices the checkpoints tell apart is listed."""
    allowed: dict[str, list[str]] = {}
    for _pass in range(PASSES):
        changed = False
        for address, choices in options.items():
            scores = {choice: _agreeing(sources, trials, values, {**named, address: choice}, reader.companions(address), accept, reader) for choice in choices}
            most = max(agree for agree, _numbers in scores.values())
            best = [choice for choice in choices if scores[choice][0] == most]
            if len(best) == len(choices):
                allowed.pop(address, None)
                continue
            allowed[address] = best
            if named[address] not in best:
                named[address] = best[0]
                values.update(scores[best[0]][1])
                changed = True
        if not changed:
            break
    return allowed


def _agreeing(sources, trials, values: dict, fixed: dict, companions: set, accept, reader) -> tuple[int, dict]:
    """How many checkpoint figures of the records agree with the names `fixed` and the numbers
    `values`, the one number of `companions` set where the most agree; and that number."""
    pairs: list[tuple[int, int]] = []  # (written - ours, change per unit of the companion)
    address = next(iter(companions & set(values)), None)
    for source in sources:
        base = _run(source, trials, {**fixed, **values}, accept, reader)
        if base is None:
            continue
        step = _difference(source, trials, {**fixed, **values}, address, values[address], base, accept, reader) if address else {}
        pairs += [(written - ours, step.get(key, 0)) for key, (_line, written, ours) in base.readings.items()]
    if address is None:
        return sum(1 for gap, _d in pairs if gap == 0), {}
    used = values[address] if _whole(values[address]) else 0
    tried = Counter(used + gap // d for gap, d in pairs if d and gap % d == 0 and used + gap // d >= 0)
    tried[used] += 0
    best, agree = used, -1
    for number in sorted(tried):
        count = sum(1 for gap, d in pairs if gap == d * (number - used))
        if count > agree:
            best, agree = number, count
    return agree, {address: best}
