"""Civitas Hamburgum moves: the game's vocabulary as a record writes it.

A turn names the acting player and the rondel action; the rest of the line is
what the player does there. The names in a move are already spec ids (the
notation module resolves them while the record is read), so the rules never
meet a spelling; whether a move is allowed is for the rules module to say.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.errors import Pos
from referee.notation.parser import Move

Amounts = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Site:
    """A house site: its parish and its number there."""

    parish: str
    number: int

    @property
    def name(self) -> str:
        return f"{self.parish}-{self.number}"


@dataclass
class Turn(Move):
    """A player's turn: the marker moves to a space of `action` and the action is taken."""

    player: str = ""
    action: str = ""
    side: str | None = None  # which of two spaces with the same action, when written


@dataclass
class Produce(Turn):
    """A production action: the good of its space, one more for each of the player's houses that produce it."""

    amount: int | None = None  # the yield, when the record states it


@dataclass
class Trade(Turn):
    """The trade action: goods shipped abroad or sold to the bank, building materials bought."""

    sell: Amounts = ()  # goods shipped abroad
    bank: Amounts = ()  # goods sold to the bank
    buy: Amounts = ()  # building materials bought


@dataclass
class Dockyard(Turn):
    """The dockyard action: ships built, paid for with building materials, and sent to the harbour."""

    ships: int = 1


@dataclass(frozen=True)
class Donation:
    """Donations to one church, one token per donation."""

    church: str
    tokens: tuple[str, ...]  # one token per donation, in donation order


@dataclass
class ChurchTurn(Turn):
    """The church action: donations made and donation tokens scored."""

    donations: tuple[Donation, ...] = ()
    scores: tuple[tuple[str, str], ...] = ()  # (church, token kind)


@dataclass
class House:
    """A house built at the guildhall: its type, its site, and the office or canon's donation it brings."""

    kind: str  # house type
    site: Site
    office: str | None = None  # the office named, when the house is an office
    donation: Donation | None = None  # the canon's donation
    pos: Pos | None = field(default=None, compare=False)


@dataclass
class Guildhall(Turn):
    """The guildhall action: houses built."""

    houses: tuple[House, ...] = ()


@dataclass
class Reveal(Move):
    """Advanced game II: the office turned face up on the shuffled stack."""

    office: str = ""
