"""Every enforced Hamburgum rule rejects a record that breaks it, and only it."""

import pytest

from referee.games import load_game
from referee.lab.random_game import play_game

from .records import FEW_PIECES, HEADER_2P, HEADER_3P, NIKOLAI_FINISHED, ONE_MERCHANT, RED_DONOR, TEST_BOARD, check

# Red holds two unscored five-point tokens at the end of its second Church action; blue walks.
TWO_FIVES = (
    HEADER_2P
    + """\
red: upper trade sell 1 beer
blue: sugar
red: lower trade buy 1 brick
blue: church
red: church nikolai donate five
blue: upper trade sell 1 beer
red: cloth
blue: cloth
red: lower trade sell 1 cloth
blue: beer
red: church michaelis donate five
"""
)

# Red, with 5 wood, builds five ships: the fourth pushes the harbour on and leaves all five of
# red's ships in it, so the fifth has none to come from.
SIX_SHIPS = (
    HEADER_3P
    + """\
red: upper trade sell 1 beer, bank 1 sugar 1 cloth
blue: beer
green: cloth
red: lower trade buy 4 wood
blue: trade sell 2 beer
green: beer
red: dockyard 5
"""
)

# rule id -> (record text, variant overlays); each record breaks exactly that rule
ILLEGAL = {
    "hamburgum/seat": (HEADER_2P + "green: beer\n", []),
    "hamburgum/move-number": (HEADER_2P + "1. red: beer\n3. blue: cloth\n", []),
    "hamburgum/checkpoint": (HEADER_2P + "red: beer\ncheck red: beer 3\n", []),
    "hamburgum/result": (HEADER_2P + "red: beer\nresult red 1, blue 2\n", []),
    "hamburgum/game-over": (lambda: play_game("hamburgum", 2, 5).replace("\nresult", "\nred: beer\nresult"), []),
    "hamburgum/turn-order": (HEADER_2P + "blue: beer\n", []),
    "hamburgum/rondel-steps": (HEADER_2P + "red: beer\nblue: cloth\nred: beer\n", []),
    "hamburgum/production": (HEADER_2P + "red: beer 3\n", []),
    "hamburgum/trade-either": (HEADER_2P + "red: upper trade sell 1 beer, buy 1 wood\n", []),
    "hamburgum/trade-something": (HEADER_2P + "red: upper trade\n", []),
    "hamburgum/dockyard-ships": (HEADER_2P + "red: dockyard 0\n", []),
    "hamburgum/guildhall-houses": (HEADER_2P + "red: guildhall\n", []),
    "hamburgum/sell-goods": (HEADER_2P + "red: upper trade sell 2 beer\n", []),
    "hamburgum/sell-ships": (HEADER_2P + "red: upper trade sell 1 beer 1 sugar\n", []),
    "hamburgum/bank-sale": (HEADER_2P + "red: upper trade bank 1 beer\n", []),
    "hamburgum/buy-price": (HEADER_2P + "red: upper trade buy 2 brick\n", []),
    "hamburgum/bell-limit": (HEADER_2P + "red: upper trade sell 1 beer\nblue: cloth\nred: trade buy 2 bell\n", []),
    "hamburgum/dockyard-cost": (HEADER_2P + "red: dockyard 2\n", []),
    "hamburgum/ship-limit": (SIX_SHIPS, []),
    "hamburgum/church-one": (HEADER_2P + "red: church nikolai donate five, petri donate five\n", []),
    "hamburgum/donation-limit": (NIKOLAI_FINISHED + "blue: church nikolai donate ship\n", []),
    "hamburgum/donation-cost": (HEADER_2P + "red: church nikolai donate five ship\n", []),
    "hamburgum/donation-token": (HEADER_2P + "red: church nikolai donate ship\n", []),
    "hamburgum/discs": (RED_DONOR.split("red: church")[0] + "red: church nikolai donate five ship\n", [FEW_PIECES]),
    "hamburgum/token-score": (HEADER_2P + "red: church score nikolai five\n", []),
    "hamburgum/token-limit": (TWO_FIVES, []),
    "hamburgum/house-cost": (RED_DONOR + "red: guildhall brewery at nikolai 1, captain at nikolai 2, office at nikolai 3\n", []),
    "hamburgum/house-supply": (RED_DONOR + "red: guildhall merchant at nikolai 1, merchant at nikolai 2\n", [ONE_MERCHANT]),
    "hamburgum/citizens": (RED_DONOR + "red: guildhall brewery at nikolai 1, captain at nikolai 2\n", [FEW_PIECES]),
    "hamburgum/site": (RED_DONOR + "red: guildhall brewery at nikolai 1, refinery at nikolai 1\n", []),
    "hamburgum/site-type": (RED_DONOR + "red: guildhall merchant at nikolai 1\n", [TEST_BOARD]),
    "hamburgum/guildhall-donor": (RED_DONOR + "red: cloth\nblue: guildhall brewery at nikolai 1\n", []),
    "hamburgum/guildhall-adjacency": (RED_DONOR + "red: guildhall brewery at petri 4\n", [TEST_BOARD]),
    "hamburgum/office-one": (RED_DONOR + "red: guildhall office at nikolai 3, office at petri 2\n", []),
    "hamburgum/office-stack": (RED_DONOR + "red: guildhall mayor at nikolai 3\n", []),
    "hamburgum/office-reveal": ('[Variant "advanced-2"]\n' + HEADER_2P + "reveal mayor\n", []),
    "hamburgum/canon": (RED_DONOR + "red: guildhall brewery at nikolai 1 donate michaelis five\n", []),
    "hamburgum/ruling": (HEADER_2P + "red: beer\nruling accept: we thought red had no beer house\n", []),
}


def _record(rule_id):
    text, variants = ILLEGAL[rule_id]
    return (text() if callable(text) else text), variants


def _bad_line(text, rule_id):
    """The line the error points at: the last one, or the move before a generated game's result."""
    lines = text.rstrip("\n").split("\n")
    return len(lines) - (1 if rule_id == "hamburgum/game-over" else 0)


def test_the_illegal_records_cover_exactly_the_enforced_rules():
    rules = load_game("hamburgum").spec.rules
    assert sorted(ILLEGAL) == sorted(r for r, rule in rules.items() if rule.checked == "move")


@pytest.mark.parametrize("rule_id", sorted(ILLEGAL))
def test_each_record_breaks_its_rule_and_nothing_else(rule_id):
    text, variants = _record(rule_id)
    report = check(text, variants)
    assert (report.status, report.exit_code) == ("illegal", 1)
    assert [(d.rule, d.pos.line) for d in report.errors] == [(rule_id, _bad_line(text, rule_id))], [d.message for d in report.errors]


@pytest.mark.parametrize("rule_id", sorted(r for r in ILLEGAL if r not in ("hamburgum/move-number", "hamburgum/game-over")))
def test_the_record_without_its_last_line_is_legal(rule_id):
    """The rule is what breaks the record: everything before the bad line replays legal."""
    text, variants = _record(rule_id)
    lines = text.rstrip("\n").split("\n")
    report = check("\n".join(lines[:-1]) + "\n", variants)
    assert report.status == "legal", [(d.rule, d.message) for d in report.errors]


def test_a_rejected_turn_leaves_no_trace():
    """A turn that breaks a rule half-way (the second of two ships) changes nothing."""
    report = check(SIX_SHIPS)
    red = report.state.describe()["players"]["red"]
    assert red["stock"].get("wood") == 5
    assert red["ships_in_harbour"] == 1
    assert red["space"] == "lower-trade"


def test_violation_message_names_the_numbers():
    report = check(HEADER_2P + "red: beer\nblue: cloth\nred: beer\n")
    message = report.errors[0].message
    assert "8 rondel spaces" in message and "holds 1" in message


def test_a_refused_turn_leaves_the_whole_state_as_it_was():
    """Turns refused at every stage (after the marker has moved, halfway through paying) put
    back every player's pieces and the board; the snapshot copies only what a turn changes."""
    import copy

    from referee.engine.replay import check_bytes
    from referee.errors import Violation
    from referee.lab.random_game import play_game

    refused = 0
    for players, seed in ((2, 3), (4, 5)):
        record = play_game("hamburgum", players, seed).encode()
        total = check_bytes(record, "game.log").moves
        for after in range(5, total, max(1, total // 12)):
            state = check_bytes(record, "game.log", stop_after=after).state
            if state.is_over():
                continue
            poor = copy.deepcopy(state)  # copied again only after a move it accepts
            for move in state.game.legal_moves(state):
                player = poor.players[getattr(move, "player", poor.current())]
                money, stock = player.money, copy.copy(player.stock)
                player.money = 0
                player.stock.clear()
                before = copy.deepcopy(poor.describe())
                try:
                    poor.apply(move)
                except Violation:
                    refused += 1
                    assert poor.describe() == before
                    player.money, player.stock = money, stock
                else:
                    poor = copy.deepcopy(state)
    assert refused > 50
