"""The replay loop shared by every game, and the reports it produces.

`check_bytes` takes a record as the user gave it and returns a `Report`,
whatever the input: unreadable records, broken specs and illegal moves all
become diagnostics with a position, never exceptions.
"""

from __future__ import annotations

import os
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import EXIT_INTERNAL, EXIT_MALFORMED, EXIT_OK, EXIT_SPEC, EXIT_VIOLATION, Pos, RecordError, SpecError, Violation
from .games import load_game
from .games.base import Seat, Standing, State, Trace, missing_rule
from .notation import MAX_RECORD_BYTES, VARIANT_TAG, Checkpoint, Move, Record, Result, decode, game_of, parse
from .spec import Provenance, available_games, data_root, looks_like_path, specs_root, variant_names

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


@dataclass
class Diagnostic:
    severity: str  # error | warning | note
    message: str
    pos: Pos | None = None
    rule: str | None = None
    file: str | None = None  # a spec file, for spec errors


@dataclass
class Report:
    name: str
    status: str = "legal"  # legal | illegal | malformed | invalid-spec | internal-error
    game: str | None = None
    variants: list[str] = field(default_factory=list)
    complete: bool = False
    moves: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    relied_on: list[Provenance] = field(default_factory=list)
    record_facts: list[tuple[str, Pos | None]] = field(default_factory=list)
    checkpoints_confirmed: int = 0
    record: Record | None = None
    source: str = ""  # the record's text, quoted under a diagnostic even when it cannot be parsed
    state: State | None = None
    position: Pos | None = None  # the entry being replayed, for internal-error reports

    @property
    def exit_code(self) -> int:
        return {
            "legal": EXIT_OK,
            "illegal": EXIT_VIOLATION,
            "malformed": EXIT_MALFORMED,
            "invalid-spec": EXIT_SPEC,
            "internal-error": EXIT_INTERNAL,
        }[self.status]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def winners(self) -> list[Seat]:
        return [s.seat for s in self.standings if s.rank == 1] if self.complete else []


def rank(standings: list[Standing]) -> list[Standing]:
    """Order by points, then by the game's tie-breaks; equal keys share a rank."""

    def key(s: Standing):
        return (s.total, *(sign * value for _, value, sign in s.tiebreak))

    ordered = sorted(standings, key=key, reverse=True)
    for i, s in enumerate(ordered):
        s.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(s) else i + 1
    return ordered


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


def check_bytes(data: bytes, name: str, variants: list[str] | tuple[str, ...] = (), stop_after: int | None = None) -> Report:
    report = Report(name)
    try:
        _replay(data, report, list(variants), stop_after)
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


def _replay(data: bytes, report: Report, variants: list[str], stop_after: int | None) -> None:
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

    def violation(rule: str, message: str, pos: Pos | None) -> None:
        if rule not in rules:
            raise missing_rule(game.spec, rule)
        report.status = "illegal"
        report.diagnostics.append(Diagnostic("error", message, pos, rule))

    finished_by_result = False
    for entry in record.entries:
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
    if report.status != "illegal" and stop_after is None and not finished_by_result:
        try:
            state.end_of_record()
        except Violation as v:
            violation(v.rule, v.message, v.pos)
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


# --- rendering --------------------------------------------------------------------


def docs_base() -> str:
    """Where the rulebook site is: $REFEREE_DOCS_URL, else the `site/` that `mkdocs build` writes."""
    base = os.environ.get("REFEREE_DOCS_URL")
    if base:
        return base.rstrip("/")
    return (Path(data_root()) / "site").as_uri()


def rule_link(rule: str) -> str:
    """The rule's heading on its game's rules page (mkdocs.yml builds plain file names: rules.html)."""
    game, _, anchor = rule.partition("/")
    return f"{docs_base()}/{game}/rules.html#{anchor}"


def format_diagnostic(report: Report, d: Diagnostic) -> str:
    if d.file:
        return f"{d.file}: {d.severity}: {d.message}"
    pos = d.pos or Pos(1, 1)
    tag = f"{d.severity}[{d.rule}]" if d.rule else d.severity
    out = [f"{report.name}:{pos.line}:{pos.column}: {tag}: {d.message}"]
    if report.record is not None or d.pos is not None:
        source = report.record.line(pos.line) if report.record else _line_of(report.source, pos.line)
        if source.strip() and pos.column <= len(source) + 1:
            gutter = f"{pos.line:>5}"
            out.append(f"{gutter} | {source}")
            # a rule violation spans its move; a reading error marks where reading stopped
            rest = len(source) + 1 if d.rule else pos.column + 1
            width = max(1, (pos.end_column or rest) - pos.column)
            out.append(f"{' ' * len(gutter)} | {' ' * (pos.column - 1)}^{'~' * (width - 1)}")
    if d.rule:
        out.append(f"see: {rule_link(d.rule)}")
    return "\n".join(out)


def _line_of(text: str, number: int) -> str:
    lines = text.split("\n", number)
    return lines[number - 1] if 0 < number <= len(lines) else ""


def format_standings(report: Report) -> list[str]:
    out = []
    for s in report.standings:
        parts = ", ".join(f"{k} {v}" for k, v in s.breakdown.items() if v)
        ties = ", ".join(f"{label} {value}" for label, value, _ in s.tiebreak)
        out.append(f"  {s.rank}. {s.seat.label:<18} {s.total:>4} points   {parts or 'no points'}" + (f"   [{ties}]" if ties else ""))
    return out


def tie_note(report: Report) -> str | None:
    """Say how a tie on points was broken, when one was."""
    if not report.standings:
        return None
    top = report.standings[0].total
    tied = [s for s in report.standings if s.total == top]
    if len(tied) < 2:
        return None
    labels = [label for label, _, _ in tied[0].tiebreak]
    winners = [s for s in tied if s.rank == 1]
    names = ", ".join(s.seat.colour for s in tied)
    if len(winners) == len(tied):
        return f"tie-break: {names} tied on {top} points and on {', '.join(labels) or 'every tie-break'}; they share the win"
    detail = "; ".join(f"{s.seat.colour} " + ", ".join(f"{l} {v}" for l, v, _ in s.tiebreak) for s in tied)
    return f"tie-break: {names} tied on {top} points; decided by {', '.join(labels)} ({detail})"


def format_report(report: Report) -> str:
    out = []
    for d in report.diagnostics:
        if d.severity == "error":
            out.append(format_diagnostic(report, d))
    verdicts = {
        "legal": "legal",
        "illegal": "ILLEGAL",
        "malformed": "MALFORMED record",
        "invalid-spec": "INVALID spec data",
        "internal-error": "INTERNAL ERROR",
    }
    if report.status in ("malformed", "invalid-spec", "internal-error"):
        out.append(f"{report.name}: {verdicts[report.status]}")
        return "\n".join(out)
    progress = "game complete" if report.complete else "game unfinished"
    variants = f", variants: {', '.join(report.variants)}" if report.variants else ""
    out.append(f"{report.name}: {verdicts[report.status]} ({report.game}{variants}; {report.moves} moves, {progress}; {report.checkpoints_confirmed} recorded figures confirmed)")
    if report.status == "illegal" and not report.complete:
        out.append("standings when the replay stopped:")
    elif report.complete:
        out.append("final standings:")
    else:
        out.append("standings so far (the record stops before the game ends):")
    out.extend(format_standings(report))
    if report.complete and report.status == "legal":
        names = " and ".join(s.label for s in report.winners)
        out.append(f"winner: {names}")
        note = tie_note(report)
        if note:
            out.append(note)
    warnings = [d for d in report.diagnostics if d.severity == "warning"]
    if warnings:
        out.append("rules not checked for missing data:")
        for d in warnings:
            out.append(f"  warning[{d.rule}]: {d.message}")
    if report.relied_on:
        out.append("this verdict relies on uncertain spec values (check them against your box):")
        for p in report.relied_on:
            shown = "not known" if p.status == "unknown" else _short(p.value)
            out.append(f"  {p.status:<11} {p.address} = {shown}  ({p.note})")
    if report.record_facts:
        out.append(f"facts taken from the record rather than the spec ({len(report.record_facts)}):")
        summary: dict[str, int] = {}
        for text, _ in report.record_facts:
            summary[text] = summary.get(text, 0) + 1
        for text, count in summary.items():
            out.append(f"  {count} x {text}")
    return "\n".join(out)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def report_json(report: Report) -> dict:
    return {
        "file": report.name,
        "status": report.status,
        "exit_code": report.exit_code,
        "game": report.game,
        "variants": report.variants,
        "moves": report.moves,
        "complete": report.complete,
        "checkpoints_confirmed": report.checkpoints_confirmed,
        "diagnostics": [
            {
                "severity": d.severity,
                "rule": d.rule,
                "message": d.message,
                "line": d.pos.line if d.pos else None,
                "column": d.pos.column if d.pos else None,
                "end_column": d.pos.end_column if d.pos else None,  # the marked span ends before it
                "spec": d.file,
                "see": rule_link(d.rule) if d.rule else None,
            }
            for d in report.diagnostics
        ],
        "standings": [
            {
                "rank": s.rank,
                "player": s.seat.colour,
                "name": s.seat.name,
                "total": s.total,
                "breakdown": s.breakdown,
                "tiebreak": {label: value for label, value, _ in s.tiebreak},
            }
            for s in report.standings
        ],
        "winners": [s.colour for s in report.winners],
        "relies_on": [{"address": p.address, "status": p.status, "value": p.value, "note": p.note} for p in report.relied_on],
        "record_facts": [{"fact": t, "line": p.line if p else None} for t, p in report.record_facts],
    }
