"""Replaying a record move by move, with the situation the state reports before each move."""

from referee.engine.replay import check_bytes
from referee.games.base import Situation
from referee.notation.parser import Move


def walk(text: str, variants=()) -> tuple[list[tuple[Situation, Move]], Situation]:
    """Each move of a legal record with the situation just before it, and the situation after
    the last move. The record is replayed once, on the state `check_bytes` sets up."""
    report = check_bytes(text.encode(), "record.log", variants, stop_after=0)
    assert report.status == "legal", [d.message for d in report.diagnostics]
    state = report.state
    steps = []
    for entry in report.record.entries:
        if isinstance(entry, Move):
            steps.append((state.situation(), entry))
            state.apply(entry)
    return steps, state.situation()


def at(text: str, moves: int, variants=()) -> Situation:
    """The situation after the first `moves` moves of a record."""
    report = check_bytes(text.encode(), "record.log", variants, stop_after=moves)
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.moves == moves
    return report.state.situation()
