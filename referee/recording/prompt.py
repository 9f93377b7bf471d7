"""The line editor of `referee record` at a terminal: prompt_toolkit's prompt, with completion.

The session itself (checks, the file, undo, the messages) is `record.py`; this module only
reads lines for it. Tab completes from the legal moves of the position (`Continuations`),
synchronously, so that what Tab inserts does not depend on timing; the moves of a new position
are worked out in a background thread while the prompt waits, so Tab finds them ready (where a
position has thousands of moves, only its first words are: the rest is asked for word by word,
as the line is typed). A bar at the bottom says how many of the listed legal moves the line
typed so far can still become, or, where that many are not counted as one types, that there
are more than a dozen. Ctrl-C clears the line; Ctrl-D on an empty line (or `quit`) ends the
session.

Nothing the editor draws is cut at a narrow terminal: the bar is folded at its width, and a
question's earlier lines (the diagnostics it follows from) are printed, not made part of the
prompt, whose earlier lines the editor does not wrap. A long paste reaches the editor as one
(`PastedRuns`), and a line over the record's line limit is refused as soon as it passes it.
"""

from __future__ import annotations

import os
import sys
import textwrap
import threading
from collections.abc import Iterable

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app, get_app_session
from prompt_toolkit.buffer import CompletionState
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPress, merge_key_bindings
from prompt_toolkit.keys import Keys

from referee.engine.continuations import MoreThan
from referee.i18n import localized
from referee.notation.parser import MAX_LINE_CHARS
from referee.recording.session import LineError, Recording, record
from referee.terminal import visible


class MoveCompleter(Completer):
    """Completions from the legal moves of the session's current position."""

    def __init__(self, recording: Recording):
        self.recording = recording

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        for choice in self.recording.continuations().complete(document.text_before_cursor):
            yield Completion(choice.text, start_position=-choice.replace, display=choice.display, display_meta=localized(choice.meta))


def _common_prefix(texts: list[str]) -> str:
    return os.path.commonprefix(texts) if texts else ""


def key_bindings(completer: MoveCompleter) -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("tab")
    def _complete(event) -> None:
        """Insert the only completion, or what all completions share, and list the others;
        Tab again steps through the list."""
        buffer = event.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
            return
        completions = list(completer.get_completions(buffer.document, CompleteEvent(completion_requested=True)))
        if not completions:
            return
        if len(completions) == 1:
            buffer.apply_completion(completions[0])
            return
        typed = buffer.document.text_before_cursor
        starts = {c.start_position for c in completions}
        if len(starts) == 1:
            replaced = typed[len(typed) + completions[0].start_position :]
            shared = _common_prefix([c.text for c in completions])
            if len(shared) > len(replaced) and shared.lower().startswith(replaced.lower()):
                buffer.delete_before_cursor(len(replaced))
                buffer.insert_text(shared)
                return
        buffer.complete_state = CompletionState(original_document=buffer.document, completions=completions)
        buffer.on_completions_changed.fire()

    for digit in "123456789":
        bindings.add(digit)(_pick(completer.recording, digit))

    @bindings.add("s-tab")
    def _back(event) -> None:
        if event.current_buffer.complete_state:
            event.current_buffer.complete_previous()

    return bindings


def _pick(recording: Recording, digit: str):
    """A digit typed on an empty line picks that move of the numbered list: the whole move
    (Enter writes it), or, for a move with something still to say (a fireman's value), its
    words up to there. Elsewhere the digit is typed as usual."""

    def pick(event) -> None:
        buffer = event.current_buffer
        picks = recording.numbered() if not buffer.text else []
        if int(digit) <= len(picks):
            buffer.insert_text(picks[int(digit) - 1].split("<", 1)[0])
        else:
            buffer.insert_text(digit)

    return pick


def toolbar(recording: Recording):
    """The bar under the line: what `bar_text` says of the line typed so far."""

    def text() -> str:
        app = get_app()
        ready = recording.ready_continuations()
        if ready is None:
            said = " working out the legal moves..."
        else:
            typed = app.current_buffer.document.text_before_cursor
            said = bar_text(ready.open_moves(typed)) + ("" if typed else picks_text(recording.numbered()))
        return wrapped(said, app.output.get_size().columns)

    return text


def wrapped(text: str, width: int) -> str:
    """The bar's lines folded at the terminal's width (the editor cuts a bar's line there),
    between words where a line has room for one; a folded line goes on indented."""
    folded = []
    for line in text.split("\n"):
        indent = " " * (len(line) - len(line.lstrip()) + 1)
        folded.extend(textwrap.wrap(line, max(width, len(indent) + 1), subsequent_indent=indent, break_on_hyphens=False) or [""])
    return "\n".join(folded)


def picks_text(picks: list[str]) -> str:
    """The numbered list under the bar: a digit on an empty line picks the move."""
    return "".join(f"\n {n}  {visible(move)}" for n, move in enumerate(picks, 1))


def bar_text(open_moves: int | MoreThan | None) -> str:
    """How many of the listed legal moves (`Game.move_hints`: every move, or where a move may be
    written in many ways, its plain forms) the typed line may still become (`open_moves`, as
    `Continuations.open_moves` counts them: None for a command or a checkpoint line)."""
    if open_moves is None:
        return " Tab completes; help lists the commands"
    if isinstance(open_moves, MoreThan):  # a position completed word by word: not every move is counted
        if open_moves.moves is None:
            return " Tab completes the next word of the legal moves that start like this"
        return f" more than {open_moves.moves} listed moves start like this; Tab completes the next word"
    if open_moves == 0:  # the listing holds the plain forms; Enter checks any line
        return " no listed move starts like this; Enter checks the line against the rules"
    return f" {open_moves} listed move{'s' if open_moves != 1 else ''} start{'s' if open_moves == 1 else ''} like this; Tab completes"


def warm(recording: Recording) -> None:
    """Work out the legal moves of the position in the background, if not done yet."""
    if recording.ready_continuations() is None:
        threading.Thread(target=recording.continuations, daemon=True).start()


class LineLimit:
    """A line longer than a record's line may be is refused as soon as it is typed (or pasted),
    not when Enter is pressed at last: the editor would take minutes over a line of a hundred
    thousand characters. The rest of that line, up to its Enter, is dropped."""

    def __init__(self, limit: int = MAX_LINE_CHARS):
        self.limit = limit
        self.dropping = False

    def watch(self, buffer) -> None:
        if len(buffer.text) > self.limit and not self.dropping:
            self.dropping = True
            buffer.reset()
            get_app().exit(exception=LineError(f"the line is longer than {self.limit} characters, the most a line may hold"))

    def bindings(self) -> KeyBindings:
        bindings = KeyBindings()
        dropping = Condition(lambda: self.dropping)

        @bindings.add("<any>", filter=dropping, eager=True)
        def _drop(event) -> None:
            """The rest of an overlong line is not typed into the next one."""

        @bindings.add("enter", filter=dropping, eager=True)
        def _end(event) -> None:
            self.dropping = False

        return bindings


PASTED_RUN = 32  # more characters in one read of the keyboard than a person types between two reads


class PastedRuns(Input):
    """The keyboard, with a long run of plain characters read at once (a paste without the
    terminal's paste brackets, or typed-ahead text) given to the editor as one paste, not as
    a key press each: the editor takes a tenth of a millisecond over every key press, so a
    hundred thousand of them kept it busy for seconds, the line limit notwithstanding. The
    run's first character stays a key press (a digit on an empty line picks a move), and a
    person's typing, a few keys at a time, is untouched."""

    def __init__(self, keyboard: Input):
        self.keyboard = keyboard

    def read_keys(self) -> list[KeyPress]:
        return pasted_runs(self.keyboard.read_keys())

    def flush_keys(self) -> list[KeyPress]:
        return pasted_runs(self.keyboard.flush_keys())

    def fileno(self) -> int:
        return self.keyboard.fileno()

    def typeahead_hash(self) -> str:
        return self.keyboard.typeahead_hash()

    @property
    def closed(self) -> bool:
        return self.keyboard.closed

    def flush(self) -> None:
        self.keyboard.flush()

    def raw_mode(self):
        return self.keyboard.raw_mode()

    def cooked_mode(self):
        return self.keyboard.cooked_mode()

    def attach(self, input_ready_callback):
        return self.keyboard.attach(input_ready_callback)

    def detach(self):
        return self.keyboard.detach()

    def close(self) -> None:
        self.keyboard.close()


def pasted_runs(keys: list[KeyPress]) -> list[KeyPress]:
    """`keys` with each run of more than PASTED_RUN plain characters as its first key and one
    paste of the rest."""
    out: list[KeyPress] = []
    run: list[KeyPress] = []

    def end_run() -> None:
        if len(run) > PASTED_RUN:
            out.append(run[0])
            out.append(KeyPress(Keys.BracketedPaste, "".join(key.data for key in run[1:])))
        else:
            out.extend(run)
        run.clear()

    for key in keys:
        if not isinstance(key.key, Keys) and key.key.isprintable():
            run.append(key)
            continue
        end_run()
        out.append(key)
    end_run()
    return out


def session_for(recording: Recording, limit: LineLimit | None = None, keyboard: Input | None = None) -> PromptSession:
    completer = MoveCompleter(recording)
    limit = limit or LineLimit()
    session = PromptSession(
        completer=completer,
        complete_while_typing=False,
        key_bindings=merge_key_bindings([key_bindings(completer), limit.bindings()]),
        history=InMemoryHistory(),
        bottom_toolbar=toolbar(recording),
        input=keyboard,
    )
    session.default_buffer.on_text_changed += limit.watch
    return session


class TypeAhead:
    """Keys typed while a line is being checked are kept for the next prompt, not echoed by
    the terminal into the messages: between two prompts the terminal neither echoes nor waits
    for a whole line (the prompt itself sets the modes it needs while it reads). The terminal's
    own modes come back at the end. Nothing happens where standard input is no terminal."""

    def __init__(self, fd: int | None = None):
        self.fd, self.saved = fd, None
        try:
            import termios

            if fd is None and sys.stdin is not None:
                self.fd = sys.stdin.fileno()
            self.saved = termios.tcgetattr(self.fd) if self.fd is not None and os.isatty(self.fd) else None
        except (ImportError, OSError, ValueError):
            self.saved = None

    def hold(self) -> None:
        """After a prompt: keys typed from now on wait, unseen, for the next one."""
        if self.saved is None:
            return
        import termios

        try:
            modes = termios.tcgetattr(self.fd)
            modes[3] &= ~(termios.ECHO | termios.ICANON)
            termios.tcsetattr(self.fd, termios.TCSANOW, modes)
        except OSError:
            pass

    def restore(self) -> None:
        if self.saved is None:
            return
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
        except OSError:
            pass


def record_terminal(path: str, say=print, verdict=None, **options) -> int:
    """`referee record` at a terminal."""
    state: dict = {}
    limit = LineLimit()
    ahead = TypeAhead()
    keyboard = PastedRuns(get_app_session().input)

    def read_line(prompt: str, retry: str) -> str:
        session = state.get("session")
        if session is None:
            session = state["session"] = PromptSession(history=InMemoryHistory(), key_bindings=limit.bindings(), input=keyboard)
            session.default_buffer.on_text_changed += limit.watch
        while True:
            try:
                line = session.prompt(prompt, default=retry)
                ahead.hold()
                return line
            except KeyboardInterrupt:  # Ctrl-C clears the line
                retry = ""

    def ask(question: str) -> str:
        """A question with the lines it follows from (a diagnostic): those are printed, so
        that the terminal wraps them, and only its last line is the prompt (the editor cuts
        a prompt's earlier lines at the terminal's width)."""
        before, _, last = question.rpartition("\n")
        if before:
            say(before)
        try:
            return read_line(last, "")
        except EOFError:
            return ""

    def prepare(recording: Recording):
        state["session"] = session_for(recording, limit, keyboard)
        return lambda: warm(recording)

    try:
        return record(path, read_line, ask, options, prepare, say=say, verdict=verdict)
    finally:
        ahead.restore()
