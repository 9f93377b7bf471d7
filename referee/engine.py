"""The replay loop shared by every game, and the reports it produces.

`check_bytes` takes a record as the user gave it and returns a `Report`,
whatever the input: unreadable records, broken specs and illegal moves all
become diagnostics with a position, never exceptions.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path
from typing import Callable

from .errors import Pos, RecordError, SpecError, Violation
from .games import load_game
from .games.base import State, Trace, missing_rule
from .notation import MAX_RECORD_BYTES, VARIANT_TAG, Checkpoint, Move, Record, Result, decode, game_of, parse
from .report import Diagnostic, Report, rank
from .spec import available_games, looks_like_path, specs_root, variant_names

# What a game's set-up raises on data that passed its schemas but that it cannot use (a missing
# entry, a value of the wrong kind, an empty list where one item is needed): invalid data, exit 4.
SETUP_ERRORS = (LookupError, TypeError, ValueError, AttributeError, StopIteration, ArithmeticError)


def setup_error(game_dir: Path, exc: BaseException) -> SpecError:
    """Data a game cannot set itself up with, as a spec error (exit 4). The message is never
    empty: a StopIteration has no text of its own and a KeyError only the key, so the line of
    the game module that failed is named too, as a pointer to the data it was reading."""
    detail = str(exc).strip() or ("nothing in the data matched what the rules look for" if isinstance(exc, StopIteration) else "no detail")
    return SpecError(game_dir, "", f"the {game_dir.name} rules cannot use this data: {type(exc).__name__}: {detail}{_raised_at(exc)}")


GAMES_DIR = Path(__file__).resolve().parent / "games"


def _raised_at(exc: BaseException) -> str:
    """The last line of a game module (not the loader of games) that the error passed through."""
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
    import sys

    if path == "-":
        return sys.stdin.buffer.read(MAX_RECORD_BYTES + 1), "<stdin>"
    with open(path, "rb") as fh:
        return fh.read(MAX_RECORD_BYTES + 1), path


def check_bytes(data: bytes, name: str, variants: list[str] | tuple[str, ...] = (), stop_after: int | None = None,
                stop_line: int | None = None, watch: Watch | None = None) -> Report:
    """Replay a record. `stop_after` stops after that many moves, `stop_line` after the last
    entry on or before that line (no end-of-record step follows either stop); `watch` is told
    of the start, of every move replayed and of the end (see `Watch`)."""
    report = Report(name)
    try:
        _replay(data, report, list(variants), stop_after, stop_line, watch)
    except RecordError as exc:
        report.status = "malformed"
        report.diagnostics.append(Diagnostic("error", exc.message, exc.pos))
    except SpecError as exc:
        report.status = "invalid-spec"
        message = f"{exc.key}: {exc.message}" if exc.key else exc.message
        report.diagnostics.append(Diagnostic("error", message, None, file=exc.where))
    except Exception as exc:  # a bug in the referee: report it like any diagnostic
        report.status = "internal-error"
        report.diagnostics.append(Diagnostic("error", f"internal error: {type(exc).__name__}: {exc}", report.position))
    return report


# Told of a replay as it goes: ("start", None, state) once the game is set up, ("move", move,
# state) after each move the rules accept, ("end", None, state) once the replay is over.
Watch = Callable[[str, "Move | None", State], None]


def _replay(data: bytes, report: Report, variants: list[str], stop_after: int | None, stop_line: int | None = None, watch: Watch | None = None) -> None:
    text = decode(data)
    report.source = text
    if not text.strip():
        raise RecordError("empty record: it needs at least a [Game] tag and a [Players] tag", Pos(1, 1))
    found = game_of(text)
    if not found:
        raise RecordError('missing [Game "..."] tag (speicherstadt, canterbury or hamburgum)', Pos(1, 1))
    game_name, game_pos = found
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
    record = parse(text, report.name, game_name, game.build_move)
    report.record = record
    _check_variant_tag(record, header_variants, game_name)
    seats, start = game.seats_from_header(record.header)
    trace = Trace()
    state = game.new_state(seats, start, record.header, trace)
    report.state = state
    rules = game.spec.rules
    if watch:
        watch("start", None, state)

    def violation(rule: str, message: str, pos: Pos | None) -> None:
        if rule not in rules:
            raise missing_rule(game.spec, rule)
        report.status = "illegal"
        report.diagnostics.append(Diagnostic("error", message, pos, rule))

    finished_by_result = False
    stopped = False
    for entry in record.entries:
        if stop_line is not None and entry.pos is not None and entry.pos.line > stop_line:
            stopped = True
            break
        if isinstance(entry, Move):
            if stop_after is not None and report.moves >= stop_after:
                break
            report.position = entry.pos
            if state.is_over():
                violation(f"{game_name}/game-over", "the game is already over; no more moves may follow", entry.pos)
                break
            expected = report.moves + 1
            if entry.number is not None and entry.number != expected:
                violation(f"{game_name}/move-number", f"move number {entry.number}, but this is move {expected}", entry.pos)
                break
            try:
                state.apply(entry)
            except Violation as v:
                violation(v.rule, v.message, v.pos or entry.pos)
                break
            report.moves += 1
            if watch:
                watch("move", entry, state)
        elif isinstance(entry, Checkpoint):
            if stop_after is not None and report.moves >= stop_after:
                continue
            try:
                _checkpoint(state, entry, report, game_name)
            except Violation as v:
                violation(v.rule, v.message, v.pos or entry.pos)
                break
        elif isinstance(entry, Result):
            if stop_after is not None:
                continue
            state.end_of_record()
            if not state.is_over():
                violation(f"{game_name}/result", "a result is stated but the game is not over", entry.pos)
                break
            _result(state, entry, report, game_name)
            finished_by_result = True
    if report.status != "illegal" and stop_after is None and not stopped and not finished_by_result:
        try:
            state.end_of_record()
        except Violation as v:
            violation(v.rule, v.message, v.pos)
    if watch:
        watch("end", None, state)
    report.complete = state.is_over()
    report.standings = rank(state.standings())
    for rule, message, pos in trace.warnings:
        report.diagnostics.append(Diagnostic("warning", message, pos, rule))
    report.relied_on = game.spec.relied_on(trace.rules_used, trace.values_used)
    report.record_facts = trace.record_facts


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
    state.seat(cp.player, cp.pos, f"{game_name}/checkpoint")
    figures = state.figures(cp.player)
    for fig in cp.figures:
        if fig.key not in figures:
            raise RecordError(f"unknown checkpoint figure {fig.key!r}; known: {', '.join(sorted(figures))}", fig.pos)
        ours = figures[fig.key]
        stated = fig.value
        if isinstance(ours, list):
            if isinstance(stated, int):
                raise RecordError(f"checkpoint figure {fig.key!r} lists words (such as goods), not a number", fig.pos)
            same = sorted(stated or []) == sorted(ours)
            shown = " ".join(sorted(ours)) or "nothing"
        else:
            same = stated == ours
            shown = str(ours)
        if same:
            report.checkpoints_confirmed += 1
        else:
            written = " ".join(stated) if isinstance(stated, list) else ("nothing" if stated is None else str(stated))
            report.status = "illegal"
            report.diagnostics.append(
                Diagnostic("error", f"{cp.player} {fig.key} recorded as {written}, but the rules give {shown}", fig.pos, f"{game_name}/checkpoint")
            )


def _result(state: State, result: Result, report: Report, game_name: str) -> None:
    totals = {s.seat.colour: s.total for s in state.standings()}
    for colour, points, pos in result.scores:
        if colour not in totals:
            raise RecordError(f"the result names {colour!r}, who is not seated", pos)
        if totals[colour] != points:
            report.status = "illegal"
            report.diagnostics.append(
                Diagnostic("error", f"result gives {colour} {points} points, but the final scoring gives {totals[colour]}", pos, f"{game_name}/result")
            )
        else:
            report.checkpoints_confirmed += 1
