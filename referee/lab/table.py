"""A simulated table: whose decision comes next, and what they may choose.

The rules say which moves are legal; they do not say who decides when several players may
act at once (The Speicherstadt's Loading, where everyone moves goods until the next round
begins) or when nobody does (a card revealed). The table settles it the way people at a
real table do:

- nobody to act: the table makes the move (a chance outcome drawn as the physical game
  draws it, `Game.table_move`);
- one player to act: their agent chooses among the legal moves;
- several players to act: each in the game's order chooses among their own moves or to
  be done (`DONE`); once all are done, the table makes the move that closes the phase;
- a colour with no agent (a neutral player) is played by the table as well.

The game itself is driven through the engine's public API: a `referee.Position` takes each
move and answers with its outcome, and a trial is a snapshot of it.
"""

from __future__ import annotations

import random

from referee.engine.position import Position
from referee.errors import Violation
from referee.games.base import Game, State, Unrecorded
from referee.notation.parser import Header


class Done:
    """A player's choice to make no further move in a phase where everyone may act."""

    player = None

    def __repr__(self) -> str:
        return "DONE"


DONE = Done()
_QUIET = Unrecorded()  # the trace of trials: what a search tried is nobody's business


class Decision:
    """A choice due: `colour` chooses (None: the table makes the move) among `moves`, which
    are listed when first asked for: a random player whose turn is its own draws its move
    without the list (`free` is False then; True where `DONE` is among the choices)."""

    def __init__(self, table: Table, colour: str | None, moves: list | None = None):
        self.table, self.colour, self._moves = table, colour, moves
        self.free = moves is not None

    @property
    def moves(self) -> list:
        if self._moves is None:
            self._moves = self.table.game.legal_moves(self.table.state)
        return self._moves


def actor(move) -> str | None:
    """The colour that makes a move, or None for the table's moves (reveals, round headings)."""
    return getattr(move, "player", None)


class Table:
    """A game in progress with the state the table keeps beyond the rules: who is done in
    the current phase where everyone may act."""

    def __init__(self, game: Game, state: State, seated: set[str], position: Position | None = None):
        self.game, self.seated = game, seated
        self.position = position or Position.at(game, state, Header())
        self.done: set[str] = set()
        self.phase: tuple = ()

    @property
    def state(self) -> State:
        return self.position.state

    def over(self) -> bool:
        return self.state.is_over()

    def decision(self) -> Decision:
        """Who chooses next, and among what (the table's moves are drawn, not listed)."""
        situation = self.state.situation()
        acting = [c for c in situation.to_act if c in self.seated]
        if len(situation.to_act) <= 1:
            self.done, self.phase = set(), ()
            if not acting:
                return Decision(self, None, [])
            return Decision(self, acting[0])
        phase = (situation.round, situation.phase)
        if phase != self.phase:
            self.done, self.phase = set(), phase
        moves = self.game.legal_moves(self.state)
        for colour in acting:
            if colour in self.done:
                continue
            own = [m for m in moves if actor(m) == colour]
            if own:
                return Decision(self, colour, [*own, DONE])
            self.done.add(colour)
        return Decision(self, None, [])

    def play(self, colour: str | None, move) -> None:
        """Carry out a choice: a move, or `DONE` for the colour that made it."""
        if move is DONE:
            self.done.add(colour)
            return
        outcome = self.position.apply(move)
        if not outcome.played:
            problem = next(d for d in outcome.diagnostics if d.severity == "error")
            raise Violation(problem.rule or f"{self.game.name}/move", problem.message)

    def table_move(self, rng: random.Random):
        return self.game.table_move(self.state, rng)

    def copy(self) -> Table:
        """An independent table for a trial: a snapshot of the position, played on apart,
        whose trace keeps nothing (rules skip wording what they read for such a trace)."""
        mark = self.position.snapshot()
        mark.state.trace = _QUIET
        position = Position.at(self.game, mark.state, self.position.header, moves=mark.moves, move_lines=mark.move_lines)
        twin = Table(self.game, mark.state, self.seated, position)
        twin.done, twin.phase = set(self.done), self.phase
        return twin
