"""The replay loop shared by every game, and the reports it produces.

`check_bytes` takes a record as the user gave it and returns a `Report`,
whatever the input: unreadable records, broken specs and illegal moves all
become diagnostics with a position, never exceptions.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from referee.errors import Pos, RecordError, SpecError, Violation
from referee.games import load_game
from referee.games.base import State, Trace, missing_rule
from referee.spec.figures import NONE, written
from referee.notation.names import did_you_mean, names_of, spelling
from referee.notation.parser import MAX_RECORD_BYTES, VARIANT_TAG, Checkpoint, Move, Record, Result, Ruling, decode, game_of, parse
from referee.engine.players import Players, resolve as resolve_players
from referee.report.diagnostics import Diagnostic, Report, RulingNote, rank
from referee.engine.rulings import Refused, accept, copy_state
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


def check_bytes(data: bytes, name: str, variants: list[str] | tuple[str, ...] = (), stop_after: int | None = None,
                stop_line: int | None = None, watch: Watch | None = None, keep_going: bool = False, ledger: bool = False,
                open_end: bool = False) -> Report:
    """Replay a record and report on it.

    `stop_after` stops after that many moves, `stop_line` after the last entry on or before
    that line (no end-of-record step follows either stop); `watch` is told of the start, of
    every move replayed and of the end (see `Watch`). `keep_going` (check --keep-going)
    reports every problem instead of the first: an unreadable line is skipped, an illegal
    move is treated as void, and later diagnostics say which earlier problem they may follow
    from. `ledger` keeps the ledger behind every figure (`referee explain`); without it a
    contradicted checkpoint still gets the last changes of its figure, from a second replay
    that keeps one. `open_end` is for a record still being written (`referee record`): its end
    is not closed (`State.end_of_record`), so the state is the one the next line applies to.
    """
    report = Report(name)
    try:
        _replay(data, report, list(variants), stop_after, stop_line, watch, keep_going, ledger, open_end)
    except RecordError as exc:
        report.worsen("malformed")
        report.diagnostics.append(Diagnostic("error", exc.message, exc.pos))
    except SpecError as exc:
        report.worsen("invalid-spec")
        message = f"{exc.key}: {exc.message}" if exc.key else exc.message
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


def _replay(data: bytes, report: Report, variants: list[str], stop_after: int | None, stop_line: int | None = None,
            watch: Watch | None = None, keep_going: bool = False, ledger: bool = False, open_end: bool = False) -> None:
    text = decode(data)
    report.source = text
    if not text.strip():
        raise RecordError("empty record: it needs at least a [Game] tag and a [Players] tag", Pos(1, 1))
    found = game_of(text)
    if not found:
        raise RecordError('missing [Game "..."] tag (speicherstadt, canterbury or hamburgum)', Pos(1, 1))
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
    unreadable: list[RecordError] | None = [] if keep_going else None
    record = parse(text, report.name, game_name, game.build_move, unreadable, game.keywords())
    report.record = record
    replay = Replay(report, game, record, keep_going)
    for problem in unreadable or ():
        replay.unreadable(problem)
    _check_variant_tag(record, header_variants, game_name)
    seats, start = game.seats_from_header(record.header)
    resolve_players(record.entries, Players(seats))  # a player's name stands for their colour
    if ledger:  # a ledger is kept for `explain` and for contradicted figures only
        from referee.engine.ledger import Ledger, LedgerTrace

        state = game.new_state(seats, start, record.header, LedgerTrace())
        report.ledger = Ledger(state)
    else:
        state = game.new_state(seats, start, record.header, Trace())
    report.state = state
    if watch:
        watch("start", None, state)
    replay.run(stop_after, stop_line, watch, open_end)
    state = report.state
    if watch:
        watch("end", None, state)
    report.complete = state.is_over()
    report.standings = rank(state.standings())
    trace = state.trace
    for rule, message, pos in trace.warnings:
        report.diagnostics.append(Diagnostic("warning", message, pos, rule))
    report.relied_on = game.spec.relied_on(trace.rules_used, trace.values_used)
    report.record_facts = trace.record_facts
    if replay.diverged is not None:
        for d in report.diagnostics:
            if d.severity == "error" and d.pos and d.pos.line > replay.diverged:
                d.follows = replay.diverged


VOID_NOTE = "the move is treated as void: the replay goes on without it"


class Replay:
    """The replay of one record's entries: moves, rulings, checkpoints and the result.

    Without `keep_going` the first problem ends it. With it, each problem is reported and the
    replay goes on: an illegal move is treated as void, and `diverged` keeps the first line
    at which the replay left the record's course, so that later diagnostics can say that
    they may follow from it.
    """

    def __init__(self, report: Report, game, record: Record, keep_going: bool):
        self.report = report
        self.game = game
        self.record = record
        self.keep_going = keep_going
        self.diverged: int | None = None
        self.name = game.name
        self.watch: Watch | None = None
        self.move_lines = 0  # move lines so far, void ones included: move numbers count them

    @property
    def state(self) -> State:
        return self.report.state

    def violation(self, rule: str, message: str, pos: Pos | None) -> Diagnostic:
        if rule not in self.game.spec.rules:
            raise missing_rule(self.game.spec, rule)
        self.report.worsen("illegal")
        diagnostic = Diagnostic("error", message, pos, rule)
        self.report.diagnostics.append(diagnostic)
        return diagnostic

    def unreadable(self, problem: RecordError) -> None:
        """A line the notation cannot read (check --keep-going): reported and skipped. A skipped
        line other than a checkpoint, a result or a tag may have been a move or a ruling."""
        self.report.worsen("malformed")
        diagnostic = Diagnostic("error", problem.message, problem.pos, notes=["the line is skipped"])
        self.report.diagnostics.append(diagnostic)
        if problem.pos is not None:
            words = self.record.line(problem.pos.line).split()
            if words and words[0].lower() not in ("check", "result") and not words[0].startswith("["):
                self.diverge(problem.pos)

    def diverge(self, pos: Pos | None) -> None:
        if pos is not None and (self.diverged is None or pos.line < self.diverged):
            self.diverged = pos.line

    def void(self, diagnostic: Diagnostic, pos: Pos | None) -> None:
        diagnostic.notes.append(VOID_NOTE)
        self.diverge(pos)

    def run(self, stop_after: int | None, stop_line: int | None = None, watch: Watch | None = None, open_end: bool = False) -> None:
        """Replay the entries; `open_end` leaves the record's end open (see `check_bytes`)."""
        report, entries, name = self.report, self.record.entries, self.name
        self.watch = watch
        finished_by_result = False
        for index, entry in enumerate(entries):
            if stop_line is not None and entry.pos is not None and entry.pos.line > stop_line:
                report.replayed = True
                return  # no end-of-record step after a stop
            if isinstance(entry, Ruling):
                before = entries[index - 1] if index else None
                if not isinstance(before, Move):
                    what = "a checkpoint" if isinstance(before, Checkpoint) else "another ruling" if isinstance(before, Ruling) else "the result" if isinstance(before, Result) else "no move"
                    self.violation(f"{name}/ruling", f"a ruling decides on the move on the line before it, and this one follows {what}", entry.pos)
                    if not self.keep_going:
                        return
                continue
            if isinstance(entry, Move):
                if stop_after is not None and report.moves >= stop_after:
                    break
                report.position = entry.pos
                self.move_lines += 1
                ruling = entries[index + 1] if index + 1 < len(entries) and isinstance(entries[index + 1], Ruling) else None
                if self.state.is_over():
                    rule = f"{name}/game-over"
                    if ruling is not None and ruling.verdict == "void":
                        report.rulings.append(RulingNote("void", ruling.pos.line, entry.pos.line, [rule], ruling.text))
                        continue
                    d = self.violation(rule, "the game is already over; no more moves may follow", entry.pos)
                    if not self.keep_going:
                        return
                    self.void(d, entry.pos)
                    continue
                if entry.number is not None and entry.number != self.move_lines:
                    self.violation(f"{name}/move-number", f"move number {entry.number}, but this is move {self.move_lines}", entry.pos)
                    if not self.keep_going:
                        return
                if not self.move(entry, ruling):
                    return
            elif isinstance(entry, Checkpoint):
                if stop_after is not None and report.moves >= stop_after:
                    continue
                if not self.guarded(lambda: _checkpoint(self.state, entry, report, name), entry.pos):
                    return
            elif isinstance(entry, Result):
                if stop_after is not None:
                    continue
                self.end_of_record()
                if not self.state.is_over():
                    self.violation(f"{name}/result", "a result is stated but the game is not over", entry.pos)
                    if not self.keep_going:
                        return
                    continue
                if not self.guarded(lambda: _result(self.state, entry, report, name), entry.pos):
                    return
                finished_by_result = True
        if stop_after is None and not finished_by_result and not open_end:
            try:
                self.end_of_record()
            except Violation as v:
                self.violation(v.rule, v.message, v.pos)
        report.replayed = True

    def guarded(self, check, pos: Pos | None) -> bool:
        """Run a checkpoint's or the result's comparison; False when the replay must stop."""
        try:
            check()
        except Violation as v:
            self.violation(v.rule, v.message, v.pos or pos)
            return self.keep_going
        except RecordError as exc:
            if not self.keep_going:
                raise
            self.unreadable(exc)
        return True

    def end_of_record(self) -> None:
        state, book = self.state, self.report.ledger
        state.end_of_record()
        if book is not None:
            from referee.engine.ledger import END

            book.record(state, None, END)

    def move(self, move: Move, ruling: Ruling | None) -> bool:
        """Play one move as the record and its ruling say; False when the replay must stop."""
        report, book = self.report, self.report.ledger
        state = self.state
        before = copy_state(state) if ruling is not None and ruling.verdict == "void" else None
        try:
            state.apply(move)
        except Violation as v:
            if book is not None:
                book.discard(state)
            if ruling is None:
                d = self.violation(v.rule, v.message, v.pos or move.pos)
                if self.keep_going:
                    self.void(d, move.pos)
                return self.keep_going
            if ruling.verdict == "void":  # a refused move left the state as it was
                report.rulings.append(RulingNote("void", ruling.pos.line, move.pos.line, [v.rule], ruling.text))
                return True
            try:
                state, waived = accept(state, move, v)
            except Refused as why:
                d = self.violation(f"{self.name}/ruling", f"the ruling cannot be honoured: {why}", ruling.pos)
                if self.keep_going:
                    self.void(d, ruling.pos)
                return self.keep_going
            report.state = state
            report.rulings.append(RulingNote("accept", ruling.pos.line, move.pos.line, waived, ruling.text))
            report.moves += 1
            if self.watch:
                self.watch("move", move, state)
            if book is not None:
                book.record(state, move.pos.line, self.written(move.pos), ruling.pos.line)
            return True
        if ruling is not None:
            taken_back = ruling.verdict == "void"
            self.violation(f"{self.name}/ruling", f"ruling {ruling.verdict}, but the move on line {move.pos.line} breaks no rule" + ("; it is taken back all the same" if taken_back else ""), ruling.pos)
            if taken_back:
                report.state = before
                if book is not None:
                    book.discard(before)
            if not self.keep_going:
                return False
            if taken_back:
                return True
        report.moves += 1
        if self.watch:
            self.watch("move", move, state)
        if book is not None:
            book.record(state, move.pos.line, self.written(move.pos))
        return True

    def written(self, pos: Pos) -> str:
        """The move as the record writes it, without a comment after it."""
        line = self.record.line(pos.line)
        return line[pos.column - 1:pos.end_column - 1] if pos.end_column else line.strip()


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
    """The variants a record's [Variant] tag names, each one a variant its game ships.

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
    shown = name if len(name) <= 60 else name[:60] + "..."
    what = f"[Variant] names a file, {shown!r}" if looks_like_path(name) else f"no {game_name} variant {shown!r}"
    choice = f" ({', '.join(known) or 'none'})" if known is not None else ""
    return f"{what}: a record names variants by name{choice}; a variant file is given with --variant FILE on the command line"


def _pos_in(text: str, offset: int, length: int) -> Pos:
    """The line and column of a character of the text, spanning `length` characters."""
    line_start = text.rfind("\n", 0, offset) + 1
    column = offset - line_start + 1
    return Pos(text.count("\n", 0, offset) + 1, column, column + length)


def _checkpoint(state: State, cp: Checkpoint, report: Report, game_name: str) -> None:
    owner = state.seat(cp.player, cp.pos, f"{game_name}/checkpoint").colour
    figures = state.figures(cp.player, {fig.key for fig in cp.figures})
    for fig in cp.figures:
        if fig.key not in figures:
            figures = state.figures(cp.player)  # every one the message may name
            raise RecordError(f"unknown checkpoint figure {fig.key!r}{did_you_mean(fig.key, figures)}; known: {', '.join(sorted(figures))}", fig.pos)
        ours = figures[fig.key]
        stated = _stated(state.game, fig, ours)
        if (sorted(stated) == sorted(ours)) if isinstance(ours, list) else stated == ours:
            report.checkpoints_confirmed += 1
        else:
            report.worsen("illegal")
            report.diagnostics.append(
                Diagnostic("error", f"{cp.player} {fig.key} recorded as {written(stated)}, but the rules give {written(ours)}", fig.pos, f"{game_name}/checkpoint", figure=(owner, fig.key))
            )


def _stated(game, fig, ours):
    """A checkpoint's value in the form the rules give theirs: a number, or a list of ids. An
    empty list is written as the bare figure name or as `none`."""
    if not isinstance(ours, list):
        if not isinstance(fig.value, int):
            raise RecordError(f"checkpoint figure {fig.key!r} is a number; write it after the name, as in '{fig.key} 2'", fig.pos)
        return fig.value
    if isinstance(fig.value, int):
        raise RecordError(f"checkpoint figure {fig.key!r} lists words (such as goods), not a number", fig.pos)
    words = fig.value or []
    if words == [NONE]:
        return []
    return game.figure_words(fig.key, words, fig.where)


def _result(state: State, result: Result, report: Report, game_name: str) -> None:
    totals = {s.seat.colour: s.total for s in state.standings()}
    for colour, points, pos in result.scores:
        if colour not in totals:
            raise RecordError(f"result: {Players(state.seats).unknown(colour)}", pos)
        if totals[colour] != points:
            report.worsen("illegal")
            report.diagnostics.append(
                Diagnostic("error", f"result gives {colour} {points} points, but the final scoring gives {totals[colour]}", pos, f"{game_name}/result", figure=(colour, state.score_figure))
            )
        else:
            report.checkpoints_confirmed += 1
