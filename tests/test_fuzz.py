"""A sample of the fuzz cases, and the mutation check on legal games of every game.

The full runs are `python scripts/fuzz.py --cases 100000`; here a hundred and fifty
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

from referee.engine.replay import check_bytes, record_variants  # noqa: E402
from referee.games import load_game  # noqa: E402
from referee.notation.parser import Move  # noqa: E402
from referee.spec.loader import available_games  # noqa: E402

SAMPLE = 150
REPLACEMENTS_PER_RECORD = 4


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.build()


def first_cases(corpus: Corpus, seed: int, families: set[str], start: int) -> list[int]:
    """The first index of each family at or after `start` (a rare family may miss a sample)."""
    found: dict[str, int] = {}
    index = start
    while set(found) != families:
        family = make_case(corpus, seed, index).family
        if family in families:
            found.setdefault(family, index)
        index += 1
    return sorted(found.values())


def test_a_sample_of_fuzz_cases_ends_with_exit_codes_and_located_messages(corpus, tmp_path):
    options = fuzz.parse_args(["--seed", "20", "--subprocess-every", "100"])
    verdicts = [fuzz.run_one(corpus, options, index, tmp_path) for index in range(SAMPLE)]
    missing = set(FAMILIES) - {v.family for v in verdicts}
    verdicts += [fuzz.run_one(corpus, options, index, tmp_path) for index in first_cases(corpus, 20, missing, SAMPLE)]
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


@pytest.mark.parametrize(
    "stdout, problem",
    [
        ("game.log:4:7: error: unknown name 'a\x1b[2Jb'\n", "raw control or invisible character"),
        ("game.log: legal\n  1. beige (Anna\u202e)\n", "raw control or invisible character"),
        ("x" * (fuzz.OUTPUT_PER_RECORD + 1), "characters of output"),
    ],
)
def test_the_judge_fails_raw_control_characters_and_unbounded_output(stdout, problem):
    assert any(problem in p for p in judged(0, stdout))


def test_the_judge_lets_moves_all_list_every_move_and_nothing_more():
    """`moves --all` lists every legal move, as asked; a Canterbury position can have seven
    thousand. Its output may grow by one short line per move, and by nothing else."""
    listing = "game.log: the legal moves of blue\n" + "  blue: full build stage c3 demolish roman-well chapel, fountain d1\n" * 7000
    assert len(listing) > fuzz.OUTPUT_PER_RECORD
    moves_all = Case(0, "test", ["moves", "{game.log}", "--all"])
    assert fuzz.judge(moves_all, fuzz.Outcome(0, listing)) == []
    for argv in (["moves", "{game.log}"], ["check", "{game.log}"]):  # no listing of every move asked for
        assert any("characters of output" in p for p in fuzz.judge(Case(0, "test", argv), fuzz.Outcome(0, listing)))
    padded = listing + "x" * (fuzz.OUTPUT_PER_RECORD + 1)  # beyond the moves listed
    assert any("characters of output" in p for p in fuzz.judge(moves_all, fuzz.Outcome(0, padded)))
    overlong = "  " + "x" * (fuzz.OUTPUT_PER_RECORD + 1) + "\n"  # one line is no move
    assert any("characters of output" in p for p in fuzz.judge(moves_all, fuzz.Outcome(0, overlong)))


def test_the_judge_reads_json_output():
    case = Case(0, "test", ["check", "{game.log}", "--format", "json"])
    assert fuzz.judge(case, fuzz.Outcome(0, '{"file": "game.log"}')) == []
    assert any("not JSON" in p for p in fuzz.judge(case, fuzz.Outcome(0, '{"file": "game.log"')))


def stream_judged(stream, code, verdict, printed="game.log: ILLEGAL\n", argv=("check", "{game.log}")):
    case = Case(0, "test", list(argv), stream=stream, process_only=True)
    return fuzz.judge_process(case, fuzz.Outcome(code), fuzz.Outcome(verdict, printed))


def test_the_judge_holds_disturbed_streams_to_the_truth():
    assert stream_judged("stdout-closed", 6, 1) == [] and stream_judged("stdout-full", 6, 0) == []
    assert stream_judged("stdout-closed", 1, 1)  # the verdict was never written: 6, not 1
    assert stream_judged("stdout-pipe-closed", 1, 1) == [] and stream_judged("stdout-pipe-closed", 141, 1) == []
    assert stream_judged("stdout-pipe-closed", 0, 1)  # a closed pipe once turned a violation into 0
    assert stream_judged("stderr-full", 2, 2, printed="") == [] and stream_judged("stderr-full", 1, 2, printed="")
    assert stream_judged("stdin-closed", 2, None, argv=("check", "-")) != []  # no message saying why
    case = Case(0, "test", ["check", "-"], stream="stdin-closed", process_only=True)
    assert fuzz.judge_process(case, fuzz.Outcome(2, "referee check: error: cannot read -: standard input is closed\n"), None) == []


def test_the_judge_holds_a_killed_worker_run_to_every_file():
    case = Case(0, "test", ["check", "-j", "2", "{g0.log}", "{g1.log}", "{g2.log}"], {"g0.log": b"", "g1.log": "fifo", "g2.log": b""}, kill="worker", process_only=True)
    good = "/x/g0.log: legal (speicherstadt)\n\n/x/g1.log: NOT CHECKED: a worker stopped\n\n/x/g2.log: NOT CHECKED: a worker stopped\n"
    assert fuzz.judge_process(case, fuzz.Outcome(5, good), None) == []
    assert fuzz.judge_process(case, fuzz.Outcome(0, good), None)
    assert fuzz.judge_process(case, fuzz.Outcome(5, ""), None)  # every result lost
    orphaned = Case(0, "test", case.argv, case.files, kill="parent", process_only=True)
    assert fuzz.judge_process(orphaned, fuzz.Outcome(-9, orphans=[4242]), None)


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


def test_a_real_process_is_measured_by_its_own_memory_not_that_of_its_starter(tmp_path):
    """The peak of the command only: this process holds more than the limit while it starts it."""
    ballast = bytearray(fuzz.MAX_MEGABYTES * 1024 * 1024 + 50 * 1024 * 1024)
    ballast[::4096] = b"x" * len(ballast[::4096])  # touched, so resident
    outcome = fuzz.run_subprocess(Case(0, "", ["--version"], {}), tmp_path / "case")
    del ballast
    assert outcome.code == 0 and outcome.megabytes is not None
    assert 5 < outcome.megabytes < fuzz.MAX_MEGABYTES
