"""Disputes at a Canterbury table: rulings, every problem in one run (see tests/disputes.py)."""

from ..disputes import DisputeCases
from .records import HEADER_4P, ROUND_1

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
        [(9, "canterbury/checkpoint", None), (10, None, None), (11, "canterbury/no-duplicate", None), (12, "canterbury/turn-order", 11)],
        3,
    )
