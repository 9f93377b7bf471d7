"""Learning printed numbers from records (`referee box GAME --infer RECORDS...`).

A checkpoint states a figure the table wrote down; the referee's own figure at that line
follows from the spec. Where the figure grows by printed numbers (a Canterbury build takes
the tile's cost from the builder's money and adds its points to the builder's prosperity),
each checkpoint is one linear equation over those numbers with whole coefficients (how many
of each tile the player built so far):

    written figure = referee's figure + sum of count * (true number - number used)

The equations of all records are solved exactly, with fractions, by Gauss-Jordan
elimination. A number whose row holds no other unknown is determined, and the checkpoints
that row was combined from are the lines that prove it; the others are left open. A row
that reduces to 0 = c, or a determined number that is not whole or is below zero, means that no numbers
satisfy those lines: the record (or the records together) is refused.

Everything else a move changes (a Levy, which reads the city track, a district scoring)
follows the spec, so the replay is done again with the numbers found until nothing changes:
a few rounds at most. The game names the figures that follow the printed numbers alone
(Canterbury's city prosperity): the first round reads only those, so that from the second on
the replay has the city marker where the record has it, and the Levy and the scorings come
as they came at the table. Where the city rests on a number no checkpoint pins down (a tile
built just before the marker's last space), the players' later figures are not read at all:
when a scoring came is no longer known, and a wrong reading is worse than none.
"""

from __future__ import annotations

import importlib
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from referee.box.solving import ROUNDS, Equation, Finding, finding, in_use, interleaved, solve
from referee.box.template import write_box
from referee.errors import RecordError, UsageError, Violation
from referee.games.base import Trace
from referee.i18n import _, localized
from referee.notation.parser import Checkpoint, Move, Ruling, decode, game_of, parse
from referee.terminal import readable_name, visible


class Unsupported(UsageError):
    """A game whose records teach no printed numbers."""


def printed_rules(game):
    name = type(game).printed_module
    if not name:
        raise Unsupported(_("the {game} records teach no printed numbers yet: --infer knows Canterbury, Civitas Hamburgum and The Speicherstadt").format(game=game.name))
    return importlib.import_module(name)


def equations(game, text: str, name: str, pinned: set[str] | None = None) -> list[Equation]:
    """The checkpoint equations of one record, replayed with the game's current numbers.
    A move the current numbers make illegal (a build the stand-in cost makes too dear) is
    played all the same with the rule set aside: the numbers, not the record, may be wrong.
    `pinned`: the numbers that the figures solved first (the game's `first`) determine; a
    figure changed by an amount read from those figures while they rest on any other number
    is not read from then on (None: every figure is read)."""
    from referee.engine.players import resolve as resolve_players
    from referee.games.base import Players

    rules = printed_rules(game)
    record = parse(text, name, game.name, game.build_move, None, game.keywords())
    seats, start = game.seats_from_header(record.header)
    resolve_players(record.entries, Players(seats))
    state = game.new_state(seats, start, record.header, Trace())
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    found: list[Equation] = []
    off_course = False  # the replay's course has left the record's (see the game's `course`)
    first = rules.first(game)
    tainted: set[tuple[str, str]] = set()
    entries = record.entries
    for index, entry in enumerate(entries):
        ruling = entries[index + 1] if index + 1 < len(entries) and isinstance(entries[index + 1], Ruling) else None
        if isinstance(entry, Move):
            if ruling is not None and ruling.verdict == "void":
                continue  # the table took it back
            added = rules.terms(state, entry)
            before, state = state, _played(state, entry)
            for owner, figure, address, coefficient in added:
                counts[(owner, figure)][address] += coefficient
            if pinned is not None and any(a not in pinned for key in first for a, c in counts[key].items() if c):
                tainted.update(rules.follows_first(before, entry, state))
        elif isinstance(entry, Checkpoint):
            if ruling is not None:
                continue  # the table adopted its own figures: they say nothing of the numbers
            owner = state.seat(entry.player, entry.pos).colour
            figures = state.figures(entry.player, {f.key for f in entry.figures})
            for fig in entry.figures:
                ours = figures.get(fig.key)
                if rules.course(state, owner, fig.key) and ours != fig.value:
                    off_course = True
            for fig in entry.figures:
                ours = figures.get(fig.key)
                if not isinstance(fig.value, int) or not isinstance(ours, int) or isinstance(ours, bool) or not rules.linear(state, owner, fig.key, fig.value):
                    continue
                if (off_course and (owner, fig.key) not in first) or (owner, fig.key) in tainted:
                    continue
                terms = tuple(sorted((a, c) for a, c in counts[(owner, fig.key)].items() if c))
                line = fig.pos.line if fig.pos else entry.pos.line
                found.append(Equation(name, line, owner, fig.key, fig.value, ours, terms))
    return found


def _played(state, move):
    """The state after the move, with every rule it breaks set aside (engine/rulings.py);
    a move that cannot be carried out at all is the record's error."""
    from referee.engine.rulings import Refused, accept

    try:
        state.apply(move)  # a move the rules refuse leaves the state as it was
        return state
    except Violation as broken:
        try:
            return accept(state, move, broken, holding=False)[0]
        except Refused as why:
            raise RecordError(_("the move cannot be played whatever the printed numbers: {why}").format(why=why), move.pos) from None


# --- solving ------------------------------------------------------------------------------


# --- the records, round by round ----------------------------------------------------------


def infer(game_name: str, paths: list[str], variants=()) -> Finding:
    """The printed numbers the records' checkpoints determine, worked out round by round."""
    from referee.games import load_game
    from referee.spec.boxfile import box_in_use
    from referee.spec.loader import read_answers

    records = [_read(path) for path in paths]
    for text, name in records:
        found = game_of(text)
        if not found or found[0].strip().lower() != game_name:
            if found:
                raise UsageError(_("{file} is not a {game} record (it is {other})").format(file=name, game=game_name, other=visible(repr(found[0]))))
            raise UsageError(_("{file} is not a {game} record (no [Game] tag)").format(file=name, game=game_name))
    base = load_game(game_name, variants)
    box = box_in_use(game_name)
    answers = dict(read_answers(box, game_name)) if box else {}
    if type(base).printed_module is None:
        from referee.box.learn import learn, learns

        if learns(game_name):
            return learn(game_name, records, variants, base, answers)
    rules = printed_rules(base)
    learnt: dict[str, int] = {}
    pinned: set[str] | None = None
    with tempfile.TemporaryDirectory(prefix="referee-infer-") as folder:
        for rounds in range(1, ROUNDS + 1):
            trial = Path(folder) / f"round-{rounds}" / f"{game_name}.yaml" if learnt else None
            games = _games(game_name, records, variants, trial, {**answers, **learnt})
            used = _values(games[0][1] if games else base, rules.addresses(base))
            each: dict[str, list[Equation]] = {}
            unplayable: dict[str, str] = {}
            for (text, name), (_wanted, game) in zip(records, games):
                try:
                    each[name] = equations(game, text, name, pinned)
                except RecordError as exc:
                    unplayable[name] = _("line {line}: {message}").format(line=exc.pos.line if exc.pos else "?", message=localized(exc.message))
            # the records taken together, their earliest checkpoints first; one that clashes
            # with those before it (it may follow the numbers in other ways too, as a Levy
            # follows where the city marker stands) waits for a later round
            mixed = interleaved(each)
            if rounds == 1:  # the figures that follow the printed numbers alone come first
                alone = rules.first(base)
                mixed = [eq for eq in mixed if (eq.owner, eq.figure) in alone] or mixed
            solution = solve(mixed, used, skip=True)
            pinned = _pinned(each, rules.first(base), used)
            changed = {a: int(v) for a, v in solution.values.items() if in_use(used.get(a)) != v}
            if not changed and rounds > 1:
                break
            learnt.update(changed)
    return finding(each, unplayable, used, rules.addresses(base), rounds, answers)


def _pinned(each: dict[str, list[Equation]], first: set, used: dict) -> set[str] | None:
    """The numbers the first figures determine (None when no checkpoint states one of those
    figures: the others are then read as they come, the best the records allow)."""
    rows = [eq for mine in each.values() for eq in mine if (eq.owner, eq.figure) in first]
    return set(solve(rows, used, skip=True).values) if rows else None


def _games(game_name: str, records, variants, trial: Path | None, answers: dict) -> list:
    """Each record's game (its own variants) with the numbers tried in this round."""
    from referee.engine.replay import record_variants
    from referee.games import load_game, load_game_with_box

    if trial is not None:
        trial.parent.mkdir(parents=True, exist_ok=True)
        write_box(trial, game_name, answers)
    out, made = [], {}
    for text, _name in records:
        wanted = tuple(dict.fromkeys(record_variants(text, game_name) + list(variants)))
        if wanted not in made:
            made[wanted] = load_game_with_box(game_name, trial, wanted) if trial is not None else load_game(game_name, wanted)
        out.append((wanted, made[wanted]))
    return out


def _values(game, addresses: list[str]) -> dict[str, Any]:
    out = {}
    for address in addresses:
        try:
            out[address] = game.spec.get(address)
        except (KeyError, IndexError, TypeError, ValueError):
            pass
    return out


def _read(path: str) -> tuple[str, str]:
    from referee.engine.replay import read_source

    try:
        data, name = read_source(path)
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {reason}").format(path=readable_name(path), reason=exc.strerror or exc)) from None
    try:
        return decode(data), readable_name(name)
    except RecordError as exc:
        raise UsageError(f"{readable_name(name)}: {localized(exc.message)}") from None
