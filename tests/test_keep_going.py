"""`check --keep-going`: every problem of a record in one run (the games' own cases are in
tests/<game>/test_disputes.py)."""

from __future__ import annotations

import json

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.notation.parser import MAX_SKIPPED_LINES

from .speicherstadt.records import HEADER_2P, TO_ROUND_2
from .speicherstadt.test_rules import R1_SUPPLY


def check(text: str, keep_going=True):
    return check_bytes(text.encode("utf-8"), "many.log", keep_going=keep_going)


def test_every_unreadable_line_is_reported_with_its_repair():
    lines = TO_ROUND_2.split("\n")
    lines[6] = "reveal coffee-roastr"  # line 7: an unknown card
    lines[9] = "orange place 2"  # line 10: no colon
    lines[13] = "beige: place 3 3"  # line 14: orange's turn, and one number too many
    report = check("\n".join(lines))
    assert report.exit_code == 3
    assert [(d.pos.line, d.rule) for d in report.errors] == [(7, None), (10, None), (14, None)]  # one slip, one problem
    assert "did you mean 'coffee-roaster'" in report.errors[0].message
    assert report.errors[0].repair.startswith("reveal coffee-roaster (the next ")
    assert report.errors[1].repair.startswith("orange: place 2 (the next ")
    assert "orange: place" in report.errors[2].repair  # no small edit reads it: the legal line that reads on
    assert [r.lines for r in report.repairs][:2] == [["reveal coffee-roaster"], ["orange: place 2"]]
    assert report.replayed and all(d.follows is None for d in report.errors)
    plain = check("\n".join(lines), keep_going=False)
    assert plain.exit_code == 3 and len(plain.errors) == 1


def test_a_tag_after_the_moves_is_an_unreadable_line():
    report = check(HEADER_2P + 'reveal warehouse\n[Event "late"]\nreveal tea-taster\n')
    assert [(d.pos.line, d.rule) for d in report.errors] == [(6, None)]
    assert report.moves == 2


def test_a_record_of_nothing_but_unreadable_lines_stops_at_the_limit():
    report = check(HEADER_2P + "beige place 1\n" * (MAX_SKIPPED_LINES + 50))
    assert len(report.errors) == MAX_SKIPPED_LINES + 1
    assert report.errors[-1].message.startswith(f"more than {MAX_SKIPPED_LINES} unreadable lines")


def test_move_numbers_count_the_void_moves_too():
    text = HEADER_2P + "1. reveal warehouse\n2. reveal warehouse\n3. reveal coffee-roaster\n"
    report = check(text)
    assert [(d.pos.line, d.rule) for d in report.errors] == [(6, "speicherstadt/deck-season")]


def test_the_exit_code_is_the_worst_problem_and_json_carries_them_all(tmp_path, capsys):
    record = tmp_path / "many.log"
    record.write_text(R1_SUPPLY + "orange: place 1\ncheck beige: coins 4\n", encoding="utf-8")
    assert main(["check", str(record)]) == 1  # the first illegal move ends a plain check
    assert main(["check", "--keep-going", str(record)]) == 1
    capsys.readouterr()
    record.write_text(R1_SUPPLY + "orange: place 1\ncheck beige: coins 4\nbeige: place 1 1\n", encoding="utf-8")
    assert main(["check", str(record)]) == 1  # in line order: the illegal move comes first and ends it
    assert len(json.loads(_json(record, capsys))["diagnostics"]) == 1
    assert main(["check", "--keep-going", "--format", "json", str(record)]) == 3
    data = json.loads(capsys.readouterr().out)
    assert [(d["line"], d["rule"]) for d in data["diagnostics"]] == [(9, "speicherstadt/demand-turn"), (10, "speicherstadt/checkpoint"), (11, None)]
    # no edit of line 9 agrees with the checkpoint after it: the replay goes on from the line
    assert data["diagnostics"][0]["notes"] == ["no repair found; the replay goes on from the line as written, as after a ruling accept"]
    assert "place 1 (no later line to check it against)" in data["diagnostics"][2]["repair"]
    assert main(["check", "--keep-going", str(record)]) == 3
    out = capsys.readouterr().out
    assert "\nrepair: " in out and "MALFORMED record" in out


def _json(record, capsys) -> str:
    capsys.readouterr()
    main(["check", "--format", "json", str(record)])
    return capsys.readouterr().out


def test_keep_going_is_explained_in_the_help(capsys):
    try:
        main(["check", "--help"])
    except SystemExit:
        pass
    assert "--keep-going" in capsys.readouterr().out
