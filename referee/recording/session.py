"""`referee record`: a game written down as it is played, each line checked before it is kept.

A session holds the record's text and the engine's position after its last line (the public
API of `referee`: `read_entry`, `Position.apply`, `snapshot` and `restore`). The file is
replayed once, when the session starts; after that a new line is read as one entry at its
line number and applied to the position, and kept only if the rules accept it: appended to
the file, flushed and synced to the disk before the next prompt. A rejected line is not
written and the position goes back to where it was; its diagnostic is shown as `check` shows
it, with the nearest legal moves. A ruling is an entry too: the line it decides on is
applied again and the ruling after it, and the engine decides (`Position.apply`). A header
tag starts the position again from the new header, and `undo` goes back to the position kept
for the line before (for lines read from the file, worked out once from the nearest kept
one). The state after an accepted line is a snapshot that is never changed again, so the
legal moves of a position may be worked out in the background. The position keeps the
ledger behind every figure from the replay at the start on, so `explain` and a contradicted
checkpoint read it off the position, and so is the verdict at the end.

Nothing is lost: the file only ever grows by whole checked lines, and `undo` cuts it back by
whole lines where it stands, so a process killed at any moment leaves a record that `check`
accepts and a new session resumes. One session writes a record at a time (it holds the file's
lock), and before every append or undo it checks that the file is still what it last wrote:
a file another program changed stops the session with a message, so nothing is dropped or
written after lines the session has not seen. A file whose replay fails is cut at the last
good line only when the user agrees, and the rest is kept beside it in `FILE.rejected`.

This module has no terminal code: `record_prompt` is the line editor, and standard input that
is not a terminal is read here line by line, with the same checks and the same messages.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime
import difflib
import os
import re
import shlex
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from referee import Mark, Position, ReportBuilder, read_entry, read_record, replay
from referee.copying import copy_state
from referee.engine.continuations import Continuations, spec_spellings
from referee.engine.findings import Diagnostic, Report, rank
from referee.engine.replay import LEDGER_TAIL, check_bytes, hint_keep_going, record_variants
from referee.errors import EXIT_INTERNAL, EXIT_MALFORMED, EXIT_USAGE, EXIT_VIOLATION, Pos, RecordError, SpecError, UsageError
from referee.games.base import Game, State
from referee.i18n import Message, _, current, localized, ngettext
from referee.notation.parser import MAX_LINE_CHARS, MAX_RECORD_BYTES, Checkpoint, Header, Move, Record, Result, Ruling, decode, header_lines, parser_for
from referee.recording.durable import Held, append_synced, create_synced, hold, remove_stale_temporaries, replace_synced, set_aside_path, truncate_synced
from referee.report.diagnostics import MAX_SHOWN, format_diagnostic, format_errors, format_report
from referee.report.movelist import move_lines as listed
from referee.terminal import visible

NEAREST = 5  # legal moves shown under a rejected line
FILLED_FIGURES = 2  # the headline figures of a checkpoint (the figure tables list them first), filled by Tab
PICKS = 9  # legal moves numbered under the prompt, picked by their number (one key each)
TAG_LINE = re.compile(r"[ \t\f]*\[")
RULING_LINE = re.compile(r"\s*ruling\b", re.IGNORECASE)
MOVE_NUMBER = re.compile(r"\s*[0-9]+\.\s*")
YES = ("y", "yes", "i", "igen", "j", "ja")  # the answers of [y/N] in English, Hungarian and German

HELP = """Type a line of the record and press Enter: it is checked against the rules and, if they
accept it, written to the file at once. Tab completes the next word, or the whole move, from
the legal moves at this point (names in English, German and Hungarian too, and the players'
names); after `check COLOUR: ` it fills in the referee's own figures for the table to confirm.

Shorter still: where a few moves are legal they are numbered under the prompt, and a digit
picks one; when only one player can act, their move may be typed without the colour, or
without its verb too (`2` for `beige: place 2`, `buy`, `pass`). The whole line is written.

A line may be a move, a checkpoint (check red: coins 5, points 12), a comment (# ...), or,
once the game is over, the result (result red 41, blue 38). Before the first move, a header
tag such as [Event "club night"] may be added. Right after a move the rules refuse, a ruling
(ruling accept, or ruling void, with the table's words after a colon) writes the move with
the table's decision; right after a checkpoint the rules contradict, ruling adopt writes it
with the table's figures taken.

  undo    take the last line back (the file is rewritten safely)
  show    the state of the game
  moves   the legal next moves
  explain COLOUR FIGURE   the ledger behind a figure, as `referee explain` shows it
  help    this text
  quit    end the session (Ctrl-D does too); Ctrl-C clears the line"""


class Stop(Exception):
    """The session cannot start: the message to show and the exit code (`check`'s for the file)."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class LineError(Exception):
    """An input line that cannot be read at all (too long, not UTF-8)."""


class Changed(Exception):
    """The file is no longer what the session last wrote: another program changed it. The
    session stops rather than write after, or take back, lines it has not seen."""


Say = Callable[[str], None]  # where the session's messages go (standard output by default)


@dataclass
class Outcome:
    """What became of a line or a command: whether it was kept, and what to tell the user."""

    accepted: bool
    messages: list[str] = field(default_factory=list)
    code: int = 0  # for a line not recorded: the exit code it stands for (check's for its kind)


@dataclass
class Step:
    """One entry of the record as the engine takes it: a move, a checkpoint or the result, with
    the ruling given with it, and the lines they stand on."""

    entry: object
    ruling: Ruling | None
    first: int
    last: int


def steps_of(entries: list) -> list[Step]:
    """A record's entries as steps: each ruling goes with the entry before it, as `check` reads it."""
    steps = []
    for i, entry in enumerate(entries):
        if isinstance(entry, Ruling):
            continue
        ruling = entries[i + 1] if i + 1 < len(entries) and isinstance(entries[i + 1], Ruling) else None
        steps.append(Step(entry, ruling, entry.pos.line, (ruling or entry).pos.line))
    return steps


def _with_ledger(report: Report) -> Report:
    """A report's record replayed again as the session starts, this time keeping the ledger
    (for a report made without one)."""
    assert report.record is not None and report.state is not None
    again = Report(report.name, game=report.game, variants=list(report.variants), source=report.source)
    again.record = report.record
    replay(report.record, report.state.game, ReportBuilder(again), open_end=True, ledger=True)
    return again


def problem(exc: Exception, pos: Pos | None) -> Diagnostic:
    """An error met while a line is read or applied, as `check` reports it: the record's, the
    spec's, or (anything else) a fault of the referee."""
    if isinstance(exc, RecordError):
        return Diagnostic("error", exc.message, exc.pos)
    if isinstance(exc, SpecError):
        return Diagnostic("error", f"{exc.key}: {exc.message}" if exc.key else exc.message, None, file=exc.where)
    return Diagnostic("error", f"internal error: {type(exc).__name__}: {exc}", pos)


# --- the session ---------------------------------------------------------------------------


class Recording:
    """A record being written: its text, the state after its last line, and the checks."""

    def __init__(self, path: str, variants: list[str], text: str, report: Report, floor: int = 0, disk: bytes | None = None, lock: int | None = None):
        """`floor`: how many lines of the file `undo` never takes back (beyond the header tags),
        such as the lines a new record starts with; `disk`: the file's bytes as read (the text
        may differ: line ends, a byte order mark); `lock`: the descriptor holding the file's lock."""
        self.path = path
        self.floor = floor
        self.disk = text.encode("utf-8") if disk is None else disk
        self.lock = lock
        self.name = path
        self.variants = list(variants)
        self._lock = threading.Lock()
        self._continuations: tuple[State, Continuations] | None = None
        self._hints: tuple[State, list[str]] | None = None
        self._spellings: tuple[object, dict] | None = None
        self._load(text, report)

    def close(self) -> None:
        """Let go of the file's lock (the session ends)."""
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def __del__(self) -> None:
        try:
            self.close()
        except (OSError, AttributeError):
            pass

    def _load(self, text: str, report: Report) -> None:
        """Take the text and the replay of it (`check_bytes` with an open end and a ledger, once,
        as the session starts) as the session's: the engine's position at its end goes on from
        there, and so does its ledger, which `explain` and a contradicted checkpoint read."""
        assert report.state is not None and report.record is not None
        if report.ledger is None:  # a replay that kept none: the one replay is made here
            report = _with_ledger(report)
        record = report.record
        self.text = text
        self.game = report.state.game
        self.report = report
        self.header = record.header
        self.header_end = max((tag.pos.line for tag in self.header.tags.values()), default=0)
        self.refused_move: str | None = None  # a move the rules refused on the line before, which a ruling may decide on
        self.seats = [s.label for s in report.state.seats]
        move_lines = sum(isinstance(e, Move) for e in record.entries)  # void ones too: move numbers count them
        self.position = Position.at(
            self.game, copy_state(report.state), self.header, moves=report.moves, move_lines=move_lines, book=report.ledger, rulings=report.rulings, confirmed=report.checkpoints_confirmed
        )
        self.steps = steps_of(record.entries)
        # the position after each step; those the session read from the file are worked out
        # when first needed (`_mark`), the one at the end is the session's state
        self.marks: list[Mark | None] = [None] * len(self.steps) + [self.position.snapshot()]
        self._entries_changed()

    def _entries_changed(self) -> None:
        self.has_entries = bool(self.steps)
        self.result_given = any(isinstance(step.entry, Result) for step in self.steps)
        self.last_move_line = max((step.first for step in self.steps if isinstance(step.entry, Move)), default=None)

    @property
    def state(self) -> State:
        """The state after the last line kept: never changed again (the next line is applied to
        the engine's own copy), so its legal moves may be worked out in the background."""
        return self.marks[-1].state

    @property
    def played(self) -> int:
        """Moves played so far."""
        return self.marks[-1].moves

    @property
    def move_lines(self) -> int:
        """Move lines so far, void ones too: move numbers count them."""
        return self.marks[-1].move_lines

    def _mark(self, steps: int) -> Mark:
        """The position after the first `steps` steps: kept since it was reached, or, for lines
        the session read from the file, played from the nearest position kept before it (the
        start at first) by the engine, one step at a time, and kept from then on."""
        if self.marks[steps] is None:
            known = max((i for i in range(steps) if self.marks[i] is not None), default=None)
            position = Position(self.game, self.header)
            if known is None:
                known = 0
                self.marks[0] = position.snapshot()
            else:
                position.restore(self.marks[known])
            book = self.position.book
            for i in range(known, steps):
                step = self.steps[i]
                position.apply(step.entry, ruling_follows=step.ruling is not None)
                if step.ruling is not None:
                    position.apply(step.ruling)
                mark = position.snapshot()  # with how far the session's ledger had got there
                self.marks[i + 1] = replace(mark, ledger=book.size_upto(step.last)) if book is not None else mark
        return self.marks[steps]

    # --- where the record stands ---

    def next_line(self) -> int:
        """The line number the next line gets in the file."""
        lines = self.text.count("\n") + 1
        return lines if not self.text or self.text.endswith("\n") else lines + 1

    def prompt(self) -> str:
        """`23 · round 3 · Purchase · slot 2 offered to orange at 3 coins > `"""
        return self.where() + " > "

    def where(self) -> str:
        """Where the game stands: the next move's number, the round, the phase, what is pending."""
        situation = self.state.situation()
        parts = [str(self.move_lines if situation.over else self.move_lines + 1)]
        if situation.round is not None:
            parts.append(_("round {n}").format(n=situation.round))
        if situation.phase:
            parts.append(situation.phase)
        pending = situation.pending
        if situation.over and not self.result_given:
            pending += _(": the result line may follow")
        parts.append(pending)
        return visible(" · ".join(parts))

    def opening(self, new: bool) -> str:
        where = _("a new record") if new else _("recording goes on after move {n} (line {line})").format(n=self.played, line=self.next_line() - 1)
        names = self.game.spec.meta["names"]  # the game's name in the language in use, not its id
        return visible(_("{file}: {game}, {seats}; {where}. Type help for the commands.").format(file=self.name, game=names.get(current()) or names["en"], seats=", ".join(self.seats), where=where))

    # --- the legal next moves, worked out once per position ---

    def hints(self) -> list[str]:
        """The legal next lines as a record writes them: the moves, or the result line once the
        game is over."""
        state = self.state
        cached = self._hints
        if cached is not None and cached[0] is state:
            return cached[1]
        trial = copy_state(state)  # the search for moves may note rules in the state's trace
        if trial.is_over():
            hints = [] if self.result_given else ["result " + ", ".join(f"{s.seat.colour} {s.total}" for s in rank(trial.standings()))]
        else:
            hints = self.game.move_hints(trial)
        self._hints = (state, hints)
        return hints

    def continuations(self) -> Continuations:
        """What may be typed at this point, for completion (built once per position): from
        the list of every legal move, or, where the game completes a move word by word
        (`word_by_word`), from its next words, asked as the line is typed."""
        with self._lock:
            state = self.state
            cached = self._continuations
            if cached is not None and cached[0] is state:
                return cached[1]
            try:
                trial = copy_state(state)
                figures = {owner: trial.figures(owner) for owner in trial.figure_owners()}
                checkpoints = {owner: list(values) for owner, values in figures.items()}
                filled = {owner: ", ".join(f"{key} {value}" for key, value in list(values.items())[:FILLED_FIGURES]) for owner, values in figures.items()}
                names = [seat.name for seat in trial.seats if seat.name]

                def fill(placeholder: str) -> list[str]:
                    return self.game.placeholder_words(trial, placeholder)

                if self.word_by_word(trial):
                    found = Continuations((), self._spellings_of(), fill, checkpoints, next_words=self._next_words_in(copy_state(state)), players=names, filled=filled)
                    found.open_moves("")  # the first words, asked while the prompt waits
                else:
                    found = Continuations(self.hints(), self._spellings_of(), fill, checkpoints, players=names, filled=filled)
            except Exception:  # completion helps; it must never end a session
                found = Continuations([])
            self._continuations = (state, found)
            return found

    def word_by_word(self, state: State) -> bool:
        """Whether a line is completed from the game's next words (`Game.next_words`) rather
        than from the list of every legal move: where the game answers them without listing
        its moves, because its positions may hold thousands of moves that take long to list
        (Canterbury's: a few hundred milliseconds, against a few for its next words; see
        benchmarks/README.md). Where the game lists its moves to answer, as the others do
        (their positions list in a millisecond or two), the list is used, with every count
        exact; and an ended game's only line is its result."""
        return type(self.game).next_words is not Game.next_words and not state.is_over()

    def _next_words_in(self, trial: State) -> Callable[[list[str]], list[str]]:
        """The game's next words in a position, asked as a line is completed; a fault of the
        search offers nothing there rather than ending the session."""
        game = self.game

        def next_words(words: list[str]) -> list[str]:
            try:
                return game.next_words(trial, words)
            except Exception:
                return []

        return next_words

    def ready_continuations(self) -> Continuations | None:
        """The completions of this position if they are worked out already (None if not yet)."""
        cached = self._continuations
        return cached[1] if cached is not None and cached[0] is self.state else None

    def _spellings_of(self) -> dict:
        """The specs' names and aliases that the record's grammar reads as a word."""
        if self._spellings is None or self._spellings[0] is not self.game:
            try:
                word = re.compile(parser_for(self.game.name).get_terminal("WORD").pattern.to_regexp())
            except (KeyError, re.error):  # a grammar without the terminal: offer every spelling
                word = re.compile(r".+")
            self._spellings = (self.game, spec_spellings(self.game.spec, lambda text: word.fullmatch(text) is not None))
        return self._spellings[1]

    def numbered(self) -> list[str]:
        """The legal next moves numbered under the prompt, where there are few enough to pick
        one by its number (a digit); none where there are more, or where listing the game's
        moves takes long (`Game.lists_quickly`)."""
        try:
            if self.word_by_word(self.state) and not self.game.lists_quickly:
                return []
            hints = self.hints()
        except Exception:
            return []
        return hints if len(hints) <= PICKS else []

    def actor(self) -> str | None:
        """The colour of the only player who can act now, or None (several can, or none)."""
        try:
            hints = self.hints()
        except Exception:
            return None
        colours = {s.colour for s in self.state.seats}
        actors = {hint.split(":", 1)[0] for hint in hints if hint.split(":", 1)[0] in colours}
        return actors.pop() if len(actors) == 1 else None

    def shorthand(self, line: str) -> str | None:
        """The whole line a short one stands for, or None: a number picks from the numbered
        list; where only one player can act, their move may be typed without their colour
        (`place 2`), without its verb too (`2`), or by its first words where only one legal
        move starts so (`buy`)."""
        typed = line.strip()
        if not typed or typed.startswith("#"):
            return None
        picks = self.numbered()
        if typed.isdigit() and 1 <= int(typed) <= len(picks) and "<" not in picks[int(typed) - 1]:
            return picks[int(typed) - 1]
        actor = self.actor()
        words = typed.lower().split()
        rests = []
        for hint in self.hints():
            head, colon, rest = hint.partition(": ")
            if colon and head != actor:
                continue
            rests.append((hint, (rest if colon else hint).lower().split()))
        for fits in (lambda r: r == words, lambda r: r[1:] == words, lambda r: r[: len(words)] == words):
            found = [hint for hint, rest in rests if fits(rest) and "<" not in hint]
            if len(found) == 1:
                return found[0]
            if found:
                break  # more than one listed move is meant so
        if actor is not None and self._reads(f"{actor}: {typed}"):
            return f"{actor}: {typed}"
        return None

    def _reads(self, line: str) -> bool:
        """Whether a line reads as a line of this record (its syntax only)."""
        try:
            read_entry(self.game, line, self.next_line())
        except Exception:  # RecordError, or a fault of the reading: not read either way
            return False
        return True

    def nearest(self, line: str) -> list[str]:
        """The legal next moves closest to a line, best first."""
        typed = " ".join(MOVE_NUMBER.sub("", line, count=1).lower().split())
        try:
            hints = self.hints()
        except Exception:
            return []
        matcher = difflib.SequenceMatcher(None)
        matcher.set_seq2(typed)  # the matcher keeps what it learns of the second text
        best: list[tuple[float, int]] = []  # (-similarity, index): the moves' order among equals
        for i, hint in enumerate(hints):
            matcher.set_seq1(hint)
            floor = -best[-1][0] if len(best) == NEAREST else -1.0
            if matcher.real_quick_ratio() <= floor or matcher.quick_ratio() <= floor:
                continue  # cannot beat the five found so far (the quick ratios bound the real one)
            score = matcher.ratio()
            if score > floor:
                bisect.insort(best, (-score, i))
                del best[NEAREST:]
        return [hints[i] for _, i in best]

    # --- a line ---

    def enter(self, line: str) -> Outcome:
        """Check a line against the rules and, if they accept it, write it to the file (without
        the spaces a completion leaves at its end). The line is read as an entry at its line
        number and applied to the engine's position; a line the rules refuse leaves it as it was."""
        line = line.rstrip(" \t")
        number = self.next_line()
        refused, self.refused_move = self.refused_move, None
        problem = self._unwritable(line, number)
        if problem:
            return self._refuse([problem], line, number, nearest=False)
        if TAG_LINE.match(line):
            return self._enter_tag(line, number)
        meant = None if RULING_LINE.match(line) or self._reads(line) else self.shorthand(line)
        if meant is not None:
            outcome = self.enter(meant)
            if outcome.accepted:
                outcome.messages.insert(0, visible(_("line {n}: {line}").format(n=number, line=meant)))
            return outcome
        try:
            entry = read_entry(self.game, line, number)
        except RecordError as exc:
            return self._refuse([Diagnostic("error", exc.message, exc.pos)], line, number, nearest=self._looks_like_move(line))
        if entry is None:  # a comment or a blank line
            return self._keep(line)
        if isinstance(entry, Ruling):
            return self._enter_ruling(line, number, refused)
        self.position.resolve([entry])  # a player's name stands for their colour
        self._quote(self._text_with(line))
        errors, fault = self._apply(self.position, entry)
        if not errors:
            return self._keep(line, Step(entry, None, number, number))
        if isinstance(entry, Checkpoint) and all(d.figure for d in errors):
            self._ledger_tails(line, errors)
        outcome = self._refuse(errors, line, number, nearest=isinstance(entry, Move))
        if fault:
            outcome.code = EXIT_INTERNAL
        if isinstance(entry, Move) and all(d.rule for d in errors):
            self.refused_move = line
            outcome.messages.append(_("if the table lets the move stand, or takes it back, record that with `ruling accept` or `ruling void` next"))
        elif isinstance(entry, Checkpoint) and all(d.figure for d in errors):
            self.refused_move = line  # a ruling adopt writes it with the ruling
            outcome.messages.append(_("if the table played on from the figures it wrote, record that with `ruling adopt` next"))
        return outcome

    def _apply(self, position: Position, entry, ruling: Ruling | None = None) -> tuple[list[Diagnostic], bool]:
        """Apply an entry, and the ruling on it as the next entry, to a position: the errors
        they draw, as `check` reports them, and whether one is a fault of the referee. The
        session's own position goes back to the session's state when they draw an error."""
        try:
            outcome = position.apply(entry, ruling_follows=ruling is not None)
            if ruling is not None:
                outcome = position.apply(ruling)  # the entry's outcome, as the ruling decides it
            if outcome.unreadable is not None:
                raise outcome.unreadable
            errors, fault = [d for d in outcome.diagnostics if d.severity == "error"], False
        except Exception as exc:
            errors, fault = [problem(exc, entry.pos)], not isinstance(exc, (RecordError, SpecError))
        if errors and position is self.position:
            position.restore(self.marks[-1])
        return errors, fault

    def _quote(self, text: str) -> None:
        """The record the position's ledger quotes moves from: the file's text with the lines
        being checked."""
        self.position.record = Record(self.name, text, self.header, [])

    def _ledger_tails(self, line: str, errors: list[Diagnostic]) -> None:
        """Each contradicted figure with its last changes, as `check` shows them, read off the
        ledger the session's position keeps (a checkpoint changes no figure)."""
        book = self.position.book
        for d in errors:
            if d.pos is not None and d.figure and book is not None:
                d.ledger = book.history(*d.figure, d.pos.line)[1][-LEDGER_TAIL:]

    def _enter_ruling(self, line: str, number: int, refused: str | None) -> Outcome:
        """A ruling decides on the move (or the checkpoint) on the line before it: the one the
        rules just refused is applied again with it and, if the ruling can be honoured, both
        lines are written. A ruling after a line already kept is decided on as `check`
        decides on it (the engine applies that entry again, with the ruling, to the position
        before it), which refuses it."""
        if refused is None:
            return self._ruling_after_kept(line, number)
        entry, ruling = read_entry(self.game, refused, number), read_entry(self.game, line, number + 1)
        self.position.resolve([entry])
        self._quote(self._text_with(f"{refused}\n{line}"))
        errors, fault = self._apply(self.position, entry, ruling)
        lines = f"{refused}\n{line}"
        if errors:
            outcome = self._refuse(errors, lines, number, nearest=False)
            outcome.messages[-1] = _("lines {first}-{last} are not recorded").format(first=number, last=number + 1)
            if fault:
                outcome.code = EXIT_INTERNAL
            return outcome
        outcome = self._keep(lines, Step(entry, ruling, number, number + 1))
        if outcome.accepted:
            outcome.messages.insert(0, visible(_("line {n}: {line}  (the ruling on line {ruling} decides on it)").format(n=number, line=refused.strip(), ruling=number + 1)))
        return outcome

    def _ruling_after_kept(self, line: str, number: int) -> Outcome:
        """A ruling typed after a line the rules accepted (or after no entry)."""
        ruling = read_entry(self.game, line, number)
        last = self.steps[-1] if self.steps else None
        if last is None or last.ruling is not None or isinstance(last.entry, Result):
            follows = "no move" if last is None else "another ruling" if last.ruling is not None else "the result"
            errors = self.position.misplaced_ruling(ruling, follows).diagnostics
            return self._refuse(errors, line, number, nearest=False)
        trial = Position(self.game, self.header)
        trial.restore(self._mark(len(self.steps) - 1))
        errors, fault = self._apply(trial, last.entry, ruling)
        # the rules refuse a ruling on an entry they accept; should that change, the line is
        # still not written after the fact: the ruling belongs with the line it decides on
        errors = errors or self.position.misplaced_ruling(ruling, "a line the rules accepted").diagnostics
        outcome = self._refuse(errors, line, number, nearest=False)
        if fault:
            outcome.code = EXIT_INTERNAL
        return outcome

    @staticmethod
    def _looks_like_move(line: str) -> bool:
        words = line.split()
        return bool(words) and words[0].lower() not in ("check", "result")

    def _unwritable(self, line: str, number: int) -> Diagnostic | None:
        """A line that no record may hold: too long, a NUL, a line break inside it, or one that
        would take the record over its size limit."""
        try:
            decode(line.encode("utf-8", "surrogateescape"))
        except RecordError as exc:
            column = exc.pos.column if exc.pos else 1
            return Diagnostic("error", exc.message, Pos(number, column))
        except UnicodeError:
            return Diagnostic("error", Message("not UTF-8 text"), Pos(number, 1))
        for mark in ("\r", "\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"):
            if mark in line:
                return Diagnostic("error", Message("a line break inside the line"), Pos(number, line.index(mark) + 1))
        if len(self.disk) + len(line.encode("utf-8", "surrogateescape")) + 2 > MAX_RECORD_BYTES:
            return Diagnostic("error", Message("the record would be longer than {n} bytes, the most a record may hold", n=MAX_RECORD_BYTES), Pos(number, 1))
        return None

    def _enter_tag(self, line: str, number: int) -> Outcome:
        """A header tag, before the first move: the header is read again with it."""
        column = len(line) - len(line.lstrip()) + 1
        if self.has_entries:
            return self._refuse([Diagnostic("error", Message("a header tag belongs before the first move; this record has moves already"), Pos(number, column))], line, number, nearest=False)
        text = self._text_with(line)
        report = Report(self.name)
        try:  # the header read again, and the position it starts (no entry follows it yet)
            record, game = read_record(text, self.name, self.variants)
            report.record, report.source, report.game = record, text, game.name
            header_variants = record_variants(text, game.name)
            report.variants = list(dict.fromkeys(header_variants + self.variants))
            replay(record, game, ReportBuilder(report), open_end=True, ledger=True, header_variants=header_variants)
        except Exception as exc:
            return self._refuse([problem(exc, Pos(number, column))], line, number, nearest=False)
        outcome = self._keep(line)
        if outcome.accepted:
            self._load(self.text, report)
        return outcome

    def _text_with(self, line: str) -> str:
        return self.text + ("\n" if self.text and not self.text.endswith("\n") else "") + line + "\n"

    def _keep(self, line: str, step: Step | None = None) -> Outcome:
        """Write an accepted line (or a ruling's two); `step` is the entry the engine's position
        has just taken from it, None for a comment, a blank line or a tag. The session moves on
        only once the disk has the line; if it cannot be written, the position goes back."""
        was_over = self.state.is_over()
        warned = len(self.state.trace.warnings)
        text = self._text_with(line)
        added = text[len(self.text) :].encode("utf-8")
        written = False
        try:
            if len(self.disk) + len(added) > MAX_RECORD_BYTES:
                return Outcome(
                    False,
                    [visible(_("{file}: error: the record would be longer than {n} bytes on the disk, the most a record may hold; it is not recorded").format(file=self.name, n=MAX_RECORD_BYTES))],
                    EXIT_USAGE,
                )
            self.unchanged()
            append_synced(self.path, added)
            written = True
        except OSError as exc:
            return Outcome(False, [visible(_("{file}: error: cannot write the line: {why}; it is not recorded").format(file=self.name, why=exc.strerror or exc))], EXIT_USAGE)
        finally:
            if step is not None and not written:
                self.position.restore(self.marks[-1])
        self.disk += added
        self.text = text
        if step is not None:
            self.steps.append(step)
            self.marks.append(self.position.snapshot())
            self._entries_changed()
        state = self.state
        messages = [visible(f"warning[{rule}]: {message}") for rule, message, _ in state.trace.warnings[warned:]]
        if state.is_over() and not was_over:
            messages.append(visible(format_report(self.final_report()), keep_lines=True))
        return Outcome(True, messages)

    def _refuse(self, diagnostics: list[Diagnostic], line: str, number: int, nearest: bool, report: Report | None = None) -> Outcome:
        """A line that is not written: its diagnostics as `check` shows them, and the nearest
        legal moves where the line was meant as a move."""
        if report is None:
            text = self._text_with(line)
            report = Report(self.name)
            report.source = text
            report.record = Record(self.name, text, Header(), [])
        messages = [visible(format_diagnostic(report, d), keep_lines=True) for d in diagnostics[:MAX_SHOWN]]
        if len(diagnostics) > MAX_SHOWN:
            messages.append(_("... and {n} more errors").format(n=len(diagnostics) - MAX_SHOWN))
        close = self.nearest(line) if nearest else []
        if close:
            messages.append(_("nearest legal moves:") + "\n" + "\n".join(f"  {visible(m)}" for m in close))
        messages.append(_("line {n} is not recorded").format(n=number))
        return Outcome(False, messages, EXIT_VIOLATION if all(d.rule for d in diagnostics) else EXIT_MALFORMED)

    # --- commands ---

    def undo(self) -> Outcome:
        """Take the last line back: the file is rewritten without it (blank lines after it go too)."""
        lines = self.text.split("\n")
        last = max((i for i, text in enumerate(lines) if text.strip()), default=-1)
        if last < max(self.header_end, self.floor) or TAG_LINE.match(lines[last]):
            return Outcome(False, [_("nothing to take back: the record has only its header")])
        first = last
        if RULING_LINE.match(lines[last]):  # a ruling goes with the move it decides on
            first = max((i for i in range(last) if lines[i].strip()), default=last)
        steps = sum(step.last <= first for step in self.steps)  # the steps on the lines kept (1 to `first`)
        mark = self._mark(steps)
        self.unchanged()
        size = len(b"\n".join(self.disk.split(b"\n")[:first])) + (1 if first else 0)  # the disk's bytes of the lines kept
        try:
            truncate_synced(self.path, size)
        except OSError as exc:
            return Outcome(False, [visible(_("{file}: error: cannot cut the file back: {why}; nothing is taken back").format(file=self.name, why=exc.strerror or exc))])
        self.disk = self.disk[:size]
        self.text = "\n".join(lines[:first]) + "\n"
        del self.steps[steps:], self.marks[steps + 1 :]
        self.position.restore(mark)
        self.refused_move = None
        self._entries_changed()
        taken = [_("took back line {n}: {line}").format(n=i + 1, line=lines[i].strip()) for i in range(first, last + 1) if lines[i].strip()]
        return Outcome(True, [visible("\n".join(taken), keep_lines=True)])

    def show(self) -> str:
        """Where the game stands, as `referee show` prints it."""
        from referee.engine.positions import Position
        from referee.report.show import render

        return render(Position(self.report, copy_state(self.state), self.played, self.last_move_line))

    def explain(self, who: str, figure: str) -> str:
        """The ledger behind one figure of the record so far, as `referee explain` prints it:
        read off the session's position, closed as the end of the record closes it (on a
        trial: the position goes back after)."""
        from referee.report.explain import explained, format_explanation

        with self._ended() as (report, position):
            try:
                explanation = explained(position.book, position.state, who, figure, None)
            except UsageError as exc:  # a colour or a figure the game does not have
                return visible(f"explain: {exc}")
            return format_explanation(report, explanation)

    @contextlib.contextmanager
    def _ended(self):
        """The record so far as `check` replays it to its end: its report, and the session's
        position with the end of the record applied (a phase closed, the final scoring), for
        the time of the `with`; the position goes back after."""
        position = self.position
        mark = position.snapshot()
        try:
            end = position.end()
            report = Report(self.name, game=self.game.name, variants=list(self.report.variants), source=self.text)
            report.record = Record(self.name, self.text, self.header, [e for step in self.steps for e in (step.entry, step.ruling) if e is not None])
            builder = ReportBuilder(report)
            builder.begin(position)
            report.rulings, report.checkpoints_confirmed = list(position.rulings), position.confirmed
            builder.visit(end, position)
            builder.end(position, True)
            hint_keep_going(report, report.record)
            yield report, position
        finally:
            position.restore(mark)

    def moves(self) -> str:
        hints = self.hints()
        if not hints:
            return _("no legal move follows: the game is over")
        count = ngettext("{n} legal next move after move {move}", "{n} legal next moves after move {move}", len(hints)).format(n=len(hints), move=self.played)
        return visible("\n".join([count] + [f"  {m}" for m in listed(hints)]), keep_lines=True)

    def unchanged(self) -> None:
        """Raise Changed unless the file holds exactly what this session last wrote or read."""
        try:
            with open(self.path, "rb") as fh:
                now = fh.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise Changed(visible(_("{file}: error: the file cannot be read any more ({why}); the session stops").format(file=self.name, why=exc.strerror or exc))) from None
        if now == self.disk:
            return
        if now.startswith(self.disk):
            what = _("{n} bytes were added at its end").format(n=len(now) - len(self.disk))
        elif self.disk.startswith(now):
            what = _("it was cut back by {n} bytes").format(n=len(self.disk) - len(now))
        else:
            what = _("its content was replaced")
        raise Changed(
            visible(
                _("{file}: error: another program changed the file during this session ({what}); the session stops and writes nothing more. Check the file, then resume it with `{command}`").format(
                    file=self.name, what=what, command=self.resume_command()
                )
            )
        )

    def resume_command(self) -> str:
        """The command that goes on with this record, with every option it needs: the variants
        the header does not name (a variant file, or a named variant given as an option)."""
        named = set()
        if self.report.record is not None:
            tag = self.report.record.header.get("variant") or ""
            named = {part.strip().lower() for part in tag.split(",") if part.strip()}
        extra = [v for v in self.variants if v.lower() not in named]
        return " ".join(["referee record", shlex.quote(self.name)] + [f"--variant {shlex.quote(v)}" for v in extra])

    def final_report(self) -> Report:
        """`check`'s report on the file as it is on the disk: read off the session's position
        when the file holds what the session wrote, else from a replay of what it holds."""
        try:
            with open(self.path, "rb") as fh:
                data = fh.read(MAX_RECORD_BYTES + 1)
        except OSError:
            data = self.text.encode("utf-8")
        if data != self.disk:
            return check_bytes(data, self.name, self.variants)
        with self._ended() as (report, position):
            report.state = copy_state(position.state)
            report.ledger = None
            return report

    def closing(self, report: Report) -> str:
        """The last word of a session: what the file holds now."""
        lines = [visible(shown, keep_lines=True) for shown in format_errors(report)]
        if report.complete and not self.state.is_over():  # the record's end closed the game
            lines.append(visible(format_report(report), keep_lines=True))
        if report.complete:
            state = _("the game is complete")
        else:
            state = _("the game goes on: `{command}` resumes it").format(command=self.resume_command())
        recorded = ngettext("{n} move recorded", "{n} moves recorded", report.moves).format(n=report.moves)
        lines.append(visible(f"{self.name}: {recorded}; {state}"))
        return "\n".join(lines)


# --- starting a session --------------------------------------------------------------------


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {reason}").format(path=visible(path), reason=exc.strerror or exc)) from None


def open_recording(
    path: str, ask: Callable[[str], str], game: str | None = None, players: str | None = None, start: str | None = None, variants: list[str] | tuple[str, ...] = (), say: Say = print
) -> tuple[Recording, bool]:
    """The session for FILE, and whether FILE is new: a new (or empty) file gets the header from
    the options; an existing one is replayed and resumed at its end, or, where its replay fails,
    cut at the last good line if `ask` agrees (the rest kept in FILE.rejected). The session holds
    the file's lock from here on: a second session on the file is refused."""
    if path == "-":
        raise UsageError(_("record writes a file: give its name (standard input is read for the lines when it is not a terminal)"))
    target = Path(path)
    if target.is_dir():
        raise UsageError(_("{path} is a directory").format(path=visible(path)))
    if not target.exists():
        return _create(path, game, players, start, list(variants)), True
    lock = _lock(path)
    try:
        for stale in remove_stale_temporaries(path):
            say(visible(_("removed {file}, left behind by a rewrite that was stopped").format(file=stale)))
        data = _read_file(path)
        if not data:
            return _create(path, game, players, start, list(variants), lock), True
        report = check_bytes(data, path, list(variants), open_end=True, ledger=True)
        if report.status == "legal":
            _agree(report, game, players, start)
            return Recording(path, list(variants), report.source, report, disk=data, lock=lock), False
        recording = _recover(path, data, report, list(variants), ask, say)
        if os.fstat(lock).st_ino != os.stat(path).st_ino:  # rewritten as a new file: lock that one
            os.close(lock)
            lock = _lock(path)
        recording.lock = lock
        return recording, False
    except BaseException:
        os.close(lock)
        raise


def _lock(path: str) -> int:
    """The file's lock, held for the session; a file another session holds is refused."""
    try:
        return hold(path)
    except Held:
        raise Stop(
            EXIT_USAGE,
            visible(_("{file}: another `referee record` session is recording this file; one session at a time writes a record (end the other one, then resume here)").format(file=path)),
        ) from None
    except OSError as exc:
        raise UsageError(_("cannot open {path}: {reason}").format(path=visible(path), reason=exc.strerror or exc)) from None


def _create(path: str, game: str | None, players: str | None, start: str | None, variants: list[str], lock: int | None = None) -> Recording:
    """A new record: its header from the options, written to a new file (or, with `lock`
    held on it, to an empty one)."""
    from referee.games import game_class
    from referee.spec.loader import available_games, looks_like_path, unknown_game

    if not game or not players:
        raise UsageError(_('{path} does not exist yet: a new record needs --game and --players, for example --game speicherstadt --players "red Ann, blue Ben"').format(path=visible(path)))
    if game not in available_games():
        raise UsageError(visible(localized(unknown_game(game, available_games()))))
    seated = [part.split() for part in re.split(r"[;,]", players) if part.split()]
    if not seated:
        raise UsageError(_('--players names no player, for example --players "red Ann, blue Ben"'))
    variants = list(dict.fromkeys([*game_class(game).required_variants(len(seated)), *variants]))
    variants.sort(key=looks_like_path)  # the order `check` applies them in: the record's, then files
    lines = header_lines(game, ", ".join(" ".join(words) for words in seated), start or seated[0][0], datetime.date.today().isoformat(), None, variants)
    text = "\n".join(lines) + "\n"
    report = check_bytes(text.encode("utf-8"), path, variants, open_end=True, ledger=True)
    if report.status == "invalid-spec":
        raise Stop(report.exit_code, visible(format_report(report), keep_lines=True))
    if report.status != "legal" or report.state is None:
        raise UsageError(_("cannot start the record: {why}").format(why=visible("; ".join(d.message for d in report.errors))))
    data = text.encode("utf-8")
    try:
        if lock is None:
            create_synced(path, data)
            lock = _lock(path)
        else:
            if os.fstat(lock).st_size:
                raise UsageError(_("{path} was written to while the record was being started; run the command again to resume it").format(path=visible(path)))
            append_synced(path, data)  # cut back to empty again if the disk cannot take it all
    except FileExistsError:
        raise UsageError(_("{path} appeared while the record was being started; run the command again to resume it").format(path=visible(path))) from None
    except OSError as exc:
        raise UsageError(_("cannot write {path}: {reason}").format(path=visible(path), reason=exc.strerror or exc)) from None
    return Recording(path, variants, text, report, floor=text.count("\n"), disk=data, lock=lock)


def _agree(report: Report, game: str | None, players: str | None, start: str | None) -> None:
    """Options given for an existing record must say what its header says."""
    state = report.state
    assert state is not None and report.record is not None
    if game and game.lower() != report.game:
        raise UsageError(_("{file} records {game}, not {given}; leave out --game to resume it").format(file=visible(report.name), game=report.game, given=visible(game)))
    if players:
        seated = [part.split() for part in re.split(r"[;,]", players) if part.split()]
        given = [(w[0].lower(), " ".join(w[1:])) for w in seated]
        if given != [(s.colour, s.name) for s in state.seats]:
            raise UsageError(_("{file} seats {players}; leave out --players to resume it").format(file=visible(report.name), players=visible(report.record.header.get("players") or "")))
    if start:
        seats, first = state.game.seats_from_header(report.record.header)
        if start.lower() != seats[first].colour:
            raise UsageError(_("{file} starts with {colour}; leave out --start to resume it").format(file=visible(report.name), colour=seats[first].colour))


def _recover(path: str, data: bytes, report: Report, variants: list[str], ask: Callable[[str], str], say: Say = print) -> Recording:
    """A record whose replay fails: say where, and offer to go on after the last good line."""
    shown = "\n".join(visible(line, keep_lines=True) for line in format_errors(report))
    refuse = Stop(report.exit_code, shown + "\n" + _("{path}: no line before the error replays on its own; correct the record in an editor").format(path=visible(path)))
    if report.status not in ("malformed", "illegal"):
        raise Stop(report.exit_code, visible(format_report(report), keep_lines=True))
    repaired = _offer_repair(path, data, variants, ask)
    if repaired is not None:
        return repaired
    first = report.errors[0].pos if report.errors else None
    if first is None or first.line <= 1:
        raise refuse
    cut = first.line - 1  # lines kept
    if report.source and report.source.count("\n") != data.count(b"\n"):  # line breaks the text reads otherwise
        lines = report.source.split("\n")
        good, rest = "\n".join(lines[:cut]) + "\n", "\n".join(lines[cut:])
        good_bytes, rest_bytes = good.encode("utf-8"), rest.encode("utf-8")
    else:  # the file's own bytes, cut at the line (its line ends kept)
        parts = data.split(b"\n")
        good_bytes, rest_bytes = b"\n".join(parts[:cut]) + b"\n", b"\n".join(parts[cut:])
    good_report = check_bytes(good_bytes, path, variants, open_end=True, ledger=True)
    if good_report.status != "legal" or good_report.state is None:
        raise refuse
    last = cut + max(1, rest_bytes.rstrip(b"\n").count(b"\n") + 1)
    rejected = set_aside_path(path, "rejected")
    question = f"{shown}\n" + _("{file}: lines 1-{cut} replay without error. Go on recording after line {cut}, keeping lines {first}-{last} in {kept}? [y/N] ").format(
        file=visible(path), cut=cut, first=cut + 1, last=last, kept=visible(rejected)
    )
    if ask(question).strip().lower() not in YES:
        raise Stop(report.exit_code, _("{path}: left as it is").format(path=visible(path)))
    try:
        create_synced(rejected, rest_bytes if rest_bytes.endswith(b"\n") else rest_bytes + b"\n")
        if data.startswith(good_bytes):  # cut in place: the lock, links and symlinks stay the record's
            truncate_synced(path, len(good_bytes))
        else:
            replace_synced(path, good_bytes)
    except OSError as exc:
        raise UsageError(_("cannot set the failing lines aside: {reason}").format(reason=exc.strerror or exc)) from None
    say(visible(_("{file}: lines {first}-{last} are kept in {kept}").format(file=path, first=cut + 1, last=last, kept=rejected)))
    return Recording(path, variants, good_report.source, good_report, disk=good_bytes)


def _offer_repair(path: str, data: bytes, variants: list[str], ask: Callable[[str], str]) -> Recording | None:
    """A record whose slips `check --keep-going` repairs: offer those repairs, and with them
    the whole record, before offering to cut it at its first problem. The file as it was is
    kept beside it. None when there is nothing to offer or the user declines."""
    from referee.engine.repair import repaired_text

    report = check_bytes(data, path, variants, keep_going=True, open_end=True)
    if not report.repairs or len(report.repairs) != len(report.errors) or not report.source:
        return None
    text = repaired_text(report.source, report.repairs)
    after = check_bytes(text.encode("utf-8"), path, variants, open_end=True, ledger=True)
    if after.status != "legal" or after.state is None:
        return None
    shown = "\n".join(visible(format_diagnostic(report, d), keep_lines=True) for d in report.errors)
    kept = set_aside_path(path, "before-repair")
    count = len(report.repairs)
    question = f"{shown}\n" + ngettext(
        "{file}: with {n} repair the whole record replays. Make it (the file as it is now is kept in {kept}) and go on recording? [y/N] ",
        "{file}: with {n} repairs the whole record replays. Make them (the file as it is now is kept in {kept}) and go on recording? [y/N] ",
        count,
    ).format(file=visible(path), n=count, kept=visible(kept))
    if ask(question).strip().lower() not in YES:
        return None
    try:
        create_synced(kept, data)
        replace_synced(path, text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(_("cannot write the repaired record: {reason}").format(reason=exc.strerror or exc)) from None
    print(visible(_("{file}: repaired; the file as it was is kept in {kept}").format(file=path, kept=kept)))
    return Recording(path, variants, after.source, after)


# --- the session loop, shared by the terminal and by piped input ------------------------------


ReadLine = Callable[[str, str], str]  # (prompt, text to start the line with) -> line; EOFError ends


SESSION_COMMANDS = ("undo", "show", "moves", "help")


def respond(recording: Recording, line: str) -> Outcome:
    """What a line typed in a session does: a command, or a line of the record."""
    command = line.strip().lower()
    try:
        if command == "undo":
            return recording.undo()
        if command == "show":
            return Outcome(True, [recording.show()])
        if command == "moves":
            return Outcome(True, [recording.moves()])
        if command == "help":
            return Outcome(True, [HELP])
        words = command.split()
        if len(words) == 3 and words[0] == "explain":
            return Outcome(True, [recording.explain(words[1], words[2])])
        return recording.enter(line)
    except Changed:
        raise
    except Exception as exc:  # a bug of the referee: said plainly, and the session goes on
        return Outcome(False, [visible(f"internal error: {type(exc).__name__}: {exc}; the file is as it was")])


def run(
    recording: Recording, read_line: ReadLine, new: bool, on_position: Callable[[], None] | None = None, say: Say = print, strict: bool = False, verdict: Callable[[int], None] | None = None
) -> int:
    """Read lines until the end of input or `quit`; the exit code is `check`'s for the file, or,
    with `strict` (lines that come from a pipe, which no one corrects), the worst code of a
    line that was not recorded where that is worse."""
    say(recording.opening(new))
    retry = ""
    worst = 0
    before_refusal: int | None = None  # the worst code before the last refused line, which a ruling may still write
    while True:
        if on_position is not None:
            on_position()
        try:
            line = read_line(recording.prompt(), retry)
        except EOFError:
            break
        except LineError as exc:
            say(visible(f"{recording.name}:{recording.next_line()}:1: error: {exc}"))
            worst = max(worst, EXIT_MALFORMED)
            continue
        retry = ""
        if line.strip().lower() in ("quit", "exit"):
            break
        try:
            outcome = respond(recording, line)
        except Changed as exc:
            say(str(exc))
            return EXIT_USAGE
        messages = outcome.messages
        if not outcome.accepted and line.strip().lower() not in SESSION_COMMANDS:
            retry = line
            before_refusal, worst = worst, max(worst, outcome.code)
        elif outcome.accepted:
            if before_refusal is not None and line.strip().lower().startswith("ruling"):
                worst = before_refusal  # the ruling wrote the refused line with the table's decision
            before_refusal = None
        for message in messages:
            say(message)
    report = recording.final_report()
    code = max(report.exit_code, worst) if strict and worst else report.exit_code
    if verdict is not None:
        verdict(code)  # known before the last words are written, should they not get through
    say(recording.closing(report))
    return code


def stream_reader(stream: IO[bytes]) -> ReadLine:
    """Lines of a stream that is not a terminal (a pipe, a file), read as UTF-8; the prompt
    is not shown and a rejected line is not offered again (the next line is read)."""
    limit = MAX_LINE_CHARS * 4 + 2  # UTF-8 takes at most four bytes a character

    def read(prompt: str, retry: str) -> str:
        raw = stream.readline(limit)
        if not raw:
            raise EOFError
        if not raw.endswith(b"\n") and len(raw) >= limit:
            while True:  # the rest of an overlong line is not read into memory
                more = stream.readline(limit)
                if not more or more.endswith(b"\n"):
                    break
            raise LineError(f"the line is longer than {MAX_LINE_CHARS} characters, the most a line may hold")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LineError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded") from None
        return text[:-1].removesuffix("\r") if text.endswith("\n") else text

    return read


def record(
    path: str,
    read_line: ReadLine,
    ask: Callable[[str], str],
    options: dict,
    prepare: Callable[[Recording], Callable[[], None] | None] | None = None,
    say: Say = print,
    strict: bool = False,
    verdict: Callable[[int], None] | None = None,
) -> int:
    """A whole session: open FILE (asking, where it does not replay, whether to cut it), then
    read lines until the end. `prepare` sees the session before the first line is read and may
    return what to do at each new prompt."""
    try:
        recording, new = open_recording(path, ask, say=say, **options)
    except Stop as stop:
        say(stop.message)
        return stop.code
    try:
        return run(recording, read_line, new, prepare(recording) if prepare else None, say, strict, verdict)
    finally:
        recording.close()


def record_stream(path: str, stream: IO[bytes] | None, say: Say = print, verdict: Callable[[int], None] | None = None, **options) -> int:
    """`referee record` with standard input not a terminal: the same session, read line by line.
    A line that is not recorded makes the exit code non-zero, as no one is there to correct it."""
    if stream is None:
        raise UsageError(_("standard input is closed: record reads the lines of the game from it (a terminal, a pipe or a file)"))
    read = stream_reader(stream)

    def ask(question: str) -> str:
        say(question)
        try:
            return read("", "")
        except (EOFError, LineError):
            return ""

    return record(path, read, ask, options, say=say, strict=True, verdict=verdict)
