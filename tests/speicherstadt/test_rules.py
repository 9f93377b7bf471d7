"""Every enforced Speicherstadt rule rejects a record that breaks it, and only it."""

import pytest

from referee.games import load_game
from referee.lab.random_game import play_game

from .records import HEADER_2P, HEADER_3P, TO_ROUND_2, TO_SPRING, check, rule_ids

R1_SUPPLY = TO_ROUND_2.split("beige: place 1")[0]  # round 1 with its three cards out
R1_DEMAND = R1_SUPPLY + "beige: place 1\norange: place 2\nbeige: place 3\norange: place 2\nbeige: place 3\norange: place 2\n"


def _generated_without_end(players=2, seed=5):
    """A generated game cut just before its final fire reveal(s)."""
    lines = play_game("speicherstadt", players, seed).splitlines()
    while not lines[-1].startswith("reveal fire"):
        lines.pop()
    while lines[-1].startswith("reveal fire"):
        lines.pop()
    return "\n".join(lines) + "\n"


# rule id -> (record text, variant overlays); each record breaks exactly that rule
ILLEGAL = {
    "speicherstadt/setup-removal": (HEADER_2P + "reveal port\n", ["tests/speicherstadt/port-in-winter.yaml"]),
    "speicherstadt/round-number": (HEADER_2P + "round 2\n", []),
    "speicherstadt/phase-order": (R1_SUPPLY + "beige: place 1\norange: buy 1\n", []),
    "speicherstadt/supply-size": (R1_SUPPLY + "reveal fireman 2\n", []),
    "speicherstadt/deck-season": (HEADER_2P + "reveal ship coffee tea rubber\n", []),
    "speicherstadt/card-face": (HEADER_2P + "reveal fireman 7\n", []),
    "speicherstadt/ship-cargo": (TO_SPRING.replace("reveal ship coffee rubber tea", "reveal ship coffee rubber"), []),
    "speicherstadt/demand-turn": (R1_SUPPLY + "orange: place 1\n", []),
    "speicherstadt/demand-slot": (R1_SUPPLY + "beige: place 4\n", []),
    "speicherstadt/column-full": (
        HEADER_3P + "reveal warehouse\nreveal coffee-roaster\nreveal tea-taster\nreveal spice-trader\n" + "beige: place 1\norange: place 1\npurple: place 1\n" * 3,
        [],
    ),
    "speicherstadt/purchase-turn": (R1_DEMAND + "orange: buy 1\n", []),
    "speicherstadt/purchase-funds": (
        R1_SUPPLY.replace("beige: place 1", "") + "beige: place 2\norange: place 2\nbeige: place 2\norange: place 2\nbeige: place 2\norange: place 2\nbeige: buy 2\n",
        [],
    ),
    "speicherstadt/loading-cubes": (TO_SPRING + "beige: contract 1 tea tea\n", []),
    "speicherstadt/contract-owned": (TO_SPRING + "beige: contract 3 coffee\n", []),
    "speicherstadt/contract-symbol": (TO_SPRING + "beige: contract 2 coffee\n", []),
    "speicherstadt/trader-owned": (TO_SPRING + "beige: sell coffee\n", []),
    "speicherstadt/warehouse-owned": (TO_SPRING + "orange: warehouse in tea\n", []),
    "speicherstadt/warehouse-capacity": (TO_SPRING + "beige: warehouse in coffee coffee rubber tea carpet\n", []),
    "speicherstadt/hall-store": (TO_SPRING + "beige: hall keep coffee carpet\n", []),
    "speicherstadt/hall-sell": (TO_SPRING + "beige: hall sell coffee rubber tea\n", []),
    "speicherstadt/hall-exchange": (TO_SPRING + "orange: hall exchange coffee tea tea for carpet\n", []),
    "speicherstadt/seat": (R1_SUPPLY + "green: place 1\n", []),
    "speicherstadt/move-number": (HEADER_2P + "1. reveal warehouse\n3. reveal coffee-roaster\n", []),
    "speicherstadt/checkpoint": (TO_ROUND_2 + "check beige: coins 4\n", []),
    "speicherstadt/result": (TO_ROUND_2 + "result beige 0, orange 0\n", []),
    "speicherstadt/game-over": (None, []),  # built below from a generated game
    "speicherstadt/game-end": (None, []),
    "speicherstadt/ruling": (HEADER_2P + "reveal warehouse\nruling void\n", []),
}


def _record(rule_id):
    text, variants = ILLEGAL[rule_id]
    if rule_id == "speicherstadt/game-over":
        text = play_game("speicherstadt", 2, 5).replace("\nresult", "\nbeige: place 1\nresult")
    if rule_id == "speicherstadt/game-end":
        text = _generated_without_end() + "reveal warehouse\n"
    return text, variants


def test_every_enforced_rule_has_an_illegal_record():
    spec = load_game("speicherstadt").spec
    enforced = {rid for rid, rule in spec.rules.items() if rule.checked == "move"}
    missing = sorted(enforced - set(ILLEGAL))
    assert not missing, f"enforced rules without an illegal record: {missing}"
    unknown = sorted(set(ILLEGAL) - set(spec.rules))
    assert not unknown, f"records for rules that rules.yaml does not have: {unknown}"


@pytest.mark.parametrize("rule_id", sorted(ILLEGAL))
def test_illegal_record_is_rejected_with_its_rule(rule_id, monkeypatch):
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    text, variants = _record(rule_id)
    report = check(text, variants)
    assert report.status == "illegal", report.diagnostics
    assert rule_ids(report) == [rule_id]
    assert report.exit_code == 1
    error = report.errors[0]
    assert error.pos is not None and error.pos.line > 1


def test_the_same_prefix_without_the_bad_line_is_legal():
    for text in (R1_SUPPLY, R1_DEMAND, TO_ROUND_2, TO_SPRING):
        report = check(text)
        assert report.status == "legal", report.diagnostics
        assert not report.complete


def test_violation_points_at_the_offending_line():
    text = R1_SUPPLY + "orange: place 1\n"
    report = check(text)
    line = text.count("\n")
    assert report.errors[0].pos.line == line
    assert report.errors[0].pos.column == 1


def test_a_later_seasons_card_under_the_last_fire_of_a_season_says_the_fire_comes_first():
    """With only Spring's fire left of its stack, a Summer card cannot come up yet: the message
    says the fire is next, not that the card is missing from Spring."""
    from referee.errors import Violation
    from referee.games.speicherstadt.moves import Reveal, RoundStart

    winter = TO_SPRING.split("round 5\n")[0]
    state = check(winter).state
    state.apply(RoundStart(5))
    state.deck["B"] = [c for c in state.deck["B"] if c.type == "fire"]
    with pytest.raises(Violation) as caught:
        state.apply(Reveal("bank"))
    assert caught.value.rule == "speicherstadt/deck-season"
    assert "Spring (B) fire is still on top of the draw pile" in caught.value.message
    assert "no Bank is left" not in caught.value.message
