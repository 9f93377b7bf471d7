"""How an unreadable record is reported: the line quoted, the spot marked, the likely slip named."""

import pytest

from referee.engine.replay import check_bytes
from referee.report.diagnostics import format_report

HEADERS = {
    "canterbury": '[Game "canterbury"]\n[Players "blue, red, green"]\n\n',
    "hamburgum": '[Game "hamburgum"]\n[Players "red, blue"]\n\n',
    "speicherstadt": '[Game "speicherstadt"]\n[Players "red, blue"]\n\n',
}


def report_of(game: str, line: str) -> str:
    report = check_bytes((HEADERS[game] + line + "\n").encode(), "game.log")
    assert report.status == "malformed"
    return format_report(report)


@pytest.mark.parametrize(
    "game, line, expected",
    [
        ("canterbury", "blue: full build wel b3", "unknown structure 'wel' (did you mean 'well'?); structures: well,"),
        ("canterbury", "blue: full build well b33", "unknown district 'b33' (did you mean 'b3'?)"),
        ("speicherstadt", "reveal warehose", "unknown card 'warehose' (did you mean 'warehouse'?)"),
        ("hamburgum", "red: church petrie donate five", "unknown church 'petrie' (did you mean 'petri'?); churches: "),
    ],
)
def test_an_unknown_name_offers_the_closest_one(game, line, expected):
    assert expected in report_of(game, line)


def test_a_name_far_from_every_known_one_offers_none():
    text = report_of("canterbury", "blue: full build zzzzzz b3")
    assert "unknown structure 'zzzzzz'; structures:" in text and "did you mean" not in text


def test_a_misspelt_keyword_is_named_among_several_expected():
    text = report_of("canterbury", "blue: full build well b3 demolsh well")
    assert "unexpected 'demolsh' (did you mean 'demolish'?)" in text


def test_a_malformed_line_is_quoted_with_the_bad_word_marked():
    text = report_of("canterbury", "blue: full biuld well b3")
    lines = text.splitlines()
    assert lines[0].startswith("game.log:4:12: error: unexpected 'biuld'")
    assert lines[1] == "    4 | blue: full biuld well b3"
    assert lines[2] == "      |            ^~~~~"


def test_an_unexpected_character_is_marked_alone():
    lines = report_of("canterbury", "blue: full build well b3 ?").splitlines()
    assert lines[1] == "    4 | blue: full build well b3 ?"
    assert lines[2] == "      |                          ^"


def test_json_gives_the_marked_span():
    from referee.report.diagnostics import report_json

    report = check_bytes((HEADERS["canterbury"] + "blue: full build wel b3\n").encode(), "game.log")
    (diagnostic,) = report_json(report)["diagnostics"]
    assert (diagnostic["line"], diagnostic["column"], diagnostic["end_column"]) == (4, 18, 21)
