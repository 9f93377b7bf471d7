"""A report lists exactly the uncertain spec values its verdict used: the printed numbers of the
structures built, the King's favour tables of the services that scored, the neutral's city
points once a neutral tile moves the city; not every uncertain value of the tables read."""

from .records import HEADER_2P, HEADER_4P, ROUND_1, ROUND_1_2P, SHORT_AND_RICH, SHORTENED, check

# Blue builds a well and a garden in b3, so that red's chapel has water and food there.
CHAPEL = (
    HEADER_4P
    + """\
blue: full build well b3, garden b3
red: full build chapel b3
"""
)


def addresses(report) -> list[str]:
    return [p.address for p in report.relied_on]


def test_building_a_chapel_relies_on_its_printed_numbers_not_the_cathedrals():
    report = check(CHAPEL)
    assert report.status == "legal"
    assert addresses(report) == [
        "board:districts",
        "structures:structures.chapel.printed",
        "structures:structures.garden.printed",
        "structures:structures.well.printed",
    ]


def test_a_levy_relies_on_the_treasury_track():
    report = check(HEADER_4P + ROUND_1 + "blue: levy\n")
    assert report.status == "legal"
    assert addresses(report) == ["board:districts", "structures:structures.well.printed", "treasury:levy"]


def test_the_kings_favour_relies_only_on_the_tables_of_services_that_scored():
    record = (SHORTENED / "kings-favour.log").read_text()
    report = check(record, [SHORT_AND_RICH])
    assert report.status == "legal" and report.complete
    favour = [a for a in addresses(report) if a.startswith("scoring:kings_favour")]
    # nobody served commerce or culture, so their tables did not count
    assert favour == [f"scoring:kings_favour.{s}" for s in ("defense", "food", "religion", "water")]
    # the large structures built are listed; the Roman well's tile count is used by no rule
    structures = [a for a in addresses(report) if a.startswith("structures:")]
    assert "structures:structures.cathedral.printed" in structures
    assert "structures:structures.amphitheatre.printed" not in structures
    assert "structures:structures.roman-well.printed" not in structures


def test_the_neutrals_city_points_count_once_a_neutral_tile_moves_the_city():
    report = check(HEADER_2P + ROUND_1_2P)  # both variant markers show No Build
    assert report.status == "legal"
    assert "setup:neutral.city_points" not in addresses(report)
    report = check(HEADER_2P + ROUND_1_2P + "blue: neutral well c2\n")
    assert report.status == "legal"
    assert "setup:neutral.city_points" in addresses(report)


def test_the_favour_cells_read_are_those_of_the_podium():
    from referee.games.canterbury.scoring import favour_cells

    assert favour_cells({"green": 10, "red": 8, "blue": 3}) == [("first", 10), ("second", 8)]
    assert favour_cells({"green": 7, "red": 7, "blue": 5}) == [("first", 7), ("second", 7)]  # tied leaders share both
    assert favour_cells({"green": 9, "red": 4, "blue": 4}) == [("first", 9)]  # a tie for second awards nothing
    assert favour_cells({}) == []
