"""Random legal games, written in the notation (`referee play`)."""

from __future__ import annotations

import datetime
import gc
import random

from referee.engine.findings import rank
from referee.errors import RecordError, SpecError, UsageError, Violation
from referee.games import load_game
from referee.games.base import Game, Seat, State, Unrecorded
from referee.i18n import Message, _, current
from referee.notation.parser import Header, header_lines
from referee.spec.loader import looks_like_path, shipped_data_root, specs_root


def play_game(game_name: str, players: int, seed: int | None = None, variants=()) -> str:
    """A complete game with random (but legal) choices and random chance outcomes."""
    variants, game, state = random_game_start(game_name, players, variants)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    colours = [seat.colour for seat in state.seats]
    lines: list[str] = []
    # a game still going after this many moves has data that lets it run for ever
    # (a track too long, prices beyond any purse, ...): each game's play.yaml says how many
    most = game.spec["play"]["max_moves"]
    choose = game.random_player()
    # A game makes tens of thousands of short-lived objects (candidate moves, boards
    # worked out and dropped), none of them in a cycle, so the cyclic collector, which would
    # look through every object loaded each time enough of them pile up, waits for the end.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for count in range(most):
            if state.is_over():
                break
            try:
                move = choose(state, rng)
                lines.extend(state.play_checkpoints(move))
                lines.append(game.format_move(move))
                state.apply(move)
            except (Violation, ValueError, IndexError, KeyError, StopIteration, ArithmeticError) as exc:
                raise _stuck(game_name, variants, count + 1, exc) from None
        else:
            raise SpecError(game.spec.path_of("play"), "max_moves", Message("a random game did not end within {most} moves; the data may let it run for ever", most=most))
    finally:
        if collecting:
            gc.enable()
    return record_text(game_name, colours, f"referee play --seed {seed}", variants, lines, rank(state.standings()))


def record_text(game_name: str, colours: list[str], event: str, variants: list[str], lines: list[str], standings) -> str:
    """A game played here as a record: the header (how it was made in its Event tag), the
    moves with their checkpoints, and the result (`standings`, ranked; None for a game
    stopped before its end, which has none)."""
    head = header_lines(game_name, ", ".join(colours), colours[0], datetime.date.today().isoformat(), event, variants)
    result = ["", "result " + ", ".join(f"{s.seat.colour} {s.total}" for s in standings)] if standings is not None else []
    return "\n".join([*head, "", *lines, *result]) + "\n"


def random_game_start(game_name: str, players: int, variants=()) -> tuple[list[str], Game, State]:
    """A random game at its start: the variants it is played with (those its player count
    needs first, in the order `check` applies them: the record's, then files), the game
    loaded with them, and its state, whose trace keeps nothing (nobody reads which rules a
    random game used) and which puts nothing back (the game stops at the first refused move)."""
    from referee.games import game_class

    variants = list(dict.fromkeys([*game_class(game_name).required_variants(players), *variants]))
    variants.sort(key=looks_like_path)
    game = load_game(game_name, variants)
    meta = game.spec.meta
    low, high = meta["players"]["min"], meta["players"]["max"]
    if not low <= players <= high:
        name = meta["names"].get(current()) or meta["names"]["en"]
        raise UsageError(_("{game} is for {low} to {high} players, not {players}").format(game=name, low=low, high=high, players=players))
    try:
        state = game.new_state([Seat(c) for c in meta["colours"][:players]], 0, Header(), Unrecorded())
    except RecordError as exc:  # e.g. a player count that needs a variant the caller left out
        raise UsageError(exc.message) from None
    state.rolls_back = False
    return variants, game, state


def _stuck(game_name: str, variants: list[str], number: int, exc: Exception) -> Exception:
    """The random player cannot go on. With the shipped data that is a bug of the referee and
    stays an internal error; with changed data (a variant, or REFEREE_DATA) it is the data's
    doing, such as a ship taking more cubes than the bag holds, and is reported as such."""
    if not variants and specs_root().resolve() == (shipped_data_root() / "specs").resolve():
        return exc
    if isinstance(exc, Violation):
        message = Message(
            "at move {number}, the rules refuse the random player's move with this data ([{rule}] {reason}); the data may leave the game no legal way on",
            number=number,
            rule=exc.rule,
            reason=exc.message,
        )
    else:
        reason = f"{type(exc).__name__}: {exc}"
        message = Message("at move {number}, the random player finds no legal move with this data ({reason}); the data may leave the game no legal way on", number=number, reason=reason)
    return SpecError(game_name, "", message)
