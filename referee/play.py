"""Random legal games, written in the notation (`referee play`)."""

from __future__ import annotations

import datetime
import random

from .engine import rank
from .games import load_game
from .games.base import Seat, Trace
from .notation import Header, RecordError
from .spec import SpecError, looks_like_path

MAX_MOVES = 100_000


def _variant_lines(variants: list[str]) -> list[str]:
    """The [Variant] tag of a generated record. A record may name only the variants its game
    ships; an overlay file of one's own is noted in a comment, as `check` needs it given again."""
    named = [v for v in variants if not looks_like_path(v)]
    lines = [f'[Variant "{", ".join(named)}"]'] if named else []
    return lines + [f"# variant file {v}: check this record with --variant {v}" for v in variants if looks_like_path(v)]


def play_game(game_name: str, players: int, seed: int | None = None, variants=()) -> str:
    """A complete game with random (but legal) choices and random chance outcomes."""
    from .games import game_class

    variants = list(dict.fromkeys([*game_class(game_name).required_variants(players), *variants]))
    variants.sort(key=looks_like_path)  # the order `check` applies them in: the record's, then files
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
    lines.extend(_variant_lines(variants))
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
