"""The replay loop shared by every game, and the reports it produces.

`check_bytes` takes a record as the user gave it and returns a `Report`,
whatever the input: unreadable records, broken specs and illegal moves all
become diagnostics with a position, never exceptions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from referee.engine.findings import SKIPPED_NOTE, VOID_NOTE, Diagnostic, Report, rank
from referee.engine.position import Outcome, Position
from referee.errors import Pos, RecordError, SpecError
from referee.games import load_game
from referee.games.base import State
from referee.i18n import Message
from referee.notation.names import names_of, spelling
from referee.notation.parser import MAX_RECORD_BYTES, VARIANT_TAG, Checkpoint, Move, Record, Result, Ruling, decode, game_of, parse
from referee.spec.loader import available_games, looks_like_path, read_yaml, specs_root, variant_names

# What a game's set-up raises on data that passed its schemas but that it cannot use (a missing
# entry, a value of the wrong kind, an empty list where one item is needed): invalid data, exit 4.
SETUP_ERRORS = (LookupError, TypeError, ValueError, AttributeError, StopIteration, ArithmeticError)


def setup_error(game_dir: Path, exc: BaseException) -> SpecError:
    """Data a game cannot set itself up with, as a spec error (exit 4). The message is never
    empty: a StopIteration has no text of its own and a KeyError only the key, so the line of
    the game module that failed is named too, as a pointer to the data it was reading."""
    detail = str(exc).strip() or ("nothing in the data matched what the rules look for" if isinstance(exc, StopIteration) else "no detail")
    return SpecError(game_dir, "", f"the {game_dir.name} rules cannot use this data: {type(exc).__name__}: {detail}{_raised_at(exc)}")


GAMES_DIR = Path(__file__).resolve().parent.parent / "games"


def _raised_at(exc: BaseException) -> str:
    """The last line of a game module (not the loader of games) that the error passed through."""
    import traceback  # only for data a game cannot set itself up with: not at every start

    paths = [(f, Path(f.filename).resolve()) for f in traceback.extract_tb(exc.__traceback__)]
    frames = [f for f, path in paths if GAMES_DIR in path.parents and path != GAMES_DIR / "__init__.py"]
    if not frames:
        return ""
    frame = frames[-1]
    return f" (at {Path(frame.filename).resolve().relative_to(GAMES_DIR).as_posix()}:{frame.lineno}: {(frame.line or '').strip()[:120]})"


def read_source(path: str) -> tuple[bytes, str]:
    """Bytes of a record file, or of standard input for '-'.

    No more than one byte over the size limit is read, so that a huge file or an
    endless pipe is refused (by `decode`) without filling the memory first.
    """
    import errno
    import sys

    if path == "-":
        if sys.stdin is None:  # the process started with its standard input closed
            raise OSError(errno.EBADF, "standard input is closed")
        return sys.stdin.buffer.read(MAX_RECORD_BYTES + 1), "<stdin>"
    with open(path, "rb") as fh:
        return fh.read(MAX_RECORD_BYTES + 1), path


def check_bytes(
    data: bytes,
    name: str,
    variants: list[str] | tuple[str, ...] = (),
    stop_after: int | None = None,
    stop_line: int | None = None,
    watch: Watch | None = None,
    keep_going: bool = False,
    ledger: bool = False,
    open_end: bool = False,
) -> Report:
    """Replay a record and report on it.

    `stop_after` stops after that many moves, `stop_line` after the last entry on or before
    that line (no end-of-record step follows either stop); `watch` is told of the start, of
    every move replayed and of the end (see `Watch`). `keep_going` (check --keep-going)
    reports every problem instead of the first: an unreadable line is skipped, an illegal
    move is treated as void, and later diagnostics say which earlier problem they may follow
    from. `ledger` keeps the ledger behind every figure (`referee explain`); without it a
    contradicted checkpoint still gets the last changes of its figure, from a second replay
    that keeps one. `keep_going` keeps one from the start: a second replay would search for
    the repair of every slip again, which costs far more than the ledger. `open_end` is for a record still being written (`referee record`): its end
    is not closed (`State.end_of_record`), so the state is the one the next line applies to.
    """
    report = Report(name)
    ledger = ledger or keep_going
    try:
        _replay(data, report, list(variants), stop_after, stop_line, watch, keep_going, ledger, open_end)
    except RecordError as exc:
        report.worsen("malformed")
        report.diagnostics.append(Diagnostic("error", exc.message, exc.pos))
    except SpecError as exc:
        report.worsen("invalid-spec")
        message = Message("{key}: {message}", key=exc.key, message=exc.message) if exc.key else exc.message
        report.diagnostics.append(Diagnostic("error", message, None, file=exc.where))
    except Exception as exc:  # a bug in the referee: report it like any diagnostic
        report.worsen("internal-error")
        report.diagnostics.append(Diagnostic("error", f"internal error: {type(exc).__name__}: {exc}", report.position))
    if keep_going:
        report.diagnostics.sort(key=lambda d: d.pos.line if d.pos else 0)
    if any(d.figure for d in report.diagnostics):
        _add_ledger_tails(data, name, list(variants), stop_after, stop_line, keep_going, report)
    return report


# Told of a replay as it goes: ("start", None, state) once the game is set up, ("move", move,
# state) after each move the rules accept, ("end", None, state) once the replay is over.
Watch = Callable[[str, "Move | None", State], None]


LEDGER_TAIL = 3  # changes shown under a contradicted figure


def _add_ledger_tails(data: bytes, name: str, variants: list[str], stop_after: int | None, stop_line: int | None, keep_going: bool, report: Report) -> None:
    """Give each contradicted checkpoint figure its last few changes, from a replay that keeps a
    ledger (the same replay again, so that a plain check pays for ledgers only when needed)."""
    contradicted = [d for d in report.diagnostics if d.figure and d.pos]
    if not contradicted:
        return
    book = report.ledger
    if book is None:
        book = check_bytes(data, name, variants, stop_after, stop_line, keep_going=keep_going, ledger=True).ledger
    if book is None:
        return
    for d in contradicted:
        owner, figure = d.figure
        upto = None if d.rule and d.rule.endswith("/result") else d.pos.line  # a result counts the end of the record too
        _, changes = book.history(owner, figure, upto)
        d.ledger = changes[-LEDGER_TAIL:]


def _replay(
    data: bytes,
    report: Report,
    variants: list[str],
    stop_after: int | None,
    stop_line: int | None = None,
    watch: Watch | None = None,
    keep_going: bool = False,
    ledger: bool = False,
    open_end: bool = False,
) -> None:
    text = decode(data)
    report.source = text
    if not text.strip():
        raise RecordError(Message("empty record: it needs at least a [Game] tag and a [Players] tag"), Pos(1, 1))
    found = game_of(text)
    if not found:
        raise no_game_tag()
    game_name, game_pos = found
    game_name = game_named(game_name)
    report.game = game_name
    header_variants = record_variants(text, game_name)
    all_variants = list(dict.fromkeys(header_variants + variants))
    report.variants = all_variants
    try:
        game = load_game(game_name, all_variants)
    except SpecError as exc:
        if exc.file == game_name or exc.file.endswith(f"/{game_name}"):
            raise RecordError(exc.message, game_pos) from None
        raise
    except SETUP_ERRORS as exc:
        # data that passed its schema but that the game cannot set itself up with, as `validate` says
        raise setup_error(specs_root() / game_name, exc) from None
    unreadable: list[RecordError] = []
    record = parse(text, report.name, game_name, game.build_move, unreadable, game.keywords())
    report.record = record
    first = None if keep_going or not unreadable else unreadable[0]
    if first is not None:
        # a plain check reports in line order: the lines before the first unreadable one are
        # replayed (a checkpoint they contradict comes first), and the replay stops there
        before = [e for e in record.entries if e.pos and first.pos and e.pos.line < first.pos.line]
        if not before:
            raise first
        bad = first.pos.line
        if stop_line is not None and stop_line < bad:
            first = None  # the position asked for comes before the line: it is not read
        else:
            stop_line = bad - 1
    builder = ReportBuilder(report)
    visitor = Tee(builder, Watching(watch)) if watch else builder
    replay(
        record,
        game,
        visitor,
        keep_going=keep_going,
        stop_after=stop_after,
        stop_line=stop_line,
        open_end=open_end,
        ledger=ledger,
        unreadable=unreadable if keep_going else (),
        header_variants=header_variants,
    )
    if first is not None and report.replayed and not _stopped_by_rule(report) and (stop_after is None or report.moves < stop_after):
        report.worsen("malformed")
        report.diagnostics.append(Diagnostic("error", first.message, first.pos))
    if not keep_going:
        hint_keep_going(report, record)


KEEP_GOING_HINT = "the check stops at its first problem: `referee check --keep-going` reports them all and proposes a repair for each"


def _stopped_by_rule(report: Report) -> bool:
    return any(d.severity == "error" and not d.figure for d in report.diagnostics)


def hint_keep_going(report: Report, record: Record) -> None:
    """Say how to see every problem when a plain check stopped at one before the record's end."""
    stopping = [d for d in report.diagnostics if d.severity == "error" and not d.figure and d.pos]
    if not stopping:
        return
    last = stopping[-1]
    if any(e.pos and e.pos.line > last.pos.line for e in record.entries):
        last.notes.append(KEEP_GOING_HINT)


class Visitor:
    """Told of a replay as it goes, and builds what it builds from it (a report, pictures, a
    page), as python-chess's `pgn.BaseVisitor` is told of a game being read.

    `begin` comes once the position is set up; `enter` before each entry is applied and `visit`
    after it, with its outcome; `unreadable` for each line the notation could not read (with
    `keep_going`); `end` once the replay is over (`replayed` is False when it stopped at a
    problem). `result` is what `replay` returns."""

    def begin(self, position: Position) -> None:
        pass

    def enter(self, entry) -> None:
        pass

    def visit(self, outcome: Outcome, position: Position) -> None:
        pass

    def unreadable(self, diagnostic: Diagnostic) -> None:
        pass

    def repaired(self, repair) -> None:
        """A slip's repair that the replay took (`engine.repair.Repair`), with keep_going."""

    def end(self, position: Position, replayed: bool) -> None:
        pass

    def result(self):
        return None


class Tee(Visitor):
    """Several visitors told of one replay, in turn; the first one's result is the result."""

    def __init__(self, *visitors: Visitor):
        self.visitors = visitors

    def begin(self, position):
        for v in self.visitors:
            v.begin(position)

    def enter(self, entry):
        for v in self.visitors:
            v.enter(entry)

    def visit(self, outcome, position):
        for v in self.visitors:
            v.visit(outcome, position)

    def unreadable(self, diagnostic):
        for v in self.visitors:
            v.unreadable(diagnostic)

    def repaired(self, repair):
        for v in self.visitors:
            v.repaired(repair)

    def end(self, position, replayed):
        for v in self.visitors:
            v.end(position, replayed)

    def result(self):
        return self.visitors[0].result()


class Watching(Visitor):
    """A `Watch` callback told of the start, of each move played and of the end."""

    def __init__(self, watch: Watch):
        self.watch = watch

    def begin(self, position):
        self.watch("start", None, position.state)

    def visit(self, outcome, position):
        if outcome.played:
            self.watch("move", outcome.entry, position.state)

    def end(self, position, replayed):
        self.watch("end", None, position.state)


class ReportBuilder(Visitor):
    """Builds the `Report` of a check: verdict, diagnostics, rulings, standings, sources."""

    def __init__(self, report: Report | None = None, name: str = "<record>"):
        self.report = report if report is not None else Report(name)

    def begin(self, position):
        self.report.state = position.state
        self.report.ledger = position.book

    def enter(self, entry):
        if isinstance(entry, Move):
            self.report.position = entry.pos

    def visit(self, outcome, position):
        report = self.report
        if outcome.unreadable is not None:
            raise outcome.unreadable
        if any(d.severity == "error" for d in outcome.diagnostics):
            report.worsen("illegal")
        report.diagnostics.extend(outcome.diagnostics)
        if outcome.ruling is not None:
            report.rulings.append(outcome.ruling)
        report.checkpoints_confirmed += outcome.confirmed
        report.moves = position.moves
        report.state = position.state

    def unreadable(self, diagnostic):
        self.report.worsen("malformed")
        self.report.diagnostics.append(diagnostic)

    def repaired(self, repair):
        self.report.repairs.append(repair)

    def end(self, position, replayed):
        report, state = self.report, position.state
        report.state = state
        report.replayed = replayed
        report.complete = state.is_over()
        report.standings = rank(state.standings())
        trace = state.trace
        for rule, message, pos in trace.warnings:
            report.diagnostics.append(Diagnostic("warning", message, pos, rule))
        report.relied_on = position.game.spec.relied_on(trace.rules_used, trace.values_used)
        report.record_facts = trace.record_facts

    def result(self):
        return self.report


def replay(
    record: Record,
    game,
    visitor: Visitor | None = None,
    *,
    keep_going: bool = False,
    stop_after: int | None = None,
    stop_line: int | None = None,
    open_end: bool = False,
    ledger: bool = False,
    unreadable=(),
    header_variants: list[str] | None = None,
):
    """Replay a parsed record's entries on a new position of `game`, telling `visitor` (by
    default a `ReportBuilder`) of each, and return the visitor's result.

    Without `keep_going` the first problem ends the replay; with it, each problem is told and
    the replay goes on as the table did: an illegal move is left out (void), an unreadable line
    skipped, and later errors say which earlier line they may follow from. `stop_after` stops
    after that many moves and `stop_line` after the last entry on or before that line, with no
    end-of-record step after either; `open_end` leaves the end open too (a record still being
    written). `unreadable` holds the lines the notation could not read (with `keep_going`).
    """
    visitor = visitor if visitor is not None else ReportBuilder(name=record.name)
    run = _Run(record, game, visitor, keep_going)
    if keep_going:  # each unreadable line is met, and repaired, where it stands
        record.unreadable = list(dict.fromkeys([*record.unreadable, *unreadable]))
    else:
        for problem in unreadable:
            run.unreadable(problem)
    if header_variants is not None:
        _check_variant_tag(record, header_variants, game.name)
    position = Position(game, record.header, record, ledger=ledger)
    position.resolve(record.entries)  # a player's name stands for their colour
    run.position = position
    visitor.begin(position)
    if keep_going:
        from referee.engine.repair import Mending

        replayed = Mending(run, record, position).entries(stop_after, stop_line, open_end)
    else:
        replayed = run.entries(stop_after, stop_line, open_end)
    visitor.end(position, replayed)
    run.mark_followers()
    return visitor.result()


class _Run:
    """One replay's course: which entry comes next, when to stop, and (with keep_going) the
    first line at which the replay left the record's course (`diverged`)."""

    def __init__(self, record: Record, game, visitor: Visitor, keep_going: bool):
        self.record, self.game, self.visitor, self.keep_going = record, game, visitor, keep_going
        self.position: Position | None = None
        self.diverged: int | None = None
        self.seen: list[Diagnostic] = []

    def unreadable(self, problem: RecordError) -> None:
        """A line the notation cannot read: told and skipped. A skipped line other than a
        checkpoint, a result or a tag may have been a move or a ruling."""
        diagnostic = Diagnostic("error", problem.message, problem.pos, notes=[SKIPPED_NOTE])
        self.seen.append(diagnostic)
        self.visitor.unreadable(diagnostic)
        if problem.pos is not None:
            words = self.record.line(problem.pos.line).split()
            if words and words[0].lower() not in ("check", "result") and not words[0].startswith("["):
                self.diverge(problem.pos)

    def diverge(self, pos: Pos | None) -> None:
        if pos is not None and (self.diverged is None or pos.line < self.diverged):
            self.diverged = pos.line

    def tell(self, outcome: Outcome) -> None:
        position = self.position
        if outcome.unreadable is not None and self.keep_going:
            self.seen.extend(outcome.diagnostics)
            self.visitor.visit(Outcome(outcome.entry, outcome.diagnostics, confirmed=outcome.confirmed), position)
            self.unreadable(outcome.unreadable)
            return
        self.seen.extend(outcome.diagnostics)
        self.visitor.visit(outcome, position)

    def entries(self, stop_after: int | None, stop_line: int | None, open_end: bool) -> bool:
        """Apply the entries in turn; True when the replay went through the record."""
        position, entries, keep_going = self.position, self.record.entries, self.keep_going
        finished_by_result = False
        applied = -1  # the index of the last entry applied: a ruling right after it decides on it
        for index, entry in enumerate(entries):
            if stop_line is not None and entry.pos is not None and entry.pos.line > stop_line:
                return True  # no end-of-record step after a stop
            if isinstance(entry, Ruling):
                before = entries[index - 1] if index else None
                if not isinstance(before, (Move, Checkpoint)):  # a ruling on no move: the engine says so
                    what = "another ruling" if isinstance(before, Ruling) else "the result" if isinstance(before, Result) else "no move"
                    self.tell(position.apply(entry) if applied == index - 1 else position.misplaced_ruling(entry, what))
                    applied = index
                    if not keep_going:
                        return False
                continue  # one after a move or a checkpoint was applied with it
            # a ruling on this entry comes next: the visitor is told of the entry as it decides
            ruling = entries[index + 1] if index + 1 < len(entries) and isinstance(entries[index + 1], Ruling) else None
            if isinstance(entry, Move):
                if stop_after is not None and position.moves >= stop_after:
                    break
                self.visitor.enter(entry)
                outcome = position.apply(entry, carry_on=keep_going, ruling_follows=ruling is not None)
                if ruling is not None:
                    outcome = position.apply(ruling)
                applied = index + (ruling is not None)
                errors = [d for d in outcome.diagnostics if d.severity == "error"]
                if errors and keep_going and not outcome.played and outcome.ruling is None and not outcome.taken_back:
                    errors[-1].notes.append(VOID_NOTE)
                    self.diverge(errors[-1].pos)
                self.tell(outcome)
                if errors and not keep_going:
                    return False
            elif isinstance(entry, Checkpoint):
                if stop_after is not None and position.moves >= stop_after:
                    continue
                self.visitor.enter(entry)
                outcome = position.apply(entry)
                if ruling is not None:
                    outcome = position.apply(ruling)
                applied = index + (ruling is not None)
                self.tell(outcome)
                if _stops(outcome) and not keep_going:
                    return False
            elif isinstance(entry, Result):
                if stop_after is not None:
                    continue
                self.visitor.enter(entry)
                outcome = position.apply(entry)
                applied = index
                self.tell(outcome)
                if _stops(outcome) and not keep_going:
                    return False
                finished_by_result = position.state.is_over()
        if stop_after is None and not finished_by_result and not open_end:
            outcome = position.end()
            self.tell(outcome)
        return True

    def mark_followers(self) -> None:
        """With keep_going, each error after the line where the replay left the record's course
        says that it may follow from that line."""
        if self.diverged is None:
            return
        for d in self.seen:
            if d.severity == "error" and d.pos and d.pos.line > self.diverged:
                d.follows = self.diverged


def _stops(outcome: Outcome) -> bool:
    """Whether a checkpoint's or the result's outcome ends a replay without keep_going: a
    figure the rules contradict does not; a rule broken or a line unreadable does."""
    if outcome.unreadable is not None:
        return True
    return any(d.severity == "error" and not d.figure for d in outcome.diagnostics)


def game_named(name: str) -> str:
    """The game a [Game] tag names: its id, or one of the names its game.yaml gives it
    ("Die Speicherstadt", "Civitas Hamburgum"), in any case; else the name as it is, for
    the loader to refuse with the list of games."""
    games = available_games()
    if name in games:
        return name
    wanted = spelling(name)
    for game in games:
        try:
            meta = read_yaml(specs_root() / game / "game.yaml")
        except SpecError:
            continue
        if isinstance(meta, dict) and wanted in {spelling(n) for n in names_of(meta)}:
            return game
    return name


_VARIANT_NAME = re.compile(r"[^,;]+")


def record_variants(text: str, game_name: str) -> list[str]:
    """The variants a record's [Variant] tag names, each one a variant its game ships: with
    any others asked for, the variants to load its game with (`load_game(game_name, ...)`),
    for a caller that loads games itself (`read_record` does it for the others). A name its
    game does not ship, or one that looks like a file, raises RecordError at the name.

    A record may come from anyone, so its header must not make the referee read a file of
    the record's choosing (and quote it back in an error): an overlay file of one's own is
    given on the command line, with `--variant FILE`. An unknown game leaves the names
    unchecked, as the unknown game is the error to report.
    """
    match = VARIANT_TAG.search(text)
    if not match:
        return []
    known = variant_names(specs_root() / game_name) if game_name in available_games() else None
    names = []
    for part in _VARIANT_NAME.finditer(match.group(1)):
        name = part.group().strip()
        if not name:
            continue
        if looks_like_path(name) or (known is not None and name not in known):
            start = match.start(1) + part.start() + part.group().index(name)
            raise RecordError(_variant_refusal(name, game_name, known), _pos_in(text, start, len(name)))
        names.append(name)
    return names


def _check_variant_tag(record: Record, names: list[str], game_name: str) -> None:
    """The variants were chosen from the raw text before the parse; the parsed tag (escapes
    read) must name no other, or a tag the quick look missed would be silently ignored."""
    value = record.header.get("variant") or ""
    for part in _VARIANT_NAME.finditer(value):
        name = part.group().strip()
        if name and name not in names:
            known = variant_names(specs_root() / game_name)
            raise RecordError(_variant_refusal(name, game_name, known), record.header.pos("variant"))


def _variant_refusal(name: str, game_name: str, known: list[str] | None) -> str:
    """Why a name is refused, and the way to give a file of one's own instead."""
    shown = repr(name if len(name) <= 60 else name[:60] + "...")
    if looks_like_path(name):
        what = Message("[Variant] names a file, {name}", name=shown)
    else:
        what = Message("no {game} variant {name}", game=game_name, name=shown)
    if known is None:
        return Message("{what}: a record names variants by name; a variant file is given with --variant FILE on the command line", what=what)
    return Message(
        "{what}: a record names variants by name ({known}); a variant file is given with --variant FILE on the command line",
        what=what,
        known=", ".join(known) if known else Message("none"),
    )


def no_game_tag() -> RecordError:
    """A record without its [Game] tag, told with the games there are."""
    return RecordError(Message('missing [Game "..."] tag ({games})', games=", ".join(available_games())), Pos(1, 1))


def _pos_in(text: str, offset: int, length: int) -> Pos:
    """The line and column of a character of the text, spanning `length` characters."""
    line_start = text.rfind("\n", 0, offset) + 1
    column = offset - line_start + 1
    return Pos(text.count("\n", 0, offset) + 1, column, column + length)
