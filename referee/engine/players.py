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

from referee.i18n import Message
from referee.notation.colours import colour_names
from referee.notation.names import nearest, spelling
from referee.notation.parser import Checkpoint, Move, Result
from referee.terminal import odd_letters


class Players:
    """The seats of a game, found by colour or by name."""

    def __init__(self, seats: Iterable[Any]):
        self.seats = list(seats)  # each with .colour and .name
        self._colours = colour_names([s.colour for s in self.seats])
        self._named: dict[str, list[str]] = {}
        for seat in self.seats:
            if seat.name:
                self._named.setdefault(spelling(seat.name), []).append(seat.colour)

    def colour_of(self, word: str) -> str | None:
        """The colour a word names, or None when it names no seat or more than one."""
        key = spelling(word)
        if key in self._colours:
            return self._colours[key]
        colours = self._named.get(key, [])
        return colours[0] if len(colours) == 1 else None

    def unknown(self, word: str) -> str:
        """Why a word names no seat, in a few words: `no player 'oragne' (did you mean
        'orange'?)`, or the seats a shared name could mean."""
        colours = self._named.get(spelling(word), [])
        if len(colours) > 1:
            return Message("{name} is the name of {n} players ({colours}); write the colour", name=repr(word), n=len(colours), colours=", ".join(colours))
        words = [s.colour for s in self.seats] + [s.name for s in self.seats if s.name]
        close = [repr(c) for c in nearest(word, words)]
        if len(close) == 2:
            hint = Message(" (did you mean {first} or {second}?)", first=close[0], second=close[1])
        else:
            hint = Message(" (did you mean {first}?)", first=close[0]) if close else ""
        return Message("no player {name}{odd}{hint}", name=repr(word), odd=odd_letters(word), hint=hint)


def resolve(entries: Iterable[Any], players: Players) -> None:
    """Write each player's colour where a record entry names them by name: the player of a
    move or a checkpoint, and the players of a result. A word that names no seat is left
    as written, for the rules to refuse with `Players.unknown`."""
    for entry in entries:
        if isinstance(entry, Result):
            entry.scores = [(players.colour_of(who) or who, points, pos) for who, points, pos in entry.scores]
        elif isinstance(entry, (Move, Checkpoint)) and isinstance(getattr(entry, "player", None), str):
            entry.player = players.colour_of(entry.player) or entry.player
