"""The code is as ruff formats it and passes ruff's lint rules (settings in pyproject.toml), so
that the test command, which CI runs, checks the style too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", [["format", "--check", "."], ["check", "."]], ids=["format", "lint"])
def test_ruff_finds_nothing_to_change(command):
    done = subprocess.run([sys.executable, "-m", "ruff", *command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
