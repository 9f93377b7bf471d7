"""The notation page's "Limits" section states the limits the reader enforces, with the reader's
own numbers, and its example of tag escapes reads as it says."""

import re
from pathlib import Path

import pytest

from referee.engine.replay import check_bytes
from referee.notation.parser import MAX_LINE_CHARS, MAX_NUMBER_DIGITS, MAX_RECORD_BYTES

ROOT = Path(__file__).resolve().parents[1]
HEADER = b'[Game "hamburgum"]\n[Players "red, blue"]\n'


@pytest.fixture(scope="module")
def limits() -> str:
    page = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    section = re.search(r"^## Limits\n(.*?)(?=^## |\Z)", page, re.MULTILINE | re.DOTALL)
    assert section, "docs/notation.md has no Limits section"
    return " ".join(section.group(1).split())


def test_the_numbers_are_the_readers(limits):
    assert f"more than {MAX_RECORD_BYTES // 1024} KB ({MAX_RECORD_BYTES:,} bytes)" in limits
    assert f"a line of more than {MAX_LINE_CHARS:,} characters" in limits
    assert f"a number of more than {MAX_NUMBER_DIGITS} digits" in limits
    assert "NUL byte" in limits and "not UTF-8" in limits


@pytest.mark.parametrize(
    "data",
    [
        HEADER + b"#" * (MAX_RECORD_BYTES - len(HEADER) + 1),
        HEADER + b"#" * (MAX_LINE_CHARS + 1) + b"\n",
        HEADER + b"check red: money " + b"1" * (MAX_NUMBER_DIGITS + 1) + b"\n",
        HEADER + b"\x00\n",
        HEADER + b"# \xff\n",
    ],
    ids=["record", "line", "number", "nul", "not-utf-8"],
)
def test_each_limit_makes_an_unreadable_record(data):
    assert check_bytes(data, "x.log").exit_code == 3


def test_right_at_each_limit_the_record_is_read():
    data = HEADER + b"#" * MAX_LINE_CHARS + b"\n" + b"check red: money " + b"0" * MAX_NUMBER_DIGITS + b"\n"
    assert check_bytes(data, "x.log").exit_code in (0, 1)


def test_the_escape_example_reads_as_the_page_says(limits):
    example = re.search(r"`(\[Event .*?\])`", limits).group(1)
    report = check_bytes(HEADER + example.encode() + b'\n[Date "a \\\\ b"]\n', "x.log")
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.record.header.get("event") == 'the "long" game'
    assert report.record.header.get("date") == "a \\ b"
