"""The parse loop of referee/lalr.py gives Lark's own tree for a well-formed record (the same
rules and children, every token with Lark's kind and positions, in the referee's own tree
classes), and Lark's own exception for a broken one."""

from __future__ import annotations

import functools
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark, Token as LarkToken, Tree as LarkTree
from lark.exceptions import UnexpectedInput

from referee.notation import _lalr as lalr

from referee.notation import syntax
from referee.notation.parser import grammar_of, parser_for
from referee.lab.random_game import play_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("canterbury", "hamburgum", "speicherstadt")

sys.path.insert(0, str(ROOT / "scripts"))

from golden import playthroughs  # noqa: E402


@functools.cache
def records(game: str) -> list[str]:
    """Random games, the golden playthroughs' games and every example record of the game."""
    texts = [play_game(game, players, 1) for players in (2, 3)]
    texts += [play_game(p.game, p.players, p.seed) for p in playthroughs(game)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "specs" / game / "examples").glob("*.log"))]
    return [t if t.endswith("\n") else t + "\n" for t in texts]


def shape(node, tree_class, token_class) -> tuple:
    """A tree as nested tuples: each node's class (one of the two given), its rule name and
    children; each token's kind, text and every position. Two trees of different classes
    compare by what they hold."""
    if isinstance(node, tree_class):
        return ("tree", node.data, tuple(shape(child, tree_class, token_class) for child in node.children))
    assert isinstance(node, token_class), node
    return ("token", node.type, str(node), node.start_pos, node.line, node.column, node.end_line, node.end_column, node.end_pos)


@pytest.mark.parametrize("game", GAMES)
def test_the_loop_builds_larks_own_tree_without_calling_lark(game, monkeypatch):
    parser = parser_for(game)
    expected = [parser.parse(text) for text in records(game)]

    def refused(self, *args, **kwargs):
        raise AssertionError("Lark's parse was called for a well-formed record")

    monkeypatch.setattr(Lark, "parse", refused)
    for text, tree in zip(records(game), expected):
        ours = lalr.parse(text, grammar_of(game), lambda: parser)
        assert shape(ours, syntax.Tree, syntax.Token) == shape(tree, LarkTree, LarkToken)
        assert ours.data == "start" and len(ours.children) == len(tree.children)


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


def error(exc: UnexpectedInput) -> tuple:
    return (type(exc).__name__, str(exc), exc.line, exc.column, sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()))


def ours(parser, game: str, text: str) -> tuple:
    try:
        return ("tree", shape(lalr.parse(text, grammar_of(game), lambda: parser), syntax.Tree, syntax.Token))
    except lalr.Unreadable as exc:
        return error(exc.error)


def larks(parser, text: str) -> tuple:
    try:
        return ("tree", shape(parser.parse(text), LarkTree, LarkToken))
    except UnexpectedInput as exc:
        return error(exc)


@pytest.mark.parametrize("game", GAMES)
def test_the_loop_finds_most_tokens_with_one_pattern_of_every_terminal(game):
    """Compiling a pattern costs more than reading a record with it, and a pattern with a word
    in it costs the most. The loop tries every terminal in one pattern; a state's own
    terminals are needed only where that pattern finds one the state does not take (a word
    where the state takes a keyword), and never hold the word terminal; each of them is a
    pattern of one terminal, compiled once for every state that tries it."""
    driver = lalr.Driver.from_data(lalr.Driver.of(parser_for(game)).data())
    for text in records(game):
        driver.parse(text)
    met = len(driver.lexers)
    own = {state for state, _ in driver.lexers.rest}
    assert met > 20 and len(own) * 3 < met
    tried = [pattern for rest in driver.lexers.rest.values() if rest is not None for pattern in rest.patterns]
    assert tried and all(len(pattern.groupindex) == 1 for pattern in tried)
    assert not any("WORD" in pattern.groupindex for pattern in tried)
    assert len({id(pattern) for pattern in tried}) == len(driver.lexers.single) < len(driver.lexers.terminals[0])
    assert "WORD" in driver.lexers.every.groupindex


@pytest.mark.parametrize("game", GAMES)
def test_a_broken_record_gets_larks_own_error(game):
    parser = parser_for(game)
    rng = random.Random(16)
    errors = 0
    for text in records(game):
        for _ in range(12):
            slipped = broken(text, rng)
            found = ours(parser, game, slipped)
            assert found == larks(parser, slipped), slipped
            errors += found[0] != "tree"
    assert errors > 10  # the slips did break records


@pytest.mark.parametrize("game", GAMES)
def test_a_tree_lark_parses_itself_reaches_the_games_in_the_referees_classes(game, monkeypatch):
    """Where the loop does not drive the parser (here: its tables refused), Lark's own parse
    reads the record and its tree is handed on in the classes of syntax.py, the same tree."""
    parser = parser_for(game)
    monkeypatch.setattr(lalr, "driver", lambda grammar, build: None)
    for text in records(game)[:3]:
        assert ours(parser, game, text) == larks(parser, text)


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
            assert shape(cached.parse(text), syntax.Tree, syntax.Token) == shape(made.parse(text), syntax.Tree, syntax.Token)
        whole = kept.read_bytes()
        kept.write_bytes(whole[:100])
        lalr.forget()
        assert lalr.driver(grammar_of(game), lambda: parser) is not None  # made again
        assert kept.read_bytes() == whole
        # a file that holds an object of any class, here one whose unpickling runs code, is not ours
        key, _ = pickle.loads(whole)
        marker = tmp_path / "ran"
        kept.write_bytes(pickle.dumps((key, _Payload(marker))))
        lalr.forget()
        assert lalr.driver(grammar_of(game), lambda: parser) is not None
        assert not marker.exists() and kept.read_bytes() == whole
    finally:
        lalr.forget()


class _Payload:
    """What a foreign cache file might hold: an object whose unpickling runs code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


# Runs the command line in a fresh process and says whether Lark was imported.
CHECK = """
import sys
from referee.cli.main import main
code = main(sys.argv[1:])
print("lark imported:", any(name == "lark" or name.startswith("lark.") for name in sys.modules))
sys.exit(code)
"""


def run_check(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "REFEREE_CACHE": str(folder), "PYTHONPATH": str(ROOT)}
    env.pop("REFEREE_DATA", None)
    return subprocess.run([sys.executable, "-c", CHECK, "check", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_a_check_of_a_legal_record_with_its_tables_kept_imports_no_lark(tmp_path):
    """A check whose grammar tables and spec are in the cache reads the record without Lark;
    a syntax error still gets Lark's own error, told in the referee's words."""
    record = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"
    first = run_check(tmp_path, "-q", str(record))
    assert first.returncode == 0, first.stderr
    assert first.stdout.endswith("lark imported: True\n")  # the tables made from Lark's parser, and kept
    again = run_check(tmp_path, "-q", str(record))
    assert again.returncode == 0, again.stderr
    assert again.stdout.endswith("lark imported: False\n")
    slipped = tmp_path / "slipped.log"
    slipped.write_text(record.read_text(encoding="utf-8").replace("beige: place 4\n", "beige: place: 4\n", 1), encoding="utf-8")
    broken = run_check(tmp_path, "-q", str(slipped))
    assert broken.returncode == 3
    assert f"{slipped}:12:13: error: unexpected ': 4'; expected a number\n" in broken.stdout + broken.stderr
    assert broken.stdout.endswith("lark imported: True\n")
