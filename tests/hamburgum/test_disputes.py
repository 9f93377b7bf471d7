"""Disputes at a Hamburgum table: rulings, every problem in one run (see tests/disputes.py)."""

from ..disputes import DisputeCases
from .records import HEADER_2P

# red buys a second bell though nobody may hold more than one
BELLS = HEADER_2P + "red: upper trade sell 1 beer\nblue: cloth\nred: trade buy 2 bell\n"

# Three independent problems: red's beer at line 7, an unreadable checkpoint at line 8, and red
# building ships without the wood at line 9; blue's turn after it may follow from the voided turn.
PROBLEMS = HEADER_2P + "red: beer\nblue: cloth\ncheck red: beer 5\ncheck blue: cloth 1 1\nred: dockyard 3\nblue: beer\n"


class TestDisputes(DisputeCases):
    game = "hamburgum"
    accepted = (BELLS + "ruling accept: nobody counted the bells\nblue: beer\ncheck red: bell 2\n", "hamburgum/bell-limit")
    voided = (HEADER_2P + "red: upper trade sell 2 beer\nruling void: red holds one beer\nred: upper trade sell 1 beer\nblue: cloth\ncheck red: beer 0\n", "hamburgum/sell-goods")
    after_legal = HEADER_2P + "red: beer\nruling void\n"
    refused = (HEADER_2P + "red: beer\nblue: cloth\nred: beer\nruling accept: red went round the rondel\n", "red would hold -4 prestige, and the data allows no fewer than 0")
    problems = (
        PROBLEMS,
        [(7, "hamburgum/checkpoint", None), (8, None, None), (9, "hamburgum/dockyard-cost", None)],  # repaired: no turn-order after it
        3,
    )
