"""A rule the code checks but rules.yaml lacks is invalid spec data (exit 4) naming rules.yaml and
the rule id: not an internal error with a traceback."""

import shutil
from pathlib import Path

import pytest

from referee import games
from referee.cli.main import main
from referee.errors import SpecError
from referee.games import load_game
from referee.spec import loader as spec

ROOT = Path(__file__).resolve().parents[1]
QUICK_START = ROOT / "specs" / "hamburgum" / "examples" / "quick-start.log"


def drop_rule(path: Path, rid: str) -> None:
    """Remove the entry `- id: <rid>` from a rules.yaml, up to the next entry."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"  - id: {rid}\n")
    end = text.index("  - id: ", start + 1)
    path.write_text(text[:start] + text[end:], encoding="utf-8")


@pytest.fixture
def edited_shipped_data(tmp_path, monkeypatch):
    """A copy of the data standing for the data shipped with the code, as when someone edits
    the specs of their own checkout: no shipped rules.yaml is left to compare it with."""
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(tmp_path))
    monkeypatch.setattr(spec, "shipped_data_root", lambda: tmp_path)
    clear = (spec._load_spec.cache_clear, spec._shipped_rule_ids.cache_clear, games._load.cache_clear)
    for c in clear:
        c()
    yield tmp_path
    monkeypatch.undo()
    for c in clear:
        c()


def test_an_unknown_rule_id_is_a_spec_error_naming_rules_yaml():
    with pytest.raises(SpecError) as caught:
        load_game("hamburgum").rule("no-such-rule")
    assert caught.value.file.endswith("rules.yaml")
    assert "no rule hamburgum/no-such-rule" in caught.value.display()


def test_check_with_a_rule_dropped_from_rules_yaml_exits_4_naming_the_rule(edited_shipped_data, capsys):
    rules = edited_shipped_data / "specs" / "hamburgum" / "rules.yaml"
    drop_rule(rules, "hamburgum/turn-order")
    code = main(["check", str(QUICK_START)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 4, text
    assert f"{rules}:" in text and "no rule hamburgum/turn-order" in text
    assert "internal error" not in text and "Traceback" not in text


@pytest.mark.parametrize("rid", ["hamburgum/trade-either", "hamburgum/church-one"])
def test_a_rule_checked_at_every_turn_of_its_kind_is_missed_even_when_unbroken(edited_shipped_data, capsys, rid):
    """The checks whose message is written only for a broken rule still look their rule up
    whenever they run: a legal record whose turns those rules judge exits 4 without them."""
    rules = edited_shipped_data / "specs" / "hamburgum" / "rules.yaml"
    drop_rule(rules, rid)
    code = main(["check", str(QUICK_START)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 4, text
    assert f"no rule {rid}" in text and "Traceback" not in text
