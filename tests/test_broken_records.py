"""Broken records end in a diagnostic with a position and the design's exit code, never a crash.

Each test here pins one input that once crashed the referee or could; the
property tests at the end throw generated text at it. The broad search lives
in `scripts/fuzz.py`, which the fuzz tests run a sample of.
"""

from __future__ import annotations

import functools
import io
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli.main import main
from referee.engine.replay import check_bytes, read_source
from referee.lab.random_game import play_game
from referee.notation.parser import MAX_LINE_CHARS, MAX_NUMBER_DIGITS, MAX_RECORD_BYTES

GAME = "speicherstadt"  # the notation is shared; one game's records stand for all here


@functools.cache
def legal_record(players: int = 3, seed: int = 1) -> str:
    """A complete legal record without its [Date] tag, so that it is the same every day."""
    text = play_game(GAME, players, seed)
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("[Date "))


def check(text: str | bytes):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return check_bytes(data, "game.log")


def assert_reported(report, status: str, line: int | None = None):
    """The record ends with `status` and its first error has a position (on `line`, when given)."""
    assert report.status == status, [d.message for d in report.diagnostics]
    error = report.errors[0]
    assert error.pos is not None and error.pos.line >= 1 and error.pos.column >= 1
    if line is not None:
        assert error.pos.line == line, (error.pos, error.message)
    return error


def line_of(text: str, fragment: str) -> int:
    """The line on which `fragment` first begins."""
    return text[: text.index(fragment)].count("\n") + 1


# --- tag values ------------------------------------------------------------------


def test_tag_values_take_pgn_escapes_and_any_backslash_is_harmless():
    record = "".join(line for line in legal_record().splitlines(keepends=True) if not line.startswith("[Event "))
    record = record.replace('[Start "', '[Event "Zo\\"\u00eb \\\\ \\N{bogus} \\x4"]\n[Start "', 1)
    report = check(record)
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.record.header.get("event") == 'Zo"\u00eb \\ N{bogus} x4'


# --- numbers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "where, old, new",
    [
        ("a move", "\nbeige: place ", "\nbeige: place {n} # was "),
        ("a move number", "\nbeige: place ", "\n{n}. beige: place "),
        ("a checkpoint", "\ncheck beige: points ", "\ncheck beige: points {n}, points "),
        ("the result", "\nresult ", "\nresult beige {n}, "),
    ],
)
def test_a_number_longer_than_any_game_needs_is_malformed_where_it_stands(where, old, new):
    long = "9" * 5000  # Python refuses to convert more than 4300 digits
    record = legal_record().replace(old, new.format(n=long), 1)
    error = assert_reported(check(record), "malformed", line_of(record, new.format(n=long)) + 1)
    assert "5000 digits" in error.message
    short = "9" * MAX_NUMBER_DIGITS
    assert check(legal_record().replace(old, new.format(n=short), 1)).status in ("legal", "illegal")


# --- size --------------------------------------------------------------------------


def test_the_game_tag_is_found_within_one_line_only():
    # `\s` in the tag search spanned line breaks, which made a long run of blank lines
    # take quadratic time (128 000 of them took 12 s)
    assert check('[\nGame "speicherstadt"]\n').status == "malformed"
    report = check("\n" * (MAX_RECORD_BYTES - len(legal_record()) - 1) + legal_record())
    assert report.status == "legal" and report.complete


def test_a_line_over_the_length_limit_is_malformed_at_the_first_character_too_many():
    lines = legal_record().split("\n")
    at = len(lines) // 2
    lines[at] += " # " + "x" * MAX_LINE_CHARS
    error = assert_reported(check("\n".join(lines)), "malformed", at + 1)
    assert error.pos.column == MAX_LINE_CHARS + 1
    lines[at] = lines[at][:MAX_LINE_CHARS]  # at the limit, and a comment: still the same game
    assert check("\n".join(lines)).status == "legal"


def test_a_record_over_the_size_limit_is_refused_after_reading_one_byte_more(tmp_path, monkeypatch, capsys):
    huge = tmp_path / "huge.log"
    huge.write_bytes(legal_record().encode() + b"#" * (4 * MAX_RECORD_BYTES))
    data, _ = read_source(str(huge))
    assert len(data) == MAX_RECORD_BYTES + 1
    assert main(["check", str(huge)]) == 3
    assert capsys.readouterr().out.startswith(f"{huge}:1:1: error: the record is longer than {MAX_RECORD_BYTES} bytes")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(huge.read_bytes())))
    assert main(["check", "-"]) == 3
    assert capsys.readouterr().out.startswith("<stdin>:1:1: error: the record is longer than")


# --- the command line ----------------------------------------------------------------


def test_check_starts_no_more_processes_than_there_are_files_or_processors(tmp_path, monkeypatch, capsys):
    from referee.cli import _workers as workers
    from referee.cli import parallel
    from referee.cli._workers import usable_processors

    started = []

    class Worker(workers._Worker):  # a real worker, counted
        def __init__(self, *args):
            started.append(self)
            super().__init__(*args)

    monkeypatch.setattr(workers, "_Worker", Worker)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)  # processes for records of any size
    files = []
    for i in range(2):
        files.append(tmp_path / f"{i}.log")
        files[-1].write_text(legal_record(), encoding="utf-8")
    assert main(["check", "-q", "-j", "1000", *map(str, files)]) == 0
    assert len(started) == min(2, usable_processors())
    assert capsys.readouterr().out.count(": legal (") == 2
    files += [files[0]] * usable_processors()  # more files than processors: -j 200 once started 200
    started.clear()
    assert main(["check", "-q", "-j", "200", *map(str, files)]) == 0
    assert len(started) == usable_processors()


@pytest.mark.parametrize("argv", [["play", GAME, "--players", "3", "--out"], ["docs", "--out"]], ids=["play", "docs"])
def test_an_output_path_that_cannot_be_written_is_a_usage_error(tmp_path, capsys, argv):
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    target = blocked / "inside"  # a file cannot hold files
    assert main([*argv, str(target)]) == 2
    err = capsys.readouterr().err
    assert f"error: cannot write {target}" in err and "internal error" not in err


@pytest.mark.parametrize("form", ["text", "json"])
def test_show_says_why_an_illegal_record_stopped_in_either_format(tmp_path, capsys, form):
    record = tmp_path / "game.log"
    text = legal_record().replace("\nbeige: place ", "\nbeige: place 9", 1)
    record.write_text(text, encoding="utf-8")
    assert main(["show", str(record), "--format", form]) == 1
    err = capsys.readouterr().err
    assert f"{record}:{line_of(text, 'beige: place 9')}:1: error[{GAME}/" in err


def test_a_record_with_thousands_of_contradicted_checkpoints_is_split_into_lines_once():
    # every diagnostic quotes its line; splitting the text for each made such records quadratic
    lines = legal_record().split("\n")
    first = line_of(legal_record(), "check beige:")
    record = "\n".join(lines[:first] + [lines[first - 1].replace("coins", "coins 1, coins")] * 3000 + lines[first:])
    report = check(record)
    assert report.status == "illegal" and len(report.errors) >= 3000
    assert report.record.lines is report.record.lines


# --- generated input -------------------------------------------------------------------

VERDICTS = ("legal", "illegal", "malformed", "invalid-spec")


def assert_verdict(report):
    """Whatever the input, a verdict; an error always has a position and a violation a rule id."""
    assert report.status in VERDICTS, [d.message for d in report.diagnostics]
    for d in report.errors:
        assert d.pos is not None or d.file is not None, d.message
        if report.status == "illegal" and d.pos is not None:
            assert d.rule, d.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=3000), with_header=st.booleans())
def test_any_bytes_end_in_a_verdict(data, with_header):
    header = "".join(legal_record().splitlines(keepends=True)[:4]).encode() if with_header else b""
    assert_verdict(check(header + data))


def record_lines():
    return legal_record().split("\n")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # the fuzzer puts in thousands more (scripts/fuzz.py)
@given(
    at=st.integers(min_value=0, max_value=len(record_lines())),
    text=st.text(st.characters(blacklist_categories=["Cs"]), max_size=80),
)
def test_any_text_put_into_a_legal_record_ends_in_a_verdict(at, text):
    lines = record_lines()
    assert_verdict(check("\n".join(lines[:at] + [text] + lines[at:])))


def test_a_number_for_a_checkpoint_figure_that_lists_words_is_malformed_not_a_crash():
    record = legal_record().replace("\ncheck beige: points 0, coins ", "\ncheck beige: points 0, warehouse 3, coins ", 1)
    error = assert_reported(check(record), "malformed", line_of(record, "check beige: points 0, warehouse 3"))
    assert error.message == "checkpoint figure 'warehouse' lists words (such as goods), not a number"
