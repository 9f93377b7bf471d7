"""Broken spec and variant files end in exit code 4 with the file, line and column, never a crash.

A spec directory here is a copy of the bundled specs with one file changed;
variant files are written next to it and passed by path, as a user would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.errors import MAX_SPEC_BYTES, MAX_SPEC_DEPTH, SpecError
from referee.lab.random_game import play_game
from referee.spec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
GAME = "speicherstadt"


@pytest.fixture
def specs(tmp_path) -> Path:
    """A private copy of the bundled specs, free to break."""
    root = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", root)
    return root


@pytest.fixture(scope="module")
def record() -> bytes:
    return play_game(GAME, 3, 1).encode("utf-8")


def variant(tmp_path: Path, body: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"kind: variant\nid: mine\ngame: {GAME}\ntitle: Mine\n{body}", encoding="utf-8")
    return path


def spec_error(record: bytes, path: Path):
    """The one diagnostic of checking `record` with the variant at `path`."""
    report = check_bytes(record, "game.log", [str(path)])
    assert report.status == "invalid-spec", [d.message for d in report.diagnostics]
    (error,) = report.errors
    return error


def test_a_spec_file_whose_kind_is_no_name_is_invalid_not_a_crash(specs, capsys):
    (specs / GAME / "extra.yaml").write_text("kind: [a, list]\n", encoding="utf-8")
    assert main(["validate", str(specs)]) == 4
    err = capsys.readouterr().err
    assert f"{specs / GAME / 'extra.yaml'}:1:1: error: kind:" in err
    with pytest.raises(SpecError):
        load_spec(GAME, root=specs)


@pytest.mark.parametrize(
    "body, line, column, words",
    [
        # the document and `changes` are two levels; the bracket one level too deep is reported
        ("changes:\n  setup: " + "[" * 50_000 + "]" * 50_000 + "\n", 6, len("  setup: ") + MAX_SPEC_DEPTH - 1, "nested deeper"),
        ("changes:\n  setup: &a {by_players: {}}\n  cards: *a\n", 7, 10, "aliases are not allowed"),
        ("changes: [\n", 6, 1, "YAML syntax"),
        ("changes:\n  setup: 5\n", 6, 3, "changes.setup: 5 is not of type 'object'"),
        ("changes:\n  nothing: {a: 1}\n", 6, 3, "changes.nothing: no spec file nothing.yaml"),
    ],
    ids=["deep-nesting", "alias", "syntax", "wrong-type", "unknown-file"],
)
def test_a_broken_variant_is_named_with_line_and_column(tmp_path, record, body, line, column, words):
    path = variant(tmp_path, body)
    error = spec_error(record, path)
    assert error.file == f"{path}:{line}:{column}"
    assert words in error.message


def test_a_variant_larger_than_the_limit_is_refused_before_it_is_read(tmp_path, record):
    path = variant(tmp_path, "description: '" + "x" * (10 * 1024 * 1024) + "'\nchanges: {}\n")
    error = spec_error(record, path)
    assert error.file == f"{path}:1:1" and f"limited to {MAX_SPEC_BYTES}" in error.message


def test_a_wrong_value_from_a_variant_is_reported_in_the_variant_not_the_base_file(tmp_path, record):
    path = variant(tmp_path, "changes:\n  setup:\n    by_players:\n      3: {supply: many}\n")
    error = spec_error(record, path)
    assert error.file == f"{path}:8:11"
    assert error.message == "changes.setup.by_players.3.supply: 'many' is not of type 'integer'"


def test_a_wrong_value_in_a_base_file_is_still_reported_there(specs, tmp_path):
    setup = specs / GAME / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("supply: 4", "supply: many"), encoding="utf-8")
    path = variant(tmp_path, "changes:\n  setup:\n    by_players:\n      2: {supply: 3}\n")
    with pytest.raises(SpecError) as caught:
        load_spec(GAME, [str(path)], root=specs)
    assert caught.value.file == str(setup) and caught.value.key == "by_players.3.supply"


def test_a_variant_file_of_any_name_is_located(tmp_path, record):
    path = tmp_path / "overlay.txt"
    path.write_text("kind: variant\nid: mine\ngame: speicherstadt\ntitle: Mine\nchanges:\n  setup: []\n", encoding="utf-8")
    assert spec_error(record, path).file == f"{path}:6:3"


@pytest.mark.parametrize("kind", ["x" * 300, "../../../etc/passwd", "Speicherstadt/Cards", "a b"])
def test_a_kind_that_is_no_schema_name_is_invalid_data(specs, capsys, kind):
    (specs / GAME / "extra.yaml").write_text(f"kind: '{kind}'\n", encoding="utf-8")
    assert main(["validate", str(specs)]) == 4
    assert f"{specs / GAME / 'extra.yaml'}:1:1: error: kind: no schema for kind" in capsys.readouterr().err


@pytest.fixture
def own_data(specs, monkeypatch):
    """Use the private copy of the specs as the referee's data, as REFEREE_DATA does."""
    from referee import games
    from referee.spec import loader as spec

    (specs.parent / "grammar").symlink_to(ROOT / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(specs.parent))
    games._load.cache_clear()
    yield specs
    games._load.cache_clear()
    spec._load_spec.cache_clear()


def drop_rule(path: Path, rule: str) -> None:
    """Remove the entry with `id: <rule>` from a rules.yaml, keeping the rest as it is."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["rules"] = [r for r in data["rules"] if r["id"] != rule]
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_a_spec_that_drops_a_rule_the_code_checks_is_invalid_not_a_crash(own_data, record):
    rules = own_data / GAME / "rules.yaml"
    drop_rule(rules, f"{GAME}/start-money")
    report = check_bytes(record, "game.log")
    assert report.status == "invalid-spec", [d.message for d in report.diagnostics]
    assert report.errors[0].file.startswith(f"{rules}:")
    assert f"no rule {GAME}/start-money" in report.errors[0].message


def test_a_variant_that_drops_rules_is_invalid(tmp_path, record):
    import yaml

    first = yaml.safe_load((ROOT / "specs" / GAME / "rules.yaml").read_text(encoding="utf-8"))["rules"][0]
    path = variant(tmp_path, yaml.safe_dump({"changes": {"rules": {"rules": [first]}}}, sort_keys=False))
    error = spec_error(record, path)
    assert "a spec may add rules but not drop them" in error.message


def test_a_spec_directory_without_a_file_the_code_reads_is_invalid_not_a_crash(own_data, record):
    (own_data / GAME / "setup.yaml").unlink()
    report = check_bytes(record, "game.log")
    assert report.status == "invalid-spec", [d.message for d in report.diagnostics]
    assert report.errors[0].file == str(own_data / GAME / "setup.yaml")
    assert report.errors[0].message == f"missing: the {GAME} rules module reads setup.yaml"


@pytest.mark.parametrize("error, shown", [(KeyError("board"), "KeyError: 'board'"), (StopIteration(), "StopIteration: nothing in the data matched what the rules look for")])
def test_data_the_game_cannot_set_itself_up_with_is_invalid_spec_data_in_check_and_validate(record, monkeypatch, capsys, error, shown):
    from referee import games
    from referee.games import game_class

    def cannot(self, spec):
        raise error

    monkeypatch.setattr(game_class(GAME), "__init__", cannot)
    games._load.cache_clear()
    try:
        report = check_bytes(record, "game.log")
        validated = main(["validate"])
    finally:
        monkeypatch.undo()
        games._load.cache_clear()
    assert report.status == "invalid-spec"
    assert report.errors[0].message == f"the {GAME} rules cannot use this data: {shown}"
    assert validated == 4 and f"the {GAME} rules cannot use this data" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["1000000000000", "-200000", ".inf", ".nan", "1.0e+300"])
def test_a_number_out_of_range_is_invalid_data_at_its_place(tmp_path, record, value):
    """A variant asking for a trillion cards would make the game set itself up for ever."""
    path = variant(tmp_path, f"changes:\n  cards:\n    deck: {value}\n")
    report = check_bytes(record, "game.log", [str(path)])
    assert report.status == "invalid-spec"
    (error,) = report.diagnostics
    assert error.file == f"{path}:7:5"
    assert error.message.startswith("changes.cards.deck: ") and "is out of range; numbers in spec data lie between" in error.message


def test_the_largest_allowed_number_is_read(tmp_path):
    from referee.games import load_game
    from referee.spec.loader import MAX_SPEC_NUMBER

    path = variant(tmp_path, f"changes:\n  cards:\n    deck: {MAX_SPEC_NUMBER}\n")
    load_spec(GAME, (str(path),))  # read, though the deck no longer adds up to its seasons
    with pytest.raises(SpecError) as caught:
        load_game(GAME, (str(path),))
    assert "out of range" not in caught.value.message and "deck" in caught.value.key


def test_a_cross_check_failing_on_a_variant_value_names_the_variant(tmp_path):
    path = tmp_path / "far.yaml"
    path.write_text(
        "kind: variant\nid: far\ngame: canterbury\ntitle: Far\nchanges:\n  treasury:\n    city:\n      final_position: 100\n",
        encoding="utf-8",
    )
    report = check_bytes(play_game("canterbury", 3, 1).encode(), "game.log", [str(path)])
    assert report.status == "invalid-spec"
    (error,) = report.diagnostics
    assert error.file.startswith(str(path) + ":")
    assert error.message == "changes.treasury.city.final_position: the city marker's last space must be on the track (0 to 99), not 100"


def test_play_with_data_that_leaves_no_legal_move_is_a_data_error(tmp_path, capsys):
    """A ship taking more cubes than the bag holds: the random player cannot go on."""
    path = variant(tmp_path, "changes:\n  components:\n    ship_cubes: 100000\n")
    assert main(["play", GAME, "--players", "3", "--seed", "1", "--variant", str(path)]) == 4
    err = capsys.readouterr().err
    assert "the random player finds no legal move with this data" in err and "Traceback" not in err


def test_play_with_data_that_never_ends_stops_with_a_data_error(tmp_path, capsys):
    # Canterbury's random games end within about 70 moves; with no cubes for the districts this
    # one never does, and play gives up at the limit of the game's play.yaml
    path = tmp_path / "long.yaml"
    path.write_text("kind: variant\nid: long\ngame: canterbury\ntitle: Long\nchanges:\n  setup:\n    cubes:\n      set_aside:\n        kings_favour: 100000\n", encoding="utf-8")
    assert main(["play", "canterbury", "--players", "3", "--seed", "1", "--variant", str(path)]) == 4
    err = capsys.readouterr().err
    assert "play.yaml" in err and "max_moves: a random game did not end within 350 moves" in err


def test_play_with_the_shipped_data_keeps_a_refused_move_an_internal_error(monkeypatch):
    """With the data the referee ships, a move its own random player gets wrong is a bug."""
    from referee.errors import Violation
    from referee.games.speicherstadt import Speicherstadt

    def wrong(state, rng):
        raise Violation("speicherstadt/turn-order", "made up")

    monkeypatch.setattr(Speicherstadt, "random_player", lambda self: wrong)  # what play asks for its moves
    with pytest.raises(Violation):
        play_game(GAME, 3, 1)
