"""A sample of the fuzz cases, and the mutation check on legal games of every game.

The full runs are `python scripts/fuzz.py --cases 100000`; here a few hundred
cases run in this process, and every hundredth also as a real process.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import fuzz  # noqa: E402
from fuzzcases import FAMILIES, Case, Corpus, make_case, replaced_move_record  # noqa: E402

from referee.engine import check_bytes, record_variants  # noqa: E402
from referee.games import load_game  # noqa: E402
from referee.notation import Move  # noqa: E402
from referee.spec import available_games  # noqa: E402

SAMPLE = 300
REPLACEMENTS_PER_RECORD = 4


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.build()


def test_a_sample_of_fuzz_cases_ends_with_exit_codes_and_located_messages(corpus, tmp_path):
    options = fuzz.parse_args(["--seed", "20", "--subprocess-every", "100"])
    verdicts = [fuzz.run_one(corpus, options, index, tmp_path) for index in range(SAMPLE)]
    failures = [f"case {v.index} ({v.family}): {'; '.join(v.problems)}\n{v.output[-600:]}" for v in verdicts if v.problems]
    assert not failures, "\n\n".join(failures) + "\n\nmake one again with: python scripts/fuzz.py --seed 20 --case N"
    assert {v.family for v in verdicts} == set(FAMILIES)  # the sample reaches every kind of case
    assert {v.code for v in verdicts} >= {0, 1, 2, 3, 4}


def test_fuzzing_covers_every_game_or_says_why_not(corpus):
    assert set(corpus.games) | set(corpus.skipped) == set(available_games())
    assert corpus.games, "no game could be fuzzed"


def test_the_same_seed_and_index_make_the_same_case(corpus):
    assert make_case(corpus, 3, 17) == make_case(corpus, 3, 17)
    assert make_case(corpus, 3, 17) != make_case(corpus, 3, 18)


# --- the judge finds what it is there to find ----------------------------------------


def judged(code, stdout="", stderr="", **case_fields):
    case = Case(0, "test", ["check", "{game.log}"], **case_fields)
    return fuzz.judge(case, fuzz.Outcome(code, stdout, stderr))


def test_the_judge_passes_a_located_verdict():
    assert judged(3, "game.log:4:7: error: unexpected 'x'\ngame.log: MALFORMED record\n") == []
    assert judged(1, "game.log:9:1: error[speicherstadt/card-face]: a fireman shows at most 5\n") == []
    assert judged(4, "", "specs/speicherstadt/cards.yaml:12:5: error: types: wrong\n") == []


@pytest.mark.parametrize(
    "outcome, problem",
    [
        ((5, "game.log:1:1: error: internal error: KeyError: 'x'"), "an internal error"),
        ((3, "game.log: error: cannot read this"), "no file:line:column"),
        ((1, "game.log:3:1: error: a move that breaks something"), "names no rule id"),
        ((0, "", "Traceback (most recent call last):\n  ..."), "a traceback"),
        ((2, ""), "a usage error without a message"),
    ],
)
def test_the_judge_fails_what_the_design_forbids(outcome, problem):
    assert any(problem in p for p in judged(*outcome))


def test_the_judge_holds_a_replaced_move_to_its_line():
    out = "game.log:12:1: error: unknown good 'x'\n"
    assert judged(3, out, expect=frozenset({0, 1, 3}), replaced_line=12) == []
    assert judged(3, out, expect=frozenset({0, 1, 3}), replaced_line=30)
    assert judged(4, "x.yaml:1:1: error: no", expect=frozenset({0, 1, 3}), replaced_line=30)


# --- the mutation check ----------------------------------------------------------------


@pytest.mark.parametrize("game", available_games())
def test_a_legal_game_with_one_move_replaced_replays_legal_or_names_the_rule_it_breaks(corpus, game):
    if game not in corpus.games:
        pytest.skip(f"{game}: its module does not load yet ({corpus.skipped[game]})")
    material = corpus.games[game]
    rng = random.Random(game)
    verdicts = set()
    for record in material.records:  # every player count
        rules = load_game(game, record_variants(record, game)).spec.rules
        for _ in range(REPLACEMENTS_PER_RECORD):
            text, line = replaced_move_record(rng, record, material.moves)
            report = check_bytes(text.encode(), "mutated.log")
            verdicts.add(report.status)
            where = f"{game}, line {line}: {text.splitlines()[line - 1]!r}: {[d.message for d in report.errors]}"
            assert report.status in ("legal", "illegal", "malformed"), where
            if report.status == "illegal":
                assert all(d.rule in rules for d in report.errors), where
            elif report.status == "malformed":  # a word this game does not know, on the replaced line
                assert [d.pos.line for d in report.errors] == [line], where
            else:  # the replay proves it: every move was applied and the game reached its end
                assert report.moves == sum(isinstance(e, Move) for e in report.record.entries), where
    assert "illegal" in verdicts
