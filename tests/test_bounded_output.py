"""Output is bounded by the 200-diagnostic cap in every command, not only `check`: a record of
3,000 contradicted checkpoints says 200 of them and counts the rest."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.recording.session import record_stream

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"


@pytest.fixture(scope="module")
def contradicted(tmp_path_factory) -> Path:
    lines = SAMPLE.read_text().split("\n")
    first = lines.index("reveal coffee-roaster")
    path = tmp_path_factory.mktemp("bounded") / "contradicted.log"
    path.write_text("\n".join(lines[:first] + ["check beige: coins 99"] * 3000 + lines[first:]))
    return path


@pytest.mark.parametrize("command", [["show"], ["moves"], ["draw"], ["replay"]])
def test_every_command_shows_at_most_two_hundred_diagnostics(contradicted, capsys, command):
    assert main(command + [str(contradicted)]) == 1
    out, err = capsys.readouterr()
    assert err.count("error[speicherstadt/checkpoint]") == 200
    assert "... and 2800 more errors" in err and len(err) < 60_000
    if command == ["replay"]:
        assert out.count("coins recorded as 99") <= 2 * 200 and "and 2800 more problems" in out  # in the list and in its data


def test_record_shows_at_most_two_hundred_diagnostics(contradicted, tmp_path, capsys):
    path = tmp_path / "contradicted.log"
    path.write_bytes(contradicted.read_bytes())
    assert record_stream(str(path), io.BytesIO(b"n\n")) == 1
    out = capsys.readouterr().out
    assert out.count("error[speicherstadt/checkpoint]") == 200 and "... and 2800 more errors" in out
