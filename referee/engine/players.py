"""Who a record's word names: a seat's colour, or the player's name from [Players].

A record may write a player's name wherever it writes a colour (`Ben: place 2` when Ben
plays orange), in any case, as long as the name picks out one seat: a colour always means
its seat, and a name that two players share (or that is another seat's colour) names
nobody. A word that names nobody gets the nearest colours and names. A colour may be written in
English, German or Hungarian, with or without its accents (kék, kek, Grün, gruen), as
`specs/common/colours.yaml` names it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from referee.games.base import Players
from referee.notation.parser import Checkpoint, Move, Result

__all__ = ["resolve"]


def resolve(entries: Iterable[Any], players: Players) -> None:
    """Write each player's colour where a record entry names them by name: the player of a
    move or a checkpoint, and the players of a result. A word that names no seat is left
    as written, for the rules to refuse with `Players.unknown`."""
    for entry in entries:
        if isinstance(entry, Result):
            entry.scores = [(players.colour_of(who) or who, points, pos) for who, points, pos in entry.scores]
        elif isinstance(entry, (Move, Checkpoint)) and isinstance(getattr(entry, "player", None), str):
            entry.player = players.colour_of(entry.player) or entry.player
