"""Hand-written Canterbury records and helpers shared by the tests.

The records are built from the opening round of a four-player game (blue, red, green,
yellow) and of a two-player game with the neutral player. The overlays that keep records
short live with the examples (specs/canterbury/examples/overlays/): `rich.yaml` gives every
player 200 shillings, `city-at-70.yaml` starts the city marker at 70, `short-and-rich.yaml`
does both kinds of thing and ends the game at the first disc.
"""

from pathlib import Path

from referee.engine.replay import check_bytes

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "specs" / "canterbury" / "examples"
SHORTENED = EXAMPLES / "shortened"  # worked examples that need an overlay to stay short
OVERLAYS = EXAMPLES / "overlays"
RICH = str(OVERLAYS / "rich.yaml")
CITY_AT_70 = str(OVERLAYS / "city-at-70.yaml")
SHORT_AND_RICH = str(OVERLAYS / "short-and-rich.yaml")

HEADER_4P = '[Game "canterbury"]\n[Players "blue Ann, red Ben, green Cy, yellow Di"]\n[Start "blue"]\n\n'
HEADER_3P = '[Game "canterbury"]\n[Players "red, blue, green"]\n\n'
HEADER_2P = '[Game "canterbury"]\n[Players "blue, red"]\n[Variant "two-player"]\n\n'

# The first round: every player builds one well next to the central district.
ROUND_1 = """\
blue: full build well b3
red: full build well d3
green: full build well c2
yellow: full build well c4
"""

# Two players: the variant markers show No Build on the first turn of each.
ROUND_1_2P = """\
blue: full build well b3
red: full build well d3
"""

# Blue, red and green fill b3 with six small structures, one of each service (rich players).
FULL_B3 = """\
blue: full build well b3, garden b3
red: full build chapel b3, watchtower b3
green: full build stall b3, wagon b3
yellow: full build well d3
"""


def check(text: str, variants=()):
    return check_bytes(text.encode("utf-8"), "<test>", list(variants))


def rule_ids(report) -> list[str]:
    return [d.rule for d in report.errors]


def figures(report, who: str) -> dict:
    return report.state.figures(who)
