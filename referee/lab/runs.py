"""Simulated games, seeded, one after another or on worker processes (or Ray, ray_runner.py).

A run is a list of games, each named by its `Task`: the game and variants, the agents in
seat order and the seed. Everything a game draws comes from generators seeded by the run's
seed and the game's number (one for the table's chance outcomes, one per seat), so a game
is the same wherever and in whatever order it is played: one process, many, or a cluster.
Two sides of a comparison play the same numbers, so they meet the same chance outcomes as
long as the variant leaves the draws alike.

A game comes back as a `GameResult` of plain data (it crosses process boundaries), which
stats.py reads.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from referee.engine.findings import rank
from referee.games.base import Trace
from referee.i18n import Message, ngettext
from referee.lab.agents import make_agent
from referee.lab.random_game import random_game_start, record_text
from referee.lab.table import DONE, Table


@dataclass(frozen=True)
class Task:
    """One game to play: the game, its variants, each seat's agent (seat order) and the seed;
    with `record`, the game is also written down as a record."""

    game: str
    players: int
    variants: tuple[str, ...]
    agents: tuple[str, ...]
    seed: int
    number: int
    record: bool = False


@dataclass
class GameResult:
    """What one simulated game showed, as plain data: seats (colour order), the agents that
    played them, scores and ranks, its length, its lead changes, what each seat chose, and
    the uncertain spec values its rules relied on."""

    number: int
    seed: int
    side: str
    colours: list[str]
    agents: list[str]
    scores: list[int]
    ranks: list[int]
    finished: bool
    moves: int
    rounds: int
    lead_changes: int
    usage: list[dict[str, int]] = field(default_factory=list)
    relied_on: list[str] = field(default_factory=list)
    error: str = ""
    failure: str = ""  # with an error: "spec" (the data lets the game go no further) or "internal"
    record: str = ""  # the game as a record, where the task asked for it (not part of the figures)

    @property
    def winners(self) -> list[int]:
        """The seats (by index) that share first place."""
        return [i for i, r in enumerate(self.ranks) if r == 1] if self.finished else []

    def to_json(self) -> dict:
        out = asdict(self)
        del out["record"]
        return out


def game_seed(seed: int, number: int, stream: str) -> random.Random:
    """The generator for one stream (the table's, or a seat's) of one game of a run."""
    return random.Random(f"{seed}/{number}/{stream}")


def play_task(task: Task, side: str = "") -> GameResult:
    """Play one game of a run to its end (or to the data's move limit)."""
    variants, game, state = random_game_start(task.game, task.players, task.variants)
    state.trace = Trace()  # which rules (and so which uncertain values) the game relied on
    colours = [s.colour for s in state.seats]
    names = filled(task.agents, len(colours))
    agents = {c: make_agent(a) for c, a in zip(colours, names)}
    rngs = {c: game_seed(task.seed, task.number, c) for c in colours}
    chance = game_seed(task.seed, task.number, "table")
    table = Table(game, state, set(colours))
    usage = {c: {} for c in colours}
    most = game.spec["play"]["max_moves"]
    moves = lead_changes = 0
    leader, last_round = None, None
    lines: list[str] = []  # the record's moves and checkpoints, where the task asks for them
    collecting = gc.isenabled()
    gc.disable()  # see random_game.py: many short-lived objects, none in a cycle
    try:
        while not table.over() and moves < most:
            decision = table.decision()
            if decision.colour is None:
                move = table.table_move(chance)
            else:
                move = agents[decision.colour].choose(decision, rngs[decision.colour])
            if move is not DONE and task.record:
                lines += [*table.state.play_checkpoints(move), game.format_move(move)]
            if move is not DONE and decision.colour is not None:
                words = game.chosen(table.state, move)
                for word in usage_words(move) if words is None else words:
                    usage[decision.colour][word] = usage[decision.colour].get(word, 0) + 1
            table.play(decision.colour, move)
            if move is not DONE:
                moves += 1
            now = table.state.situation().round
            if now != last_round:
                last_round = now
                ahead = _leader(table.state)
                if ahead is not None and leader is not None and ahead != leader:
                    lead_changes += 1
                leader = ahead if ahead is not None else leader
    finally:
        if collecting:
            gc.enable()
    state = table.state
    finished = state.is_over()
    standings = state.standings()
    by_colour = {s.seat.colour: s for s in rank(standings)}
    relied = [p.address for p in game.spec.relied_on(state.trace.rules_used, state.trace.values_used)]
    return GameResult(
        number=task.number,
        seed=task.seed,
        side=side,
        colours=colours,
        agents=names,
        scores=[by_colour[c].total for c in colours],
        ranks=[by_colour[c].rank for c in colours],
        finished=finished,
        moves=moves,
        rounds=state.situation().round or 0,
        lead_changes=lead_changes,
        usage=[usage[c] for c in colours],
        relied_on=relied,
        record=record_text(task.game, colours, f"referee lab --agent {','.join(task.agents)} --seed {task.seed}, game {task.number + 1}", variants, lines, rank(standings) if finished else None)
        if task.record
        else "",
    )


def _leader(state) -> str | None:
    """The colour alone in first place as final scoring would count now, or None on a tie."""
    standings = rank(state.standings_now())
    firsts = [s for s in standings if s.rank == 1]
    return firsts[0].seat.colour if len(firsts) == 1 else None


def usage_words(move) -> list[str]:
    """What a move chose, in the game's vocabulary: the action, card or structure names it
    holds (its text fields and those of the pieces it carries, such as each build's
    structure), without colours, places and numbers. A purchase answered yes counts as
    `buy`, one answered no as nothing."""
    words: list[str] = []
    _collect(move, words, top=True)
    if getattr(move, "buy", None) is True:
        words.append("buy")
    return words


_NOT_CHOICES = {"player", "colour", "district", "site", "space", "pos", "number"}


def _collect(value, words: list[str], top: bool = False) -> None:
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is None:
        return
    for name in fields:
        if name in _NOT_CHOICES:
            continue
        item = getattr(value, name)
        if isinstance(item, str):
            if not any(ch.isdigit() for ch in item):
                words.append(item)
        elif isinstance(item, tuple):
            for part in item:
                if isinstance(part, str) and top and name in ("goods", "take", "cubes"):
                    continue
                _collect(part, words)
        elif hasattr(item, "__dataclass_fields__"):
            _collect(item, words)


# --- running many ----------------------------------------------------------------------------


def tasks_for(game: str, players: int, variants: Iterable[str], agents: list[str], games: int, seed: int, rotate: bool = False, start: int = 0, record: bool = False) -> list[Task]:
    """The games of a run: numbers `start` to `start + games - 1`, the agents in seat order
    (the last one repeated to fill the table), turned one seat on for each game with
    `rotate`, so that every agent sits in every seat equally often; `record`: each written
    down as a record too."""
    seats = filled(agents, players)
    out = []
    for number in range(start, start + games):
        turn = number % players if rotate else 0
        out.append(Task(game, players, tuple(variants), tuple(seats[-turn:] + seats[:-turn]) if turn else tuple(seats), seed, number, record))
    return out


def filled(agents, players: int) -> list[str]:
    """The agents for each seat: as given, the last one repeated to fill the table."""
    agents = list(agents)
    return (agents + [agents[-1]] * players)[:players]


def _play_side(item: tuple[Task, str]) -> GameResult:
    return safe_play(*item)


def safe_play(task: Task, side: str = "") -> GameResult:
    """A game, or a result that says why it could not be played to its end (never an
    exception that stops the whole run: the report counts such games)."""
    from referee.errors import SpecError

    try:
        return play_task(task, side)
    except Exception as exc:  # a spec error from a variant, a stuck game: reported per game
        text = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        error = text if isinstance(text, Message) else str(text)  # a Message: said in the reader's language
        return GameResult(task.number, task.seed, side, [], list(task.agents), [], [], False, 0, 0, 0, error=error, failure="spec" if isinstance(exc, SpecError) else "internal")


def run_local(items: list[tuple[Task, str]], jobs: int = 1, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """The games played here: in this process with `jobs` 1, else on that many worker
    processes. Results come back in the order of `items` whatever the order they finish in."""
    results: list[GameResult] = []
    if jobs <= 1:
        for item in items:
            results.append(_play_side(item))
            if progress:
                progress(1)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_play_side, items, chunksize=max(1, min(8, len(items) // (jobs * 4) or 1))):
            results.append(result)
            if progress:
                progress(1)
    return results


class Progress:
    """A progress line on standard error: games done, the rate, and the time left. Shown
    only on a terminal (a log file gets nothing but the run's results)."""

    def __init__(self, total: int, stream=None):
        self.total, self.done, self.started = total, 0, time.monotonic()
        self.stream = stream if stream is not None else sys.stderr
        self.shown = hasattr(self.stream, "isatty") and self.stream.isatty() and not os.environ.get("CI")

    def __call__(self, count: int) -> None:
        self.done += count
        if not self.shown:
            return
        spent = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / spent
        left = (self.total - self.done) / rate if rate else 0
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        counted = ngettext("{done}/{total} game, {rate}/s, {left}s left", "{done}/{total} games, {rate}/s, {left}s left", self.total).format(
            done=self.done, total=self.total, rate=f"{rate:.2f}", left=f"{left:.0f}"
        )
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {counted} ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def batches(items: list, size: int) -> Iterator[list]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
