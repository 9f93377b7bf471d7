"""Random legal games, written in the notation (`referee play`)."""

from __future__ import annotations

import datetime
import random

from .engine import rank
from .games import load_game
from .games.base import Seat, Trace
from .notation import Header, RecordError
from .spec import SpecError

MAX_MOVES = 100_000


def play_game(game_name: str, players: int, seed: int | None = None, variants=()) -> str:
    """A complete game with random (but legal) choices and random chance outcomes."""
    from .games import game_class

    variants = list(dict.fromkeys([*game_class(game_name).required_variants(players), *variants]))
    game = load_game(game_name, variants)
    meta = game.spec.meta
    low, high = meta["players"]["min"], meta["players"]["max"]
    if not low <= players <= high:
        from .cli import UsageError

        raise UsageError(f"{meta['names']['en']} is for {low} to {high} players, not {players}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    colours = meta["colours"][:players]
    seats = [Seat(c) for c in colours]
    header = Header()
    try:
        state = game.new_state(seats, 0, header, Trace())
    except RecordError as exc:  # e.g. a player count that needs a variant the caller left out
        from .cli import UsageError

        raise UsageError(exc.message) from None
    lines = [
        f'[Game "{game_name}"]',
        f'[Players "{", ".join(colours)}"]',
        f'[Start "{colours[0]}"]',
        f'[Date "{datetime.date.today().isoformat()}"]',
        f'[Event "referee play --seed {seed}"]',
    ]
    if variants:
        lines.append(f'[Variant "{", ".join(variants)}"]')
    lines.append("")
    for count in range(MAX_MOVES):
        if state.is_over():
            break
        move = state.random_move(rng)
        lines.extend(state.play_checkpoints(move))
        lines.append(game.format_move(move))
        state.apply(move)
    else:
        raise SpecError(game_name, "", f"a random game did not end within {MAX_MOVES} moves")
    standings = rank(state.standings())
    lines.append("")
    lines.append("result " + ", ".join(f"{s.seat.colour} {s.total}" for s in standings))
    return "\n".join(lines) + "\n"
