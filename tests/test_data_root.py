"""The loaded games are kept per data root: switching REFEREE_DATA within one process gives the
game of the other data, and switching back gives the first again."""

import shutil
from pathlib import Path

from referee.games import load_game

ROOT = Path(__file__).resolve().parents[1]


def data_with_bell_limit(base: Path, limit: int) -> Path:
    """A copy of the specs whose Hamburgum bell limit is `limit`."""
    shutil.copytree(ROOT / "specs", base / "specs")
    components = base / "specs" / "hamburgum" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    assert "\nbell_limit: 1\n" in text
    components.write_text(text.replace("\nbell_limit: 1\n", f"\nbell_limit: {limit}\n"), encoding="utf-8")
    return base


def test_switching_referee_data_gives_the_other_spec(tmp_path, monkeypatch):
    two = data_with_bell_limit(tmp_path / "two", 2)
    three = data_with_bell_limit(tmp_path / "three", 3)
    monkeypatch.setenv("REFEREE_DATA", str(two))
    first = load_game("hamburgum")
    assert first.spec["components"]["bell_limit"] == 2
    monkeypatch.setenv("REFEREE_DATA", str(three))
    assert load_game("hamburgum").spec["components"]["bell_limit"] == 3
    monkeypatch.setenv("REFEREE_DATA", str(two))
    assert load_game("hamburgum") is first  # each root's game is still loaded only once
    monkeypatch.delenv("REFEREE_DATA")
    assert load_game("hamburgum").spec["components"]["bell_limit"] == 1
