"""Text from a record, a file name or a spec folder is shown, never obeyed by a terminal.

A record whose player name holds cursor-up and erase-line sequences once made an illegal
record look legal on screen. Every text output escapes control and invisible characters;
JSON escapes the C1 controls and the invisible characters that json.dumps leaves raw.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.lab.random_game import play_game
from referee.terminal import odd_letters, quote, readable_name

ROOT = Path(__file__).resolve().parents[1]
GAME = "speicherstadt"
# what a terminal obeys: C0 but the line break, DEL, C1, bidirectional and zero-width controls
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
ERASE = "\x1b[1A\x1b[2K"  # cursor up, erase the line: hides the line above


@functools.cache
def legal_record() -> str:
    text = play_game(GAME, 2, 1)
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("[Date "))


def named(record: str, beige: str, orange: str = "orange") -> str:
    return re.sub(r'\[Players "[^"]*"\]', lambda m: f'[Players "{beige}, {orange}"]', record, count=1)


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_player_name_with_terminal_sequences_cannot_hide_an_illegal_verdict(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(f'[Game "{GAME}"]\n[Players "beige Anna{ERASE}legal, orange"]\n\nreveal warehouse\nreveal fireman 9\n', encoding="utf-8")
    code, text = run(capsys, "check", record)
    assert code == 1 and not RAW.search(text)
    assert "beige (Anna\\x1b[1A\\x1b[2Klegal)" in text and "ILLEGAL" in text


def test_names_in_the_standings_and_the_winner_line_are_escaped(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(named(legal_record(), "beige \u202eAnna\x9b2J", "orange Ben\x07"), encoding="utf-8")
    code, text = run(capsys, "check", record)
    assert code == 0 and not RAW.search(text)
    winner = next(line for line in text.splitlines() if line.startswith("winner:"))
    assert "\\u202eAnna\\x9b2J" in text and "Ben\\x07" in text and "\\x" in winner


def test_json_escapes_c1_and_invisible_characters_and_reads_back_the_same(tmp_path, capsys):
    record = tmp_path / "game.log"
    name = "Anna\x9b31m\u202e\u200b"
    record.write_text(named(legal_record(), f"beige {name}"), encoding="utf-8")
    code, text = run(capsys, "check", record, "--format", "json")
    assert code == 0 and not RAW.search(text)
    assert "\\u009b" in text and "\\u202e" in text
    assert json.loads(text)["standings"][0]["name"] in (name, "")  # read back, the name is the same
    assert name in [s["name"] for s in json.loads(text)["standings"]]


def test_a_bad_word_and_its_quoted_line_are_escaped(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(f'[Game "{GAME}"]\n[Players "beige, orange"]\n\nreveal ware\x1b[2Jhouse\n', encoding="utf-8")
    code, text = run(capsys, "check", record)
    assert code == 3 and not RAW.search(text)
    assert "\\x1b[2J" in text


def test_a_file_name_with_control_characters_is_escaped(tmp_path, capsys):
    record = tmp_path / "a\x1b[2Jb\rc.log"
    record.write_text(legal_record(), encoding="utf-8")
    code, text = run(capsys, "check", record)
    assert code == 0 and not RAW.search(text)
    assert "a\\x1b[2Jb\\x0dc.log: legal" in text
    code, text = run(capsys, "check", tmp_path / "missing\x1b]0;title\x07.log")
    assert code == 2 and not RAW.search(text) and "\\x1b]0;title\\x07" in text


def test_a_variant_path_from_the_command_line_is_escaped(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(legal_record(), encoding="utf-8")
    code, text = run(capsys, "check", record, "--variant", str(tmp_path / "x\x1b[2J.yaml"))
    assert code == 4 and not RAW.search(text) and "x\\x1b[2J.yaml" in text


def test_names_from_a_spec_folder_are_escaped(tmp_path, capsys, monkeypatch):
    import shutil

    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    (tmp_path / "grammar").symlink_to(ROOT / "grammar")
    (tmp_path / "specs" / GAME / "x\x1b[2J").mkdir()
    (tmp_path / "specs" / GAME / "x\x1b[2J" / "game.yaml").write_text("kind: [broken\n", encoding="utf-8")
    (tmp_path / "specs" / "y\x1b[2J").mkdir()
    (tmp_path / "specs" / "y\x1b[2J" / "game.yaml").write_text("kind: [broken\n", encoding="utf-8")
    code, text = run(capsys, "validate", tmp_path / "specs")
    assert code == 4 and not RAW.search(text) and "y\\x1b[2J" in text


def test_an_unknown_name_with_look_alike_letters_says_so(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(f'[Game "{GAME}"]\n[Players "b\u0435ige, orange"]\n\nreveal warehouse\n', encoding="utf-8")
    code, text = run(capsys, "check", record)
    assert code == 3 and "Cyrillic U+0435" in text
    record.write_text(f'[Game "{GAME}"]\n[Players "beige, orange"]\n\nreveal w\u0430rehouse\n', encoding="utf-8")
    code, text = run(capsys, "check", record)
    assert code == 3 and "Cyrillic U+0430" in text
    record.write_text(re.sub("^beige:", "b\u0435ige:", legal_record(), count=1, flags=re.M), encoding="utf-8")
    code, text = run(capsys, "check", record)  # the player of a move
    assert code == 1 and "no player 'b\u0435ige' (it holds letters that are not Latin: '\u0435' Cyrillic U+0435)" in text
    assert odd_letters("beige") == odd_letters("fürdő") == ""  # accented Latin letters are Latin


def test_the_caret_lines_up_after_tabs_escapes_and_wide_letters(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(f'[Game "{GAME}"]\n[Players "beige, orange"]\n\n\treveal fireman 9\n', encoding="utf-8")
    code, text = run(capsys, "check", record)
    lines = text.splitlines()
    assert code == 1
    assert lines[1] == "    4 |         reveal fireman 9"
    assert lines[2] == "      |         ^~~~~~~~~~~~~~~~"
    shown, marker = quote("a\tb\x1bc 漢字 x", 10, 11)  # x: after a tab, an escape and two wide letters
    assert shown == "a       b\\x1bc 漢字 x" and marker == " " * 20 + "^"  # 1 + 7 + 1 + 4 + 1 + 1 + 2 + 2 + 1 cells


def test_a_long_line_is_cut_around_the_caret():
    line = "a" * 5000 + " bad " + "b" * 5000
    shown, marker = quote(line, 5002, 5005)
    assert len(shown) < 200 and "bad" in shown and shown.startswith("…") and shown.endswith("…")
    assert shown[marker.index("^") : marker.index("^") + 3] == "bad"


def test_play_keeps_a_variant_path_with_a_line_break_on_one_comment_line(tmp_path, capsys):
    overlay = tmp_path / 'mine\n[Event "forged"].yaml'
    overlay.write_text(f"kind: variant\nid: mine\ngame: {GAME}\ntitle: Mine\nchanges: {{}}\n", encoding="utf-8")
    assert main(["play", GAME, "--players", "2", "--seed", "1", "--variant", str(overlay)]) == 0
    text = capsys.readouterr().out
    assert not any(line.startswith('[Event "forged"]') for line in text.splitlines())
    assert "mine\\x0a[Event" in text


def test_play_out_dash_is_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["play", GAME, "--players", "2", "--seed", "1", "--out", "-"]) == 0
    assert capsys.readouterr().out.startswith(f'[Game "{GAME}"]')
    assert not (tmp_path / "-").exists()


def test_json_for_an_unreadable_file_gives_the_reason(tmp_path, capsys):
    code, text = run(capsys, "check", tmp_path / "missing.log", "--format", "json")
    report = json.loads(text)
    assert code == 2 and report["status"] == "usage" and "No such file" in report["message"]
    assert "No such file" in report["diagnostics"][0]["message"]


def test_a_file_name_that_is_not_utf8_does_not_break_json(tmp_path):
    name = os.fsdecode(b"bad\xff.log")
    (tmp_path / name).write_text(legal_record(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "check", "--format", "json", name], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["file"] == "bad\\xff.log" == readable_name(name)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_json_stays_json_on_an_output_encoding_without_the_characters(tmp_path, encoding):
    """Found by the fuzzer (seed 17, case 5690): the stream's own escapes (`\\xe9`) in JSON
    text made it no JSON; the characters it cannot carry are written as JSON escapes."""
    record = tmp_path / "game.log"
    record.write_text(named(legal_record(), "beige Zoë", "orange 李"), encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-m", "referee", "check", str(record), "--format", "json"], capture_output=True, env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout.decode(encoding))
    assert {"Zoë", "李"} <= {s.get("name") for s in data["standings"]}


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_encoding_without_the_characters_falls_back_to_escapes(tmp_path, encoding):
    record = tmp_path / "game.log"
    record.write_text(named(legal_record(), "beige Zoë", "orange 李"), encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-m", "referee", "check", str(record)], capture_output=True, env=env)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode(encoding)
    assert "winner:" in out and "\\u674e" in out
