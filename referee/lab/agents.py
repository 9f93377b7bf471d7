"""Players that play: random, greedy (one ply) and MCTS (UCT with random playouts).

An agent is asked for one choice at a time: `choose(decision, rng)` with the decision the
table says is due (table.py: who chooses, and among which moves) and a random generator of
its own, and answers with one of `decision.moves` (or its own draw of a random legal move).
It may try moves on copies of the table (`decision.table.copy()`), never on the table
itself. A seat can be given any agent; `make_agent` builds one from its name as the command
line writes it (`greedy`, `mcts`, `mcts:200` for a budget of 200 playouts).
"""

from __future__ import annotations

import math
import random
from typing import Protocol

from referee.errors import UsageError, Violation
from referee.i18n import _
from referee.lab import evaluation
from referee.lab.evaluation import value_for
from referee.lab.table import DONE, Decision, Table

# What a candidate move that the rules refuse after all, or cannot carry out, raises. The
# search lists legal moves, so this is a safety net: such a move is dropped from the choice.
_REFUSED = (Violation, LookupError, ValueError, ArithmeticError)


class Agent(Protocol):
    name: str

    def choose(self, decision: Decision, rng: random.Random): ...


class RandomAgent:
    """A random legal move: the game's own random player where the turn is the agent's
    alone (its odds are in each game's play.yaml), a uniform pick of its moves or being
    done where every player may act."""

    name = "random"

    def choose(self, decision: Decision, rng: random.Random):
        table = decision.table
        if not decision.free:
            return table.game.random_move(table.state, rng)
        return rng.choice(decision.moves)


def candidates(moves: list, most: int, rng: random.Random) -> list:
    """At most `most` of the moves, drawn uniformly (all of them when there are fewer): a
    Canterbury position can have thousands of builds, and trying each costs a copy. Being
    done (`DONE`) always stays among them."""
    if len(moves) <= most:
        return moves
    done = [m for m in moves if m is DONE]
    rest = [m for m in moves if m is not DONE]
    return done + rng.sample(rest, most - len(done))


class GreedyAgent:
    """One ply: the move after which the position is best for the mover (`value_for`: final
    scoring applied now, with the game's prospects, then the rules' tie-breaks); ties left
    go to a random pick, being done (where every player may act) among them. The candidates
    are at most `most` different moves drawn by the game's random player (`drawn_candidates`),
    so that greedy weighs the moves that make sense (a Canterbury position can have thousands
    of builds, a Hamburgum turn spelt out in full more than the short forms listed)."""

    name = "greedy"

    def __init__(self, most: int = 16):
        self.most = most

    def choose(self, decision: Decision, rng: random.Random):
        moves = list(drawn_candidates(decision, self.most, rng, _keyer(decision.table.game)).values())
        if len(moves) == 1:
            return moves[0]
        best, best_value = [], None
        for move in moves:
            trial = decision.table.copy()
            try:
                trial.play(decision.colour, move)
            except _REFUSED:
                continue
            value = value_for(trial.state, decision.colour)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        if not best:
            return moves[0]
        return rng.choice(best)


class _Node:
    """A decision in the tree, reached by the choices above it (open loop: the chance
    outcomes between them are drawn anew on every playout)."""

    __slots__ = ("visits", "reward", "children", "moves")

    def __init__(self):
        self.moves = None
        self.visits = 0
        self.reward = 0.0  # the sum of what the playouts through it gave the colour who chose it
        self.children: dict[str, _Node] = {}


def rewards(state) -> dict[str, float]:
    """What a finished (or cut short) playout gives each colour, from 0 to 1: half for the
    win (split between those tied for first after the tie-breaks), half for where its total
    lies between the lowest and the highest. Totals are `evaluation.totals`: final scoring,
    and for a playout cut short the game's prospects too. The second half tells a near miss
    from a rout, so that a few dozen playouts of a game for three or more already say which
    move is better."""
    standings, totals = evaluation.totals(state)
    keys = {s.seat.colour: (round(totals[s.seat.colour], 6), *(sign * value for _, value, sign in s.tiebreak)) for s in standings}
    top = max(keys.values())
    winners = [c for c, k in keys.items() if k == top]
    low, high = min(totals.values()), max(totals.values())
    spread = (high - low) or 1
    return {c: (0.5 / len(winners) if c in winners else 0.0) + 0.5 * (totals[c] - low) / spread for c in keys}


def ranked(decision: Decision, moves: dict, most: int) -> dict:
    """The `most` moves (keyed) that leave the mover best placed by `value_for`, best first:
    greedy's choice and those nearest to it. A move the rules refuse is left out."""
    scored = []
    for n, (key, move) in enumerate(moves.items()):
        trial = decision.table.copy()
        try:
            trial.play(decision.colour, move)
        except _REFUSED:
            continue
        scored.append((value_for(trial.state, decision.colour), -n, key))
    scored.sort(reverse=True)
    return {key: moves[key] for _, _, key in scored[:most]} or moves


def drawn_candidates(decision: Decision, most: int, rng: random.Random, key_of) -> dict:
    """Up to `most` different moves drawn by the game's random player (its odds in play.yaml
    favour the moves that make sense), keyed as the tree keys them; where every player may
    act, the player's own moves as listed. Drawn on a copy: a draw may note what it tried."""
    if decision.free:
        return {key_of(m): m for m in candidates(decision.moves, most, rng)}
    scratch = decision.table.copy()
    found: dict = {}
    for _attempt in range(most * 3):
        move = scratch.game.random_move(scratch.state, rng)
        found.setdefault(key_of(move), move)
        if len(found) >= most:
            break
    return found


class MCTSAgent:
    """UCT: each of `budget` playouts walks down the tree by the UCB1 rule (exploration
    `c`), adds one new choice, plays on at random to the end (at most `depth` further moves,
    then scored by `rewards`, prospects included) and credits each choice on the way with
    what the chooser won. Chance is sampled on every playout (for The Speicherstadt: which
    card comes next and which cubes a ship draws from the bag, from what is left), so the
    search is determinised per playout and never sees a hidden order.

    At each choice in the tree (the agent's own and the other players') the candidates are
    the `width` best by greedy's evaluation (`ranked`) of at most `most` different moves drawn
    by the game's own random player (`drawn_candidates`): greedy's own choice is always among
    them, the playouts say whether another does better, and the other players are expected to
    answer with moves that a greedy player would consider. Ranked once per choice in the tree."""

    name = "mcts"

    def __init__(self, budget: int = 32, c: float = 1.0, most: int = 16, width: int = 4, depth: int | None = None):
        self.budget, self.c, self.most, self.width, self.depth = budget, c, most, width, depth
        self._random = RandomAgent()

    def choose(self, decision: Decision, rng: random.Random):
        table = decision.table
        key_of = _keyer(table.game)
        root_moves = self._candidates(decision, rng, key_of)
        moves = list(root_moves.values())
        if len(moves) == 1:
            return moves[0]
        root = _Node()
        for _round in range(self.budget):
            self._playout(table.copy(), root, root_moves, rng, key_of)
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward), default=None)
        return root_moves[best[0]] if best else rng.choice(moves)

    def _candidates(self, decision: Decision, rng: random.Random, key_of) -> dict:
        drawn = drawn_candidates(decision, self.most, rng, key_of)
        return ranked(decision, drawn, self.width) if len(drawn) > self.width else drawn

    def _playout(self, table: Table, root: _Node, root_moves: dict, rng: random.Random, key_of) -> None:
        path: list[tuple[_Node, str]] = []  # each node reached, and the colour that chose it
        node, allowed, expanding = root, root_moves, True
        steps, most = 0, table.game.spec["play"]["max_moves"]
        while not table.over() and steps < most:
            decision = table.decision()
            if decision.colour is None:
                table.play(None, table.table_move(rng))
                steps += 1
                continue
            if not expanding:
                break
            if allowed is None:
                if node.moves is None:
                    node.moves = self._candidates(decision, rng, key_of)
                allowed = node.moves
            if not allowed:
                break
            untried = [k for k in allowed if k not in node.children]
            if untried:
                key = rng.choice(untried)
                child = node.children[key] = _Node()
                expanding = False  # one new choice per playout; random play from here
            else:
                log_n = math.log(max(node.visits, 1))
                key = max(allowed, key=lambda k: node.children[k].reward / node.children[k].visits + self.c * math.sqrt(log_n / node.children[k].visits))
                child = node.children[key]
            try:
                table.play(decision.colour, allowed[key])
            except _REFUSED:  # the choice was made for other chance outcomes: not open here
                del node.children[key]
                del allowed[key]
                return
            path.append((child, decision.colour))
            node, allowed = child, None
            steps += 1
        limit = steps + self.depth if self.depth is not None else most
        while not table.over() and steps < limit:
            decision = table.decision()
            move = table.table_move(rng) if decision.colour is None else self._random.choose(decision, rng)
            table.play(decision.colour, move)
            steps += 1
        won = rewards(table.state)
        root.visits += 1
        for child, colour in path:
            child.visits += 1
            child.reward += won.get(colour, 0.0)


def _keyer(game):
    """Choices told apart by how the notation writes them (moves themselves are not hashable)."""

    def key(move) -> str:
        return "done" if move is DONE else game.format_move(move)

    return key


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent}


def make_agent(text: str) -> Agent:
    """An agent from its name as a command line writes it: `random`, `greedy`, `greedy:N`
    (N candidate moves at most), `mcts` or `mcts:N` (N playouts a decision)."""
    name, _colon, number = text.strip().lower().partition(":")
    if name not in AGENTS:
        raise UsageError(_("unknown agent {agent}; agents: {agents} (mcts:N for N playouts a decision)").format(agent=repr(text), agents=", ".join(AGENTS)))
    if not number:
        return AGENTS[name]()
    if name == "random" or not number.isdigit() or int(number) < 1:
        raise UsageError(_("agent {agent}: only greedy:N (candidates) and mcts:N (playouts) take a number, a whole number from 1").format(agent=repr(text)))
    return GreedyAgent(most=int(number)) if name == "greedy" else MCTSAgent(budget=int(number))
