"""Counters made without Counter's constructor are the Counters the constructor makes: the
rules copy stocks and cube counts with them many times a move."""

from collections import Counter

from referee._counts import counts_of, no_counts


def test_a_copy_is_the_counter_of_the_mapping_and_its_own():
    stock = Counter({"brick": 2, "wood": 0, "bell": 1})
    copy = counts_of(stock)
    assert type(copy) is Counter and copy == Counter(stock) and list(copy) == list(stock)
    copy["brick"] -= 1
    copy["coffee"] += 3
    assert stock == Counter({"brick": 2, "wood": 0, "bell": 1})
    assert copy["tobacco"] == 0 and "tobacco" not in copy  # a missing count reads as 0, as in any Counter


def test_an_empty_counter_counts_from_nothing():
    made = no_counts()
    assert type(made) is Counter and made == Counter() and not made
    made["red"] += 1
    assert made == Counter(red=1) and no_counts() == Counter()
