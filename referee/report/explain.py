"""`referee explain`: how a figure came to be, change by change, to settle an argument.

The record is replayed as `check --keep-going` replays it (past its problems, honouring
its rulings), with a ledger (ledger.py); a session of `referee record` reads the ledger its
position keeps instead (`explained`). The figure's start value and every change up
to the line asked for are shown with the record line, the move as written, the amount
and the rule that made it; the sum closes the list, and each rule's page is linked once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.findings import Report
from referee.engine.ledger import MOVE_WIDTH, Change, Ledger, change_json, change_line
from referee.engine.replay import check_bytes
from referee.errors import UsageError
from referee.i18n import _, current, ngettext
from referee.report.diagnostics import format_diagnostic, rule_link
from referee.terminal import odd_letters, visible


@dataclass
class Explanation:
    """One figure's ledger: where it started, what it is at the line asked about, and each
    change between."""

    owner: str
    figure: str
    line: int | None  # None: the end of the record
    start: Any
    value: Any
    changes: list[Change]


def explain_bytes(data: bytes, name: str, variants: list[str], who: str, figure: str, line: int | None = None) -> tuple[Report, Explanation | None]:
    """Replay with a ledger and pick out one figure. Raises UsageError for a colour or figure
    the game does not have; the explanation is None when the record cannot be replayed."""
    if line is not None and line < 1:
        raise UsageError(_("--line takes a line number of 1 or more"))
    report = check_bytes(data, name, variants, keep_going=True, ledger=True)
    book, state = report.ledger, report.state
    if book is None or state is None or not report.replayed:
        return report, None
    last_line = len(report.record.lines) if report.record else 0
    return report, explained(book, state, who, figure, None if line is None or line >= last_line else line)


def explained(book: Ledger, state, who: str, figure: str, upto: int | None) -> Explanation:
    """One figure picked out of a ledger kept up to `state` (a replay's, or a session's
    position), up to a record line (None: all of it). Raises UsageError for a colour or figure
    the game does not have."""
    owner = _owner(state, who)
    known = state.figures(owner)
    key = figure.lower()
    if key not in known:
        raise UsageError(_("{owner} has no figure {figure}; figures: {known}").format(owner=owner, figure=repr(visible(figure)), known=", ".join(sorted(known))))
    start, changes = book.history(owner, key, upto)
    return Explanation(owner, key, upto, start, book.value(owner, key, upto), changes)


def _owner(state, who: str) -> str:
    """A colour, a player's name, or another owner a checkpoint may name (Canterbury's city)."""
    word = who.strip().lower()
    owners = state.figure_owners()
    if word in owners:
        return word
    for seat in state.seats:
        if seat.name and seat.name.lower() == word:
            return seat.colour
    raise UsageError(_("no player {who}{odd} in this game; one of: {owners}").format(who=repr(visible(who)), odd=odd_letters(who), owners=", ".join(owners)))


def _words(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(value) or _("nothing")
    return str(value)


def format_explanation(report: Report, ex: Explanation) -> str:
    where = _("at line {line}").format(line=ex.line) if ex.line is not None else _("at the end of the record")
    out = [f"{visible(report.name)}: {ex.owner} {ex.figure} {where}: {visible(_words(ex.value))}"]
    if report.status != "legal":
        problems = len(report.errors)
        out.append(
            ngettext(
                "note: the record has {n} problem (referee check --keep-going lists them); this ledger follows the replay past them",
                "note: the record has {n} problems (referee check --keep-going lists them); this ledger follows the replay past them",
                problems,
            ).format(n=problems)
        )
    start = _("start")
    out.append(f"  {start:>9}  {'':<{MOVE_WIDTH}} {visible(_words(ex.start)):>6}")
    out.extend(change_line(c) for c in ex.changes)
    out.append(f"  {'=':>9}  {'':<{MOVE_WIDTH}} {visible(_words(ex.value)):>6}")
    rules = list(dict.fromkeys(r for c in ex.changes for r in c.rules))
    if rules:
        out.append(_("see:"))
        width = max(len(r) for r in rules)
        out.extend(f"  {r:<{width}}  {rule_link(r, current())}" for r in rules)
    return "\n".join(out)


def explanation_json(report: Report, ex: Explanation) -> dict:
    rules = list(dict.fromkeys(r for c in ex.changes for r in c.rules))
    return {
        "file": report.name,
        "status": report.status,
        "exit_code": report.exit_code,
        "game": report.game,
        "owner": ex.owner,
        "figure": ex.figure,
        "line": ex.line,
        "start": ex.start,
        "value": ex.value,
        "changes": [change_json(c) for c in ex.changes],
        "see": {r: rule_link(r) for r in rules},
    }


def cannot_explain(report: Report) -> str:
    """Why no ledger could be kept: the record's own diagnostics."""
    lines = [format_diagnostic(report, d) for d in report.errors]
    return "\n".join(lines + [_("{file}: the record cannot be replayed, so no figure can be explained").format(file=report.name)])
