"""`referee record` in a real terminal: the command runs in a pseudo-terminal (pexpect) and
what it writes is read back as a screen (pyte's VT100 emulator), as a person sees it. The
screen is narrow, so that every long line has to wrap."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.engine.replay import check_bytes
from referee.notation.parser import MAX_LINE_CHARS
from referee.recording.prompt import bar_text
from referee.report.diagnostics import format_errors

pexpect = pytest.importorskip("pexpect", reason="needs pexpect (the test extras)")
pyte = pytest.importorskip("pyte", reason="needs pyte (the test extras)")

ROOT = Path(__file__).resolve().parents[1]
COLUMNS, ROWS = 40, 60
WAIT = 60  # seconds at most for the screen to show what is awaited (a loaded machine is slow)
SUPPLY = ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea"]  # a two-player round's cards
NEW = ["--game", "speicherstadt", "--players", "beige Ann, orange Ben"]


class Terminal:
    """`referee record ARGS` in a pseudo-terminal of COLUMNS x ROWS. The emulator answers the
    editor's questions about the cursor as a terminal does."""

    def __init__(self, path: Path, *args: str):
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.written = bytearray()
        self.screen.write_process_input = lambda answer: self.child.send(answer)
        # the messages' language as in this process (the expected texts are made here); UTF-8 text
        env = {**os.environ, "TERM": "xterm", "LC_CTYPE": "C.UTF-8"}
        env.pop("COLUMNS", None), env.pop("LINES", None)
        self.child = pexpect.spawn(sys.executable, ["-m", "referee", "record", str(path), *args], cwd=str(ROOT), env=env, dimensions=(ROWS, COLUMNS))

    def text(self) -> str:
        return "\n".join(row.rstrip() for row in self.screen.display)

    def wait(self, seen, what: str) -> None:
        """Read what the command writes until `seen(self)` holds."""
        end = time.monotonic() + WAIT
        while not seen(self):
            if time.monotonic() > end:
                raise AssertionError(f"waited {WAIT} s for {what}; the screen shows:\n{self.text()}")
            try:
                data = self.child.read_nonblocking(65536, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                if not seen(self):
                    raise AssertionError(f"the command ended before {what}; the screen shows:\n{self.text()}") from None
                return
            self.written.extend(data)
            self.stream.feed(data)

    def wait_for_prompt(self, move: int) -> None:
        self.wait(lambda t: any(row.startswith(f"{move} · ") for row in t.screen.display), f"the prompt of move {move}")

    def wait_for_output(self, text: str) -> None:
        self.wait(lambda t: text.encode() in t.written, repr(text))

    def type(self, keys: str) -> None:
        """Keys typed (or pasted without the terminal's paste brackets), from another thread,
        so that a long paste and the screen it draws do not wait for each other."""
        sender = threading.Thread(target=self.child.send, args=(keys.encode(),))
        sender.start()
        self.sender = sender

    def end(self) -> int:
        """Ctrl-C clears the line (a refused one comes back to be corrected), Ctrl-D ends."""
        self.child.send(b"\x03\x04")
        self.wait(lambda t: not t.child.isalive(), "the end of the session")
        self.child.close()
        return self.child.exitstatus


def unbroken(text: str) -> str:
    """Text without its spaces and line breaks: where the terminal wrapped a line does not matter."""
    return "".join(text.split())


def test_a_long_diagnostic_wraps_in_a_narrow_terminal_and_nothing_of_it_is_cut(tmp_path):
    """A move the rules refuse draws a diagnostic three times as wide as the terminal: every
    word of it is on the screen, wrapped; so is the bar under the prompt."""
    path = tmp_path / "a-record-with-a-rather-long-name.log"
    terminal = Terminal(path, *NEW)
    terminal.wait_for_prompt(1)
    wrong = "orange: place 2"  # beige places first
    terminal.type("".join(f"{line}\r" for line in SUPPLY) + wrong + "\r")
    terminal.wait_for_output(" is not recorded")
    terminal.wait(lambda t: "no listed move starts like this" in t.text(), "the bar")
    expected = check_bytes((path.read_text() + wrong + "\n").encode(), str(path))
    (shown,) = format_errors(expected)
    assert len(shown.split("\n")[0]) > 2 * COLUMNS  # the diagnostic's first line wraps twice
    screen = unbroken(terminal.text())
    for word in shown.split():
        assert word in screen
    assert unbroken(shown) in screen  # whole and in order
    assert unbroken(bar_text(0)) in screen
    assert terminal.end() == 0


def test_a_question_about_a_failing_record_is_shown_whole_in_a_narrow_terminal(tmp_path):
    """The diagnostics a question at the start follows from wrap as any output does (the
    editor cut them at the terminal's width when they were part of its prompt)."""
    path = tmp_path / "game.log"
    path.write_text('[Game "speicherstadt"]\n[Players "beige Ann, orange Ben"]\n' + "".join(f"{line}\n" for line in SUPPLY) + "orange: place 2\n")
    terminal = Terminal(path)
    terminal.wait(lambda t: "[y/N]" in unbroken(t.text()), "the question on the screen")
    (shown,) = format_errors(check_bytes(path.read_bytes(), str(path), keep_going=True))
    screen = unbroken(terminal.text())
    for word in shown.split():
        assert word in screen
    assert unbroken(shown) in screen
    terminal.child.send(b"n\r")  # no repair
    terminal.wait(lambda t: "replaywithouterror" in unbroken(t.text()), "the second question")
    terminal.child.send(b"n\r")  # and no cut
    terminal.wait(lambda t: not t.child.isalive(), "the end of the session")
    terminal.child.close()
    assert terminal.child.exitstatus == 1
    assert path.read_text().endswith("orange: place 2\n")  # left as it was


def test_a_paste_far_over_the_line_limit_is_refused_at_once_and_the_next_line_is_read(tmp_path):
    """Ten times the longest line a record may hold, typed without the terminal's paste
    brackets (every character a key): the line is refused as soon as it passes the limit and
    the rest of it is dropped, however long it goes on; the next line is read as usual."""
    path = tmp_path / "game.log"
    terminal = Terminal(path, *NEW)
    terminal.wait_for_prompt(1)
    terminal.type("x" * (10 * MAX_LINE_CHARS) + "\r" + SUPPLY[0] + "\r")
    terminal.wait_for_output(f"the line is longer than {MAX_LINE_CHARS} characters")
    terminal.sender.join(WAIT)
    terminal.wait_for_prompt(2)
    assert path.read_text().split("\n")[-2] == SUPPLY[0]
    assert terminal.end() == 0
