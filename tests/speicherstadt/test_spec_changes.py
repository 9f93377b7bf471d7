"""Rules read their numbers from the spec: editing YAML changes verdicts and scores."""

import shutil
from pathlib import Path

import pytest

from ..runner import run
from .records import TO_SPRING

ROOT = Path(__file__).resolve().parents[2]


def referee(*args, data=None, stdin=None, cwd=None):
    return run(*args, stdin=stdin, env={"REFEREE_DATA": str(data)} if data is not None else None, cwd=cwd or ROOT)


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of specs/ and grammar/ that a test may edit."""
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    return tmp_path


def test_deck_that_no_longer_adds_up_exits_4_naming_file_and_key(data_copy):
    cards = data_copy / "specs" / "speicherstadt" / "cards.yaml"
    cards.write_text(cards.read_text().replace("counts: {B: 5, C: 5, D: 5}", "counts: {B: 5, C: 5, D: 6}"))
    result = referee("validate", str(data_copy / "specs" / "speicherstadt"))
    assert result.returncode == 4
    out = result.stdout + result.stderr
    assert "speicherstadt/cards.yaml:" in out and "seasons.D" in out and "should hold 15 cards" in out
    # the same broken data stops `check` too, with the same exit code
    result = referee("check", "-", data=data_copy, stdin=TO_SPRING)
    assert result.returncode == 4
    out = result.stdout + result.stderr
    assert "speicherstadt/cards.yaml:" in out and "seasons.D" in out


def test_moving_a_fireman_to_another_season_changes_the_verdict(data_copy):
    assert referee("check", "-", stdin=TO_SPRING).returncode == 0
    cards = data_copy / "specs" / "speicherstadt" / "cards.yaml"
    text = cards.read_text()
    text = text.replace("counts: {A: 2, B: 3, C: 2, D: 3}", "counts: {A: 1, B: 4, C: 2, D: 3}")
    text = text.replace("{id: A, names: {en: Winter, de: Winter, hu: Tél}, cards: 12}", "{id: A, names: {en: Winter, de: Winter, hu: Tél}, cards: 11}")
    text = text.replace("{id: B, names: {en: Spring, de: Frühling, hu: Tavasz}, cards: 13}", "{id: B, names: {en: Spring, de: Frühling, hu: Tavasz}, cards: 14}")
    cards.write_text(text)
    assert referee("validate", str(data_copy / "specs" / "speicherstadt")).returncode == 0
    result = referee("check", "-", data=data_copy, stdin=TO_SPRING)
    assert result.returncode == 1
    assert "error[speicherstadt/deck-season]" in result.stdout
    assert "<stdin>:37:1" in result.stdout  # the second Winter fireman


def test_counting_office_table_overlay_changes_the_score(tmp_path):
    text = (ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log").read_text()
    record = tmp_path / "no-result.log"
    record.write_text(text[: text.index("\nresult")] + "\n")
    base = referee("check", str(record), "--format", "json")
    assert base.returncode == 0
    overlay = tmp_path / "offices.yaml"
    overlay.write_text(
        "kind: variant\nid: rich-offices\ngame: speicherstadt\ntitle: Counting offices worth ten times as much\n"
        "changes:\n  scoring:\n    counting_offices:\n      points: {1: 20, 2: 50, 3: 90, 4: 140}\n"
    )
    changed = referee("check", str(record), "--format", "json", "--variant", str(overlay))
    assert changed.returncode == 0
    import json

    before = {s["player"]: s["breakdown"].get("counting offices", 0) for s in json.loads(base.stdout)["standings"]}
    after = {s["player"]: s["breakdown"].get("counting offices", 0) for s in json.loads(changed.stdout)["standings"]}
    assert any(before.values())
    assert after == {p: v * 10 for p, v in before.items()}
    # with the result line the table wrote, the new scores contradict it: the verdict changes
    original = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"
    assert referee("check", str(original), "--variant", str(overlay)).returncode == 1


def test_rule_words_follow_the_numbers_a_variant_changes(tmp_path):
    from referee.spec.loader import load_spec

    overlay = tmp_path / "coins.yaml"
    overlay.write_text("kind: variant\nid: rich\ngame: speicherstadt\ntitle: Seven coins each\nchanges:\n  components:\n    coins: {start: 7}\n")
    base = load_spec("speicherstadt").rules["speicherstadt/start-money"]
    rich = load_spec("speicherstadt", [str(overlay)]).rules["speicherstadt/start-money"]
    assert base.title == "Everyone starts with 5 coins"
    assert rich.title == "Everyone starts with 7 coins"
    assert "{" not in rich.text and "7 coins" in rich.text
