"""A copied Hamburgum spec that lacks what the game reads is invalid data (exit 4) with a message
that names the file and the key, in `check` and in `validate` alike; never an empty message."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.replay import check_bytes

from .records import QUICK_START

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(tmp_path):
    """A private copy of the specs and grammars, for REFEREE_DATA."""
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def referee(data: Path, *args) -> subprocess.CompletedProcess:
    env = {**os.environ, "REFEREE_DATA": str(data)}
    return subprocess.run([sys.executable, "-m", "referee", *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=env)


def drop_bell(data: Path) -> None:
    edit(data / "specs" / "hamburgum" / "components.yaml", "  bell: {names:", "  # bell: {names:")


def test_a_missing_bell_names_the_file_and_key_in_check_and_validate(data):
    drop_bell(data)
    components = data / "specs" / "hamburgum" / "components.yaml"
    for args in (("check", QUICK_START), ("validate", data / "specs" / "hamburgum")):
        run = referee(data, *args)
        out = run.stdout + run.stderr
        assert run.returncode == 4, out
        assert f"{components}:9:1: error: materials.bell: missing (the game needs it" in out, out
        assert "Traceback" not in out and "StopIteration" not in out


def test_a_material_a_donation_names_must_exist(data):
    edit(data / "specs" / "hamburgum" / "components.yaml", "  wood: {names:", "  # wood: {names:")
    run = referee(data, "check", QUICK_START)
    assert run.returncode == 4, run.stdout + run.stderr
    assert "materials.wood: missing (the game needs it: donation 2 in churches.yaml costs wood)" in run.stdout + run.stderr


def test_the_bell_is_the_one_material_no_house_costs(data):
    edit(data / "specs" / "hamburgum" / "houses.yaml", "cost: {wood: 1, brick: 1}", "cost: {wood: 1, brick: 1, bell: 1}")
    run = referee(data, "validate", data / "specs" / "hamburgum")
    assert run.returncode == 4
    assert "components.yaml:9:1: error: materials: the game needs exactly one material that no house costs, the bell; here: none" in run.stderr


def test_a_set_up_failure_the_checks_miss_still_says_where(data, monkeypatch):
    """Without the cross-check, the game's own set-up meets the missing bell: the message names
    the error and the line of the game module, never nothing."""
    from referee import games
    from referee.games.hamburgum import Hamburgum

    drop_bell(data)
    monkeypatch.setenv("REFEREE_DATA", str(data))
    monkeypatch.setattr(Hamburgum, "check_spec", classmethod(lambda cls, spec: None))
    games._load.cache_clear()
    try:
        report = check_bytes(QUICK_START.read_bytes(), "quick-start.log")
    finally:
        monkeypatch.undo()
        games._load.cache_clear()
    assert report.status == "invalid-spec"
    message = report.errors[0].message
    assert message.startswith("the hamburgum rules cannot use this data: StopIteration: nothing in the data matched")
    assert "(at hamburgum/game.py:" in message and "bell" in message
