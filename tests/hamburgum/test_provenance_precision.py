"""A report lists exactly the uncertain spec values its verdict used: the depot total for the
number of items bought, the bonus of the church finished, the token of the church scored; not
every uncertain value of the tables those rules read."""

from referee.games.base import Trace

from .positions import donate, give, play, position, settle
from .records import HEADER_2P, check

# Red sells a beer at the start price, then blue places its marker; red's next turn is a purchase.
OPENING = (
    HEADER_2P
    + """\
red: upper trade sell 1 beer, bank 1 sugar 1 cloth
blue: sugar
"""
)


def addresses(report) -> list[str]:
    return [p.address for p in report.relied_on]


def relied(state) -> list[str]:
    return [p.address for p in state.game.spec.relied_on(state.trace.rules_used, state.trace.values_used)]


def test_buying_three_items_relies_on_no_depot_price():
    report = check(OPENING + "red: lower trade buy 2 brick 1 wood\n")
    assert report.status == "legal"
    # the total for 3 items is printed; only the rondel's order (walked to the lower trade) is uncertain
    assert addresses(report) == ["rondel:spaces"]


def test_buying_two_items_relies_only_on_the_two_item_price():
    report = check(OPENING + "red: lower trade buy 2 brick\n")
    assert report.status == "legal"
    assert addresses(report) == ["market:materials_price.totals.2", "rondel:spaces"]


def test_a_depot_table_typed_in_whole_is_listed_when_any_of_it_is_used(tmp_path):
    overlay = tmp_path / "my-depot.yaml"
    totals = ", ".join(f"{n}: {n * 30}" for n in range(1, 11))
    overlay.write_text(
        f"kind: variant\nid: my-depot\ngame: hamburgum\ntitle: my depot\nchanges:\n  market:\n    materials_price:\n      totals: {{value: {{{totals}}}, provenance: likely, note: read off a photo}}\n"
    )
    report = check(OPENING + "red: lower trade buy 2 brick 1 wood\n", [str(overlay)])
    assert report.status == "legal"
    assert addresses(report) == ["market:materials_price.totals", "rondel:spaces"]


def test_scoring_a_citizen_token_relies_on_that_churchs_token_only():
    state = position(["red", "blue", "yellow"])
    donate(state, "yellow", "petri", "five")
    donate(state, "yellow", "petri", "citizen")
    for site in ("petri-1", "petri-2", "petri-3"):
        settle(state, "yellow", site)
    state.trace = Trace()
    before = state.players["yellow"].prestige
    yellow = play(state, "yellow", "yellow: church score petri citizen")
    assert yellow.prestige - before == 12
    assert relied(state) == ["churches:churches.petri.citizen", "rondel:spaces"]


def test_finishing_the_third_church_relies_on_the_third_bonus_only():
    """Two churches are finished; red makes St. Katharinen's fifth donation (no citizens, so no money)."""
    state = position(["red", "blue"])
    for church in ("petri", "michaelis"):
        state.churches[church].complete = True
        state.completed.append(church)
    for kind in ("five", "ship", "building", "citizen"):
        donate(state, "blue", "katharinen", kind)
    give(state, "red", brick=1, wood=1, bell=1)
    state.trace = Trace()
    before = state.players["red"].prestige
    red = play(state, "red", "red: church katharinen donate donation, score katharinen donation")
    assert state.churches["katharinen"].complete
    assert red.prestige - before == 6 + 1  # the third church's bonus, and the donation token
    assert relied(state) == ["churches:completion_bonus.2", "rondel:spaces"]


def test_a_sale_relies_on_the_price_floor_only_once_the_price_reaches_it():
    for breweries, floor in ((4, []), (5, ["market:goods_price.floor"])):
        state = position(["red", "blue"])
        state.built["brewery"] = breweries
        state.trace = Trace()
        play(state, "red", "red: upper trade sell 1 beer")
        assert relied(state) == [*floor, "rondel:spaces"]
