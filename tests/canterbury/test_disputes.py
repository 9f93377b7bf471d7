"""Disputes at a Canterbury table: rulings, every problem in one run (see tests/disputes.py)."""

import pytest

from ..disputes import DisputeCases
from .records import FULL_B3, HEADER_2P, HEADER_4P, RICH, ROUND_1, ROUND_1_2P, check

# Three independent problems: blue's money at line 9, an unreadable checkpoint at line 10, and a
# second well in c3 at line 11; red's turn after it may follow from the voided turn.
PROBLEMS = HEADER_4P + ROUND_1 + "check blue: money 9\ncheck red: money 1 1\nblue: full build well c3\nred: levy\n"


class TestDisputes(DisputeCases):
    game = "canterbury"
    accepted = (HEADER_4P + "blue: levy\nruling accept: blue had nothing it wanted to build\ncheck blue: money 11\n", "canterbury/first-round")
    voided = (HEADER_4P + "blue: full build well c3\nruling void: c3 has its Roman well\nblue: full build well b3\ncheck blue: money 4\n", "canterbury/no-duplicate")
    after_legal = HEADER_4P + "blue: full build well b3\nruling accept: we were not sure of the well\n"
    refused = (HEADER_4P + "blue: full build fountain b3, garden b3\nruling accept: blue pays next turn\n", "blue would hold -2 money, and the data allows no fewer than 0")
    problems = (
        PROBLEMS,
        [(9, "canterbury/checkpoint", None), (10, None, None), (11, "canterbury/no-duplicate", None)],  # repaired: no turn-order after it
        3,
    )


ACCEPTED = "ruling accept: the table let it stand\n"


@pytest.mark.parametrize(
    "record, district, set_aside",
    [
        (HEADER_4P + "blue: full build well c3\n", "c3", ["canterbury/no-duplicate"]),
        (HEADER_4P + "blue: full build chapel a1\n", "a1", ["canterbury/connectivity", "canterbury/services-first"]),
        (HEADER_4P + "blue: full build garden b3, well b3\n", "b3", ["canterbury/build-order", "canterbury/services-first"]),
        (HEADER_2P + ROUND_1_2P + "blue: neutral well a1\n", "a1", ["canterbury/connectivity"]),
    ],
    ids=["a second well", "unconnected and without services", "in the order written", "the neutral's tile"],
)
def test_the_table_may_let_a_structure_stand_where_the_rules_of_play_keep_it_out(record, district, set_aside):
    """Where a structure may stand is a rule of play: a table that let it stand is honoured,
    each placing rule it breaks set aside in turn, and the structure is on the board."""
    assert check(record).errors[0].rule == set_aside[0]
    report = check(record + ACCEPTED)
    assert report.status == "legal", [d.message for d in report.errors]
    assert report.rulings[0].rules == set_aside
    placed = record.rstrip().rsplit("\n", 1)[-1].replace(",", "").split()
    assert {w for w in placed if w in report.state.game.structures} <= set(report.state.board.tiles[district])


@pytest.mark.parametrize(
    "record, fact",
    [
        (HEADER_4P + FULL_B3 + "blue: full build farm b3\n", "canterbury/space"),
        (HEADER_4P + "blue: full build castle c3\n", "canterbury/centre-forbidden"),
    ],
    ids=["no room", "no points in the ring"],
)
def test_a_district_without_room_or_a_tile_without_points_there_is_never_set_aside(record, fact):
    """A district with too few empty spaces cannot hold the tile, and a tile that prints no
    points for the ring has nothing to score there: facts of the pieces, not rules of play."""
    report = check(record + ACCEPTED, [RICH])
    [error] = report.errors
    assert error.rule == "canterbury/ruling"
    assert f"breaks {fact}, which no ruling sets aside" in error.message


def test_the_table_cannot_give_the_neutral_a_tile_from_stacks_that_are_empty():
    """Late in a two-player game a player's stacks run out, and the neutral stops building on
    their turns. A neutral line there, accepted by the table, is refused with that reason: there
    is no tile to place. (The rule was once set aside, and the replay then stopped with an
    internal error looking for the tile.)"""
    from referee.lab.random_game import play_game

    at = player = None
    for seed in range(1, 20):  # the first random game in which it happens
        lines = play_game("canterbury", 2, seed).splitlines()
        moves = [i for i, line in enumerate(lines) if line.startswith(("blue:", "red:"))]
        for index in reversed(moves):  # the last point where the player to act has no tile left
            state = check("\n".join(lines[:index]) + "\n").state
            if any(state.players[state.to_act()].stacks):
                break
            at, player = index, state.to_act()
        if at is not None:
            break
    assert at is not None, "no game of 19 reaches a point where a player's stacks have run out"
    record = "\n".join(lines[:at] + [f"{player}: neutral well c3", ACCEPTED.strip()] + lines[at:]) + "\n"
    report = check(record)
    assert report.exit_code == 1
    assert [d.rule for d in report.errors] == ["canterbury/ruling"]
    assert "breaks canterbury/variant-marker, which no ruling sets aside" in report.errors[0].message
    assert "stacks are empty" in report.errors[0].message
