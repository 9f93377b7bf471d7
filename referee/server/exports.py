"""What a finished (or stopped) game leaves behind besides its record: the standings with
their breakdown and tie-break, a CSV of the scores, and a play for BG Stats to import."""

from __future__ import annotations

import csv
import io
import json
import uuid

from referee.engine.findings import rank
from referee.games.base import State


def standings(state: State) -> list[dict]:
    """Each player's place, total, breakdown and tie-break figures, best first."""
    out = []
    for s in rank(state.standings()):
        tiebreak = [(name, value) for name, value, _ in s.tiebreak] if not isinstance(s.tiebreak, dict) else list(s.tiebreak.items())
        out.append({"rank": s.rank, "colour": s.seat.colour, "name": s.seat.name, "total": s.total, "breakdown": {k: v for k, v in s.breakdown.items()}, "tiebreak": tiebreak})
    return out


def scores_csv(state: State) -> str:
    """One row per player: rank, colour, name, total, then every part of the breakdown."""
    rows = standings(state)
    parts = list(dict.fromkeys(k for row in rows for k in row["breakdown"]))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["rank", "colour", "name", "total", *parts])
    for row in rows:
        writer.writerow([row["rank"], row["colour"], _cell(row["name"]), row["total"], *(row["breakdown"].get(k, 0) for k in parts)])
    return buffer.getvalue()


def _cell(text: str) -> str:
    """A name that a spreadsheet would read as a formula is kept as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def bg_stats(state: State, game_name: str, date: str | None, over: bool, record_id: str = "") -> str:
    """The play in BG Stats' JSON import format: the game, the players (a seat without a
    name is named by its colour), and one play with each player's score, place, seat and
    whether they started and won. The play's id comes from the record's name and date, so
    importing the same game twice finds the play already there; a game not finished is
    exported as a play that the statistics leave out (`ignored`)."""
    rows = {row["colour"]: row for row in standings(state)}
    players = [{"id": i + 1, "name": seat.name or seat.colour, "isAnonymous": False} for i, seat in enumerate(state.seats)]
    first = state.seats[getattr(state, "start", 0)].colour if isinstance(getattr(state, "start", 0), int) else state.seats[0].colour
    scores = []
    for i, seat in enumerate(state.seats):
        row = rows.get(seat.colour)
        scores.append(
            {
                "playerRefId": i + 1,
                "score": str(row["total"]) if row else "",
                "rank": row["rank"] if row else 0,
                "winner": bool(over and row and row["rank"] == 1),
                "startPlayer": seat.colour == first,
                "newPlayer": False,
                "seatOrder": i + 1,
                "role": seat.colour,
            }
        )
    play = {
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"referee-serve:{record_id}:{date}")),
        "gameRefId": 1,
        "playDate": f"{date or '1970-01-01'} 00:00:00",
        "ignored": not over,
        "rounds": 0,
        "manualWinner": False,
        "usesTeams": False,
        "playerScores": scores,
    }
    document = {
        "about": "a play exported by referee serve",
        "games": [{"id": 1, "name": game_name, "cooperative": False, "highestWins": True, "noPoints": False, "usesTeams": False}],
        "players": players,
        "locations": [],
        "plays": [play],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
