"""The overview pages and the text users read: a turn of actions is shown as such, not as
phases; the box of facts has no empty table header; no internal references in what users read."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from referee import site as docs
from referee.errors import SpecError
from referee.spec.loader import available_games, load_spec

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {page.path: page.text for page in docs.render_site()}


def test_canterburys_three_actions_are_the_choices_of_a_turn(pages):
    overview = pages["canterbury/index.md"]
    turn = overview.split("## Turn structure", 1)[1].split("\n## ", 1)[0]
    assert "phase" not in turn.lower()
    assert "one of these three actions" in turn
    assert "| Action | English | German | Hungarian | Rules |" in turn
    for action, name in (("levy", "Levy"), ("full-build", "Full Build"), ("tax-build", "Tax & Build")):
        row = next(line for line in turn.splitlines() if line.startswith(f"| `{action}` |"))
        assert f"| {name} |" in row and f"(rules.md#{action})" in row


def test_hamburgums_rondel_actions_are_the_choices_of_a_turn(pages):
    turn = pages["hamburgum/index.md"].split("## Turn structure", 1)[1].split("\n## ", 1)[0]
    assert "phase" not in turn.lower() and "rondel" in turn
    rows = [line for line in turn.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == list(load_spec("hamburgum")["rondel"]["actions"])
    assert all("(rules.md#section-" in r for r in rows)  # every action leads to its rules


def test_the_speicherstadts_round_still_runs_through_its_phases(pages):
    turn = pages["speicherstadt/index.md"].split("## Turn structure", 1)[1].split("\n## ", 1)[0]
    assert "runs through these phases in order" in turn and "| 5 | Income |" in turn


def test_a_turn_must_name_a_mapping_of_actions(tmp_path):
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    game = tmp_path / "specs" / "canterbury" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("actions: setup:actions", "actions: setup:moves"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_spec("canterbury", root=tmp_path / "specs")
    assert caught.value.file == str(game) and caught.value.key == "turn.actions"
    assert "setup:moves is not a mapping of actions" in caught.value.message


def header_rows(markdown: str):
    """The header row of every table of a page."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines[1:], 1):
        if re.fullmatch(r"\|(---\|)+", line.strip()):
            yield lines[i - 1]


def test_no_table_has_an_empty_header_row(pages):
    for path, text in pages.items():
        for header in header_rows(text):
            assert any(cell.strip() for cell in header.strip().strip("|").split("|")), f"{path}: {header}"


def test_the_overview_box_holds_the_facts(pages):
    for game in available_games():
        overview = pages[f"{game}/index.md"]
        assert '!!! info "At a glance"' in overview
        players = load_spec(game).meta["players"]
        assert f"    **Players:** {players['min']}–{players['max']}" in overview


# Words that speak of how the project was researched rather than to the reader.
INTERNAL = re.compile(r"open question|fact sheet|\bdossier\b|\bthe seed\b|\bseed text\b", re.I)


def test_text_users_read_has_no_internal_references(pages):
    found = []
    for path, text in pages.items():
        found += [f"{path}: {m.group(0)}" for m in INTERNAL.finditer(text)]
    for path in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md", *(ROOT / "specs").rglob("*.yaml"), *(ROOT / "grammar").glob("*.lark")]:
        found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in INTERNAL.finditer(path.read_text(encoding="utf-8"))]
    for game in available_games():
        spec = load_spec(game)
        for rule in spec.rules.values():
            found += [f"{rule.id}: {m.group(0)}" for m in INTERNAL.finditer(f"{rule.text} {rule.reading or ''}")]
        for p in spec.provenance.values():
            found += [f"{game} {p.address}: {m.group(0)}" for m in INTERNAL.finditer(p.note)]
    assert not found, found


def test_a_reading_says_what_is_uncertain(pages):
    rules = pages["canterbury/rules.md"]
    assert "No source reached gives the English edition's wording of every name." in rules
    assert "Open question 16" not in rules
