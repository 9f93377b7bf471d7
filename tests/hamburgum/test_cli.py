"""The command line on Hamburgum records: the commands a user runs, their exit codes and reports."""

from referee.cli.main import main

from .records import QUICK_START, TEST_BOARD


def test_check_the_quick_start(capsys):
    assert main(["check", "--details", str(QUICK_START)]) == 0
    out = capsys.readouterr().out
    assert "legal (hamburgum; 18 moves, game unfinished; 134 recorded figures confirmed)" in out
    assert "likely      houses:types.brewery.count = 5" in out  # a brewery is built
    assert "materials_price" not in out  # every purchase is of 3 or 6 items, whose totals are printed
    assert "warning[hamburgum/guildhall-adjacency]: not checked: needs board:links" in out


def test_play_then_check_five_players(capsys, tmp_path):
    record = tmp_path / "game.log"
    assert main(["play", "hamburgum", "--players", "5", "--seed", "3", "--out", str(record)]) == 0
    assert main(["check", str(record)]) == 0
    out = capsys.readouterr().out
    assert "game complete" in out and "final standings:" in out and "winner:" in out
    assert "[money " in out  # the tie-break figure of each player
    assert "rules not checked for missing data:" in out and "hamburgum/site-type" in out


def test_check_with_a_board_of_ones_own(capsys):
    assert main(["check", str(QUICK_START), "--variant", TEST_BOARD]) == 0
    assert "not checked" not in capsys.readouterr().out


def test_show_moves_and_validate(capsys):
    assert main(["show", str(QUICK_START), "--at", "3"]) == 0
    assert "Civitas Hamburgum, after move 3 (line 13): legal so far" in capsys.readouterr().out
    assert main(["moves", str(QUICK_START)]) == 0
    assert "legal next moves after move 18" in capsys.readouterr().out
    assert main(["validate", "--provenance"]) == 0
    assert "hamburgum + variant advanced-2: valid" in capsys.readouterr().out


def test_a_broken_record_exits_3_without_a_traceback(capsys, tmp_path):
    record = tmp_path / "bad.log"
    record.write_text('[Game "hamburgum"]\n[Players "red, blue"]\n\nred: church st-georg donate five\n')
    assert main(["check", str(record)]) == 3
    out = capsys.readouterr().out
    assert "bad.log:4:13: error: unknown church 'st-georg'" in out and "Traceback" not in out
