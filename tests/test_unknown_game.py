"""A misspelt game name gets the nearest game's name, wherever a game is named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUESS = "unknown game 'speicherstad'; did you mean 'speicherstadt'? known games: canterbury, hamburgum, speicherstadt"


@pytest.mark.parametrize("arguments", [["play", "speicherstad", "--players", "2"], ["record", "new.log", "--game", "speicherstad", "--players", "beige, orange"]])
def test_a_misspelt_game_on_the_command_line_gets_did_you_mean(tmp_path, arguments):
    result = subprocess.run([sys.executable, "-m", "referee", *arguments], capture_output=True, text=True, cwd=tmp_path, input="")
    assert result.returncode == 2
    assert GUESS in result.stderr
    assert not (tmp_path / "new.log").exists()


def test_a_misspelt_game_in_a_record_gets_did_you_mean(tmp_path):
    from referee.engine.replay import check_bytes

    report = check_bytes(b'[Game "speicherstad"]\n[Players "beige, orange"]\n', "game.log")
    assert report.exit_code == 3 and GUESS in report.errors[0].message


def test_a_name_like_no_game_gets_no_guess(tmp_path):
    from referee.spec.loader import unknown_game

    assert unknown_game("chess", ["canterbury", "hamburgum", "speicherstadt"]) == "unknown game 'chess'; known games: canterbury, hamburgum, speicherstadt"
