"""What the lab's agents count a position as worth (referee/lab/evaluation.py): final scoring
applied now, and the prospects of what it does not count yet. The agents' strength itself is
measured by benchmarks/lab.py (figures in its README and docs/lab.md)."""

from __future__ import annotations

import copy
import random

import pytest

from referee.lab import evaluation
from referee.lab.agents import GreedyAgent, MCTSAgent, drawn_candidates, make_agent, ranked, rewards
from referee.lab.random_game import random_game_start
from referee.lab.table import Table


def _played(name: str, moves: int, seed: int = 1):
    """A game of three random players some moves in (its table still running)."""
    _, game, state = random_game_start(name, 3)
    rng, choose = random.Random(seed), game.random_player()
    for _ in range(moves):
        state.apply(choose(state, rng))
    return game, state


def _gain(state, change) -> float:
    """How much a colour's total moves when `change` is made to a copy of the state."""
    colour = state.seats[0].colour
    before = evaluation.totals(state)[1][colour]
    twin = copy.deepcopy(state)
    change(twin.players[colour])
    return evaluation.totals(twin)[1][colour] - before


def test_a_contract_is_worth_more_the_more_of_it_is_covered():
    from referee.games.speicherstadt.rules import Contract

    game, state = _played("speicherstadt", 5)
    points = state.spec["cards"]["types"][game.contract]["points_by_size"][3]
    empty = _gain(state, lambda p: p.contracts.append(Contract(["tea", "tea", "rubber"])))
    one = _gain(state, lambda p: p.contracts.append(Contract(["tea", "tea", "rubber"], ["tea"])))
    full = _gain(state, lambda p: p.contracts.append(Contract(["tea", "tea", "rubber"], ["tea", "tea", "rubber"])))
    assert 0 < empty < one < full == points


def test_coins_and_the_lead_in_firemen_count_before_the_end():
    from referee.games.speicherstadt.rules import Card

    game, state = _played("speicherstadt", 5)
    assert _gain(state, lambda p: setattr(p, "coins", p.coins + 2)) > 0
    assert _gain(state, lambda p: p.cards.append(Card(game.fireman, "A", {"value": 5}))) > 0, "the most firemen win the fires still to come"


def test_a_worker_first_in_a_queue_is_worth_more_than_one_further_up():
    from referee.games.speicherstadt.rules import Card, Slot

    game, state = _played("speicherstadt", 0)
    colour, other = state.seats[0].colour, state.seats[1].colour

    def queued(queue):
        twin = copy.deepcopy(state)
        twin.slots = [Slot(Card(game.contract, "A", {"goods": ["tea", "tea"]}), queue=queue)]
        return evaluation.totals(twin)[1][colour]

    alone, first, second = queued([]), queued([colour, other]), queued([other, colour])
    assert first > second > alone


def test_building_materials_and_houses_are_worth_more_than_their_sale():
    game, state = _played("hamburgum", 10)
    sale = state.spec["scoring"]["end_sale"]["materials"] / state.spec["scoring"]["prestige_price"]
    assert _gain(state, lambda p: p.stock.update({"brick": 1})) > sale
    house = _gain(state, lambda p: p.houses.append("brewery"))
    assert house > 0
    assert house > _gain(state, lambda p: p.stock.update({"brick": 1, "wood": 1})), "a house is worth more than what it costs"


def test_a_game_that_scores_as_it_goes_is_counted_by_its_standings():
    _, state = _played("canterbury", 30)
    standings, totals = evaluation.totals(state)
    assert totals == {s.seat.colour: s.total for s in standings}


@pytest.mark.parametrize("name", ["speicherstadt", "hamburgum"])
def test_a_finished_game_is_worth_its_final_scoring(name):
    game, state = _played(name, 0, seed=4)
    rng, choose = random.Random(4), game.random_player()
    while not state.is_over():
        state.apply(choose(state, rng))
    standings, totals = evaluation.totals(state)
    assert totals == {s.seat.colour: float(s.total) for s in state.standings()}
    won = rewards(state)
    best = max(standings, key=lambda s: (s.total, *(sign * v for _, v, sign in s.tiebreak)))
    assert won[best.seat.colour] == max(won.values()) >= 0.5


def _values(table, decision) -> list:
    out = []
    for move in decision.moves:
        trial = table.copy()
        trial.play(decision.colour, move)
        out.append(evaluation.value_for(trial.state, decision.colour))
    return out


def test_greedy_takes_the_move_its_evaluation_puts_first():
    """In The Speicherstadt's Loading (every move listed, being done among them), greedy
    plays a move whose value for it is the best of all, at the first such choice whose
    moves differ in worth."""
    _, game, state = random_game_start("speicherstadt", 3)
    table = Table(game, state, {s.colour for s in state.seats})
    rng, other = random.Random(2), make_agent("random")
    while not table.over():
        decision = table.decision()
        if decision.colour is None:
            table.play(None, table.table_move(rng))
            continue
        if decision.free and len(set(values := _values(table, decision))) > 1:
            break
        table.play(decision.colour, other.choose(decision, rng))
    else:
        pytest.fail("no Loading choice between moves of different worth")
    chosen = GreedyAgent(most=len(decision.moves)).choose(decision, random.Random(1))
    assert values[decision.moves.index(chosen)] == max(values)


def test_mcts_searches_among_greedys_best_moves():
    game, state = _played("canterbury", 20)
    table = Table(game, state, {s.colour for s in state.seats})
    decision = table.decision()
    agent = MCTSAgent(budget=4, width=2, depth=2)
    drawn = drawn_candidates(decision, agent.most, random.Random(3), lambda m: game.format_move(m))
    best = ranked(decision, drawn, 2)
    assert len(drawn) > 2 and len(best) == 2
    chosen = agent.choose(decision, random.Random(3))
    assert game.format_move(chosen) in best
