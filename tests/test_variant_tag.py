"""A record's [Variant] tag names variants by name only: a record must not make the referee
read a file of its choosing. A file of one's own is given with --variant on the command line."""

import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.lab.random_game import play_game

ROOT = Path(__file__).resolve().parents[1]
TEST_BOARD = ROOT / "tests" / "hamburgum" / "variants" / "test-board.yaml"
HEADER = '[Game "hamburgum"]\n[Players "red, blue"]\n'


def _record(tmp_path, variant_line: str) -> Path:
    path = tmp_path / "game.log"
    path.write_text(HEADER + variant_line + "\n", encoding="utf-8")
    return path


def _check(capsys, *argv) -> tuple[int, str]:
    code = main(["check", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize(
    "value",
    ["/etc/passwd", str(TEST_BOARD), "tests/hamburgum/variants/test-board.yaml", "..\\variants\\londinium", "test-board.yaml", "londinium.yml", "LONDINIUM.YAML"],
)
def test_a_tag_that_names_a_file_is_an_unreadable_record(tmp_path, capsys, value):
    code, out = _check(capsys, _record(tmp_path, f'[Variant "{value}"]'))
    assert code == 3, out
    assert "game.log:3:11: error: [Variant] names a file" in out
    assert "a record names variants by name" in out and "--variant FILE on the command line" in out


def test_a_secret_file_is_neither_read_nor_quoted(tmp_path, capsys):
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\nkind: [unclosed\n", encoding="utf-8")
    code, out = _check(capsys, _record(tmp_path, f'[Variant "{secret}"]'))
    assert code == 3 and "hunter2" not in out and "unclosed" not in out


def test_an_unknown_name_is_an_unreadable_record_at_the_name(tmp_path, capsys):
    code, out = _check(capsys, _record(tmp_path, '[Variant "londinium, atlantis"]'))
    assert code == 3, out
    assert "game.log:3:22: error: no hamburgum variant 'atlantis'" in out
    assert "(advanced-1, advanced-2, londinium)" in out and "--variant FILE" in out


def test_a_tag_the_quick_look_cannot_read_is_not_ignored(tmp_path, capsys):
    """An escaped quote hides the tag from the look before the parse; the parse still sees it."""
    code, out = _check(capsys, _record(tmp_path, '[Variant "londinium\\"x"]'))
    assert code == 3, out
    assert "game.log:3:2: error: no hamburgum variant" in out


def test_names_still_select_shipped_variants(tmp_path, capsys):
    code, out = _check(capsys, _record(tmp_path, '[Variant "londinium; advanced-1"]'))
    assert code == 0, out
    assert "variants: londinium, advanced-1" in out


def test_the_command_line_still_takes_a_file(tmp_path, capsys):
    record = _record(tmp_path, '[Variant "advanced-1"]')
    code, out = _check(capsys, record, "--variant", TEST_BOARD)
    assert code == 0, out
    assert f"variants: advanced-1, {TEST_BOARD}" in out


def test_an_unknown_game_is_reported_before_its_variants():
    report = check_bytes(b'[Game "chess"]\n[Players "red, blue"]\n[Variant "sicilian"]\n', "x.log")
    assert report.exit_code == 3 and "unknown game 'chess'" in report.errors[0].message


def test_a_generated_game_with_a_file_names_it_for_the_command_line():
    text = play_game("hamburgum", 2, 1, [str(TEST_BOARD), "advanced-1"])
    assert '[Variant "advanced-1"]' in text and f"# variant file {TEST_BOARD}: check this record with --variant {TEST_BOARD}" in text
    assert check_bytes(text.encode(), "g.log", [str(TEST_BOARD)]).status == "legal"


def test_the_command_line_refuses_a_path_tag_with_exit_3():
    record = HEADER + '[Variant "/etc/passwd"]\n'
    run = subprocess.run([sys.executable, "-m", "referee", "check", "-"], input=record, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 3, run.stdout + run.stderr
    assert "<stdin>:3:11: error: [Variant] names a file, '/etc/passwd'" in run.stdout
    assert "root:" not in run.stdout + run.stderr and "Traceback" not in run.stderr
