"""Rule words follow the data: a variant that changes a number changes the rule's wording."""

from referee.spec.loader import load_spec


def test_upgrade_bonus_words_follow_a_variant(tmp_path):
    overlay = tmp_path / "canterbury-upgrade-five.yaml"
    overlay.write_text("kind: variant\nid: big-upgrades\ngame: canterbury\ntitle: Upgrades score five\nchanges:\n  scoring:\n    upgrade: {points: 5}\n")
    base = load_spec("canterbury").rules["canterbury/upgrade-bonus"]
    bigger = load_spec("canterbury", [str(overlay)]).rules["canterbury/upgrade-bonus"]
    assert base.title == "Upgrade bonus of 3"
    assert "scores 3 points" in base.text
    assert bigger.title == "Upgrade bonus of 5"
    assert "{" not in bigger.text and "scores 5 points" in bigger.text
