"""A position of a game in progress that takes one entry of a record at a time.

This is the engine every caller drives: the replay of a record (`referee.replay`), the
recorder, the server, the repair and the lab. A `Position` is made from a record's header
(`Game.start`), and `apply` takes one entry (a move, a checkpoint, the result, a ruling) and
returns its `Outcome`: what the rules said of it, as diagnostics, and whether the position
moved on. A refused move leaves the position as it was, so a caller may try another
(`snapshot` and `restore` serve trials and undo, the ledger and the rulings so far too).

A ruling is an entry of its own: the position keeps the entry applied last, and a ruling
applied next decides on it and returns that entry's outcome as decided. On a move the rules
refused, `ruling accept` plays it with the rules it breaks set aside (rulings.py) and `ruling
void` leaves it out; on a checkpoint they contradicted, `ruling adopt` takes the table's
figures. A ruling on a move the rules accepted is an error, and `void` takes that move back
all the same when the position before it was kept (`apply(move, ruling_follows=True)`, which
the replay of a record gives where a ruling follows). A ruling after no move, the result or
another ruling decides nothing. `apply(entry, ruling)` gives a ruling with its entry at once.

The position never stops by itself and never prints: what to do after a problem (stop, go
on, propose a repair) is the caller's choice.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from referee.copying import copy_state
from referee.engine.findings import Diagnostic, RulingNote
from referee.engine.players import resolve as resolve_players
from referee.engine.rulings import Refused, accept
from referee.errors import Pos, RecordError, Violation
from referee.games.base import Players, State, Trace, missing_rule
from referee.i18n import Message
from referee.notation.colours import colour_named
from referee.notation.names import did_you_mean
from referee.notation.parser import Checkpoint, Header, Move, Record, Result, Ruling
from referee.spec.figures import NONE, written

if TYPE_CHECKING:
    from referee.games.base import Game


class Verdict(enum.StrEnum):
    """What the rules said of one entry."""

    LEGAL = "legal"  # played, or a checkpoint whose figures all agree
    ILLEGAL = "illegal"  # a rule refused it, or a figure the rules contradict
    UNREADABLE = "unreadable"  # a checkpoint naming a figure or player that does not exist


@dataclass
class Outcome:
    """What one entry did to a position: the diagnostics it drew, whether the position moved on
    (`played`), the ruling honoured on it and how many recorded figures it confirmed."""

    entry: Any
    diagnostics: list[Diagnostic] = field(default_factory=list)
    played: bool = False
    ruling: RulingNote | None = None
    confirmed: int = 0
    taken_back: bool = False  # a legal move the table's `ruling void` took back
    unreadable: RecordError | None = None

    @property
    def verdict(self) -> Verdict:
        if self.unreadable is not None:
            return Verdict.UNREADABLE
        return Verdict.ILLEGAL if any(d.severity == "error" for d in self.diagnostics) else Verdict.LEGAL

    @property
    def legal(self) -> bool:
        return self.verdict is Verdict.LEGAL


@dataclass(frozen=True)
class Mark:
    """A position saved by `Position.snapshot`, to go back to with `Position.restore`."""

    state: State
    moves: int
    move_lines: int
    over_noted: bool
    ledger: int | None = None  # the entries its ledger had taken (`Ledger.size`), if it kept one
    rulings: tuple[RulingNote, ...] = ()
    confirmed: int = 0


@dataclass
class _Tried:
    """What became of a move as the rules saw it, for a ruling on it: `over` (the game had
    ended), `number` (a wrong move number: not played), `refused` (the rule it broke), or
    `played` (with the position before it, when kept)."""

    kind: str
    diagnostic: Diagnostic | None = None
    violation: Violation | None = None
    before: Mark | None = None


@dataclass
class _Last:
    """The entry applied last, which a ruling typed next decides on."""

    entry: Any
    outcome: Outcome | None
    tried: _Tried | None = None


class Position:
    """A game in progress, driven one entry at a time.

    `record` is the record the entries come from, when there is one: the ledger quotes each
    move as that record writes it. With `ledger`, every change of every figure is kept with
    its line and rule (`referee explain`). `rulings` are the rulings honoured so far and
    `confirmed` the recorded figures confirmed so far, as a check reports them.
    """

    def __init__(self, game: Game, header: Header, record: Record | None = None, ledger: bool = False):
        self.game = game
        self.header = header
        self.record = record
        seats, start = game.seats_from_header(header)
        self.players = Players(seats)
        self.book = None
        if ledger:  # kept for `explain` and for contradicted figures only
            from referee.engine.ledger import Ledger, LedgerTrace

            self.state = game.new_state(seats, start, header, LedgerTrace())
            self.book = Ledger(self.state)
        else:
            self.state = game.new_state(seats, start, header, Trace())
        self.moves = 0  # moves played
        self.move_lines = 0  # move lines met, refused ones included: move numbers count them
        self.closed = False
        self.rulings: list[RulingNote] = []
        self.confirmed = 0
        self._last: _Last | None = None  # what a ruling typed next decides on

    @classmethod
    def at(cls, game: Game, state: State, header: Header, record: Record | None = None, moves: int = 0, move_lines: int = 0, book=None, rulings=(), confirmed: int = 0) -> Position:
        """A position around a state already set up and played to (a session that goes on from
        where its file ends); `state` becomes the position's own, and so does `book`, the
        ledger kept on the way to it (a `LedgerTrace` in the state goes with it)."""
        position = cls.__new__(cls)
        position.game, position.header, position.record, position.book = game, header, record, book
        position.players = Players(state.seats)
        position.state, position.moves, position.move_lines, position.closed = state, moves, move_lines, False
        position.rulings, position.confirmed, position._last = list(rulings), confirmed, None
        return position

    # --- questions ---------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.state.is_over()

    def legal_moves(self) -> list[Move]:
        return self.game.legal_moves(self.state)

    def next_words(self, text: str) -> list[str]:
        """The words that may follow `text` (a move's first words) in a legal move."""
        return self.game.next_words(self.state, text.split())

    def figures(self, owner: str, keys=None) -> dict:
        """The referee's own figures of a player (or of the city, the neutral...), as a
        checkpoint states them: by figure name, only `keys` when given."""
        return self.state.figures(owner, keys)

    def standings(self):
        from referee.engine.findings import rank

        return rank(self.state.standings())

    # --- trials and undo ---------------------------------------------------------------------

    def snapshot(self) -> Mark:
        """The position as it is now, to come back to (a trial, an undo, a search)."""
        book = self.book
        return Mark(copy_state(self.state), self.moves, self.move_lines, self.closed, None if book is None else book.size, tuple(self.rulings), self.confirmed)

    def restore(self, mark: Mark) -> None:
        """Back to a snapshot, the ledger too; the snapshot stays usable for another restore.
        A position that keeps a ledger goes back only to a snapshot that says how far its
        ledger had got (`Mark.ledger`)."""
        book = self.book
        if book is not None and (mark.ledger is None or mark.ledger > book.size):
            raise ValueError("the snapshot does not say how far the ledger had got")
        self.state = copy_state(mark.state)
        self.moves, self.move_lines, self.closed = mark.moves, mark.move_lines, mark.over_noted
        self.rulings, self.confirmed, self._last = list(mark.rulings), mark.confirmed, None
        if book is not None:
            book.cut(mark.ledger)
            book.discard(self.state)

    # --- entries -----------------------------------------------------------------------------

    def resolve(self, entries) -> None:
        """Write each player's colour where entries name a player by name."""
        resolve_players(entries, self.players)

    def apply(self, entry, ruling: Ruling | None = None, *, carry_on: bool = False, ruling_follows: bool = False) -> Outcome:
        """Take one entry: a move, a checkpoint, the result, or a ruling.

        A ruling decides on the entry applied just before it, and its outcome is that entry's
        outcome as the ruling decides it (a new `Outcome` of that entry). A ruling may also be
        given with the entry it decides on, as `ruling`. `ruling_follows` says that a ruling on
        this move comes next: the position before it is kept, so that `ruling void` can take
        back a move the rules accept, as a check does. With `carry_on`, a move whose number is
        wrong is still played (the number is reported)."""
        if isinstance(entry, Ruling) and ruling is None:
            outcome = self._ruling(entry)
            if outcome.ruling is not None:
                self.rulings.append(outcome.ruling)
            return outcome
        outcome = self._entry(entry, ruling, carry_on, ruling_follows)
        if outcome.ruling is not None:
            self.rulings.append(outcome.ruling)
        self.confirmed += outcome.confirmed
        return outcome

    def _entry(self, entry, ruling: Ruling | None, carry_on: bool, ruling_follows: bool) -> Outcome:
        if isinstance(entry, Move):
            return self._move(entry, ruling, carry_on, ruling_follows)
        if isinstance(entry, Checkpoint):
            outcome = self._guarded(entry, self._checkpoint)
            self._last = _Last(entry, outcome) if ruling is None else _Last(ruling, None)
            if ruling is not None:
                self._adopt(entry, ruling, outcome)
            return outcome
        if isinstance(entry, Result):
            outcome = self._guarded(entry, self._result)
            self._last = _Last(entry, outcome)
            return outcome
        if isinstance(entry, Ruling):
            self._last = _Last(entry, None)
            return self._problem(entry, f"{self.game.name}/ruling", Message("a ruling decides on the move on the line before it, and is given with it"), entry.pos)
        raise TypeError(f"not an entry of a record: {type(entry).__name__}")

    def _ruling(self, ruling: Ruling) -> Outcome:
        """A ruling typed as its own entry, on the entry before it: a move (accept, void), a
        checkpoint (adopt); after anything else it is misplaced."""
        last = self._last
        if last is None or not isinstance(last.entry, (Move, Checkpoint)):
            follows = "no move" if last is None else "another ruling" if isinstance(last.entry, Ruling) else "the result"
            outcome = self.misplaced_ruling(ruling, follows)
        else:
            outcome = replace(last.outcome, diagnostics=list(last.outcome.diagnostics))  # the entry's outcome, decided
            if isinstance(last.entry, Move):
                outcome = self._decide_move(outcome, last.tried, ruling)
            else:
                self._adopt(last.entry, ruling, outcome)
        self._last = _Last(ruling, None)  # a ruling after this one follows another ruling
        return outcome

    def end(self) -> Outcome:
        """The end of the record: the rules close what a last move leaves open (a phase, the
        final scoring). An outcome with a violation says the record stops too early."""
        outcome = Outcome(None)
        self._last = None
        if self.closed:
            return outcome
        self.closed = True
        try:
            self.state.end_of_record()
        except Violation as v:
            outcome.diagnostics.append(self._diagnostic(v.rule, v.message, v.pos))
        if self.book is not None:
            from referee.engine.ledger import END

            self.book.record(self.state, None, END)
        return outcome

    # --- the kinds of entry ------------------------------------------------------------------

    def _move(self, move: Move, ruling: Ruling | None, carry_on: bool, ruling_follows: bool = False) -> Outcome:
        outcome, tried = self._attempt(move, carry_on, ruling_follows or (ruling is not None and ruling.verdict == "void"))
        if ruling is None:
            self._last = _Last(move, outcome, tried)
            return outcome
        outcome = self._decide_move(outcome, tried, ruling)
        self._last = _Last(ruling, None)
        return outcome

    def _attempt(self, move: Move, carry_on: bool, keep_before: bool) -> tuple[Outcome, _Tried]:
        """Play a move as the rules say, and what a ruling on it needs: why it was refused, or
        (`keep_before`) the position before it, to take a legal move back."""
        name = self.game.name
        outcome = Outcome(move)
        self.move_lines += 1
        if self.state.is_over():
            d = self._diagnostic(f"{name}/game-over", Message("the game is already over; no more moves may follow"), move.pos)
            outcome.diagnostics.append(d)
            return outcome, _Tried("over", d)
        if move.number is not None and move.number != self.move_lines:
            d = self._diagnostic(f"{name}/move-number", Message("move number {number}, but this is move {move}", number=move.number, move=self.move_lines), move.pos)
            outcome.diagnostics.append(d)
            if not carry_on:
                return outcome, _Tried("number", d)
        state, book = self.state, self.book
        before = self.snapshot() if keep_before else None
        try:
            state.apply(move)
        except Violation as v:
            if book is not None:
                book.discard(state)
            d = self._diagnostic(v.rule, v.message, v.pos or move.pos)
            outcome.diagnostics.append(d)
            return outcome, _Tried("refused", d, v)
        self._played(outcome, move)
        return outcome, _Tried("played", before=before)

    def _decide_move(self, outcome: Outcome, tried: _Tried, ruling: Ruling) -> Outcome:
        """A move's outcome as the table's ruling on it decides: `accept` lets a refused move
        stand with the rules it breaks set aside, `void` leaves it out; on a legal move either
        is an error, and `void` takes it back all the same where the position before it was
        kept. `adopt` decides on a checkpoint, not a move."""
        name, move = self.game.name, outcome.entry
        if ruling.verdict == "adopt":
            outcome.diagnostics.append(
                self._diagnostic(f"{name}/ruling", Message("ruling adopt takes the figures of the checkpoint on the line before it; a move is decided on with accept or void"), ruling.pos)
            )
            return outcome
        void = ruling.verdict == "void"
        if tried.kind == "over":
            if void:
                outcome.diagnostics.remove(tried.diagnostic)
                outcome.ruling = RulingNote("void", ruling.pos.line, move.pos.line, [tried.diagnostic.rule], ruling.text)
            return outcome
        if tried.kind == "number":  # a move not played: the ruling has nothing to decide on
            return outcome
        if tried.kind == "refused":
            v = tried.violation
            outcome.diagnostics.remove(tried.diagnostic)
            if void:  # a refused move left the state as it was
                outcome.ruling = RulingNote("void", ruling.pos.line, move.pos.line, [v.rule], ruling.text)
                return outcome
            try:
                self.state, waived = accept(self.state, move, v)
            except Refused as why:
                outcome.diagnostics.append(self._diagnostic(f"{name}/ruling", Message("the ruling cannot be honoured: {why}", why=str(why)), ruling.pos))
                return outcome
            outcome.ruling = RulingNote("accept", ruling.pos.line, move.pos.line, waived, ruling.text)
            self._played(outcome, move, ruling.pos.line)
            return outcome
        taken_back = void and tried.before is not None
        outcome.diagnostics.append(
            self._diagnostic(
                f"{name}/ruling",
                Message("ruling {verdict}, but the move on line {line} breaks no rule; it is taken back all the same", verdict=ruling.verdict, line=move.pos.line)
                if taken_back
                else Message("ruling {verdict}, but the move on line {line} breaks no rule", verdict=ruling.verdict, line=move.pos.line),
                ruling.pos,
            )
        )
        if taken_back:
            self.restore(tried.before)
            outcome.played, outcome.taken_back = False, True
        return outcome

    def _played(self, outcome: Outcome, move: Move, ruling_line: int | None = None) -> None:
        outcome.played = True
        self.moves += 1
        if self.book is not None:
            self.book.record(self.state, move.pos.line, self._written(move), ruling_line)

    def _written(self, move: Move) -> str:
        """The move as the record writes it, without a comment after it."""
        if self.record is None:
            return self.game.format_move(move)
        pos = move.pos
        line = self.record.line(pos.line)
        return line[pos.column - 1 : pos.end_column - 1] if pos.end_column else line.strip()

    def _guarded(self, entry, check) -> Outcome:
        outcome = Outcome(entry)
        try:
            check(entry, outcome)
        except Violation as v:
            outcome.diagnostics.append(self._diagnostic(v.rule, v.message, v.pos or entry.pos))
        except RecordError as exc:
            outcome.unreadable = exc
        return outcome

    def _checkpoint(self, cp: Checkpoint, outcome: Outcome) -> None:
        state, name = self.state, self.game.name
        owner = state.seat(cp.player, cp.pos, f"{name}/checkpoint").colour
        figures = state.figures(cp.player, {fig.key for fig in cp.figures})
        for fig in cp.figures:
            if fig.key not in figures:
                figures = state.figures(cp.player)  # every one the message may name
                raise RecordError(f"unknown checkpoint figure {fig.key!r}{did_you_mean(fig.key, figures)}; known: {', '.join(sorted(figures))}", fig.pos)
            ours = figures[fig.key]
            stated = _stated(self.game, fig, ours)
            if (sorted(stated) == sorted(ours)) if isinstance(ours, list) else stated == ours:
                outcome.confirmed += 1
            else:
                outcome.diagnostics.append(
                    Diagnostic(
                        "error",
                        Message("{player} {figure} recorded as {stated}, but the rules give {ours}", player=cp.player, figure=fig.key, stated=written(stated), ours=written(ours)),
                        fig.pos,
                        f"{name}/checkpoint",
                        figure=(owner, fig.key),
                    )
                )

    def _adopt(self, cp: Checkpoint, ruling: Ruling, outcome: Outcome) -> None:
        """`ruling adopt` after a checkpoint: the table played on from the figures it wrote,
        so the position takes them, as long as the pieces can show them; the figures the
        rules contradicted are then no error but the ruling's, listed with the rulings."""
        name = self.game.name
        contradicted = [d for d in outcome.diagnostics if d.figure]
        if ruling.verdict != "adopt" or outcome.unreadable is not None:
            outcome.diagnostics.append(
                self._diagnostic(
                    f"{name}/ruling",
                    Message(
                        "ruling {verdict} decides on the move on the line before it (after a checkpoint, ruling adopt takes its figures), and this one follows a checkpoint", verdict=ruling.verdict
                    ),
                    ruling.pos,
                )
            )
            return
        if not contradicted:
            outcome.diagnostics.append(self._diagnostic(f"{name}/ruling", Message("ruling adopt, but the rules agree with every figure on line {line}", line=cp.pos.line), ruling.pos))
            return
        trial = copy_state(self.state)
        stated = {fig.key: fig for fig in cp.figures}
        try:
            for d in contradicted:
                owner, key = d.figure
                trial.adopt(owner, key, stated[key].value)
        except ValueError as why:
            outcome.diagnostics.append(self._diagnostic(f"{name}/ruling", Message("the ruling cannot be honoured: {why}", why=str(why)), ruling.pos))
            return
        problem = trial.cannot_hold()
        if problem:
            outcome.diagnostics.append(self._diagnostic(f"{name}/ruling", Message("the ruling cannot be honoured: {why}", why=str(problem)), ruling.pos))
            return
        self.state = trial
        outcome.diagnostics = [d for d in outcome.diagnostics if not d.figure]
        figures = ", ".join(f"{d.figure[1]} {stated[d.figure[1]].value}" for d in contradicted)
        outcome.ruling = RulingNote("adopt", ruling.pos.line, cp.pos.line, [f"{name}/checkpoint"], ruling.text, f"{contradicted[0].figure[0]} {figures}")
        if self.book is not None:
            self.book.record(self.state, ruling.pos.line, f"ruling adopt: {cp.player} {figures}")

    def _result(self, result: Result, outcome: Outcome) -> None:
        name = self.game.name
        self.end()
        if not self.state.is_over():
            outcome.diagnostics.append(self._diagnostic(f"{name}/result", Message("a result is stated but the game is not over"), result.pos))
            return
        totals = {s.seat.colour: s.total for s in self.state.standings()}
        for colour, points, pos in result.scores:
            if colour not in totals:
                raise RecordError(Message("result: {why}", why=self.players.unknown(colour)), pos)
            if totals[colour] != points:
                outcome.diagnostics.append(
                    Diagnostic(
                        "error",
                        Message("result gives {colour} {points} points, but the final scoring gives {total}", colour=colour_named(colour), points=points, total=totals[colour]),
                        pos,
                        f"{name}/result",
                        figure=(colour, self.state.score_figure),
                    )
                )
            else:
                outcome.confirmed += 1

    def misplaced_ruling(self, ruling: Ruling, follows: str) -> Outcome:
        """The outcome of a ruling that follows no move it could decide on: `follows` says what
        comes before it instead ("a checkpoint", "no move")."""
        return self._problem(ruling, f"{self.game.name}/ruling", f"a ruling decides on the move on the line before it, and this one follows {follows}", ruling.pos)

    def _problem(self, entry, rule: str, message: str, pos: Pos | None) -> Outcome:
        return Outcome(entry, [self._diagnostic(rule, message, pos)])

    def _diagnostic(self, rule: str, message: str, pos: Pos | None) -> Diagnostic:
        if rule not in self.game.spec.rules:
            raise missing_rule(self.game.spec, rule)
        return Diagnostic("error", message, pos, rule)


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
