"""The parse loop of referee/lalr.py gives Lark's own tree for a well-formed record (every
token with Lark's positions), and Lark's own exception for a broken one."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from referee import lalr
from referee.notation import grammar_of, parser_for
from referee.play import play_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("canterbury", "hamburgum", "speicherstadt")


@functools.cache
def records(game: str) -> list[str]:
    texts = [play_game(game, players, 1) for players in (2, 3)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "specs" / game / "examples").glob("*.log"))]
    return [t if t.endswith("\n") else t + "\n" for t in texts]


def tokens(tree) -> list[tuple]:
    return [(t.type, str(t), t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos) for t in tree.scan_values(lambda v: True)]


@pytest.mark.parametrize("game", GAMES)
def test_the_loop_builds_larks_own_tree_without_calling_lark(game, monkeypatch):
    parser = parser_for(game)
    expected = [parser.parse(text) for text in records(game)]

    def refused(self, *args, **kwargs):
        raise AssertionError("Lark's parse was called for a well-formed record")

    monkeypatch.setattr(Lark, "parse", refused)
    for text, tree in zip(records(game), expected):
        ours = lalr.parse(text, grammar_of(game), lambda: parser)
        assert ours == tree
        assert tokens(ours) == tokens(tree)


def broken(text: str, rng: random.Random) -> str:
    """The text with one slip: a character dropped, doubled or replaced, or the end cut off."""
    at = rng.randrange(len(text))
    slip = rng.choice(["drop", "double", "replace", "cut"])
    if slip == "drop":
        return text[:at] + text[at + 1:]
    if slip == "double":
        return text[:at] + text[at] + text[at:]
    if slip == "replace":
        return text[:at] + rng.choice(":,[]\"#-5x@ \n") + text[at + 1:]
    return text[:at]


def outcome(parse, text: str):
    try:
        return ("tree", parse(text))
    except UnexpectedInput as exc:
        return (type(exc).__name__, str(exc), exc.line, exc.column, sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()))


@pytest.mark.parametrize("game", GAMES)
def test_a_broken_record_gets_larks_own_error(game):
    parser = parser_for(game)
    rng = random.Random(16)
    errors = 0
    for text in records(game):
        for _ in range(12):
            slipped = broken(text, rng)
            ours, theirs = outcome(lambda t: lalr.parse(t, grammar_of(game), lambda: parser), slipped), outcome(parser.parse, slipped)
            assert ours == theirs, slipped
            errors += ours[0] != "tree"
    assert errors > 10  # the slips did break records


@pytest.mark.parametrize("game", GAMES)
def test_the_tables_kept_in_the_cache_parse_as_those_made_from_lark(game, tmp_path, monkeypatch):
    """A start finds the loop's tables in the cache and builds no Lark parser for a
    well-formed record; a cache file that is corrupt or not ours is ignored."""
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path))
    parser = parser_for(game)
    made = lalr.Driver.of(parser)
    lalr.forget()
    try:
        lalr.driver(grammar_of(game), lambda: parser)  # made and kept
        [kept] = tmp_path.glob("parse-*.pickle")
        lalr.forget()

        def unbuildable():
            raise AssertionError("the Lark parser was built although the tables are kept")

        cached = lalr.driver(grammar_of(game), unbuildable)
        assert cached is not None and cached is not made
        for text in records(game):
            assert cached.parse(text) == made.parse(text)
        kept.write_bytes(kept.read_bytes()[:100])
        lalr.forget()
        assert lalr.driver(grammar_of(game), lambda: parser) is not None  # made again
        assert kept.stat().st_size > 100
    finally:
        lalr.forget()
