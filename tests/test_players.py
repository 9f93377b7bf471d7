"""A player's name from [Players] stands for their colour; a slip gets the nearest one."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.replay import check_bytes

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = (ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log").read_text(encoding="utf-8")
HEADER = '[Game "speicherstadt"]\n[Players "beige Anna, orange Ben"]\n[Start "beige"]\n\n'
SUPPLY = "round 1\nreveal warehouse\nreveal coffee-roaster\nreveal contract coffee tea\n"


def check(text: str):
    return check_bytes(text.encode("utf-8"), "t.log")


def test_a_name_is_accepted_wherever_a_colour_is():
    by_colour = check(HEADER + SUPPLY + "beige: place 1\norange: place 2\ncheck orange: coins 5\n")
    by_name = check(HEADER + SUPPLY + "Anna: place 1\nben: place 2\ncheck BEN: coins 5\n")
    assert by_name.status == "legal", [d.message for d in by_name.diagnostics]
    assert by_name.record.entries[4:6] == by_colour.record.entries[4:6]
    assert by_name.checkpoints_confirmed == 1


def test_the_start_tag_and_the_result_take_names_too():
    text = SAMPLE.replace('[Start "beige"]', '[Start "ANNA"]').replace("result beige 14, orange 5, purple -4", "result anna 14, Ben 5, cleo -4")
    report = check(text)
    assert report.status == "legal" and report.complete, [d.message for d in report.diagnostics]
    assert report.checkpoints_confirmed == check(SAMPLE).checkpoints_confirmed


def test_a_colour_means_its_seat_even_when_another_player_bears_it_as_a_name():
    text = HEADER.replace("beige Anna, orange Ben", "beige Orange, orange Ben") + SUPPLY + "beige: place 1\norange: place 2\n"
    report = check(text)
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.record.entries[5].player == "orange"


def test_a_name_two_players_share_names_nobody():
    text = HEADER.replace("orange Ben", "orange Anna") + SUPPLY + "anna: place 1\n"
    report = check(text)
    assert [d.rule for d in report.errors] == ["speicherstadt/seat"]
    assert "'anna' is the name of 2 players (beige, orange); write the colour" in report.errors[0].message


@pytest.mark.parametrize("word, nearest", [("oragne", "orange"), ("Bne", "Ben"), ("beig", "beige")])
def test_a_misspelt_colour_or_name_gets_the_nearest_one(word, nearest):
    report = check(HEADER + SUPPLY + f"{word}: place 1\n")
    assert report.errors[0].message.startswith(f"no player {word.lower()!r} (did you mean {nearest!r}?)")


def test_other_games_take_names_too():
    hamburgum = '[Game "hamburgum"]\n[Players "red Anna, blue Ben"]\n\nanna: beer\nBen: cloth\ncheck anna: beer 2\n'
    report = check(hamburgum)
    assert report.status == "legal" and report.checkpoints_confirmed == 1, [d.message for d in report.diagnostics]
    canterbury = '[Game "canterbury"]\n[Players "blue Ann, red Ben, green Cy"]\n\nAnn: full build well b3\ncheck city: discs 0\nbne: full build well d3\n'
    report = check(canterbury)
    assert [d.rule for d in report.errors] == ["canterbury/seat"]
    assert "no player 'bne' (did you mean 'Ben'?)" in report.errors[0].message
    assert report.moves == 1 and report.checkpoints_confirmed == 1


def test_a_typo_in_the_players_tag_is_underlined_at_the_typo():
    report = check('[Game "speicherstadt"]\n[Players "beige Anna, oragne Ben"]\n\n')
    error = report.errors[0]
    assert report.exit_code == 3
    assert "unknown colour 'oragne' in [Players] (did you mean 'orange'?)" in error.message
    line = '[Players "beige Anna, oragne Ben"]'
    assert (error.pos.line, error.pos.column, error.pos.end_column) == (2, line.index("oragne") + 1, line.index("oragne") + 7)


def test_a_start_player_nobody_is_is_underlined_in_the_tag():
    report = check(HEADER.replace('[Start "beige"]', '[Start "Bne"]'))
    error = report.errors[0]
    assert error.message == "[Start]: no player 'Bne' (did you mean 'Ben'?)"
    assert (error.pos.line, error.pos.column) == (3, len('[Start "') + 1)
