"""Card faces stated by the record are checked against whatever the spec knows."""

import pytest

from referee.errors import Violation
from referee.games import load_game
from referee.games.base import Seat, Trace
from referee.games.speicherstadt.moves import Reveal
from referee.notation.parser import Header

from .records import TO_SPRING, check

FIRE_POINTS_KNOWN = """\
kind: variant
id: fire-points-from-my-box
game: speicherstadt
title: Fire points read off a physical copy
changes:
  cards:
    types:
      fire:
        faces:
          - {season: B, points: 3}
          - {season: C, points: 4}
          - {season: D, points: 5}
          - {season: E, points: 6}
"""


@pytest.fixture
def fire_overlay(tmp_path):
    path = tmp_path / "fires.yaml"
    path.write_text(FIRE_POINTS_KNOWN)
    return str(path)


def test_fire_points_come_from_the_record_when_no_source_gives_them():
    report = check(TO_SPRING)
    assert report.status == "legal"
    assert "Fire points stated by the record" in {t for t, _ in report.record_facts}
    assert any(p.address == "cards:types.fire.faces.0.points" and p.status == "unknown" for p in report.relied_on)


def test_filled_in_fire_points_are_enforced(fire_overlay):
    assert check(TO_SPRING, [fire_overlay]).status == "legal"
    wrong = TO_SPRING.replace("reveal fire 3", "reveal fire 2")
    report = check(wrong, [fire_overlay])
    assert [d.rule for d in report.errors] == ["speicherstadt/card-face"]


def test_filled_in_fire_points_need_not_be_written(fire_overlay):
    report = check(TO_SPRING.replace("reveal fire 3", "reveal fire"), [fire_overlay])
    assert report.status == "legal"
    assert "Fire points stated by the record" not in {t for t, _ in report.record_facts}
    assert report.state.players["beige"].points == 3
    # the same record without the overlay must state the points
    report = check(TO_SPRING.replace("reveal fire 3", "reveal fire"))
    assert [d.rule for d in report.errors] == ["speicherstadt/card-face"]


@pytest.mark.parametrize("line", ["reveal contract coffee", "reveal contract coffee tea rubber carpet saffron", "reveal fireman 0"])
def test_faces_outside_what_the_spec_allows(line):
    report = check('[Game "speicherstadt"]\n[Players "beige, orange"]\n' + line + "\n")
    assert [d.rule for d in report.errors] == ["speicherstadt/card-face"]


def _autumn_state(players):
    game = load_game("speicherstadt")
    seats = [Seat(c) for c in game.spec.meta["colours"][:players]]
    state = game.new_state(seats, 0, Header(), Trace())
    for season in ("A", "B", "C"):
        state.deck[season] = []
    return state


def test_the_value_3_autumn_fireman_is_out_with_three_players_when_all_faces_are_known():
    state = _autumn_state(3)
    # with the other two Autumn firemen's values unknown, a 3 may still be one of them
    state.apply(Reveal("fireman", value=3))
    state = _autumn_state(3)
    for card in state.deck["D"]:
        if card.type == "fireman":
            card.face["value"] = card.face["value"] or 4  # a user filled in the other faces
    with pytest.raises(Violation) as err:
        state.apply(Reveal("fireman", value=3))
    assert err.value.rule == "speicherstadt/setup-removal"


def test_the_value_3_autumn_fireman_stays_with_four_players():
    state = _autumn_state(4)
    for card in state.deck["D"]:
        if card.type == "fireman":
            card.face["value"] = card.face["value"] or 4
    state.apply(Reveal("fireman", value=3))
    assert [c.face["value"] for c in state.deck["D"] if c.type == "fireman"] == [4, 4]


def test_report_lists_only_the_uncertain_values_the_replay_touched():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "specs" / "speicherstadt" / "examples" / "purchase-queue.log").read_text()
    report = check(text)
    # four Winter cards came up; only the uncertain counts of those cards were relied on
    assert [p.address for p in report.relied_on] == [
        "cards:types.spice-trader.counts",
        "cards:types.tea-taster.counts",
        "cards:types.warehouse.counts",
    ]
    # once a fire is revealed, its face (stated by the record) is part of what the verdict rests on
    report = check(TO_SPRING)
    fires = [p.address for p in report.relied_on if p.address.startswith("cards:types.fire")]
    assert fires == ["cards:types.fire.faces.0.points"]


CONTRACTS_KNOWN = """\
kind: variant
id: contracts-from-my-box
game: speicherstadt
title: Contract goods read off a physical copy
changes:
  cards:
    types:
      contract:
        faces:
          - {season: A, goods: [rubber, coffee, tea]}
          - {season: A, goods: [tea, coffee]}
          - {season: A, goods: [saffron, carpet]}
"""


@pytest.mark.parametrize("written", ["rubber coffee tea", "coffee rubber tea", "tea rubber coffee"])
def test_a_contract_face_from_the_data_matches_its_goods_in_any_order(tmp_path, written):
    """A card's goods have no order: the box file may list them one way and the record
    another (`referee play` writes them as the file does)."""
    overlay = tmp_path / "contracts.yaml"
    overlay.write_text(CONTRACTS_KNOWN)
    head = '[Game "speicherstadt"]\n[Players "beige, orange"]\n'
    report = check(head + f"reveal contract {written}\nreveal contract tea coffee\n", [str(overlay)])
    assert report.errors == [] and report.state.players  # both known contracts were found
    report = check(head + "reveal contract rubber tea tea\n", [str(overlay)])
    assert [d.rule for d in report.errors] == ["speicherstadt/card-face"]  # a face none of Winter's three contracts shows
