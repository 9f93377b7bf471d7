"""The Speicherstadt's moves: the game's vocabulary as a record writes it.

A round starts; cards are revealed (with the face a fireman, fire or contract
shows, and the cubes drawn onto a ship); workers are placed; offers are bought
or passed; goods are moved in Loading, one of LOAD_ACTIONS at a time. The rules
(rules.py) decide what is legal; notation.py reads and writes these moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.notation.parser import Move


@dataclass
class RoundStart(Move):
    """A round's heading: it closes the round before and says which round the table is in."""

    round: int


@dataclass
class Reveal(Move):
    """A card turned up in Supply, with the face it shows (a fireman's value, a fire's
    points, a contract's goods) and the cubes drawn onto a ship."""

    card: str
    value: int | None = None  # fireman
    points: int | None = None  # fire
    goods: tuple[str, ...] = ()  # contract
    cubes: tuple[str, ...] = ()  # ship


@dataclass
class Place(Move):
    """A worker placed in the queue of a display slot."""

    player: str
    slot: int


@dataclass
class Offer(Move):
    """An answer to a purchase offer: buy or pass."""

    player: str
    buy: bool
    slot: int | None = None


@dataclass
class Load(Move):
    """One loading step; `action` is one of LOAD_ACTIONS."""

    player: str
    action: str
    goods: tuple[str, ...]
    contract: int | None = None
    take: tuple[str, ...] = ()


# each loading action: its name in the parse tree (and in Load.action) -> its words in a record
LOAD_ACTIONS = {
    "contract": "contract",
    "sell": "sell",
    "spoil": "spoil",
    "warehouse_in": "warehouse in",
    "warehouse_out": "warehouse out",
    "hall_keep": "hall keep",
    "hall_take": "hall take",
    "hall_sell": "hall sell",
    "hall_exchange": "hall exchange",
}
