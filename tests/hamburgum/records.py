"""Hand-written Civitas Hamburgum records used by the tests.

Seat 1 is the start player: in the two-player records red starts with 1 prestige and 10
thalers, blue with 2 and 20; both hold one beer, sugar, cloth, wood and brick and have one
ship on berth 3. Rondel spaces clockwise: sugar, church, upper trade, cloth, guildhall,
beer, lower trade, dockyard.
"""

from pathlib import Path

from referee.engine.replay import check_bytes

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TEST_BOARD = str(HERE / "variants" / "test-board.yaml")
FEW_PIECES = str(HERE / "variants" / "few-pieces.yaml")
ONE_MERCHANT = str(HERE / "variants" / "one-merchant.yaml")
EXAMPLES = ROOT / "specs" / "hamburgum" / "examples"
QUICK_START = EXAMPLES / "quick-start.log"

HEADER_2P = '[Game "hamburgum"]\n[Players "red Anna, blue Ben"]\n[Start "red"]\n\n'
HEADER_3P = '[Game "hamburgum"]\n[Players "red, blue, green"]\n[Start "red"]\n\n'

# Red sells for 170, buys 2 bricks and a wood, and donates to St. Nikolai (scoring the
# five-point token); blue walks round the rondel doing little. Red's next turn may reach the
# guildhall for free with 2 wood, 2 bricks, 70 thalers and 5 prestige.
RED_DONOR = (
    HEADER_2P
    + """\
red: upper trade sell 1 beer, bank 1 sugar 1 cloth
blue: sugar
red: lower trade buy 2 brick 1 wood
blue: church
red: church nikolai donate five, score nikolai five
blue: upper trade sell 1 beer
check red: money 70, prestige 5, wood 2, brick 2
"""
)

# Red and blue finish St. Nikolai together: red the first two donations, blue the third and
# fourth, red the fifth (brick, wood and bell; no citizens, so no money). Red is then a church
# builder with 8 more prestige.
NIKOLAI_FINISHED = (
    HEADER_2P
    + """\
red: upper trade sell 1 beer, bank 1 sugar 1 cloth
blue: upper trade sell 1 beer, bank 1 sugar 1 cloth
red: lower trade buy 2 brick 1 wood 1 bell
blue: lower trade buy 1 brick 1 wood
red: church nikolai donate five ship
blue: church nikolai donate building citizen
red: cloth
blue: cloth
red: lower trade sell 1 cloth
blue: beer
red: church nikolai donate donation
check red: prestige 8, money 120, brick 0, wood 0, bell 0, builder 1, discs 14
check blue: money 70, discs 15
"""
)


def check(text: str, variants=()):
    return check_bytes(text.encode("utf-8"), "test.log", list(variants))


def rule_ids(report) -> list[str]:
    return [d.rule for d in report.errors]
