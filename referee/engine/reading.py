"""A record's text read into entries of the game its header names: the first step of the API.

`read_record` is the same reading `referee check` does: the [Game] tag (any of the names its
spec gives the game), the [Variant] tag's variants together with those asked for, the game
loaded with them, and the entries parsed with the game's own names.
"""

from __future__ import annotations

from referee.errors import RecordError
from referee.games import load_game
from referee.notation.parser import Record, game_of, parse


def read_record(text: str, name: str = "<record>", variants=(), game=None, keep_going: bool = False):
    """The record in `text` and the game it is played under, as (record, game).

    `game` may be given (a game loaded already, with its variants); otherwise the record's
    [Game] and [Variant] tags, with `variants`, say which. With `keep_going`, lines that
    cannot be read are collected in `record.unreadable` instead of raising RecordError."""
    from referee.engine.replay import game_named, no_game_tag, record_variants

    if game is None:
        found = game_of(text)
        if not found:
            raise no_game_tag()
        game_name = game_named(found[0])
        game = load_game(game_name, list(dict.fromkeys(record_variants(text, game_name) + list(variants))))
    problems: list[RecordError] | None = [] if keep_going else None
    record = parse(text, name, game.name, game.build_move, problems, game.keywords())
    record.unreadable.extend(problems or ())
    return record, game


def read_entry(game, text: str, line: int = 1):
    """One typed line of a record (a move, a checkpoint, a ruling, the result) as its entry,
    with its positions on line `line`; None for a comment or a blank line."""
    if not text.strip():
        return None
    record = parse("\n" * (line - 1) + text + "\n", "<line>", game.name, game.build_move, keywords=game.keywords())
    return record.entries[-1] if record.entries else None


__all__ = ["Record", "read_entry", "read_record"]
