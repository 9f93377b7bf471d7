"""Records that cannot be read, or cannot be played as written, give a clear message with a
position and the right exit code; never a traceback."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.lab.random_game import play_game

from .records import HEADER_2P, HEADER_4P, check


def _error(report):
    return report.diagnostics[0]


def test_unknown_structure_points_at_the_word():
    text = HEADER_4P + "blue: full build cottage b3\n"
    report = check(text)
    assert report.status == "malformed" and report.exit_code == 3
    error = _error(report)
    assert "unknown structure 'cottage'" in error.message and "well" in error.message
    assert (error.pos.line, error.pos.column) == (text.count("\n"), len("blue: full build ") + 1)


def test_unknown_district_points_at_the_word():
    text = HEADER_4P + "blue: full build well f9\n"
    report = check(text)
    assert report.status == "malformed"
    assert "unknown district 'f9'" in _error(report).message
    assert _error(report).pos.column == len("blue: full build well ") + 1


def test_names_may_be_english_and_centre_is_an_alias():
    report = check(HEADER_4P + "blue: full build Garden in centre\nred: full build merchant-stall a1\n")
    assert report.errors[0].rule == "canterbury/connectivity"  # both names were read


def test_two_players_without_the_variant_are_told_to_add_it():
    text = '[Game "canterbury"]\n[Players "blue, red"]\n\nblue: full build well b3\n'
    report = check(text)
    assert report.status == "malformed" and report.exit_code == 3
    message = _error(report).message
    assert "two-player" in message and "[Variant" in message
    assert _error(report).pos.line == 2
    assert check(text, ["two-player"]).status == "legal"


def test_the_two_player_variant_is_for_two_players():
    text = HEADER_4P.replace('[Start "blue"]', '[Start "blue"]\n[Variant "two-player"]')
    report = check(text)
    assert report.status == "malformed"
    assert "for 2 players, not 4" in _error(report).message


def test_checkpoint_naming_nobody_is_malformed_not_an_internal_error():
    report = check(HEADER_4P + "check purple: money 6\n")
    assert report.status == "malformed"
    assert "city" in _error(report).message
    report = check(HEADER_4P + "check neutral: water 1\n")
    assert report.status == "malformed"
    report = check(HEADER_2P + "check neutral: water 0\ncheck city: position 1\n")
    assert report.status == "legal" and report.checkpoints_confirmed == 2


def test_unknown_checkpoint_figure_lists_the_known_ones():
    report = check(HEADER_4P + "check blue: gold 6\n")
    assert report.status == "malformed"
    assert "money" in _error(report).message and "prosperity" in _error(report).message


@pytest.mark.parametrize(
    "line",
    [
        "blue: full build\n",
        "blue: build well b3\n",
        "blue: tax build well\n",
        "blue: levy well b3\n",
        "blue: full build well b3 demolish\n",
        "blue: neutral skip well farm c2\n",
        "blue: full build well b3,, garden b3\n",
    ],
)
def test_syntax_errors_are_malformed(line):
    report = check(HEADER_4P + line)
    assert report.status == "malformed" and report.exit_code == 3
    assert report.diagnostics[0].pos.line == HEADER_4P.count("\n") + 1


WORDS = [
    "blue:",
    "red:",
    "full",
    "build",
    "tax",
    "levy",
    "neutral",
    "skip",
    "discard",
    "demolish",
    "serving",
    "well",
    "garden",
    "fountain",
    "guildhall",
    "roman-well",
    "b3",
    "c3",
    "a1",
    "centre",
    ",",
    "check",
    "money",
    "7",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=9), max_size=8))
def test_any_sequence_of_words_gets_a_verdict_not_a_crash(lines):
    text = HEADER_4P + "".join(" ".join(words) + "\n" for words in lines)
    report = check(text)
    assert report.status in ("legal", "illegal", "malformed"), [d.message for d in report.diagnostics]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=1, max_value=60))
def test_a_generated_game_cut_and_bent_anywhere_gets_a_verdict(seed, cut):
    lines = play_game("canterbury", 2 + seed % 3, seed % 50).splitlines()
    kept = lines[: len(lines) * cut // 60]
    if len(kept) > 8:
        kept[len(kept) // 2] = kept[len(kept) // 2].replace("well", "garden").replace("levy", "tax build well b3")
    report = check("\n".join(kept) + "\n")
    assert report.status in ("legal", "illegal", "malformed"), [d.message for d in report.diagnostics]
