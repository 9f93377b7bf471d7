"""Records that cannot be read: a clear message with line and column, never a traceback."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .records import HEADER_2P, RED_DONOR, check

WORDS = [
    "red",
    "blue",
    "beer",
    "trade",
    "upper",
    "sell",
    "bank",
    "buy",
    "church",
    "nikolai",
    "donate",
    "five",
    "score",
    "guildhall",
    "office",
    "at",
    "petri",
    "dockyard",
    "reveal",
    "canon",
    "1",
    "3",
    "12",
    ",",
    ":",
    "-",
]


@pytest.mark.parametrize(
    "line, word",
    [
        ("red: church stpauli donate five", "stpauli"),
        ("red: upper trade sell 1 coffee", "coffee"),
        ("red: upper trade buy 1 marble", "marble"),
        ("red: church nikolai donate gold", "gold"),
        ("red: guildhall tavern at nikolai 1", "tavern"),
        ("red: guildhall brewery at altona 1", "altona"),
        ("red: wine", "wine"),
        ("red: middle trade", "middle"),
        ("reveal emperor", "emperor"),
    ],
)
def test_unknown_names_are_malformed_with_their_position(line, word):
    report = check(HEADER_2P + line + "\n")
    assert report.status == "malformed" and report.exit_code == 3
    error = report.errors[0]
    assert word in error.message
    assert error.pos.line == HEADER_2P.count("\n") + 1
    assert error.pos.column == line.index(word) + 1


def test_a_site_needs_a_number():
    report = check(RED_DONOR + "red: guildhall brewery at nikolai\n")
    assert report.status == "malformed"
    assert "parish and a number" in report.errors[0].message


def test_names_in_other_forms_are_read():
    """Aliases and German names resolve to the same ids."""
    report = check(HEADER_2P + "red: bier\nblue: tuch\nred: unteres Kontor sell 2 beer\nblue: Werft 1\n")
    assert report.status == "legal", [d.message for d in report.errors]
    assert [type(m).__name__ for m in report.record.entries] == ["Produce", "Produce", "Trade", "Dockyard"]
    report = check(HEADER_2P + "red: bier\nblue: zucker\nred: unteres trade sell 2 beer\nblue: church st-nikolai donate prestige\n")
    assert report.status == "legal", [d.message for d in report.errors]
    assert report.state.players["blue"].tokens[0].church == "nikolai"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12))
def test_any_line_gives_a_verdict_not_a_crash(words):
    report = check(RED_DONOR + " ".join(words) + "\n")
    assert report.status in ("legal", "illegal", "malformed"), report.diagnostics


@pytest.mark.parametrize("line", ["red: trade sell 1 beer", "red: trade"])
def test_a_first_placement_on_trade_without_its_side_is_incomplete(line):
    """Rule hamburgum/trade-side: the record does not say where the marker stands, which is a
    gap in the record (exit 3), not a broken rule; the message offers both spellings."""
    report = check(HEADER_2P + line + "\n")
    assert (report.status, report.exit_code) == ("malformed", 3), report.diagnostics
    error = report.errors[0]
    assert error.rule is None and error.pos.line == HEADER_2P.count("\n") + 1
    assert "'upper trade'" in error.message and "'lower trade'" in error.message
