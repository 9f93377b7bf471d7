"""The commands that show a position to a person: `show`, `draw` and `replay`.

Each takes a record's bytes from the command line (`cli.py` reads the file) and looks at one
position (`positions.find`) or at all of them (`replay`). On a record with an error, the
diagnostics go to standard error, the position shown is the one just before the offending
line, and the exit code is the record's verdict: a picture of an illegal record never exits 0.
"""

from __future__ import annotations

from pathlib import Path

from referee.cli import output
from referee.cli.output import say, warn
from referee.engine.positions import Position, find
from referee.errors import UsageError
from referee.games.base import quietly
from referee.i18n import _, ngettext
from referee.pictures.position import draw_position
from referee.report.diagnostics import format_errors, format_report
from referee.terminal import readable_name


def position_of(args, data: bytes, name: str) -> Position:
    """The position `--at N` or `--line N` asks for; its state is None (and the report printed)
    when the record or the data allow none."""
    at, line = getattr(args, "at", None), getattr(args, "line", None)
    if at is not None and at < 0:
        raise UsageError(_("--at takes a move number of 0 or more"))
    if line is not None and line < 1:
        raise UsageError(_("--line takes a line number of 1 or more"))
    position = find(data, name, args.variant, at=at, line=line)
    report = position.report
    if position.state is None:
        warn(format_report(report))
        return position
    if at is not None and report.moves < at and report.status == "legal":
        raise UsageError(ngettext("the record has only {n} move", "the record has only {n} moves", report.moves).format(n=report.moves))
    for shown in format_errors(report):  # why the position stops where it does, in every format
        warn(shown)
    output.verdict(report.exit_code)
    return position


def show(args, data: bytes, name: str) -> int:
    position = position_of(args, data, name)
    if position.state is None:
        return position.report.exit_code
    report, state = position.report, position.state
    if args.format == "text":
        from referee.report.show import render

        say(render(position))
        return report.exit_code
    with quietly(state):
        situation = state.situation()
        described = state.describe()
    summary = {
        "file": report.name,
        "game": report.game,
        "after_move": position.moves,
        "line": position.line,
        "before_error_line": position.error_line,
        "status": report.status,
        "situation": {"round": situation.round, "phase": situation.phase, "to_act": situation.to_act, "pending": situation.pending, "over": situation.over},
        "state": described,
    }
    if args.format == "json":
        say(output.dumps(summary))
    else:
        import yaml

        say(_("{file}: state {where} ({status})").format(file=report.name, where=position.where, status=report.status))
        say(yaml.safe_dump(summary["state"], sort_keys=False, allow_unicode=True, width=100).rstrip())
    return report.exit_code


def draw(args, data: bytes, name: str) -> int:
    position = position_of(args, data, name)
    if position.state is None:
        return position.report.exit_code
    state = position.state
    with quietly(state):
        picture = draw_position(state, f"{Path(position.report.name).name}, {position.where}").tostring()
    write(args.out, picture + "\n")
    return position.report.exit_code


def write(out: str | None, text: str) -> None:
    """A document (SVG, HTML) to a file, or to standard output when no file is named."""
    if not out or out == "-":
        output.emit(text)
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(out), reason=exc.strerror or exc)) from None


def replay(args, data: bytes, name: str) -> int:
    from referee.pictures.replay_page import build

    page, report = build(data, name, args.variant)
    for shown in format_errors(report):
        warn(shown)
    if page is None:
        warn(format_report(report))
        return report.exit_code
    output.verdict(report.exit_code)
    write(args.out, page)
    return report.exit_code
