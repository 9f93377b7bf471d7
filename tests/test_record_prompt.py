"""`referee record` at a terminal: keys typed into prompt_toolkit's line editor through its
pipe input, as a person types them (Tab, Enter, Ctrl-C, Ctrl-D)."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from referee.engine.continuations import MoreThan
from referee.engine.replay import check_bytes
from referee.lab.random_game import play_game
from referee.recording.prompt import bar_text, record_terminal

TAB, ENTER, CTRL_C, CTRL_D = "\t", "\r", "\x03", "\x04"
SUPPLY = ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea"]  # a two-player round's cards


def session(path: Path, keys: str, **options) -> int:
    """Run a session at a (simulated) terminal, typing `keys`; the keyboard is closed after
    them, which ends the session as Ctrl-D does."""
    with create_pipe_input() as keyboard, create_app_session(input=keyboard, output=DummyOutput()):
        keyboard.send_text(keys)
        keyboard.close()
        return record_terminal(str(path), **options)


def body(path: Path) -> list[str]:
    return path.read_text().split("\n")[4:-1]


NEW = {"game": "speicherstadt", "players": "beige Ann, orange Ben"}


def test_tab_completes_from_the_legal_moves_at_that_point(tmp_path):
    path = tmp_path / "game.log"
    typed = "".join(line + ENTER for line in SUPPLY)
    # Demand: beige may place at slots 1-3. "b" Tab gives "beige: ", Tab again "place ", then 2.
    assert session(path, typed + "b" + TAB + TAB + "2" + ENTER, **NEW) == 0
    assert body(path) == SUPPLY + ["beige: place 2"]


def test_tab_completes_a_name_in_another_language_and_fills_a_chance_outcome(tmp_path):
    path = tmp_path / "game.log"
    keys = "reveal wareh" + TAB + ENTER + "reveal firem" + TAB + "4" + ENTER + "reveal contract Kaff" + TAB + "te" + TAB + ENTER
    assert session(path, keys, **NEW) == 0
    # "te" is tea, or its German name Tee, or Teppich: Tab lists them and the line keeps "te"
    assert body(path) == ["reveal warehouse", "reveal fireman 4"]
    assert session(path, "reveal contract Kaff" + TAB + "Tee" + ENTER) == 0
    assert body(path)[-1] == "reveal contract kaffee Tee"
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def test_a_rejected_line_is_not_written_and_comes_back_to_be_corrected(tmp_path, capsys):
    path = tmp_path / "game.log"
    typed = "".join(line + ENTER for line in SUPPLY)
    # the rejected line is offered again; Backspace corrects its slot number
    assert session(path, typed + "beige: place 7" + ENTER + "\x7f" + "1" + ENTER, **NEW) == 0
    out = capsys.readouterr().out
    assert "game.log:8:1: error[speicherstadt/" in out and "line 8 is not recorded" in out
    assert body(path) == SUPPLY + ["beige: place 1"]


def test_ctrl_c_clears_the_line(tmp_path):
    path = tmp_path / "game.log"
    assert session(path, "reveal fireman 2" + CTRL_C + "reveal warehouse" + ENTER, **NEW) == 0
    assert body(path) == ["reveal warehouse"]


def test_undo_and_resume(tmp_path, capsys):
    path = tmp_path / "game.log"
    assert session(path, "".join(line + ENTER for line in SUPPLY) + "undo" + ENTER, **NEW) == 0
    assert body(path) == SUPPLY[:2]
    assert "took back line 7: reveal contract coffee tea" in capsys.readouterr().out
    # a new session goes on where the file ends
    assert session(path, "reveal contract rubber tea" + ENTER + "beige: place 1" + ENTER) == 0
    out = capsys.readouterr().out
    assert "recording goes on after move 2 (line 6)" in out
    assert body(path) == SUPPLY[:2] + ["reveal contract rubber tea", "beige: place 1"]


@pytest.mark.parametrize("end", ["quit" + ENTER, CTRL_D])
def test_quit_or_ctrl_d_ends_the_session_and_the_rest_is_not_read(tmp_path, end):
    path = tmp_path / "game.log"
    assert session(path, "reveal warehouse" + ENTER + end + "reveal fireman 3" + ENTER, **NEW) == 0
    assert body(path) == ["reveal warehouse"]


@pytest.mark.parametrize(
    "command, expected", [("moves", "legal next moves after move 0"), ("show", "The Speicherstadt, before the first move: legal so far"), ("help", "undo    take the last line back")]
)
def test_commands_inside_the_session(tmp_path, capsys, command, expected):
    path = tmp_path / "game.log"
    assert session(path, command + ENTER, **NEW) == 0
    assert expected in capsys.readouterr().out
    assert body(path) == []


def test_a_move_among_thousands_is_completed_at_the_terminal_without_listing_them(tmp_path, monkeypatch):
    """Canterbury, a position of thousands of moves: Tab completes word by word from the
    game's next words, and the move typed so is written; no move list is worked out."""
    text = play_game("canterbury", 4, seed=3)
    cut = check_bytes(text.encode(), "game.log", stop_after=20)
    path = tmp_path / "game.log"
    path.write_text("\n".join(text.split("\n")[: cut.position.line]) + "\n")
    state = check_bytes(path.read_bytes(), "game.log", open_end=True).state
    hints = state.game.move_hints(state)
    pairs = [h for h in hints if "," in h]  # Full Builds of two structures
    move = pairs[len(pairs) // 2]
    assert len(hints) > 3000 and move.startswith("blue: full build ")

    def refuse(self, state):
        raise AssertionError("every legal move was listed")

    monkeypatch.setattr(type(state.game), "move_hints", refuse)
    monkeypatch.setattr(type(state.game), "legal_moves", refuse)
    # "b" Tab: "blue: "; the Full Build is the only action, so Tab, Tab: "full build "
    assert session(path, "b" + TAB + TAB + TAB + move[len("blue: full build ") :] + ENTER) == 0
    assert path.read_text().split("\n")[-2] == move


@pytest.mark.parametrize(
    "open_moves, expected",
    [
        (5, " 5 listed moves start like this; Tab completes"),
        (1, " 1 listed move starts like this; Tab completes"),
        (0, " no listed move starts like this; Enter checks the line against the rules"),
        (None, " Tab completes; help lists the commands"),
        (MoreThan(12), " more than 12 listed moves start like this; Tab completes the next word"),
        (MoreThan(None), " Tab completes the next word of the legal moves that start like this"),
    ],
)
def test_the_bar_says_how_many_moves_the_line_may_become_or_that_there_are_more(open_moves, expected):
    assert bar_text(open_moves) == expected


# --- fewer keystrokes ----------------------------------------------------------------------

ROUND = [  # a two-player round of `referee play speicherstadt --players 2 --seed 1`
    "reveal spice-trader",
    "reveal fireman 1",
    "reveal contract saffron saffron",
    "beige: place 2",
    "orange: place 3",
    "beige: place 2",
    "orange: place 1",
    "beige: place 1",
    "orange: place 2",
    "orange: buy 1",
    "beige: pass 2",
    "beige: buy 2",
    "orange: pass 3",
    "check beige: points 0, coins 3",
    "check orange: points 0, coins 3",
    "round 2",
]


def test_a_speicherstadt_round_takes_at_most_sixty_keystrokes(tmp_path):
    """Number keys pick from the numbered moves (a fireman's value is typed after its pick),
    Tab fills a contract's goods and a checkpoint's figures as the referee has them."""
    keys = [
        "3" + ENTER,
        "7" + "1" + ENTER,
        "5" + "sa" + TAB + "sa" + TAB + ENTER,
        "2" + ENTER,
        "3" + ENTER,
        "2" + ENTER,
        "1" + ENTER,
        "1" + ENTER,
        "2" + ENTER,
        "1" + ENTER,
        "2" + ENTER,
        "1" + ENTER,
        "2" + ENTER,
        "c" + TAB + "b" + TAB + TAB + ENTER,
        "c" + TAB + "o" + TAB + TAB + ENTER,
        "1" + ENTER,
    ]
    typed = "".join(keys)
    assert len(typed) <= 60
    path = tmp_path / "game.log"
    assert session(path, typed, **NEW) == 0
    assert body(path) == ROUND
    assert sum(len(line) + 1 for line in ROUND) > 3 * len(typed)  # what typing each line in full would take


def test_tab_completes_a_players_name_which_stands_for_the_colour(tmp_path):
    path = tmp_path / "game.log"
    typed = "".join(line + ENTER for line in ROUND[:3])
    assert session(path, typed + "A" + TAB + "place 2" + ENTER, **NEW) == 0
    assert body(path)[-1] == "Ann: place 2"
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def test_canterbury_check_completes_the_city_and_fills_the_referees_figures(tmp_path):
    path = tmp_path / "game.log"
    assert session(path, "check ci" + TAB + TAB + ENTER, game="canterbury", players="blue Ann, red Ben, green Cleo") == 0
    last = path.read_text().split("\n")[-2]
    assert last.startswith("check city: prosperity ") and ", position " in last
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def test_a_line_over_the_limit_is_refused_at_once_and_the_next_line_is_read(tmp_path, capsys):
    """Five times the limit (the pipe that types it holds 64 KiB); the rest of the line is dropped."""
    import time

    path = tmp_path / "game.log"
    began = time.monotonic()
    assert session(path, "x" * 50_000 + ENTER + "reveal warehouse" + ENTER, **NEW) == 0
    assert time.monotonic() - began < 30
    assert "error: the line is longer than 10000 characters" in capsys.readouterr().out
    assert body(path) == ["reveal warehouse"]


def test_a_long_run_of_characters_reaches_the_editor_as_one_paste_and_typing_as_keys():
    from prompt_toolkit.key_binding import KeyPress
    from prompt_toolkit.keys import Keys

    from referee.recording.prompt import pasted_runs

    pasted = "1" + "x" * 5000
    keys = pasted_runs([KeyPress(c) for c in pasted] + [KeyPress(Keys.ControlM), KeyPress("2")])
    assert [key.key for key in keys] == ["1", Keys.BracketedPaste, Keys.ControlM, "2"]  # a digit first still picks
    assert "".join(key.data for key in keys[:2]) == pasted
    typed = [KeyPress(c) for c in "beige: place 2"] + [KeyPress(Keys.Tab), KeyPress(Keys.ControlM)]
    assert pasted_runs(typed) == typed


def test_keys_typed_while_a_line_is_checked_are_not_echoed_and_the_terminal_comes_back():
    import os
    import termios

    from referee.recording.prompt import TypeAhead

    keyboard, terminal = os.openpty()
    try:
        before = termios.tcgetattr(terminal)
        assert before[3] & termios.ECHO
        ahead = TypeAhead(terminal)
        ahead.hold()  # a line was entered: it is being checked
        held = termios.tcgetattr(terminal)
        assert not held[3] & termios.ECHO and not held[3] & termios.ICANON
        os.write(keyboard, b"2")  # typed ahead: readable at once, for the next prompt
        assert os.read(terminal, 1) == b"2"
        ahead.restore()
        assert termios.tcgetattr(terminal) == before
    finally:
        os.close(keyboard)
        os.close(terminal)
    TypeAhead(None).hold()  # no terminal: nothing to do
