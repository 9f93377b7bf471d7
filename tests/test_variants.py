"""Variant overlays as a user writes them: a mistake is reported in the user's own file, at
the line and column of the key, with the nearest key the game knows; an entry the game
cannot have is refused; a cross-check that an overlay breaks names the overlay."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.errors import SpecError
from referee.games import cross_check, game_class, load_game
from referee.lab.random_game import play_game
from referee.spec.loader import load_spec
from tests.test_broken_specs import spec_error as the_error

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def records() -> dict[str, bytes]:
    return {game: play_game(game, 3, 1).encode("utf-8") for game in ("speicherstadt", "canterbury", "hamburgum")}


def overlay(tmp_path: Path, game: str, changes: str, name: str = "house-rule.yaml") -> Path:
    """A user's overlay file; `changes` is the YAML under `changes:`, indented by two."""
    path = tmp_path / name
    path.write_text(f"kind: variant\nid: house-rule\ngame: {game}\ntitle: Our house rule\nchanges:\n{changes}", encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> tuple[int, int]:
    """1-based line and column where `text` first appears in the file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number, line.index(text) + 1
    raise AssertionError(f"{text!r} not in {path}")


# --- an unknown key ------------------------------------------------------------------------


def test_an_unknown_key_is_reported_in_the_overlay_with_the_nearest_key(tmp_path, records):
    path = overlay(tmp_path, "speicherstadt", "  scoring:\n    counting_office:\n      points: {1: 3}\n")
    error = the_error(records["speicherstadt"], path)
    line, column = line_of(path, "counting_office:")
    assert error.file == f"{path}:{line}:{column}"
    assert error.message == "changes.scoring.counting_office: unknown key 'counting_office' (did you mean 'counting_offices'?)"


def test_an_unknown_key_deeper_down_is_reported_at_itself(tmp_path, records):
    path = overlay(tmp_path, "speicherstadt", "  components:\n    coins:\n      strat: 7\n")
    error = the_error(records["speicherstadt"], path)
    line, column = line_of(path, "strat:")
    assert error.file == f"{path}:{line}:{column}"
    assert "unknown key 'strat' (did you mean 'start'?)" in error.message


def test_validate_reports_an_unknown_key_in_a_shipped_variant_at_its_place(tmp_path, capsys):
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", specs)
    path = overlay(specs / "speicherstadt" / "variants", "speicherstadt", "  scoring:\n    counting_office: {points: {1: 3}}\n", "typo.yaml")
    assert main(["validate", str(specs)]) == 4
    line, column = line_of(path, "counting_office:")
    assert f"{path}:{line}:{column}: error: changes.scoring.counting_office: unknown key 'counting_office' (did you mean 'counting_offices'?)" in capsys.readouterr().err


def test_an_unknown_key_in_a_base_file_names_the_nearest_key_there(tmp_path):
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", specs)
    scoring = specs / "speicherstadt" / "scoring.yaml"
    scoring.write_text(scoring.read_text(encoding="utf-8").replace("tie_break:", "tiebreak:"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_spec("speicherstadt", root=specs)
    assert caught.value.file == str(scoring) and caught.value.key == "tiebreak"
    assert caught.value.message.startswith("unknown key 'tiebreak' (did you mean 'tie_break'?)")
    assert caught.value.where == f"{scoring}:{line_of(scoring, 'tiebreak:')[0]}:1"


# --- an entry the game cannot have -------------------------------------------------------------

# (game, the overlay's changes, the text the error is located at, words of the message)
IMPOSSIBLE = [
    ("speicherstadt", "  scoring:\n    counting_offices:\n      points: {5: 20}\n", "5: 20", "a points step for 5 counting offices; the deck has 4"),
    ("speicherstadt", "  setup:\n    by_players:\n      6: {supply: 7, removed: []}\n", "6:", "a set-up for 6 players; the game is for 2 to 5"),
    ("speicherstadt", "  cards:\n    types:\n      contract:\n        points_by_size: {5: 14}\n", "5: 14", "points for a contract of 5 goods; its sizes are 2, 3, 4"),
    ("speicherstadt", "  cards:\n    types:\n      fire:\n        play_points: {A: 1}\n", "A: 1", "stand-in points for a fire of season A; it comes in B, C, D, E"),
    ("canterbury", "  scoring:\n    rank_markers: {5: [5, 6, 7]}\n", "5: [5", "a rank marker for rank 5; the ranks are 1 to 4"),
    ("canterbury", "  setup:\n    ranks:\n      5: {names: {en: rank 5}}\n", "5:", "rank 5; with at most 4 players the ranks are 1 to 4"),
    (
        "canterbury",
        "  scoring:\n    kings_favour:\n      watr: {first: {1: 1}, second: {2: 1}}\n",
        "watr:",
        "a King's favour table for watr, which is no service (water, food, religion, defense, commerce, culture) (did you mean 'water'?)",
    ),
    ("canterbury", "  scoring:\n    kings_favour:\n      water: {first: {26: 26}}\n", "26: 26", "a King's favour number for 26 districts served; the city has 25 districts"),
    ("canterbury", "  treasury:\n    levy_known: {150: 9}\n", "150: 9", "a known Levy at space 150; the track's spaces are 0 to 99"),
    ("canterbury", "  setup:\n    required_variants: {6: [two-player]}\n", "6: [", "a variant required for 6 players; the game is for 2 to 4"),
    ("canterbury", "  structures:\n    tiles: {huge: 0}\n", "huge: 0", "tiles of size huge, which is no size (small, medium, large)"),
    ("hamburgum", "  churches:\n    completion_bonus: [8, 7, 6, 5, 4, 3, 2]\n", "2]", "a bonus for completing the 7th church; the city has 6 churches"),
]


@pytest.mark.parametrize("game, changes, at, words", IMPOSSIBLE, ids=[f"{g}-{w.split(';')[0][:30]}" for g, _, _, w in IMPOSSIBLE])
def test_an_overlay_entry_the_game_cannot_have_is_refused_in_the_overlay(tmp_path, records, game, changes, at, words):
    path = overlay(tmp_path, game, changes)
    error = the_error(records[game], path)
    line, column = line_of(path, at)
    assert error.file.startswith(f"{path}:{line}:"), error.file
    if at[0].isdigit() or at.endswith(":"):
        assert error.file == f"{path}:{line}:{column}"
    assert words in error.message


def test_the_same_entry_in_the_base_data_is_refused_there(tmp_path):
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", specs)
    scoring = specs / "speicherstadt" / "scoring.yaml"
    scoring.write_text(scoring.read_text(encoding="utf-8").replace("4: 14}", "4: 14, 5: 20}"), encoding="utf-8")
    assert main(["validate", str(specs)]) == 4
    with pytest.raises(SpecError) as caught:
        cross_check(game_class("speicherstadt"), load_spec("speicherstadt", root=specs))
    assert caught.value.file == str(scoring) and caught.value.key == "counting_offices.points.5"


def test_more_counting_offices_in_the_deck_allow_a_fifth_step(tmp_path, records):
    """The bound comes from the data: a variant with a fifth counting office card may score it."""
    path = overlay(
        tmp_path,
        "speicherstadt",
        "  cards:\n    seasons:\n      - {id: A, names: {en: Winter}, cards: 13}\n      - {id: B, names: {en: Spring}, cards: 13}\n"
        "      - {id: C, names: {en: Summer}, cards: 13}\n      - {id: D, names: {en: Autumn}, cards: 15}\n      - {id: E, names: {en: 4th fire}, cards: 1}\n"
        "    deck: 55\n    types:\n      counting-office: {counts: {A: 2, B: 1, D: 2}}\n  scoring:\n    counting_offices:\n      points: {5: 20}\n",
    )
    game = load_game("speicherstadt", (str(path),))
    assert game.spec["scoring"]["counting_offices"]["points"][5] == 20


# --- a cross-check that an overlay breaks ------------------------------------------------------


def test_validate_names_the_variant_whose_value_breaks_a_cross_check(tmp_path, capsys):
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", specs)
    path = overlay(specs / "canterbury" / "variants", "canterbury", "  treasury:\n    city:\n      final_position: 100\n", "far.yaml")
    assert main(["validate", str(specs)]) == 4
    captured = capsys.readouterr()
    out = captured.out + captured.err
    line, column = line_of(path, "final_position:")
    assert f"{path}:{line}:{column}: error: changes.treasury.city.final_position: the city marker's last space must be on the track (0 to 99), not 100  (canterbury + variant far)" in out
    assert "canterbury: valid" in out  # the base data is still valid without it


def test_a_cross_check_broken_by_another_value_of_the_overlay_names_the_overlay(tmp_path, records):
    """The overlay shortens the track; the check fails on the Levy table, which it did not write."""
    path = overlay(tmp_path, "canterbury", "  treasury:\n    track_length: 50\n")
    error = the_error(records["canterbury"], path)
    line, column = line_of(path, "treasury:")
    assert error.file == f"{path}:{line}:{column}"
    assert error.message == "changes.treasury: with this variant, treasury.yaml levy: the treasury track needs one entry per space: 50, not 100"


def test_a_cross_check_failing_in_the_base_data_stays_in_the_base_file(tmp_path):
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", specs)
    treasury = specs / "canterbury" / "treasury.yaml"
    treasury.write_text(treasury.read_text(encoding="utf-8").replace("track_length: 100", "track_length: 50"), encoding="utf-8")
    mine = overlay(tmp_path, "canterbury", "  treasury:\n    disc_bonus: 10\n")
    with pytest.raises(SpecError) as caught:
        cross_check(game_class("canterbury"), load_spec("canterbury", (str(mine),), root=specs))
    assert caught.value.file == str(treasury) and caught.value.key == "levy"


# --- the variants every game ships ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["speicherstadt", "canterbury", "hamburgum"])
def test_every_game_ships_a_variants_folder_with_an_overlay(game):
    overlays = sorted((ROOT / "specs" / game / "variants").glob("*.yaml"))
    assert overlays, f"specs/{game}/variants/ holds no overlay"
    for path in overlays:
        assert load_spec(game, (path.stem,)).variants[-1].id == path.stem


EASY_START = '[Game "speicherstadt"]\n[Players "beige Anna, orange Ben, purple Cleo"]\n{variant}\ncheck beige: coins 7\ncheck purple: coins 7\n'


def test_the_easy_start_house_rule_gives_seven_coins_when_a_record_names_it():
    report = check_bytes(EASY_START.format(variant='[Variant "easy-start"]\n').encode(), "easy.log")
    assert report.status == "legal" and report.checkpoints_confirmed == 2
    assert report.variants == ["easy-start"]
    without = check_bytes(EASY_START.format(variant="").encode(), "plain.log")
    assert without.status == "illegal"
    assert without.errors[0].message == "beige coins recorded as 7, but the rules give 5"


def test_a_random_game_with_the_easy_start_replays_legal():
    record = play_game("speicherstadt", 4, 3, ["easy-start"])
    assert '[Variant "easy-start"]' in record
    report = check_bytes(record.encode(), "easy.log")
    assert report.status == "legal" and report.complete
