"""`check -q`: each diagnostic's heading and the verdict line, whatever the file is called, and
a verdict that rests on the table's rulings says so on its own line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .speicherstadt.records import HEADER_2P

ROOT = Path(__file__).resolve().parents[1]
REFUSED = HEADER_2P + "reveal warehouse\nbeige: place 1\n"  # a worker before the supply is out


def quiet(folder: Path, name: str, text: str) -> subprocess.CompletedProcess:
    (folder / name).write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "referee", "check", "-q", name], capture_output=True, text=True, cwd=folder)


@pytest.mark.parametrize("name", ["  spaced.log", "ends with colon:", "   "])
def test_quiet_prints_the_diagnostic_and_the_verdict_whatever_the_name(tmp_path, name):
    result = quiet(tmp_path, name, REFUSED)
    assert result.returncode == 1
    lines = result.stdout.rstrip("\n").split("\n")
    assert lines[0].startswith(f"{name}:6:1: error[speicherstadt/phase-order]:")
    assert lines[-1].startswith(f"{name}: ILLEGAL (speicherstadt")
    assert not any("|" in line for line in lines)  # no source excerpt, no standings


def test_a_verdict_resting_on_rulings_says_so_on_its_line(tmp_path):
    result = quiet(tmp_path, "ruled.log", REFUSED + "ruling accept: we let it stand\n")
    assert result.returncode == 0
    assert result.stdout.strip().split("\n")[-1].endswith("; resting on 1 ruling of the table)")
