"""Canterbury's moves: the game's vocabulary as a record writes it.

A turn is one action, Levy, Full Build or Tax & Build; in the two-player variant a
placement for the neutral player may open the turn, written as its own line. These
classes say what a move is; whether it is legal is for the rules (rules.py), how it is
spelled in a record for the notation (notation.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.errors import Pos
from referee.notation.parser import Move

# The three actions, by the ids setup.yaml gives them.
LEVY, FULL, TAX = "levy", "full-build", "tax-build"


@dataclass
class Build:
    """One structure of a build action, with the demolitions that make way for it."""

    structure: str
    district: str
    demolish: tuple[str, ...] = ()
    serving: tuple[str, ...] = ()  # a large structure's further cube districts
    pos: Pos | None = field(default=None, compare=False)


@dataclass
class Action(Move):
    """A turn's action: a Levy, or a Full or Tax Build with the structures it builds."""

    player: str
    kind: str  # LEVY, FULL or TAX
    builds: tuple[Build, ...] = ()


@dataclass
class NeutralStep(Move):
    """The active player places the top tile of their stack for the neutral player."""

    player: str
    structure: str
    district: str | None = None  # None: no legal place, the tile leaves the game
    skipped: str | None = None  # a medium stack's top tile put back in the box
