"""The rulebook's worked examples, each a record of specs/hamburgum/examples whose checkpoints hold
the rulebook's figures, and a few rules the rulebook states without one, as positions."""

import html
import re

import pytest

from referee.site.replays import illustrations, listed
from referee.site.tables import GamePages
from referee.spec.loader import data_root, load_spec

from .positions import donate, give, play, position
from .records import EXAMPLES, HERE, QUICK_START, TEST_BOARD, check

# The rulebook's worked examples besides the quick start, each a record of the examples folder.
WORKED_EXAMPLES = (
    "rulebook-production.log",
    "rulebook-selling.log",
    "rulebook-dockyard.log",
    "rulebook-church-tokens.log",
    "rulebook-finishing-a-church.log",
    "rulebook-offices.log",
    "rulebook-blue-offices.log",
)

# The fact sheet's table of the quick start: money / prestige / beer, sugar, cloth / wood, brick
# for red, blue and green after each of the six rounds.
QUICK_START_TABLE = {
    1: {"red": (10, 1, 2, 1, 1, 1, 1), "blue": (20, 2, 1, 1, 2, 1, 1), "green": (130, 3, 1, 1, 0, 1, 1)},
    2: {"red": (210, 1, 0, 1, 1, 1, 1), "blue": (20, 2, 2, 1, 2, 1, 1), "green": (130, 8, 1, 1, 0, 1, 0)},
    3: {"red": (210, 6, 0, 1, 1, 1, 0), "blue": (20, 2, 2, 1, 2, 0, 1), "green": (30, 8, 1, 1, 0, 2, 2)},
    4: {"red": (10, 6, 0, 1, 1, 3, 3), "blue": (420, 2, 0, 1, 0, 0, 1), "green": (30, 8, 1, 1, 0, 0, 0)},
    5: {"red": (110, 6, 0, 1, 1, 0, 0), "blue": (160, 1, 0, 1, 0, 3, 4), "green": (30, 8, 3, 1, 0, 0, 0)},
    6: {"red": (10, 6, 0, 1, 1, 2, 1), "blue": (160, 6, 0, 1, 0, 2, 2), "green": (400, 8, 0, 0, 0, 0, 0)},
}
KEYS = ("money", "prestige", "beer", "sugar", "cloth", "wood", "brick")


def test_quick_start_replays_with_every_checkpoint_confirmed():
    text = QUICK_START.read_text(encoding="utf-8")
    report = check(text)
    assert report.status == "legal", [(d.rule, d.message) for d in report.errors]
    figures = sum(len(line.split(",")) for line in text.splitlines() if line.startswith("check "))
    assert report.checkpoints_confirmed == figures
    assert report.moves == 18


def test_quick_start_checkpoints_are_the_fact_sheet_table():
    """Each round's checkpoints state exactly the table's figures (and the replay confirms them)."""
    rounds = QUICK_START.read_text(encoding="utf-8").split("# Round ")[1:]
    assert len(rounds) == len(QUICK_START_TABLE)
    for number, block in enumerate(rounds, 1):
        for colour, expected in QUICK_START_TABLE[number].items():
            line = next(l for l in block.splitlines() if l.startswith(f"check {colour}:"))
            stated = dict(re.findall(r"([a-z-]+) (-?\d+)", line.split(":", 1)[1]))
            assert tuple(int(stated[k]) for k in KEYS) == expected, (number, colour)


def test_quick_start_ends_with_the_fact_sheet_harbour_and_churches():
    state = check(QUICK_START.read_text(encoding="utf-8")).state.describe()
    assert state["prices"] == {"beer": 90, "sugar": 100, "cloth": 80}
    assert state["harbour"] == {"berth 1": [], "berth 2": ["red", "blue", "green"], "berth 3": ["blue", "dutchman", "green"]}
    assert state["churches"]["nikolai"]["discs"] == ["green"]
    assert state["churches"]["michaelis"]["discs"] == ["red"]
    assert state["churches"]["katharinen"]["discs"] == ["blue", "blue"]
    assert state["players"]["blue"]["tokens"] == ["katharinen five (scored)", "katharinen citizen"]
    assert state["players"]["green"]["houses"] == ["brewery", "captain"]
    assert state["players"]["red"]["houses"] == ["weaving-mill", "weaving-mill", "merchant"]


def test_quick_start_holds_on_a_board_with_sites_and_lines():
    """With a board whose sites and lines fit the example, nothing is left unchecked."""
    report = check(QUICK_START.read_text(encoding="utf-8"), [TEST_BOARD])
    assert report.status == "legal"
    assert not [d for d in report.diagnostics if d.severity == "warning"]


def test_quick_start_reports_the_unchecked_board_rules_and_the_uncertain_values_it_used():
    report = check(QUICK_START.read_text(encoding="utf-8"))
    warned = {d.rule for d in report.diagnostics if d.severity == "warning"}
    assert warned == {"hamburgum/guildhall-adjacency", "hamburgum/site-type"}
    relied = {p.address: p.status for p in report.relied_on}
    # a brewery and a weaving mill are built, and the rondel is walked; every purchase is of
    # 3 or 6 items, whose depot totals are printed, so no stand-in price is relied on
    assert relied == {"houses:types.brewery.count": "likely", "houses:types.weaving-mill.count": "likely", "rondel:spaces": "likely"}


# --- the rulebook's rule examples, as records of specs/hamburgum/examples ------------------


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def stated(text: str) -> int:
    """How many figures the record's checkpoint lines state."""
    return sum(len(line.split(":", 1)[1].split(",")) for line in text.splitlines() if line.startswith("check "))


def replayed(text: str, variants=()):
    """The record replayed: legal, with every figure it states confirmed."""
    report = check(text, variants)
    assert report.status == "legal", [(d.rule, d.message) for d in report.errors]
    assert report.checkpoints_confirmed == stated(text)
    return report


def last_move_replaced(text: str, line: str) -> str:
    """The record up to its last move, that move replaced by `line` (its checkpoints left out)."""
    lines = text.rstrip("\n").splitlines()
    last = max(n for n, l in enumerate(lines) if l and not l.startswith(("#", "[", "check ")))
    return "\n".join(lines[:last] + [line]) + "\n"


@pytest.mark.parametrize("name", WORKED_EXAMPLES)
def test_every_worked_example_replays_with_its_checkpoints_confirmed(name):
    replayed(example(name))


def test_every_example_record_but_the_random_games_is_a_worked_example_on_a_rules_page():
    records = {p.name for p in EXAMPLES.glob("*.log") if not p.name.startswith("random-")}
    pictured = {picture.record for picture in illustrations(GamePages(load_spec("hamburgum"), data_root())).values()}
    assert records == pictured == {*WORKED_EXAMPLES, QUICK_START.name}


def test_the_built_rules_page_shows_each_worked_example_under_its_rule(site):
    """Its picture, with the caption as the text alternative, and every line of its moves; the
    figures and the picture itself are compared with `referee check` and `referee draw` for
    every game in tests/test_rules_pages.py."""
    page = (site / "hamburgum" / "rules.html").read_text(encoding="utf-8")
    for picture in listed(GamePages(load_spec("hamburgum"), data_root())):
        anchor = picture.rule.split("/", 1)[1]
        section = page.split(f'id="{anchor}"', 1)[1].split("<h3", 1)[0]
        assert f'<img alt="{html.escape(picture.caption, quote=False)}" loading="lazy" src="pictures/{anchor}.svg" />' in section, picture.rule
        moves = section.split(f"The moves of {picture.record} as written", 1)[1]
        lines = [line for line in example(picture.record).splitlines() if line and not line.startswith(("#", "["))]
        assert all(html.escape(line, quote=False) in moves for line in lines), picture.record


def test_production_gives_4_sugar_2_cloth_and_1_beer():
    text = example("rulebook-production.log")
    red = replayed(text).state.players["red"]
    assert sorted(red.houses) == ["refinery", "refinery", "refinery", "weaving-mill"]
    for line in ("red: sugar 4", "check red: sugar 4", "red: cloth 2", "check red: cloth 2", "red: beer 1", "check red: beer 1"):
        assert line in text.splitlines()
    # a number the rules contradict is caught: with 3 refineries sugar gives 4, not 3
    wrong = check(text.replace("red: sugar 4", "red: sugar 3"))
    assert [d.rule for d in wrong.errors] == ["hamburgum/production"]


def test_selling_example_290_by_ship_and_30_from_the_bank():
    text = example("rulebook-selling.log")
    assert "check green: money 70, beer 3, sugar 2, cloth 0, ships 2" in text
    assert "check green: money 390, beer 0, sugar 0" in text  # 70 + 3 x 70 + 1 x 80 + 30
    state = replayed(text).state
    assert state.describe()["prices"] == {"beer": 70, "sugar": 80, "cloth": 100}
    # a sugar that fits on a ship cannot go to the bank: green's ship on berth 1 takes one
    refused = check(text.replace("sell 3 beer 1 sugar, bank 1 sugar", "sell 3 beer, bank 2 sugar"))
    assert [d.rule for d in refused.errors] == ["hamburgum/bank-sale"]


def test_dockyard_example_four_players():
    """Yellow builds 2 ships: the first fills berth 3, the second shifts the harbour."""
    state = replayed(example("rulebook-dockyard.log")).state
    assert state.harbour == {1: ["red", "blue", "green", "yellow"], 2: ["red", "blue", "green", "yellow"], 3: ["yellow"]}


def test_third_and_fourth_donation_and_the_token_example():
    """St. Michaelis' 3rd and 4th donations cost 2 brick, 2 wood, 60 thalers; then 8 + 8 + 12 + 5."""
    text = example("rulebook-church-tokens.log")
    assert "check yellow: ships 4, citizens 3, tokens 3, unscored 2, prestige 5, money 150, brick 2, wood 2" in text
    assert "check yellow: money 90, brick 0, wood 0, tokens 5, unscored 0, prestige 38" in text
    state = replayed(text).state
    assert state.churches["michaelis"].discs == ["red", "blue", "yellow", "yellow"]
    assert len(state.players["yellow"].tokens) == 5 and not state.players["yellow"].unscored()


def test_token_example_one_ship_token_must_be_scored():
    text = example("rulebook-church-tokens.log")
    kept = check(last_move_replaced(text, "yellow: church michaelis donate ship donation"))
    assert [d.rule for d in kept.errors] == ["hamburgum/token-limit"]
    replayed(last_move_replaced(text, "yellow: church michaelis donate ship donation, score michaelis ship\ncheck yellow: prestige 13"))  # 5 + 8


def test_finishing_a_church_with_five_houses():
    """Green pays 40 for St. Nikolai's 4th donation and 50 (5 citizens) for its 5th, and scores 8."""
    text = example("rulebook-finishing-a-church.log")
    assert "check green: houses 5, citizens 5, money 190, brick 2, wood 2, bell 1, prestige 8" in text
    assert "check green: money 100, brick 0, wood 0, bell 0, prestige 16, builder 1" in text
    assert "green: lower trade buy 2 brick 2 wood 1 bell\ncheck green: money 160" in text  # 5 items for 200
    state = replayed(text).state
    assert state.churches["nikolai"].complete and state.churches["nikolai"].discs == []
    assert state.completed == ["nikolai"] and state.players["green"].churches_built == 1


# The office example: yellow's office stands where 7 donations are made and 8 citizens live.
COUNCILLOR = "yellow: guildhall councillor at petri 3, brewery at petri 4"


def test_office_example_the_councillor_before_the_brewery_pays_90():
    text = example("rulebook-offices.log")
    assert COUNCILLOR in text.splitlines()
    assert "check yellow: tokens 1, citizens 3, money 30, wood 2, brick 2" in text
    assert "check yellow: money 120, citizens 5, wood 0, brick 0" in text  # 30 + 90
    replayed(text)


@pytest.mark.parametrize("stack, payout", [("vicar-on-top.yaml", 70), ("mayor-on-top.yaml", 0)])
def test_office_example_a_vicar_pays_70_and_the_mayor_0(stack, payout):
    text = example("rulebook-offices.log").replace("councillor at petri 3", "office at petri 3").replace("money 120", f"money {30 + payout}")
    replayed(text, [str(HERE / "variants" / stack)])


def test_office_example_the_councillor_after_another_house_pays_100():
    text = last_move_replaced(example("rulebook-offices.log"), "yellow: guildhall weaving-mill at katharinen 4, councillor at petri 3\ncheck yellow: money 130")
    replayed(text)


# --- blue offices (rulebook, advanced game) -------------------------------------------------

# Red has 4 goods, 2 ships in the harbour, 3 tokens from St. Nikolai and St. Petri, and 4
# citizens in the white and green parishes; the new house stands in the blue parish. The
# rulebook names parishes by colour: here green is St. Petri's, white St. Jacobi's, blue St.
# Nikolai's and yellow St. Katharinen's (only green is supported by a source).
ADVANCED = {
    "guildmaster": (120, 120),
    "deacon": (90, 90),
    "sexton": (100, 100),
    "harbour-master": (80, 80),
    "master-builder": (100, 120),
    "civil-servant": (120, 160),
}


def test_blue_office_example_the_civil_servant_after_a_weaving_mill_pays_160():
    text = example("rulebook-blue-offices.log")
    assert "check red: beer 1, sugar 1, cloth 2, ships 2, tokens 3, citizens 4, money 10, wood 2, brick 2" in text
    assert "check red: money 170, citizens 6, wood 0, brick 0" in text
    replayed(text)


@pytest.mark.parametrize("office", sorted(ADVANCED))
def test_blue_office_payouts(office):
    alone, after_mill = ADVANCED[office]
    text = example("rulebook-blue-offices.log")
    replayed(last_move_replaced(text, f"red: guildhall {office} at nikolai 3\ncheck red: money {10 + alone}"))
    replayed(last_move_replaced(text, f"red: guildhall weaving-mill at katharinen 1, {office} at nikolai 3\ncheck red: money {10 + after_mill}"))


def test_canon_donation_costs_one_brick_whatever_its_place():
    """St. Nikolai's third donation would cost 1 brick, 1 wood and 20 thalers; the canon's costs 1 brick."""
    text = last_move_replaced(example("rulebook-blue-offices.log"), "red: guildhall canon at nikolai 3 donate nikolai citizen\ncheck red: money 10, brick 0, wood 1, tokens 4")
    state = replayed(text).state
    assert [t.kind for t in state.players["red"].tokens if t.church == "nikolai"] == ["five", "ship", "citizen"]


# --- rules the rulebook states without a worked example: positions set up directly ----------


def test_canon_fifth_donation_finishes_the_church():
    state = position(["red", "blue", "green"], ["advanced-1"])
    donate(state, "red", "nikolai", "five")
    for kind in ("five", "ship", "building", "citizen"):
        donate(state, "blue", "michaelis", kind)
    give(state, "red", wood=2, brick=2, money=0)
    red = play(state, "red", "red: guildhall canon at nikolai 3 donate michaelis donation", space="church")
    assert state.churches["michaelis"].complete and red.builder
    assert red.prestige == 1 + 8


def test_a_ship_pushed_out_may_be_built_again_in_the_same_action():
    state = position(["red", "blue"])
    state.harbour = {1: ["red", "blue"], 2: ["red", "red"], 3: ["red", "blue"]}
    give(state, "red", wood=2)
    play(state, "red", "red: dockyard 2", space="beer")  # the first new ship pushes one of red's out
    assert state.ships_in_harbour("red") == 5
    assert state.harbour == {1: ["red", "red"], 2: ["red", "blue"], 3: ["red", "red"]}


def test_flying_dutchmen_leave_the_game_and_captain_without_ships():
    state = position(["red", "blue"])
    state.harbour = {1: ["dutchman", "red"], 2: ["red", "red"], 3: ["red", "red"]}
    donate(state, "red", "nikolai", "five")
    give(state, "red", wood=1, brick=1, money=0)
    play(state, "red", "red: guildhall captain at nikolai 2", space="church")
    # the Flying Dutchman pushed the harbour on; red's ship came back and entered again
    assert state.harbour == {1: ["red", "red"], 2: ["red", "red"], 3: ["dutchman", "red"]}
    assert state.dutchmen == 2


# --- the end --------------------------------------------------------------------------------


def test_final_scoring_and_the_money_tie_break():
    """Unscored tokens score, goods and materials sell for 50, prestige is bought at 100."""
    from referee.engine.findings import Report, rank
    from referee.report.diagnostics import tie_note

    state = position(["red", "blue"])
    donate(state, "red", "nikolai", "five")
    for kind in ("five", "ship", "building", "citizen", "donation"):
        donate(state, "blue", "petri", kind, scored=True)
    for kind in ("ship", "building", "citizen", "donation"):
        donate(state, "blue", "nikolai", kind, scored=True)
    for church in ("michaelis", "katharinen", "jacobi", "cathedral"):
        for kind in ("five", "ship", "building", "citizen", "donation"):
            donate(state, "blue", church, kind, scored=True)
    assert state.is_over() and state.completed[-1] == "cathedral"
    red, blue = state.players["red"], state.players["blue"]
    red.prestige, blue.prestige = 40, 46
    give(state, "red", beer=1, sugar=0, cloth=0, wood=1, brick=0, bell=1, money=130)  # sells for 150
    give(state, "blue", beer=0, sugar=0, cloth=0, wood=0, brick=1, bell=0, money=70)  # sells for 50
    standings = {s.seat.colour: s for s in state.standings()}
    assert standings["red"].breakdown == {"prestige": 40, "unscored tokens": 5, "bought prestige": 2}
    assert standings["blue"].breakdown == {"prestige": 46, "unscored tokens": 0, "bought prestige": 1}
    assert standings["red"].tiebreak == [("money", 80, 1)] and standings["blue"].tiebreak == [("money", 20, 1)]
    report = Report("end", complete=True, standings=rank(list(standings.values())))
    assert [(s.seat.colour, s.rank) for s in report.standings] == [("red", 1), ("blue", 2)]
    assert "decided by money" in tie_note(report)
    assert state.figures("red")["prestige"] == 47 and state.figures("red")["money"] == 80
