"""Disputes at a Speicherstadt table: rulings, every problem in one run (see tests/disputes.py)."""

from ..disputes import DisputeCases
from .records import TO_SPRING
from .test_rules import R1_SUPPLY

# beige sells a coffee without owning the coffee roaster; the coin it got shows in the checkpoint
SOLD = TO_SPRING + "beige: sell coffee\n"
# beige bids for slot 2 with all six workers and cannot pay the 6 coins it then costs
OVERBID = R1_SUPPLY.replace("beige: place 1", "") + "beige: place 2\norange: place 2\n" * 3 + "beige: buy 2\n"

# Three independent problems: beige's coins at line 33, an unreadable checkpoint at line 34, a sale
# to a trader beige does not own at the end; then a worker placed in Loading and beige's coins, which
# may follow from the voided sale.
PROBLEMS = (
    TO_SPRING.replace("check beige: coins 1, cards 3", "check beige: coins 2, cards 3").replace("check orange: coins 1, cards 3", "check orange: coins 1 1, cards 3")
    + "beige: sell coffee\norange: place 1\ncheck beige: coins 5\n"
)
END = TO_SPRING.count("\n")


class TestDisputes(DisputeCases):
    game = "speicherstadt"
    accepted = (SOLD + "ruling accept: the table let beige sell without the roaster\ncheck beige: coins 1\n", "speicherstadt/trader-owned")
    voided = (SOLD + "ruling void: beige owns no coffee roaster\nbeige: spoil coffee\ncheck beige: coins 0\n", "speicherstadt/trader-owned")
    after_legal = R1_SUPPLY + "beige: place 1\nruling accept\n"
    refused = (OVERBID + "ruling accept: beige promised to pay later\n", "beige would hold -1 coins, and the data allows no fewer than 0")
    problems = (
        PROBLEMS,
        [
            (33, "speicherstadt/checkpoint", None),
            (34, None, None),
            (END + 1, "speicherstadt/trader-owned", None),  # no edit helps: the line is played as written
            (END + 2, "speicherstadt/phase-order", None),
            (END + 3, "speicherstadt/checkpoint", None),
        ],
        3,
    )
