"""Checkpoint figures: documented from the table the rules read them through, one spelling
for an empty list, messages that never contradict themselves, and a replay that goes on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee import site as docs
from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.report.diagnostics import format_report
from referee.spec.figures import figures_of, keys_of, reader_name
from referee.spec.loader import available_games, data_root, forget_loaded_specs, load_spec

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = (ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log").read_text(encoding="utf-8")
HEADER = '[Game "speicherstadt"]\n[Players "beige Anna, orange Ben"]\n[Start "beige"]\n\n'


def check(text: str):
    return check_bytes(text.encode("utf-8"), "t.log")


def _readers(game: str) -> dict:
    return load_game(game).figure_table.readers


# --- the figure table and the Notation page ----------------------------------------------


@pytest.mark.parametrize("game", available_games())
def test_the_notation_page_lists_every_figure_with_what_it_counts_and_when_it_changes(game):
    spec = load_spec(game)
    page = next(p.text for p in docs.game_pages(spec, data_root()) if p.path == f"{game}/notation.md")
    section = page.split("## Checkpoint figures", 1)[1].split("## Complete examples", 1)[0]
    figures = figures_of(spec)
    assert figures
    for figure in figures:
        for key, _ in keys_of(spec, figure):
            assert f"`{key}`" in section
        assert figure.counts.split()[0] in section and figure.changes.split()[0] in section


@pytest.mark.parametrize("game", available_games())
def test_the_rules_read_exactly_the_figures_of_the_table(game):
    """Every reader of the rules has its line in figures.yaml, and the other way round."""
    g = load_game(game)
    assert set(_readers(game)) == {reader_name(f) for f in g.figure_table.figures}


@pytest.mark.parametrize("game", available_games())
def test_a_states_figures_are_the_tables_keys(game):
    g = load_game(game)
    text = {"speicherstadt": HEADER, "hamburgum": '[Game "hamburgum"]\n[Players "red, blue"]\n\n', "canterbury": '[Game "canterbury"]\n[Players "blue, red, green"]\n\n'}[game]
    state = check(text).state
    keys = {key for f in g.figure_table.figures if f.subject == "player" for key, _ in keys_of(g.spec, f)}
    assert set(state.figures(state.seats[0].colour)) == keys


def test_the_speicherstadt_says_cards_count_ships_and_when_income_lands():
    by_key = {f.key: f for f in figures_of(load_spec("speicherstadt"))}
    assert "ships included" in by_key["cards"].counts
    assert "`round` line" in by_key["coins"].changes


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    for part in ("common", "schema", "speicherstadt"):
        shutil.copytree(ROOT / "specs" / part, tmp_path / "specs" / part)
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(tmp_path))
    forget_loaded_specs()
    yield tmp_path
    forget_loaded_specs()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_figure_the_rules_read_but_the_table_leaves_out_is_a_spec_error(data_copy):
    figures = data_copy / "specs" / "speicherstadt" / "figures.yaml"
    _edit(figures, "  - key: offer\n", "  - key: offered\n")
    report = check(HEADER)
    assert report.exit_code == 4
    assert "figures.yaml" in report.diagnostics[0].file and "offered" in report.diagnostics[0].message


# --- empty lists, and messages that do not contradict themselves ---------------------------


ROUND_ONE = "round 1\nreveal warehouse\nreveal coffee-roaster\nreveal contract coffee tea\n"


@pytest.mark.parametrize("spelling", ["warehouse", "warehouse none", "warehouse NONE"])
def test_an_empty_list_is_the_bare_name_or_none(spelling):
    report = check(HEADER + ROUND_ONE + f"check beige: {spelling}, hall, unloaded none\n")
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.checkpoints_confirmed == 3


def test_goods_in_a_checkpoint_are_read_by_any_of_their_names():
    text = SAMPLE.replace("check beige: points 5, coins 0, hall carpet", "check beige: points 5, coins 0, hall Teppich")
    assert text != SAMPLE
    report = check(text)
    assert report.status == "legal", [d.message for d in report.diagnostics]


def test_a_word_that_is_no_good_is_an_unreadable_record_not_a_contradiction():
    report = check(HEADER + ROUND_ONE + "check beige: warehouse nothing\n")
    assert report.exit_code == 3
    error = report.errors[0]
    assert "unknown good 'nothing'" in error.message
    assert (error.pos.line, error.pos.column) == (9, len("check beige: warehouse ") + 1)


def test_a_wrong_list_says_none_for_the_empty_side():
    report = check(HEADER + ROUND_ONE + "check beige: warehouse coffee\n")
    assert [d.message for d in report.errors] == ["beige warehouse recorded as coffee, but the rules give none"]


def test_a_number_figure_written_without_its_number_is_unreadable():
    report = check(HEADER + ROUND_ONE + "check beige: coins\n")
    assert report.exit_code == 3
    assert "'coins' is a number" in report.errors[0].message
    assert "nothing" not in report.errors[0].message


def test_no_checkpoint_message_says_nothing_against_nothing():
    for line in ("check beige: warehouse", "check beige: coins", "check beige: hall none", "check beige: warehouse coffee"):
        report = check(HEADER + ROUND_ONE + line + "\n")
        for d in report.diagnostics:
            assert "nothing, but the rules give nothing" not in d.message
            assert "none, but the rules give none" not in d.message


def test_a_misspelt_figure_gets_the_nearest_one():
    report = check(HEADER + ROUND_ONE + "check beige: cions 5\n")
    assert "unknown checkpoint figure 'cions' (did you mean 'coins'?)" in report.errors[0].message


def test_hamburgum_space_by_id_or_by_its_words():
    head = '[Game "hamburgum"]\n[Players "red, blue"]\n\nred: lower trade sell 1 beer\n'
    for spelling in ("space lower-trade", "space lower trade", "space Lower-Trade"):
        report = check(head + f"check red: {spelling}\ncheck blue: space none\n")
        assert report.status == "legal" and report.checkpoints_confirmed == 2, [d.message for d in report.diagnostics]


# --- after a contradicted figure the replay goes on -------------------------------------------


def test_after_a_checkpoint_mismatch_the_replay_goes_on_and_says_so():
    text = HEADER + ROUND_ONE + "check beige: coins 7\nbeige: place 1\norange: place 2\n"
    report = check(text)
    assert report.exit_code == 1 and report.moves == 6
    shown = format_report(report)
    assert "when the replay stopped" not in shown
    assert "standings so far" in shown


def test_a_refused_move_still_stops_the_replay():
    report = check(HEADER + ROUND_ONE + "orange: place 1\nbeige: place 1\n")
    assert report.moves == 4
    assert "standings when the replay stopped:" in format_report(report)


def test_a_finished_game_with_a_wrong_figure_is_still_scored_to_the_end():
    """The last round closes and the last fire is resolved at the end of the record, even
    after a figure the rules contradict: the standings are the final ones."""
    text = SAMPLE.replace("check beige: points 5, coins 0, hall carpet", "check beige: points 6, coins 0, hall carpet")
    text = text.replace("result beige 14, orange 5, purple -4", "")
    report = check(text)
    assert report.exit_code == 1 and report.complete
    assert "final standings:" in format_report(report)
    assert [s.total for s in report.standings] == [14, 5, -4]


@pytest.mark.parametrize(
    "old, new, blamed",
    [
        ('  - key: "{}"\n    each: components:goods\n', '  - key: "{}"\n', "needs `each`"),
        ("  - key: ships\n", "  - key: ships\n    each: components:goods\n", "only for a key with `{}`"),
    ],
)
def test_a_figure_key_and_its_each_go_together(data_copy, old, new, blamed):
    """A key with `{}` is one figure per id of the `each` table: without the table its reader
    was asked without an id (an internal error once a checkpoint or a ledger read it)."""
    shutil.copytree(ROOT / "specs" / "hamburgum", data_copy / "specs" / "hamburgum")
    _edit(data_copy / "specs" / "hamburgum" / "figures.yaml", old, new)
    report = check_bytes(b'[Game "hamburgum"]\n[Players "red, blue"]\n\n', "game.log")
    assert report.exit_code == 4
    assert "figures.yaml" in report.diagnostics[0].file and blamed in report.diagnostics[0].message


def test_a_variant_that_leaves_a_figure_without_its_each_is_blamed_at_its_own_line(tmp_path):
    """Found by the fuzzer: an overlay that rewrote figures.yaml without `each` made every
    checkpoint of that figure an internal error; now the overlay is exit 4 at its own line."""
    figures = (ROOT / "specs" / "hamburgum" / "figures.yaml").read_text(encoding="utf-8")
    body = figures[figures.index("figures:") :].replace("    each: components:goods\n    counts: The cubes", "    counts: The cubes", 1)
    mine = tmp_path / "mine.yaml"
    mine.write_text("kind: variant\nid: mine\ngame: hamburgum\ntitle: Mine\nchanges:\n  figures:\n" + "".join(f"    {line}\n" if line else "\n" for line in body.splitlines()), encoding="utf-8")
    report = check_bytes(b'[Game "hamburgum"]\n[Players "red, blue"]\n\n', "game.log", variants=[str(mine)])
    assert report.exit_code == 4
    assert report.diagnostics[0].file.startswith(f"{mine}:") and "needs `each`" in report.diagnostics[0].message
