"""A weighted draw takes the numbers `random.Random.choices` takes and picks what it picks, a
plain one those `random.Random.choice` takes, and a shuffle takes those `random.Random.shuffle` takes and orders as it orders, so the
games `referee play` writes for a seed stay the same."""

import math
import random

import pytest

from referee._draws import choice, cumulative_index, cumulative_weights, shuffle, weighted_index


@pytest.mark.parametrize("weights", [[1], [1, 1], [3, 0, 2], [0, 0, 5], [5, 0, 0], [0.5, 2.25, 1e-9, 7], list(range(12)), [2, 2, 2, 2, 2]])
def test_each_draw_is_the_one_choices_makes(weights):
    ours, theirs = random.Random(len(weights)), random.Random(len(weights))
    for _ in range(3000):
        assert weighted_index(ours, weights) == theirs.choices(range(len(weights)), weights)[0]
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("weights", [[1], [3, 0, 2], [0.5, 2.25, 1e-9, 7], list(range(12))])
def test_running_totals_worked_out_once_draw_as_choices_draws_every_time(weights):
    ours, theirs = random.Random(7), random.Random(7)
    totals = cumulative_weights(weights)
    for _ in range(3000):
        assert cumulative_index(ours, totals) == theirs.choices(range(len(weights)), weights)[0]
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("weights, error", [([0, 0], ValueError), ([1, math.inf], ValueError), ([], IndexError)])
def test_weights_choices_refuses_are_refused_alike(weights, error):
    with pytest.raises(error):
        random.Random(1).choices(range(len(weights)), weights)
    with pytest.raises(error):
        weighted_index(random.Random(1), weights)
    with pytest.raises(error):
        cumulative_weights(weights)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 8, 9, 16, 17, 33])
def test_each_shuffle_is_the_one_random_makes(size):
    ours, theirs = random.Random(size), random.Random(size)
    for _ in range(500):
        mine, standard = list(range(size)), list(range(size))
        shuffle(ours, mine)
        theirs.shuffle(standard)
        assert mine == standard
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33])
def test_each_plain_draw_is_the_one_choice_makes(size):
    items = [f"item {i}" for i in range(size)]
    ours, theirs = random.Random(size), random.Random(size)
    for _ in range(2000):
        assert choice(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


def test_a_plain_draw_from_nothing_is_refused_as_choice_refuses_it():
    with pytest.raises(IndexError):
        random.Random(1).choice([])
    with pytest.raises(IndexError):
        choice(random.Random(1), [])
