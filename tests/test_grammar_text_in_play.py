"""Every game's rules meet text its own grammar accepts: never a crash, whatever the move says.

Hypothesis writes lines from the game's grammar (`hypothesis.extra.lark`) and
puts them into a legal game of that game, so the rules module, not only the
parser, sees moves it was never written for.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.lab.random_game import play_game
from referee.spec.loader import available_games, grammar_root


def loads(game: str) -> str | None:
    """Why a game's module cannot be used yet, or None."""
    try:
        load_game(game)
    except Exception as exc:  # a game still being written
        return f"{type(exc).__name__}: {exc}"
    return None


@functools.cache
def grammar(game: str) -> Lark:
    """The record grammar, built here: a parser read from the cache keeps no grammar to generate from."""
    root = grammar_root()
    text = (root / "common.lark").read_text(encoding="utf-8") + "\n" + (root / f"{game}.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr")


@functools.cache
def legal_lines(game: str) -> list[str]:
    players = load_game(game).spec.meta["players"]["max"]
    return [line for line in play_game(game, players, 1).split("\n") if not line.startswith("[Date ")]


@pytest.mark.parametrize("game", available_games())
def test_text_the_grammar_accepts_put_into_a_legal_game_ends_in_a_verdict(game):
    why = loads(game)
    if why:
        pytest.skip(f"{game}: its module does not load yet ({why})")
    header = next(i for i, line in enumerate(legal_lines(game)) if not line.startswith("["))

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=from_lark(grammar(game)), at=st.integers(min_value=header, max_value=len(legal_lines(game))))
    def check(body, at):
        lines = legal_lines(game)
        body = "\n".join(line for line in body.split("\n") if not line.lstrip().startswith("["))  # tags belong to the header
        report = check_bytes("\n".join(lines[:at] + [body] + lines[at:]).encode(), "generated.log")
        assert report.status in ("legal", "illegal", "malformed"), [d.message for d in report.diagnostics]
        for d in report.errors:
            assert d.pos is not None and (d.rule or report.status == "malformed"), d.message

    check()
