"""Slips and their repairs: what `check --keep-going` and `referee repair` do at a line the
rules refuse or the notation cannot read.

A scribe's slips are small: another player's colour, a neighbouring number, a name nearly
right, a line left out, two lines swapped, a line written twice or one too many. At such a
line the search tries each of these edits on the position (`Position.snapshot` and
`restore`), reads on with it over the next lines, and keeps the edit under which the most of
them stay legal and the checkpoints among them agree; on a tie the smaller edit. The replay
then goes on from the repaired position, so that one slip gives one diagnostic, which names
the repair (`Diagnostic.repair`).

The search is bounded, so that a record full of garbage still finishes quickly: it reads at
most `WINDOW` lines ahead, stops at the first edit that reads that far, tries at most
`MAX_INSERTS` missing lines, and searches at most `MAX_SEARCHES` times a record; after that
the replay goes on as it did before repairs (a refused move void, an unreadable line skipped).
"""

from __future__ import annotations

import dataclasses
import difflib
import itertools
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from referee.engine import findings
from referee.engine.continuations import COUNTS, RANGE
from referee.engine.findings import Diagnostic
from referee.engine.position import Outcome, Position
from referee.errors import RecordError
from referee.games.base import Game
from referee.i18n import N_, Message
from referee.notation.parser import Checkpoint, Move, Record, Result, Ruling, parse
from referee.spec.figures import written

WINDOW = 30  # entries read ahead to judge an edit
LONG_WINDOW = 240  # entries read ahead to tell apart edits that read through WINDOW alike
MAX_TIES = 8  # of those, how many are read on over LONG_WINDOW
MAX_PLACES = 40  # lines missing that a search puts back before earlier lines too
BACK = 24  # lines before a refused one searched for a slip the rules took
WIDE_BACK = 60  # before a contradicted checkpoint: lines searched for a number one off that the rules took
SAFES = 2  # positions kept to search back from: after the last checkpoints that agreed, and the ones before
SAMPLES = 200  # moves the random player draws as a missing line, when the listed ones do not do
MAX_SAMPLED = 1000  # moves drawn so in one record
SAMPLE_SEED = 0
MAX_INSERTS = 120  # legal moves tried as the line missing before a refused one
MAX_FILLED = 400  # lines with a chance outcome filled in, tried as a missing line
SCREEN = 6  # items read on to choose the MAX_INSERTS missing lines tried, where there are more
MAX_SCREENED = 3000  # missing lines screened so in one record
MAX_GROUPED = 10000  # missing lines screened in groups of the figures they leave (and read on from them), in one record
MAX_GROUPED_ONE = 2000  # of those, screened for one missing line: an even spread of them where there are more
MAX_SPLIT = 400  # lines of the groups that read furthest read on one by one, where more than MAX_INSERTS
MAX_SEARCHES = 40  # problems of one record that get a search
MAX_TRIALS = 3000  # positions gone back to by the searches of one record, before no more searches start
MAX_NAMES = 3  # nearest names tried for each word
MAX_WORDS = 16  # a line longer than a scribe writes gets no edits of its words

# what each kind of edit costs: on a tie of lines that agree, the cheaper edit is kept
COST = {"player": 1, "number": 1, "name": 1, "word": 1, "figures": 1, "twice": 1, "far-number": 2, "missing": 2, "swap": 2, "extra": 3, "guess": 3}

# the notes a diagnostic gets, shown in the reader's language (report.diagnostics); without a
# search, those of the replay (findings.VOID_NOTE, SKIPPED_NOTE)
VOID_NOTE = N_("no repair found; the move is treated as void: the replay goes on without it")
SKIPPED_NOTE = N_("no repair found; the line is skipped")
ACCEPTED_NOTE = N_("no repair found; the replay goes on from the line as written, as after a ruling accept")
SEARCHES_NOTE = Message("no repair is searched after {n} problems in one record", n=MAX_SEARCHES)
TRIALS_NOTE = Message("no repair is searched once the searches of one record have tried {n} positions", n=MAX_TRIALS)


@dataclass
class Item:
    """One line of the record in order: an entry (a move with the ruling on it, a checkpoint,
    the result, a ruling after no move), or a line that cannot be read."""

    line: int
    entry: object | None = None
    ruling: Ruling | None = None
    problem: RecordError | None = None

    def pos_of(self):
        return self.entry.pos if self.entry is not None else self.problem.pos


@dataclass
class Edit:
    """A candidate repair: the entries played instead of `consumed` lines from the slip on,
    the lines written for them, and what kind of slip it assumes."""

    kind: str
    entries: list
    lines: list[str]
    consumed: int = 1
    mark: bool = False  # no edit: marks where the edits of its kind come, before them

    @property
    def cost(self) -> int:
        return COST[self.kind]


@dataclass
class Repair:
    """A repair proposed and taken: where, the record's lines it replaces, the lines it
    writes instead, and how many later lines and checkpoints agree with it."""

    line: int
    kind: str
    original: list[str]
    lines: list[str]
    at: list[int] = field(default_factory=list)  # the record's lines it replaces
    agreeing: int = 0
    checkpoints: int = 0
    diagnostic: Diagnostic | None = None
    earlier: bool = False  # the slip is on an earlier line, which the rules took
    at_end: bool = False  # the lines after it were counted to the record's end

    def proposal(self) -> Message:
        """The repair as the report names it, with how far the record agrees with it: a
        `Message`, English as a string and told in the reader's language where it is shown."""
        shown = " / ".join(self.lines)
        if self.earlier and self.kind == "twice":
            what = Message("leave line {n} out: it is written twice", n=self.at[0])
        elif self.earlier and self.kind == "extra":
            what = Message("leave line {n} out", n=self.at[0])
        elif self.earlier and self.kind == "missing":
            what = Message("a line missing before line {n}: {line}", n=self.at[0], line=self.lines[0])
        elif self.earlier and self.kind == "swap":
            what = Message("lines {first} and {second} the other way round: {lines}", first=self.at[0], second=self.at[1], lines=shown)
        elif self.earlier:
            what = Message("line {n} reads {what}", n=self.at[0], what=self._edit(shown))
        else:
            what = self._edit(shown)
        return Message("{what} ({agree})", what=what, agree=self._agreement())

    def _edit(self, shown: str) -> Message | str:
        if self.kind == "missing":
            return Message("a line missing before it: {line}", line=self.lines[0])
        if self.kind == "swap":
            return Message("the next line first: {lines}", lines=shown)
        if self.kind == "twice":
            return Message("leave the line out: it is written twice")
        if self.kind == "extra":
            return Message("leave the line out")
        if self.kind == "guess":
            return Message("the legal line that reads on furthest: {lines}", lines=shown)
        return shown  # the line as it should read, in the record's own words

    def _agreement(self) -> Message:
        lines, checkpoints = self.agreeing, self.checkpoints
        if not lines and self.at_end:
            return Message("no later line to check it against")
        if not lines:
            return Message("the next line has a problem of its own")
        if lines == 1:
            if not checkpoints:
                return Message("the next line agrees with it")
            if checkpoints == 1:
                return Message("the next line and 1 checkpoint agree with it")
            return Message("the next line and {checkpoints} checkpoints agree with it", checkpoints=checkpoints)
        if not checkpoints:
            return Message("the next {lines} lines agree with it", lines=lines)
        if checkpoints == 1:
            return Message("the next {lines} lines and 1 checkpoint agree with it", lines=lines)
        return Message("the next {lines} lines and {checkpoints} checkpoints agree with it", lines=lines, checkpoints=checkpoints)

    def settle(self, at_end: bool = False) -> None:
        """Write the proposal into the diagnostic, now that the lines after it are counted
        (up to the next problem, or the record's end)."""
        self.at_end = at_end
        if self.diagnostic is not None:
            self.diagnostic.repair = self.proposal()


def items_of(record: Record) -> list[Item]:
    """The record's entries and unreadable lines in line order, each ruling with its move."""
    items: list[Item] = []
    entries = record.entries
    for index, entry in enumerate(entries):
        if isinstance(entry, Ruling) and index and isinstance(entries[index - 1], (Move, Checkpoint)):
            continue
        ruling = entries[index + 1] if isinstance(entry, (Move, Checkpoint)) and index + 1 < len(entries) and isinstance(entries[index + 1], Ruling) else None
        items.append(Item(entry.pos.line if entry.pos else 0, entry, ruling))
    items.extend(Item(p.pos.line if p.pos else 0, problem=p) for p in record.unreadable)
    items.sort(key=lambda it: it.line)
    return items


def written_text(record: Record, line: int) -> str:
    """A line as the record writes it, without a comment after it."""
    return record.line(line).split("#", 1)[0].strip()


class Mending:
    """A replay with keep_going that repairs each slip and goes on from the repaired position.

    `run` is the replay's course (`replay._Run`): it tells the visitor of each outcome."""

    def __init__(self, run, record: Record, position: Position):
        self.run, self.record, self.position, self.game = run, record, position, position.game
        self.items = items_of(record)
        self.searches = 0
        self.screened = 0  # missing lines screened (`_inserts`), bounded by MAX_SCREENED
        self.grouped = 0  # missing lines screened in groups (`_grouped`), bounded by MAX_GROUPED
        self.sampled = 0  # moves drawn by the random player (`_sampled`), bounded by MAX_SAMPLED
        self.trials = 0  # positions gone back to (`_back_to`): past MAX_TRIALS, no search starts
        self.tied: list[Edit] = []  # the edits the last search found reading through its window
        self.places: list[tuple] = []  # the lines missing the last search tried, each with how far it read
        self.listed: list[tuple[Move, str]] = []  # the legal moves where the last search began
        self.pending: Repair | None = None
        self.repairs: list[Repair] = []
        self.safes: list[tuple] = []  # (index, Mark): the last SAFES positions kept before an item, to search back from
        self.clean_before = False  # the item before agreed

    # --- the replay ----------------------------------------------------------------------

    def entries(self, stop_after: int | None, stop_line: int | None, open_end: bool) -> bool:
        position, items = self.position, self.items
        finished_by_result = False
        i = 0
        while i < len(items):
            item = items[i]
            if stop_line is not None and item.line > stop_line:
                self._settle(at_end=True)
                return True
            if stop_after is not None and position.moves >= stop_after and not isinstance(item.entry, Result):
                if isinstance(item.entry, Move):
                    break
                i += 1
                continue
            if isinstance(item.entry, Result) and stop_after is not None:
                i += 1
                continue
            if isinstance(item.entry, Move) and (not self.safes or self.safes[-1][0] < i) and (not i or (isinstance(items[i - 1].entry, Checkpoint) and self.clean_before)):
                self.safes = [*self.safes[1 - SAFES :], (i, position.snapshot())]
            before = position.move_lines
            outcome = self._apply(item)
            self.clean_before = outcome is not None and _clean(outcome)
            if outcome is not None and (_clean(outcome) or (isinstance(item.entry, Move) and outcome.played)):
                self._agree(item, outcome)
                self.run.visitor.enter(item.entry)
                self.run.tell(outcome)
                i += 1
            else:
                position.move_lines = before
                i = self._mend(i, outcome)
            if isinstance(item.entry, Result):
                finished_by_result = position.state.is_over()
        self._settle(at_end=True)
        if stop_after is None and not finished_by_result and not open_end:
            self.run.tell(position.end())
        return True

    def _apply(self, item: Item) -> Outcome | None:
        """Play one item on the position; None for a line that cannot be read."""
        entry = item.entry
        if item.problem is not None:
            return None
        if isinstance(entry, Move):
            return self.position.apply(entry, item.ruling, carry_on=True)
        if isinstance(entry, Checkpoint):
            return self.position.apply(entry, item.ruling)
        if isinstance(entry, Ruling):
            return self.position.misplaced_ruling(entry, "no move")
        return self.position.apply(entry)

    def _agree(self, item: Item, outcome: Outcome) -> None:
        if self.pending is not None:
            self.pending.agreeing += 1
            if isinstance(item.entry, Checkpoint) and outcome.confirmed:
                self.pending.checkpoints += 1

    def _settle(self, at_end: bool = False) -> None:
        if self.pending is not None:
            self.pending.settle(at_end)
            self.pending = None

    # --- at a problem --------------------------------------------------------------------

    def _mend(self, i: int, outcome: Outcome | None) -> int:
        """Report the problem at item i with its repair, play the repair, and return the
        index of the next item to read."""
        self._settle()
        item, position = self.items[i], self.position
        diagnostic = self._diagnostic(item, outcome)
        if self.searches >= MAX_SEARCHES or self.trials >= MAX_TRIALS:
            if self.searches <= MAX_SEARCHES:  # said once, at the first problem not searched
                diagnostic.notes.append(SEARCHES_NOTE if self.searches == MAX_SEARCHES else TRIALS_NOTE)
                self.searches = MAX_SEARCHES + 1
            return self._unrepaired(i, outcome, diagnostic)
        self.searches += 1
        mark = position.snapshot()
        book, position.book = position.book, None  # trials leave nothing in the ledger
        back = None
        try:
            best, key = self._search(i, mark, outcome)
            if best is None or key[0] < min(i + 1 + WINDOW, len(self.items)):
                back = self._search_back(i, key if best is not None else (i, 0, 0), self._furthest_missing(best))
            elif best.kind == "missing" and isinstance(item.entry, Move):
                back = self._earlier_place(i, mark, best)
        finally:
            position.book = book
            self._back_to(mark)
        if back is not None:
            return self._mend_back(i, back, outcome, diagnostic)
        if best is None:
            return self._unrepaired(i, outcome, diagnostic)
        consumed = self.items[i : i + best.consumed]
        repair = Repair(item.line, best.kind, [written_text(self.record, it.line) for it in consumed], best.lines, [it.line for it in consumed], diagnostic=diagnostic)
        if best.kind == "missing":
            repair.at = [self._after_last_move(i, mark, best)]
        if best.kind != "figures":
            diagnostic.figure = None  # the figure is right once the repair is made: no ledger to show
        self._tell_problem(item, outcome, diagnostic, every_figure=best.kind == "figures")
        for entry in best.entries:
            self.run.visitor.enter(entry)
            self.run.visitor.visit(_quiet(self.position.apply(entry, carry_on=True)), position)
        self.repairs.append(repair)
        self.run.visitor.repaired(repair)
        self.pending = repair
        self.safes = []
        return i + best.consumed

    def _mend_back(self, i: int, back: tuple[int, Edit, tuple], outcome: Outcome | None, diagnostic: Diagnostic) -> int:
        """Repair an earlier line k: the position goes back to the one kept before it, plays on
        to line k, the repair and the lines after it (told already), and the replay reads
        item i again, which the repair makes legal."""
        k, edit, (start, mark) = back
        position, items = self.position, self.items
        self._back_to(mark)
        for item in items[start:k]:
            self._apply(item)
        for entry in edit.entries:
            position.apply(entry, carry_on=True)
        for item in items[k + edit.consumed : i]:
            self._apply(item)
        consumed = items[k : k + edit.consumed]
        repair = Repair(items[i].line, edit.kind, [written_text(self.record, it.line) for it in consumed], edit.lines, [it.line for it in consumed], diagnostic=diagnostic)
        repair.earlier = True
        diagnostic.figure = None
        self._tell_problem(items[i], outcome, diagnostic)
        self.repairs.append(repair)
        self.run.visitor.repaired(repair)
        self.pending = repair
        self.safes = []
        return i

    def _back_to(self, mark) -> None:
        """The position back to `mark`, counted: the searches of a record full of garbage
        stop at MAX_TRIALS, so that it is still checked in the time any record is."""
        self.trials += 1
        self.position.restore(mark)

    def _after_last_move(self, i: int, mark, edit: Edit) -> int:
        """Where a line missing before item i goes: after the last move before it, ahead of
        the checkpoints that follow that move, when they agree with it there too (a
        checkpoint changes nothing, so the position before them is the one at item i)."""
        position, j = self.position, i
        while j and isinstance(self.items[j - 1].entry, Checkpoint):
            j -= 1
        if j < i:
            book, position.book = position.book, None
            try:
                self._back_to(mark)
                position.apply(edit.entries[0], carry_on=True)
                if not all(_clean(position.apply(it.entry)) for it in self.items[j:i]):
                    j = i
            finally:
                position.book = book
                self._back_to(mark)
        return self.items[j].line

    def _diagnostic(self, item: Item, outcome: Outcome | None) -> Diagnostic:
        if outcome is None:
            return Diagnostic("error", item.problem.message, item.problem.pos)
        if outcome.unreadable is not None:
            return Diagnostic("error", outcome.unreadable.message, outcome.unreadable.pos)
        errors = [d for d in outcome.diagnostics if d.severity == "error"]
        return errors[0] if isinstance(item.entry, (Checkpoint, Result)) else errors[-1]

    def _tell_problem(self, item: Item, outcome: Outcome | None, diagnostic: Diagnostic, every_figure: bool = False) -> None:
        """The problem, told once: the outcome's warnings go with it, and with `every_figure`
        each figure a checkpoint states wrongly."""
        self.run.seen.append(diagnostic)
        if outcome is None or outcome.unreadable is not None:
            self.run.visitor.unreadable(diagnostic)
            return
        self.run.visitor.enter(item.entry)
        others = [d for d in outcome.diagnostics if d is not diagnostic and (d.severity != "error" or (every_figure and d.figure))]
        self.run.visitor.visit(Outcome(item.entry, [diagnostic, *others], confirmed=outcome.confirmed), self.position)

    def _unrepaired(self, i: int, outcome: Outcome | None, diagnostic: Diagnostic) -> int:
        """No edit helps: go on from the table's own line if the state can take it (as a
        ruling accept would), else without it. A checkpoint's figures change nothing."""
        item, position = self.items[i], self.position
        self.safes = []
        if isinstance(item.entry, (Checkpoint, Result)) and outcome is not None and outcome.unreadable is None:
            if isinstance(item.entry, Result):
                position.apply(item.entry)  # the result closes the game as before
            self.run.visitor.enter(item.entry)
            self.run.tell(outcome)
            return i + 1
        if isinstance(item.entry, Move) and self.searches <= MAX_SEARCHES:
            before = position.move_lines
            accepted = position.apply(item.entry, Ruling("accept", None, item.entry.pos), carry_on=True)
            if accepted.played:
                diagnostic.notes.append(ACCEPTED_NOTE)
                self._tell_problem(item, outcome, diagnostic)
                return i + 1
            position.move_lines = before + 1
            diagnostic.notes.append(VOID_NOTE)
        elif isinstance(item.entry, Move):  # past the searches: as before repairs, and as fast
            diagnostic.notes.append(findings.VOID_NOTE)
            position.move_lines += 1  # a refused move still counts for the move numbers
        else:
            diagnostic.notes.append(SKIPPED_NOTE if self.searches <= MAX_SEARCHES else findings.SKIPPED_NOTE)
        self._tell_problem(item, outcome, diagnostic)
        words = written_text(self.record, item.line).split()
        if isinstance(item.entry, Move) or (words and words[0].lower() not in ("check", "result") and not words[0].startswith("[")):
            self.run.diverge(diagnostic.pos)  # a skipped line that may have been a move
        return i + 1

    def _rules_line(self, entry) -> str | None:
        """The checkpoint or result line with the rules' figures in place of the stated ones."""
        state = self.position.state
        if isinstance(entry, Checkpoint):
            try:
                ours = state.figures(state.seat(entry.player).colour, {f.key for f in entry.figures})
            except Exception:  # a player or figure the check named already
                return None
            return f"check {entry.player}: " + ", ".join(f"{f.key} {written(ours[f.key])}" for f in entry.figures if f.key in ours)
        if isinstance(entry, Result):
            totals = {s.seat.colour: s.total for s in state.standings()}
            return "result " + ", ".join(f"{c} {totals.get(c, p)}" for c, p, _ in entry.scores)
        return None

    # --- the search ----------------------------------------------------------------------

    def _search(self, i: int, mark, outcome: Outcome | None) -> tuple[Edit | None, tuple]:
        """The edit of item i under which the record reads on furthest, and its key (the
        item reached, the figures confirmed, less the cost). Edits come cheapest first; once
        one reads on through the window, only edits as cheap are tried still, and those that
        read as far are told apart over a longer window."""
        best, best_key, full = None, (i, 0, 0), []
        self.places = []
        until = i + 1 + WINDOW
        for edit in self._edits(i, outcome, mark):
            if full and edit.cost > full[0].cost:
                break
            if edit.mark:
                continue
            self._back_to(mark)
            if not all(_clean(self.position.apply(e, carry_on=True)) for e in edit.entries):
                continue
            reach, confirmed, through = self._read_on(i + edit.consumed, until)
            key = (reach, confirmed, -edit.cost)
            if edit.kind == "missing":
                self.places.append((key, edit))
            if best is None or key > best_key:
                best, best_key = edit, key
            if through:
                full.append(edit)
        if not full and (isinstance(self.items[i].entry, Move) or (isinstance(self.items[i].entry, (Checkpoint, Result)) and outcome is not None and outcome.unreadable is None)):
            # a line missing that the legal moves do not spell out (a chance outcome, a move of
            # several parts): moves the game's random player draws, read on the same way
            text = written_text(self.record, self.items[i].line)
            for move, line in self._sampled(mark):
                self._back_to(mark)
                edit = Edit("missing", [dataclasses.replace(move, pos=self.items[i].pos_of(), number=None), self.items[i].entry], [line, text])
                if not all(_clean(self.position.apply(e, carry_on=True)) for e in edit.entries):
                    continue
                reach, confirmed, through = self._read_on(i + 1, until)
                key = (reach, confirmed, -edit.cost)
                self.places.append((key, edit))
                if best is None or key > best_key:
                    best, best_key = edit, key
                if through:
                    full.append(edit)
        self.tied = full
        if full:
            best = self._tie_break(i, mark, full)
        if best is not None and best_key[0] == i + best.consumed and i + best.consumed < len(self.items):
            return None, (i, 0, 0)  # the very next line refuses it too: no edit helps
        return best, best_key

    def _tie_break(self, i: int, mark, full: list[Edit]) -> Edit:
        """Of the edits that read through the window, the one that reads on furthest: all of
        them are read on over twice the window, those that read furthest over twice that
        again, and so on to LONG_WINDOW; on a tie the cheapest, then the line nearest to the
        one written (`_closest`), then the first listed. Past MAX_TIES, only the first
        MAX_TIES are read on over LONG_WINDOW itself."""
        span = WINDOW
        while len(full) > 1 and span < LONG_WINDOW:
            span = min(2 * span, LONG_WINDOW)
            if span == LONG_WINDOW:
                full = full[:MAX_TIES]
            scores = []
            for edit in full:
                self._back_to(mark)
                for e in edit.entries:
                    self.position.apply(e, carry_on=True)
                scores.append(self._read_on(i + edit.consumed, i + 1 + span)[:2])
            top = max(scores)
            full = [edit for edit, score in zip(full, scores) if score == top]
        return self._closest(i, full)

    def _closest(self, i: int, tied: list[Edit]) -> Edit:
        """Of edits that read on alike, the cheapest, and of those the line nearest to what the
        record writes (a misspelt name put right rather than left out); else the first."""
        written_line = written_text(self.record, self.items[i].line).lower()
        cheapest = [e for e in tied if e.cost == tied[0].cost]
        return max(cheapest, key=lambda e: _closeness(e, written_line))

    def _search_back(self, i: int, beat: tuple, missing: list[Edit], until: int | None = None, only_missing: bool = False) -> tuple[int, Edit, tuple] | None:
        """A slip on one of the few lines before item i that the rules took (a number or a
        player still legal there) and that item i is the first to show: the edit of such a
        line, from the last position kept (`safes`), under which the record reads on further
        than `beat`, with the position it was searched from. Only replacements, swaps and
        lines left out are tried there. Where none does, the lines before that position, from
        the one kept before it, within BACK lines (a checkpoint between them agreed, as it
        may with a district one off); before a contradicted checkpoint, within WIDE_BACK
        lines, where those more than BACK back get numbers one off only."""
        end, back = i, WIDE_BACK if isinstance(self.items[i].entry, Checkpoint) else BACK
        for safe in reversed(self.safes):
            if end <= i - back:
                break
            found = self._search_from(safe, end, i, beat, missing, until or i + 1 + WINDOW, only_missing, back)
            if found is not None:
                return (*found, safe)
            end = safe[0]
        return None

    def _search_from(self, safe: tuple, end: int, i: int, beat: tuple, missing: list[Edit], until: int, only_missing: bool, back: int) -> tuple[int, Edit] | None:
        """`_search_back` from one position kept, over the lines from it (or `back` before
        item i) to item `end`; more than BACK before item i, numbers one off only."""
        start, mark = safe
        first = max(start, i - back)
        position, items = self.position, self.items
        self._back_to(mark)
        for item in items[start:first]:
            self._apply(item)
        best_key, top = (beat[0] + 1, -1, -99), []  # it must read further than the edits at i
        for k in range(first, end):
            item = items[k]
            if isinstance(item.entry, Move) and item.ruling is None:
                here = position.snapshot()
                edits = self._replacements(k, missing)
                if only_missing:
                    edits = edits[: len(missing)]
                elif k < i - BACK:
                    edits = [e for e in edits if e.kind == "number"]
                for edit in edits:
                    self._back_to(here)
                    if not all(_clean(position.apply(e, carry_on=True)) for e in edit.entries):
                        continue
                    reach, confirmed, through = self._read_on(k + edit.consumed, until)
                    key = (reach, confirmed, -edit.cost)
                    if key > best_key:
                        best_key, top = key, []
                    if key == best_key:
                        top.append((k, edit, here, through))
                self._back_to(here)
            self._apply(item)
        if not top:
            return None
        top.reverse()  # on a tie the line nearest the refused one
        if len(top) > 1 and top[0][3] and until < i + 1 + LONG_WINDOW:  # alike through the window: read on further
            scores = []
            for k, edit, here, _ in top[:MAX_TIES]:
                self._back_to(here)
                for e in edit.entries:
                    position.apply(e, carry_on=True)
                scores.append(self._read_on(k + edit.consumed, i + 1 + LONG_WINDOW)[:2])
            k, edit, _, _ = top[scores.index(max(scores))]
            return k, edit
        return top[0][0], top[0][1]

    def _earlier_place(self, i: int, mark, missing: Edit) -> tuple[int, Edit, tuple] | None:
        """A line missing that the search puts back before item i may belong a few lines
        earlier (the order of revealed cards matters, and shows only much later): the same
        line, or another that read on as far at item i (the same card with another face),
        before each of those lines, read on over LONG_WINDOW, if one reads further."""
        position = self.position
        self._back_to(mark)
        for e in missing.entries:
            position.apply(e, carry_on=True)
        until = i + 1 + LONG_WINDOW
        reach, confirmed, _ = self._read_on(i + 1, until)
        others = [e for e in self.tied if e is not missing and e.kind == "missing"]
        return self._search_back(i, (reach, confirmed, 0), [missing, *others][:MAX_TIES], until=until, only_missing=True)

    def _furthest_missing(self, best: Edit | None) -> list[Edit]:
        """Where the line the search puts back before a refused one reads on only a little:
        it, and the other lines missing that read on furthest there (a ship the slots bought
        later want earlier), MAX_PLACES in all, to put back before the lines above."""
        if best is None or best.kind != "missing":
            return []
        others = [e for _, e in sorted(self.places, key=lambda p: p[0], reverse=True) if e is not best]
        return [best, *others[: MAX_PLACES - 1]]

    def _replacements(self, k: int, missing: list[Edit]) -> list[Edit]:
        """The edits of an earlier line that the rules took: another legal line one word
        apart, the line swapped with the next one, the line left out, and the lines that the
        search at the refused line found missing (`missing`), put back before this one."""
        item, items = self.items[k], self.items
        text = written_text(self.record, item.line)
        prefix, words = _split(text)
        edits = []
        for edit in missing:
            edits.append(Edit("missing", [dataclasses.replace(edit.entries[0], pos=item.entry.pos), item.entry], [edit.lines[0], text]))
        seen = {_normal(text)}
        for move, line in self._legal():
            kind = _one_word_apart(words, _split(line)[1], self.position)
            if kind and _normal(line) not in seen:
                seen.add(_normal(line))
                edits.append(Edit(kind, [dataclasses.replace(move, pos=item.entry.pos, number=item.entry.number)], [prefix + line]))
        for kind, new in _number_edits(prefix, words):  # a number the legal moves list only in a short form
            if _normal(new) not in seen:
                seen.add(_normal(new))
                entry = self._read(new, item.line)
                if entry is not None:
                    edits.append(Edit(kind, [entry], [new]))
        following = items[k + 1] if k + 1 < len(items) else None
        if following is not None and isinstance(following.entry, Move) and following.ruling is None:
            edits.append(Edit("swap", [following.entry, item.entry], [written_text(self.record, following.line), text], 2))
        previous = items[k - 1] if k else None
        twice = previous is not None and _normal(written_text(self.record, previous.line)) == _normal(text)
        edits.append(Edit("twice" if twice else "extra", [], [], 1))
        edits.sort(key=lambda e: e.cost)
        return edits

    def _read_on(self, j: int, until: int) -> tuple[int, int, bool]:
        """How far the record reads on from item j towards item `until`: the first item that
        does not agree (or `until`), the figures confirmed on the way, and whether it got
        through (to `until`, or to the record's clean end)."""
        confirmed = 0
        for k in range(j, min(until, len(self.items))):
            if self.items[k].problem is not None:
                continue  # a line no edit here makes readable: it neither counts nor stops
            outcome = self._apply(self.items[k])
            if not _clean(outcome):
                return k, confirmed, False
            confirmed += outcome.confirmed
        if until >= len(self.items):
            if not _clean(self.position.end()):
                return len(self.items), confirmed, False
            return len(self.items) + 1, confirmed, True
        return until, confirmed, True

    def _edits(self, i: int, outcome: Outcome | None, mark) -> Iterator[Edit]:
        """Every candidate edit at item i, cheapest first. The lines missing before it are
        worked out only when the search comes to them (from the position `mark`): once a
        cheaper edit reads on through the window, the search stops before them."""
        item, items = self.items[i], self.items
        text = written_text(self.record, item.line)
        edits: list[Edit] = []
        seen = {_normal(text)}
        stated = isinstance(item.entry, (Checkpoint, Result)) and outcome is not None and outcome.unreadable is None
        if stated:  # the figures the rules give, written in place of the stated ones
            line = self._rules_line(item.entry)
            entry = self._read(line, item.line) if line else None
            if entry is not None:
                edits.append(Edit("figures", [entry], [line]))

        def replace(kind: str, new: str) -> None:
            if _normal(new) in seen:
                return
            seen.add(_normal(new))
            entry = self._read(new, item.line)
            if entry is not None:
                edits.append(Edit(kind, [entry], [new]))

        legal = self.listed = self._legal()
        prefix, words = _split(text)
        for _move, line in [] if stated else legal:
            kind = _one_word_apart(words, _split(line)[1], self.position)
            if kind:
                replace(kind, prefix + line)
        for kind, new in [] if stated else self._text_edits(item, prefix, words, legal):
            replace(kind, new)
        if item.problem is not None and words and words[0].lower() not in ("check", "result", "ruling") and not words[0].startswith("["):
            for move, line in legal[:MAX_INSERTS]:  # an unreadable move: any legal line in its place
                if _normal(line) not in seen:
                    edits.append(Edit("guess", [dataclasses.replace(move, pos=item.problem.pos, number=None)], [prefix + line]))
        missing = Edit("missing", [], [], 1, mark=True)  # stands for the lines missing, in their place
        if isinstance(item.entry, Move) or stated:
            edits.append(missing)
            following = items[i + 1] if i + 1 < len(items) else None
            if following is not None and isinstance(following.entry, Move) and item.ruling is None and following.ruling is None:
                edits.append(Edit("swap", [following.entry, item.entry], [written_text(self.record, following.line), text], 2))
        previous = items[i - 1] if i else None
        twice = previous is not None and _normal(written_text(self.record, previous.line)) == _normal(text)
        edits.append(Edit("twice" if twice else "extra", [], [], 1))
        edits.sort(key=lambda e: e.cost)
        for edit in edits:
            yield edit
            if edit is not missing:
                continue
            self._back_to(mark)
            for move, line in self._inserts(i, legal):
                inserted = dataclasses.replace(move, pos=item.entry.pos, number=None)
                yield Edit("missing", [inserted, item.entry], [line, text], 1)

    def _inserts(self, i: int, legal: list[tuple[Move, str]]) -> list[tuple[Move, str]]:
        """The lines tried as one missing before item i: the legal moves, and the lines the
        hints write with a placeholder for a chance outcome (a ship's cubes, a fireman's
        value) filled in each way they may be. Where there are more than MAX_INSERTS, those
        under which item i and the next SCREEN items read on furthest, in their order: each
        one read on while MAX_SCREENED allows, else (thousands of builds) one of each kind
        of figures it leaves (`_grouped`)."""
        found, seen = [], set()
        for move, line in [*legal, *self._filled(self.items[i].line)]:
            if line not in seen:
                seen.add(line)
                found.append((move, line))
        if len(found) <= MAX_INSERTS:
            return found
        if self.screened + len(found) > MAX_SCREENED:
            room = min(MAX_GROUPED - self.grouped, MAX_GROUPED_ONE)
            if room < MAX_INSERTS:
                return found[:MAX_INSERTS]
            screened = _evenly(found, room)
            self.grouped += len(screened)
            return self._grouped(i, screened)
        self.screened += len(found)
        item, position = self.items[i], self.position
        mark, ranked = position.snapshot(), []
        for n, (move, line) in enumerate(found):
            self._back_to(mark)
            inserted = dataclasses.replace(move, pos=item.pos_of(), number=None)
            if _clean(position.apply(inserted, carry_on=True)) and _clean(position.apply(item.entry, carry_on=True)):
                reach, confirmed, _ = self._read_on(i + 1, i + 1 + SCREEN)
                ranked.append(((-reach, -confirmed, n), move, line))
        self._back_to(mark)
        ranked.sort(key=lambda r: r[0])
        return [(move, line) for _, move, line in ranked[:MAX_INSERTS]]

    def _grouped(self, i: int, found: list[tuple[Move, str]]) -> list[tuple[Move, str]]:
        """The MAX_INSERTS of `found` that read on furthest, screened in groups: each line is
        played alone and grouped by the figures it leaves that the checkpoints of the next
        SCREEN items state, and one line of each group is read on as `_inserts` reads every
        one. The lines of the groups that read furthest come first, in their order."""
        item, position = self.items[i], self.position
        stated = self._stated(i)
        mark, groups = position.snapshot(), {}
        for n, (move, line) in enumerate(found):
            self._back_to(mark)
            inserted = dataclasses.replace(move, pos=item.pos_of(), number=None)
            if _clean(position.apply(inserted, carry_on=True)):
                groups.setdefault(self._figures_of(stated), []).append((n, inserted, move, line))
        ranked = []
        for members in groups.values():
            n, inserted, _, _ = members[0]
            self._back_to(mark)
            position.apply(inserted, carry_on=True)
            if _clean(position.apply(item.entry, carry_on=True)):
                reach, confirmed, _ = self._read_on(i + 1, i + 1 + SCREEN)
                ranked.append(((-reach, -confirmed, n), members))
        ranked.sort(key=lambda r: r[0])
        top = [m for key, members in ranked if key[:2] == ranked[0][0][:2] for m in members] if ranked else []
        if MAX_INSERTS < len(top) <= MAX_SPLIT and self.grouped + len(top) <= MAX_GROUPED:  # too many alike: each read on as the search will
            self.grouped += len(top)
            split = []
            for n, inserted, move, line in top:
                self._back_to(mark)
                position.apply(inserted, carry_on=True)
                if _clean(position.apply(item.entry, carry_on=True)):
                    reach, confirmed, _ = self._read_on(i + 1, i + 1 + WINDOW)
                    split.append(((-reach, -confirmed, n), [(n, inserted, move, line)]))
            ranked = sorted(split, key=lambda r: r[0]) + ranked
        self._back_to(mark)
        out: dict[str, Move] = {}
        for _, members in ranked:
            for _, _, move, line in members:
                out.setdefault(line, move)
        return [(move, line) for line, move in out.items()][:MAX_INSERTS]

    def _stated(self, i: int) -> list[tuple[str, frozenset]]:
        """Whose figures, and which, the checkpoints among item i and the SCREEN after it state."""
        return [(it.entry.player, frozenset(f.key for f in it.entry.figures)) for it in self.items[i : i + 1 + SCREEN] if isinstance(it.entry, Checkpoint)]

    def _figures_of(self, stated: list[tuple[str, frozenset]]) -> tuple:
        """The figures `stated` names, as they stand: what a group of missing lines shares."""
        state, out = self.position.state, []
        for player, keys in stated:
            try:
                out.append(tuple(sorted((k, repr(v)) for k, v in state.figures(player, keys).items())))
            except Exception:  # a player or figure the checkpoint names wrongly: it tells nothing
                out.append(None)
        return tuple(out)

    def _filled(self, line: int) -> list[tuple[Move, str]]:
        """The legal lines that the game's hints (the continuations `referee record`
        completes from) write with a placeholder for what the table reports (a ship's cubes
        from the bag, a fireman's value, a contract's goods), with each way to fill it in,
        read as the record would write them; at most MAX_FILLED. The hints take turns (a
        contract's goods, a ship's cubes, a contract's, ...), so that where only the first
        lines are tried, every kind of card is among them."""
        state = self.position.state
        if type(self.game).move_hints is Game.move_hints:  # the legal moves as written: nothing to fill in
            return []
        try:
            hints = [h for h in self.game.move_hints(state) if "<" in h]
        except Exception:  # a position the search cannot enumerate: nothing filled in
            return []
        filled = [_fillings(hint, lambda placeholder: self.game.placeholder_words(state, placeholder)) for hint in hints]
        out: list[tuple[Move, str]] = []
        for text in (t for turn in itertools.zip_longest(*filled) for t in turn if t is not None):
            entry = self._read(text, line)
            if isinstance(entry, Move):
                out.append((entry, self.game.format_move(entry)))
            if len(out) >= MAX_FILLED:
                return out
        return out

    def _sampled(self, mark) -> list[tuple[Move, str]]:
        """Up to SAMPLES moves that the game's random player draws at the position, other than
        the legal moves listed, the same ones on every run (a seeded draw); none once
        MAX_SAMPLED have been drawn in the record."""
        try:
            choose = self.game.random_player()
        except Exception:  # a game without a random player: no samples
            return []
        listed = {line for _, line in self.listed}
        rng, out, seen = random.Random(SAMPLE_SEED), [], set(listed)
        draws = min(SAMPLES, MAX_SAMPLED - self.sampled)
        self.sampled += max(0, draws)
        for _ in range(draws):
            self._back_to(mark)
            try:
                move = choose(self.position.state, rng)
                line = self.game.format_move(move)
            except Exception:  # a position the random player cannot move from
                break
            if line not in seen:
                seen.add(line)
                out.append((move, line))
        return out

    def _legal(self) -> list[tuple[Move, str]]:
        try:
            moves = self.position.legal_moves()
        except Exception:  # a position the search cannot enumerate: no move-based edits
            return []
        return [(m, self.game.format_move(m)) for m in moves]

    def _text_edits(self, item: Item, prefix: str, words: list[str], legal) -> list[tuple[str, str]]:
        """Edits of the written words themselves: the actor's colour, a number one off, the
        names a reading error suggests, and the nearest words of the legal moves and of the
        record."""
        out: list[tuple[str, str]] = []
        if not words or len(words) > MAX_WORDS:
            return out
        first = words[0].rstrip(":")
        if words[0].endswith(":") and first.lower() not in ("check",):
            for seat in self.position.state.seats:
                if seat.colour != self.position.players.colour_of(first):
                    out.append(("player", prefix + " ".join([seat.colour + ":", *words[1:]])))
        out.extend(_number_edits(prefix, words))
        if item.problem is not None:  # a word too many
            for n in range(1, len(words)):
                out.append(("word", prefix + " ".join([*words[:n], *words[n + 1 :]])))
        suggested = _suggestions(item.problem.message) if item.problem is not None else []
        vocabulary = self._vocabulary(legal)
        for n, word in enumerate(words):
            bare = word.rstrip(":,").lower()
            if not _is_name(bare) or bare in vocabulary:
                continue
            near = [s for s in suggested if difflib.SequenceMatcher(None, s, bare).ratio() > 0.5]
            near += difflib.get_close_matches(bare, vocabulary, n=MAX_NAMES, cutoff=0.6)
            for name in dict.fromkeys(near):
                new = word.lower().replace(bare, name)
                out.append(("name", prefix + " ".join([*words[:n], new, *words[n + 1 :]])))
        return out

    def _vocabulary(self, legal) -> list[str]:
        """The words the legal moves and the record's readable lines use."""
        words: set[str] = set()
        for _, line in legal:
            words.update(w.rstrip(":,").lower() for w in line.split())
        unreadable = {it.line for it in self.items if it.problem is not None}
        for number, line in enumerate(self.record.lines, 1):
            if number not in unreadable and not line.lstrip().startswith(("[", "#")):
                words.update(w.rstrip(":,").lower() for w in line.split("#", 1)[0].split())
        return sorted(w for w in words if _is_name(w))

    def _read(self, text: str, line: int):
        """A line's text as its entry, on line `line`; None when it cannot be read."""
        try:
            record = parse("\n" * (line - 1) + text + "\n", self.record.name, self.game.name, self.game.build_move, keywords=self.game.keywords())
        except RecordError:
            return None
        if len(record.entries) != 1:
            return None
        self.position.resolve(record.entries)
        return record.entries[0]


def repaired_text(text: str, repairs: list[Repair], mark: bool = True) -> str:
    """The record's text with every repair applied; with `mark`, a comment before each
    repaired place names the line it was and what the record wrote there."""
    lines = text.split("\n")
    before: dict[int, list[str]] = {}  # lines put in front of a line of the record, by its index
    for repair in repairs:
        first = repair.at[0] - 1
        was = "; ".join(repair.original)
        note = [f"# repaired line {repair.at[0]}, the record wrote: {was}"] if mark else []
        if repair.kind == "missing":
            before.setdefault(first, []).extend([f"# repaired: a line missing before line {repair.at[0]}"] if mark else [])
            before.setdefault(first, []).append(repair.lines[0])
        elif repair.kind in ("twice", "extra"):
            lines[first] = f"# repaired: line {repair.at[0]} left out: {was}" if mark else None
        else:
            before.setdefault(first, []).extend(note)
            for number, new in zip(repair.at, repair.lines):
                old = lines[number - 1]
                indent = old[: len(old) - len(old.lstrip())]
                comment = old.split("#", 1)[1] if "#" in old else None
                lines[number - 1] = indent + new + (f"  #{comment}" if comment is not None else "")
    out: list[str] = []
    for index, line in enumerate(lines):
        out.extend(before.get(index, ()))
        if line is not None:
            out.append(line)
    return "\n".join(out)


def _closeness(edit: Edit, written_line: str) -> float:
    """How near an edit that writes one line in place of another is to the line as written
    (0 to 1); 0 for the other kinds, which keep their order."""
    if edit.consumed != 1 or len(edit.lines) != 1 or edit.kind == "figures":
        return 0.0
    return difflib.SequenceMatcher(None, _normal(edit.lines[0]), _normal(written_line)).ratio()


def _is_name(word: str) -> bool:
    """A word that names something (`tea`, `weaving-mill`, `st-michaelis`), not a number."""
    return word.replace("-", "").isalpha() and not word.startswith("-") and not word.endswith("-")


def _clean(outcome: Outcome) -> bool:
    return outcome.unreadable is None and not any(d.severity == "error" for d in outcome.diagnostics)


def _quiet(outcome: Outcome) -> Outcome:
    """A repaired entry's outcome, told without a diagnostic of its own."""
    return Outcome(outcome.entry, [d for d in outcome.diagnostics if d.severity != "error"], outcome.played, outcome.ruling, outcome.confirmed)


def _evenly(items: list, most: int) -> list:
    """At most `most` of `items`, spread evenly over them, in their order."""
    if len(items) <= most:
        return items
    return [items[n * len(items) // most] for n in range(most)]


_PLACEHOLDER = re.compile(r"<[^>]*>")


def _fillings(hint: str, words_for) -> list[str]:
    """A hint's text with each of its placeholders filled in every way it may be: a number
    range with its numbers (`<value 1-5>`), a count of things with every choice of that many
    of the words `words_for` gives for it, in sorted order as a record writes them
    (`<3 cubes from the bag>`); a placeholder of neither kind leaves the hint out."""
    filled = [""]
    rest = hint
    while (found := _PLACEHOLDER.search(rest)) is not None:
        placeholder = found.group()
        if (numbers := RANGE.fullmatch(placeholder)) is not None:
            choices = [str(n) for n in range(int(numbers.group(1)), int(numbers.group(2)) + 1)]
        elif (counts := COUNTS.fullmatch(placeholder)) is not None:
            words = sorted(words_for(placeholder))
            choices = [" ".join(c) for n in counts.group(1).split("/") for c in itertools.combinations_with_replacement(words, int(n))]
        else:
            return []
        filled = [done + rest[: found.start()] + choice for done in filled for choice in choices][:MAX_FILLED]
        rest = rest[found.end() :]
    return [done + rest for done in filled]


def _number_edits(prefix: str, words: list[str]) -> list[tuple[str, str]]:
    """The line with one of its numbers one or two off (a slot, a district, a count)."""
    out = []
    for n, word in enumerate(words):
        for match in re.finditer(r"\d+", word):
            value = int(match.group())
            for step, kind in ((-1, "number"), (1, "number"), (-2, "far-number"), (2, "far-number")):
                if value + step >= 0:
                    new = word[: match.start()] + str(value + step) + word[match.end() :]
                    out.append((kind, prefix + " ".join([*words[:n], new, *words[n + 1 :]])))
    return out


_MOVE_NUMBER = re.compile(r"^\d+\.$")


def _split(text: str) -> tuple[str, list[str]]:
    """A line's move number (kept as written, with its space) and its words."""
    words = text.split()
    if words and _MOVE_NUMBER.match(words[0]):
        return words[0] + " ", words[1:]
    return "", words


def _normal(text: str) -> str:
    return " ".join(_split(text.lower())[1])


def _one_word_apart(written_words: list[str], legal_words: list[str], position: Position) -> str | None:
    """The kind of slip that makes the written words from a legal move's, when they differ in
    one word only: the player, a number, or a name."""
    if len(written_words) != len(legal_words):
        return None
    ours = [w.lower() for w in written_words]
    if ours and ours[0].endswith(":"):
        colour = position.players.colour_of(ours[0][:-1])
        if colour:
            ours[0] = colour + ":"
    differ = [n for n, (a, b) in enumerate(zip(ours, legal_words)) if a != b.lower()]
    if len(differ) != 1:
        return None
    n = differ[0]
    a, b = ours[n], legal_words[n].lower()
    if n == 0 and a.endswith(":"):
        return "player"
    digits_a, digits_b = re.findall(r"\d+", a), re.findall(r"\d+", b)
    if digits_a and digits_b and re.sub(r"\d+", "#", a) == re.sub(r"\d+", "#", b):
        far = any(abs(int(x) - int(y)) > 1 for x, y in zip(digits_a, digits_b))
        return "far-number" if far else "number"
    if difflib.SequenceMatcher(None, a, b).ratio() >= 0.6:
        return "name"
    return None


_QUOTED = re.compile(r"'([^']+)'")


def _suggestions(message: str) -> list[str]:
    """The names a reading error offers ("did you mean 'vulcanizer'?")."""
    found = re.search(r"did you mean ([^?]*)\?", message)
    return [s.lower() for s in _QUOTED.findall(found.group(1))] if found else []


__all__ = ["Edit", "Item", "Mending", "Repair", "items_of", "repaired_text"]
