"""A spec folder may be a download: whatever it holds ends in exit 4, in bounded time.

A symlink to /dev/zero once read without end and a FIFO hung; a schema pattern that
backtracks, a `$ref` to a URL or to `#` were internal errors or ran for ever; a missing,
empty or broken grammar was "valid"; numbers of thousands of digits and keys that are
dates or nulls were internal errors; an empty REFEREE_DATA said "known games: " and let
`docs` write one page.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.errors import EXIT_SPEC
from referee.lab.random_game import play_game

ROOT = Path(__file__).resolve().parents[1]
GAME = "speicherstadt"


@functools.cache
def legal_text() -> str:
    return play_game(GAME, 2, 1)


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    """A private copy of the data (specs and grammar), used as REFEREE_DATA. Nothing reads it
    before the test changes it: a process reads a spec folder once."""
    legal_text()  # made from the shipped data
    root = tmp_path / "data"
    shutil.copytree(ROOT / "specs", root / "specs")
    shutil.copytree(ROOT / "grammar", root / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(root))
    return root


@pytest.fixture
def record(tmp_path) -> Path:
    path = tmp_path / "game.log"
    path.write_text(legal_text(), encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory"])
def test_a_spec_file_that_is_no_regular_file_is_refused_without_reading_it(data, record, capsys, kind):
    odd = data / "specs" / GAME / "odd.yaml"
    if kind == "dev-zero":
        odd.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(odd)
    else:
        odd.mkdir()
    code, text = run(capsys, "validate")
    assert code == EXIT_SPEC and f"{odd}: error: cannot read: not a regular file" in text
    code, text = run(capsys, "check", record)
    assert code == EXIT_SPEC and "not a regular file" in text


def edit_schema(data: Path, change) -> None:
    path = data / "specs" / "schema" / "variant.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    path.write_text(json.dumps(schema, indent=1), encoding="utf-8")


def overlay(tmp_path: Path, title: str = "Mine", changes: str = "{}") -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(f"kind: variant\nid: mine\ngame: {GAME}\ntitle: {title}\nchanges: {changes}\n", encoding="utf-8")
    return path


def test_a_schema_pattern_that_backtracks_for_ever_is_invalid_data(data, record, tmp_path, capsys):
    edit_schema(data, lambda s: s["properties"]["title"].update(pattern="^(a|a)*$"))
    code, text = run(capsys, "check", record, "--variant", overlay(tmp_path, "a" * 40 + "!"))
    assert code == EXIT_SPEC and "variant.schema.json" in text and "backtracks" in text


@pytest.mark.parametrize("target", ["https://example.invalid/schema.json", "other.schema.json"])
def test_a_schema_ref_to_what_is_not_there_is_invalid_data(data, record, tmp_path, capsys, target):
    edit_schema(data, lambda s: s["properties"].update(title={"$ref": target}))
    code, text = run(capsys, "check", record, "--variant", overlay(tmp_path))
    assert code == EXIT_SPEC and "cannot be followed" in text and target in text


def test_a_schema_that_refers_to_itself_without_end_is_invalid_data(data, record, tmp_path, capsys):
    edit_schema(data, lambda s: s.update({"$ref": "#"}))
    code, text = run(capsys, "check", record, "--variant", overlay(tmp_path))
    assert code == EXIT_SPEC and "variant.schema.json" in text and "circle" in text


@pytest.mark.parametrize("grammar", ["missing", "empty", "broken", "dev-zero"])
def test_a_grammar_that_cannot_be_built_is_invalid_data_and_validate_says_so(data, record, capsys, grammar):
    path = data / "grammar" / f"{GAME}.lark"
    path.unlink()
    if grammar == "empty":
        path.write_text("", encoding="utf-8")
    elif grammar == "broken":
        path.write_text("move: (\n", encoding="utf-8")
    elif grammar == "dev-zero":
        path.symlink_to("/dev/zero")
    code, text = run(capsys, "validate")
    assert code == EXIT_SPEC and f"{path}" in text and f"{GAME}: valid" not in text
    code, text = run(capsys, "check", record)
    assert code == EXIT_SPEC and f"{path}" in text


def test_a_number_of_thousands_of_digits_is_invalid_at_the_overlay_line(record, tmp_path, capsys):
    mine = overlay(tmp_path, changes="\n  game:\n    players:\n      max: " + "9" * 5000)
    code, text = run(capsys, "check", record, "--variant", mine)
    assert code == EXIT_SPEC and f"{mine}:8:12: error:" in text
    code, text = run(capsys, "play", GAME, "--players", "2", "--variant", mine)
    assert code == EXIT_SPEC and f"{mine}:8:12: error:" in text


@pytest.mark.parametrize("key", ["2024-01-01", "~", "null", "yes", "1.5", "[a, b]"])
def test_a_key_that_is_no_name_is_invalid_at_the_overlay_line_in_json_too(record, tmp_path, capsys, key):
    mine = overlay(tmp_path, changes=f"\n  game:\n    ? {key}\n    : 3")
    code, text = run(capsys, "check", "--format", "json", record, "--variant", mine)
    assert code == EXIT_SPEC
    (diagnostic,) = json.loads(text)["diagnostics"]
    assert diagnostic["spec"] == f"{mine}:7:7" and "keys of spec data" in diagnostic["message"]


def test_an_empty_referee_data_names_referee_data(tmp_path, record, capsys, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("REFEREE_DATA", str(empty))
    for argv in (["check", record], ["play", GAME, "--players", "2"], ["validate"], ["docs", "--out", tmp_path / "site"]):
        code, text = run(capsys, *argv)
        assert code == EXIT_SPEC and f"REFEREE_DATA={empty}" in text, argv
    assert not (tmp_path / "site").exists()


def test_docs_refuses_an_example_record_that_is_a_fifo(data, tmp_path, capsys):
    fifo = data / "specs" / GAME / "examples" / "waiting.log"
    os.mkfifo(fifo)
    code, text = run(capsys, "docs", "--out", tmp_path / "site")
    assert code == EXIT_SPEC and f"{fifo}: error: cannot read: not a regular file" in text


def test_a_broken_spec_file_is_reported_once_not_once_per_variant(data, capsys):
    # each variant was read over the same broken file: the same error again, and the time to
    # read a file near the size limit once per variant
    setup = data / "specs" / "hamburgum" / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8") + "\nunknown_key: 1\n", encoding="utf-8")
    code, text = run(capsys, "validate")
    assert code == EXIT_SPEC and text.count(f"{setup}:") == 1
    assert "hamburgum: its 3 variants are not checked until its own spec is valid" in text
