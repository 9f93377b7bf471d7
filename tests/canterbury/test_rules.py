"""Every enforced Canterbury rule rejects a record that breaks it, and only it."""

import pytest

from referee.games import load_game
from referee.lab.random_game import play_game

from .records import FULL_B3, HEADER_2P, HEADER_4P, RICH, ROUND_1, ROUND_1_2P, check, rule_ids

# rule id -> (record text, variant overlays); each record breaks exactly that rule, on its last move
ILLEGAL = {
    "canterbury/turn-order": (HEADER_4P + "red: full build well d3\n", []),
    "canterbury/first-round": (HEADER_4P + "blue: levy\n", []),
    "canterbury/after-levy": (HEADER_4P + ROUND_1 + "blue: levy\nred: levy\ngreen: levy\nyellow: levy\nblue: levy\n", []),
    "canterbury/full-build": (HEADER_4P + "blue: full build well b3, garden b3, well d3\n", []),
    "canterbury/tax-build": (HEADER_4P + ROUND_1 + "blue: tax build well b2, well a3\n", []),
    "canterbury/supply": (HEADER_4P + "blue: full build roman-well b3\n", []),
    "canterbury/payment": (HEADER_4P + "blue: full build fountain b3, garden b3\n", []),
    "canterbury/connectivity": (HEADER_4P + "blue: full build well a1\n", []),
    "canterbury/centre-forbidden": (HEADER_4P + "blue: full build castle c3\n", [RICH]),
    "canterbury/no-duplicate": (HEADER_4P + "blue: full build well c3\n", []),
    "canterbury/space": (HEADER_4P + FULL_B3 + "blue: full build farm b3\n", [RICH]),
    "canterbury/services-first": (HEADER_4P + "blue: full build chapel c3\n", []),
    "canterbury/build-order": (HEADER_4P + "blue: full build garden b3, well b3\n", []),
    "canterbury/large-cubes": (HEADER_4P + "blue: full build well b3 serving a1\n", []),
    "canterbury/demolition": (HEADER_4P + "blue: full build fountain b3 demolish well\n", []),
    "canterbury/demolish-purpose": (HEADER_4P + "blue: full build well b3\nred: full build garden b3 demolish well\n", []),
    "canterbury/demolish-small": (HEADER_4P + FULL_B3 + "blue: full build farm b3 demolish chapel watchtower\n", [RICH]),
    "canterbury/demolish-medium": (
        HEADER_4P + "blue: full build well b3, garden b3\nred: full build farm b3, chapel b3\ngreen: full build castle b3 demolish farm garden\n",
        [RICH],
    ),
    "canterbury/demolish-large": (HEADER_4P + "blue: full build aqueduct b3\nred: full build granary b3 demolish aqueduct\n", [RICH]),
    "canterbury/variant-marker": (HEADER_2P + "blue: neutral well c2\n", []),
    "canterbury/neutral-stack": (HEADER_2P + ROUND_1_2P + "blue: neutral garden c2\n", []),
    "canterbury/neutral-skip": (HEADER_2P + ROUND_1_2P + "blue: neutral skip well, garden c2\n", []),
    "canterbury/neutral-discard": (HEADER_2P + ROUND_1_2P + "blue: neutral discard well\n", []),
    "canterbury/seat": (HEADER_4P + "purple: full build well b3\n", []),
    "canterbury/move-number": (HEADER_4P + "1. blue: full build well b3\n3. red: full build well d3\n", []),
    "canterbury/checkpoint": (HEADER_4P + "blue: full build well b3\ncheck blue: money 5\n", []),
    "canterbury/result": (HEADER_4P + "blue: full build well b3\nresult blue 2, red 0, green 0, yellow 0\n", []),
    "canterbury/game-over": (None, []),  # a generated game with one move too many, below
    "canterbury/ruling": (HEADER_4P + "blue: full build well b3\nruling accept: we were not sure of the well\n", []),
}


def _record(rule_id):
    text, variants = ILLEGAL[rule_id]
    if rule_id == "canterbury/game-over":
        text = play_game("canterbury", 3, 1).replace("\nresult", "\nred: levy\nresult")
    return text, variants


def test_every_enforced_rule_has_an_illegal_record():
    """Rules checked on moves (the default) need a record here; rules checked through figures,
    records or not at all are covered by the example and scoring tests."""
    rules = load_game("canterbury").spec.rules
    by_check = {rid: rule.checked for rid, rule in rules.items()}
    assert {rid for rid, how in by_check.items() if how == "move"} - ILLEGAL.keys() == set()
    assert ILLEGAL.keys() - by_check.keys() == set()


@pytest.mark.parametrize("rule_id", sorted(ILLEGAL))
def test_illegal_record_is_rejected_with_its_rule(rule_id):
    text, variants = _record(rule_id)
    report = check(text, variants)
    assert report.status == "illegal", [d.message for d in report.diagnostics]
    assert rule_ids(report) == [rule_id], [d.message for d in report.errors]
    assert report.exit_code == 1
    error = report.errors[0]
    assert error.pos is not None and error.pos.line > 1


@pytest.mark.parametrize("rule_id", sorted(r for r in ILLEGAL if r != "canterbury/game-over"))
def test_the_record_without_its_last_line_is_legal(rule_id):
    """Each illegal record breaks its rule on its last line, not before."""
    text, variants = _record(rule_id)
    prefix = "\n".join(text.rstrip("\n").split("\n")[:-1]) + "\n"
    report = check(prefix, variants)
    assert report.status == "legal", [d.message for d in report.diagnostics]


def test_violation_points_at_the_build_that_breaks_the_rule():
    text = HEADER_4P + "blue: full build well b3, garden a1\n"
    report = check(text)
    assert rule_ids(report) == ["canterbury/connectivity"]
    error = report.errors[0]
    assert (error.pos.line, error.pos.column) == (text.count("\n"), text.rstrip("\n").split("\n")[-1].index("garden") + 1)


def test_a_rejected_action_leaves_the_state_untouched():
    report = check(HEADER_4P + "blue: full build well b3, chapel c3\n")
    assert rule_ids(report) == ["canterbury/services-first"]
    state = report.state
    assert state.board.tiles["b3"] == [] and state.players["blue"].money == 6


def test_a_copy_of_the_board_and_its_original_never_change_each_other():
    """Copies share the districts they do not change; a change, on either side and however
    many copies were taken before, is seen only by the board it was made on."""
    from collections import Counter

    from referee.games.canterbury.rules import Board

    board = Board({"a1": ["well"], "b1": []}, {"a1": {"water": "red"}, "b1": {}}, {"garden": 3}, Counter({"red": 1}))
    board.remove("a1", "well")  # the original now has a district of its own
    first = board.copy()
    board.place("a1", "garden")
    board.put_cube("b1", "food", "blue")
    second = first.copy()
    first.place("a1", "chapel")
    second.put_cube("a1", "religion", "red")
    assert board.tiles == {"a1": ["garden"], "b1": []} and board.cubes == {"a1": {"water": "red"}, "b1": {"food": "blue"}}
    assert first.tiles == {"a1": ["chapel"], "b1": []} and first.cubes == {"a1": {"water": "red"}, "b1": {}}
    assert second.tiles == {"a1": [], "b1": []} and second.cubes == {"a1": {"water": "red", "religion": "red"}, "b1": {}}
    assert board.used == Counter({"red": 1, "blue": 1}) and first.used == Counter({"red": 1}) and second.used == Counter({"red": 2})
    assert board.rows == Counter({("water", "red"): 1, ("food", "blue"): 1}) and second.rows == Counter({("water", "red"): 1, ("religion", "red"): 1})
    assert first.rows == Counter({("water", "red"): 1})


def test_the_favour_rows_kept_by_the_board_match_its_cubes_throughout_a_game():
    """The checkpoint figures read each competitor's place on the King's favour board from
    counts the board keeps as cubes are placed, not by looking at every district again."""
    import random
    from collections import Counter

    from referee.games.base import Seat, Trace
    from referee.notation.parser import Header

    game = load_game("canterbury")
    for seed, players in ((3, 4), (5, 3)):
        state = game.new_state([Seat(c) for c in game.spec.meta["colours"][:players]], 0, Header(), Trace())
        rng = random.Random(seed)
        placed = 0
        while not state.is_over():
            state.apply(game.random_move(state, rng))
            counted = Counter((service, owner) for slots in state.board.cubes.values() for service, owner in slots.items())
            assert +state.board.rows == counted
            placed = sum(counted.values())
        assert placed > 10
