"""referee: rules specification and referee for three board games played on a real table.

The library drives one engine, one entry at a time::

    import referee

    record, game = referee.read_record(text, name="night.log")   # header + entries, game loaded
    position = referee.Position(game, record.header)             # before any move
    outcome = position.apply(record.entries[0])                  # legal, or the rule it breaks
    decided = position.apply(ruling)                             # a ruling decides on the entry before it
    position.legal_moves(); position.next_words("blue: full build ")
    mark = position.snapshot(); ...; position.restore(mark)      # trials, undo, search
    report = referee.replay(record, game)                        # a Report, built by a visitor

A ruling (`ruling accept`, `void`, `adopt`) is an entry like the others: applied after a
move the rules refused or a checkpoint they contradicted, it returns that entry's outcome as
the table decided it. `replay` tells a `Visitor` of each entry with its `Outcome` (python-chess's
`pgn.BaseVisitor` is the model); `ReportBuilder`, the default, builds the `Report` that
`referee check` prints. Every error the library raises is a `RefereeError` carrying the
exit code the command line gives it.
"""

from referee.engine.findings import Diagnostic, Report
from referee.engine.position import Mark, Outcome, Position, Verdict
from referee.engine.reading import read_entry, read_record
from referee.engine.replay import ReportBuilder, Tee, Visitor, check_bytes, record_variants, replay
from referee.errors import RecordError, RefereeError, SpecError, Status, UsageError, Violation
from referee.games import load_game

__version__ = "0.1.0"

__all__ = [
    "Diagnostic",
    "Mark",
    "Outcome",
    "Position",
    "RecordError",
    "RefereeError",
    "Report",
    "ReportBuilder",
    "SpecError",
    "Status",
    "Tee",
    "UsageError",
    "Verdict",
    "Violation",
    "Visitor",
    "check_bytes",
    "load_game",
    "read_entry",
    "read_record",
    "record_variants",
    "replay",
]
