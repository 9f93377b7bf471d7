"""The city map: not checked while unknown, enforced once a board file gives sites and lines."""

import pytest

from referee.errors import Violation

from .positions import donate, give, play, position, settle
from .records import RED_DONOR, TEST_BOARD, check, rule_ids


def _warnings(report):
    return {d.rule: d.message for d in report.diagnostics if d.severity == "warning"}


def test_without_board_data_the_map_rules_warn_and_the_rest_is_checked():
    report = check(RED_DONOR + "red: guildhall brewery at nikolai 1, office at nikolai 3\n")
    assert report.status == "legal"
    warned = _warnings(report)
    assert warned["hamburgum/guildhall-adjacency"].startswith("not checked: needs board:links")
    assert warned["hamburgum/site-type"].startswith("not checked: needs board:sites")
    assert report.state.players["red"].money == 70 + 10 * 2  # the councillor still pays
    report = check(RED_DONOR + "red: guildhall brewery at nikolai 1, brewery at nikolai 1\n")
    assert rule_ids(report) == ["hamburgum/site"]


def test_a_chain_of_houses_built_in_one_action():
    report = check(RED_DONOR + "red: guildhall brewery at nikolai 1, office at nikolai 3\n", [TEST_BOARD])
    assert report.status == "legal", [d.message for d in report.errors]
    assert not _warnings(report)


def test_a_chain_must_be_built_in_order():
    report = check(RED_DONOR + "red: guildhall office at nikolai 3, brewery at nikolai 1\n", [TEST_BOARD])
    assert rule_ids(report) == ["hamburgum/guildhall-adjacency"]
    assert report.errors[0].pos.column == len("red: guildhall ") + 1  # points at the house


def test_a_gap_in_the_chain_is_refused():
    report = check(RED_DONOR + "red: guildhall brewery at nikolai 1, refinery at nikolai 4\n", [TEST_BOARD])
    assert rule_ids(report) == ["hamburgum/guildhall-adjacency"]
    assert "nikolai-4" in report.errors[0].message


@pytest.mark.parametrize("site", ["nikolai 1", "nikolai-1", "1"])
def test_a_site_by_parish_and_number_or_by_its_place_in_the_list(site):
    report = check(RED_DONOR + f"red: guildhall brewery at {site}\n", [TEST_BOARD])
    assert report.status == "legal"
    assert report.state.players["red"].citizens[0].name == "nikolai-1"


def test_a_site_number_needs_board_data():
    report = check(RED_DONOR + "red: guildhall brewery at 14\n")
    assert report.status == "malformed" and report.exit_code == 3
    assert "board data" in report.errors[0].message
    assert report.errors[0].pos.line == RED_DONOR.count("\n") + 1


def test_a_site_missing_from_the_board():
    report = check(RED_DONOR + "red: guildhall brewery at nikolai 9\n", [TEST_BOARD])
    assert rule_ids(report) == ["hamburgum/site"]


def _board_position():
    state = position(["red", "blue"], [TEST_BOARD])
    give(state, "red", wood=3, brick=3, money=0)
    give(state, "blue", wood=3, brick=3, money=0)
    return state


def test_a_finished_church_still_anchors_its_token_holders():
    state = _board_position()
    for kind in ("five", "ship", "building", "citizen", "donation"):
        donate(state, "blue" if kind == "donation" else "red", "petri", kind)
    assert state.churches["petri"].complete and state.churches["petri"].discs == []
    red = play(state, "red", "red: guildhall refinery at petri 1", space="church")
    assert red.citizens[-1].name == "petri-1"


def test_a_church_builder_may_build_anywhere():
    state = _board_position()
    for kind in ("five", "ship", "building", "citizen", "donation"):
        donate(state, "red" if kind == "five" else "blue", "petri", kind)
    assert state.players["blue"].builder
    blue = play(state, "blue", "blue: guildhall brewery at cathedral 2", space="church")
    assert blue.citizens[-1].name == "cathedral-2"
    with pytest.raises(Violation) as caught:
        play(state, "red", "red: guildhall brewery at katharinen 1", space="church")
    assert caught.value.rule == "hamburgum/guildhall-adjacency"


def test_own_citizens_anchor_new_houses():
    state = _board_position()
    donate(state, "red", "nikolai", "five")
    settle(state, "red", "nikolai-4", "refinery")
    red = play(state, "red", "red: guildhall refinery at katharinen 4", space="church")  # a line crosses to katharinen-4
    assert red.citizens[-1].name == "katharinen-4"


def test_the_site_shows_the_house_type():
    state = _board_position()
    donate(state, "red", "nikolai", "five")
    with pytest.raises(Violation) as caught:
        play(state, "red", "red: guildhall office at nikolai 1", space="church")
    assert caught.value.rule == "hamburgum/site-type"
