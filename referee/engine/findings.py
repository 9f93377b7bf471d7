"""What a replay finds: the `Report` the engine fills as it goes through a record, its
diagnostics (each problem or remark with where it is and the rule it names), the rulings it
honoured, and the standings ranked by the game's tie-breaks. How a report is shown (text,
JSON) is `referee.report`'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.errors import Pos, Status
from referee.games.base import Seat, Standing, State
from referee.i18n import N_
from referee.notation.parser import Record
from referee.spec.loader import Provenance

if TYPE_CHECKING:  # a check keeps a ledger only when a figure is contradicted
    from referee.engine.ledger import Change, Ledger


# the notes of a problem the replay reads past (`check --keep-going`), told in the reader's
# language where they are shown (report.diagnostics)
VOID_NOTE = N_("the move is treated as void: the replay goes on without it")
SKIPPED_NOTE = N_("the line is skipped")


@dataclass
class Diagnostic:
    """One problem or remark of a check, with where it is and the rule it names."""

    severity: str  # error | warning | note
    message: str
    pos: Pos | None = None
    rule: str | None = None
    file: str | None = None  # a spec file, for spec errors
    notes: list[str] = field(default_factory=list)  # what the replay did about it (check --keep-going)
    follows: int | None = None  # the line of an earlier problem this one may follow from
    figure: tuple[str, str] | None = None  # (owner, figure) of a contradicted checkpoint figure
    ledger: list[Change] = field(default_factory=list)  # that figure's last changes before it
    repair: str | None = None  # the edit that makes the record read on (check --keep-going)


@dataclass
class RulingNote:
    """A ruling the referee honoured: which move, what the table decided, the rules concerned."""

    verdict: str  # accept | void | adopt
    line: int
    move_line: int  # the move's line, or the checkpoint's (adopt)
    rules: list[str]  # the rules set aside (accept), or the rule the move broke (void)
    text: str | None = None
    adopted: str | None = None  # the figures the table wrote and the referee took (adopt)


@dataclass(eq=False)  # a report is never compared with another
class Report:
    """What a check found out about one record: its verdict, diagnostics, standings and sources."""

    name: str
    status: Status = Status.LEGAL
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
    rulings: list[RulingNote] = field(default_factory=list)
    replayed: bool = False  # the replay went through the record (with --keep-going, past its problems)
    ledger: Ledger | None = None
    repairs: list = field(default_factory=list)  # engine.repair.Repair, with --keep-going

    def worsen(self, status: Status | str) -> None:
        """Take on a status if it is worse than the present one: the exit code is the worst problem's."""
        self.status = self.status.worse(status)

    @property
    def exit_code(self) -> int:
        return self.status.exit_code

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def winners(self) -> list[Seat]:
        return [s.seat for s in self.standings if s.rank == 1] if self.complete else []


def rank(standings: list[Standing]) -> list[Standing]:
    """Order by points, then by the game's tie-breaks; equal keys share a rank."""

    def key(s: Standing):
        return (s.total, *(sign * value for _label, value, sign in s.tiebreak))

    ordered = sorted(standings, key=key, reverse=True)
    for i, s in enumerate(ordered):
        s.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(s) else i + 1
    return ordered
