"""benchmarks/compare.py: `referee play` of an earlier commit, imported beside the working
tree's, against it game by game."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import compare  # noqa: E402

from referee.engine.replay import check_bytes  # noqa: E402
from referee.lab.random_game import play_game  # noqa: E402


def test_every_game_is_timed_on_both_sides_and_the_same_games_are_recognised():
    found = compare.compare("speicherstadt", play_game, play_game, games=8)
    assert len(found.ratios) == 8 and all(r > 0 for r in found.ratios)
    assert found.same_games and found.earlier > 0 and found.now > 0
    assert "times as fast per game" in found.summary() and "different games" not in found.summary()


def test_a_side_that_writes_other_games_is_named():
    def other(game, players, seed):
        return play_game(game, players, seed + 1)

    found = compare.compare("speicherstadt", other, play_game, games=4)
    assert not found.same_games
    assert "different games" in found.summary()


def test_checks_are_timed_record_by_record_and_a_side_that_reports_otherwise_is_named():
    found = compare.compare_checks("speicherstadt", check_bytes, check_bytes, records=6)
    assert len(found.ratios) == 6 and all(r > 0 for r in found.ratios)
    assert found.same_games and "times as fast per record" in found.summary() and "report differently" not in found.summary()

    def refuses_everything(data, name):
        return check_bytes(data[: len(data) // 2], name)  # half a record: not a finished game

    found = compare.compare_checks("speicherstadt", refuses_everything, check_bytes, records=4)
    assert not found.same_games and "report differently" in found.summary()


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="needs the git checkout")
def test_a_commit_is_imported_under_its_own_name_with_its_own_data(tmp_path):
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    earlier = compare.earlier_play(head, tmp_path)
    assert earlier.__name__ == f"referee_{head}.lab.random_game"
    assert Path(earlier.__file__).is_relative_to(tmp_path)
    from referee.spec.loader import shipped_data_root

    assert sys.modules[f"referee_{head}.spec.loader"].shipped_data_root() == tmp_path.resolve()
    assert shipped_data_root() != tmp_path.resolve()
    report = check_bytes(earlier.play_game("canterbury", 3, 4).encode(), "earlier.log")
    assert report.status == "legal" and report.complete and report.standings


def test_the_command_refuses_an_unknown_game_and_a_commit_it_cannot_read(capsys):
    with pytest.raises(SystemExit) as stop:
        compare.main(["HEAD", "--only", "chess"])
    assert stop.value.code == 2 and "unknown game 'chess'" in capsys.readouterr().err
    assert compare.main(["no-such-commit-anywhere", "--games", "4"]) == 2
    assert "cannot load the package of 'no-such-commit-anywhere'" in capsys.readouterr().err
