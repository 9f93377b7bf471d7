"""A record's positions: the state after a move, after a line, or just before the first error.

`show`, `moves` and `draw` look at one position of a record rather than at its verdict. A
user asks for it by move (`--at N`, counting moves) or by line (`--line N`, the line a
diagnostic names). On a record with an error the position shown is the one just before the
offending line, replayed afresh up to there: a rule refused the move on that line, so the
state after it is not a position of the game, and a record the parser cannot read is read
up to the line it stumbles on. The position then says which line it stops before.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.findings import Report
from referee.engine.replay import check_bytes
from referee.games.base import State
from referee.i18n import _


@dataclass
class Position:
    """A record replayed up to a point, for a view or a picture of that point."""

    report: Report  # the check of the record up to the point asked for: verdict and diagnostics
    state: State | None  # the position, None when none can be shown (broken data, an unreadable header)
    moves: int  # moves replayed to reach it
    line: int | None  # the line of the last move replayed, None before the first
    error_line: int | None = None  # the line with the first error, when the position stops before it

    @property
    def where(self) -> str:
        """Where the position stands, in words: "after move 12 (line 20)"."""
        if not self.moves:
            after = _("before the first move")
        elif self.line:
            after = _("after move {n} (line {line})").format(n=self.moves, line=self.line)
        else:
            after = _("after move {n}").format(n=self.moves)
        if self.error_line is not None:
            return _("before line {line}, the line with the first error; {after}").format(line=self.error_line, after=after)
        return after


class _LastLine:
    """Notes the line of the last move replayed."""

    def __init__(self) -> None:
        self.line: int | None = None

    def __call__(self, event: str, move, state) -> None:
        if event == "move" and move.pos is not None:
            self.line = move.pos.line


def find(data: bytes, name: str, variants: list[str], at: int | None = None, line: int | None = None) -> Position:
    """The position after move `at` or after the entry on `line` (default: the end of the record);
    on a record with an error before that point, the position just before the error's line."""
    last = _LastLine()
    report = check_bytes(data, name, variants, stop_after=at, stop_line=line, watch=last)
    if report.status in ("invalid-spec", "internal-error"):
        return Position(report, None, report.moves, last.line)
    lines = [d.pos.line for d in report.errors if d.pos is not None]
    if not lines:
        return Position(report, report.state, report.moves, last.line)
    first = min(lines)
    text = data if report.record is not None else lines_before(report.source, first)
    before = _LastLine()
    clean = check_bytes(text, name, variants, stop_after=at, stop_line=first - 1, watch=before)
    if clean.state is None or clean.status != "legal":
        return Position(report, None, report.moves, last.line)
    return Position(report, clean.state, clean.moves, before.line, first)


def lines_before(text: str, line: int) -> bytes:
    """The record's text up to (not including) a line, for a record that cannot be read whole."""
    return "\n".join(text.split("\n")[: line - 1]).encode("utf-8")
