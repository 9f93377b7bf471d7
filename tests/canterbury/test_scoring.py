"""Scoring and timing rules: district majorities and their ties, the King's favour, the
neutral player, the city marker's crossings, the end of the game and the tie-break."""

import itertools

from referee.engine.findings import rank
from referee.games import load_game
from referee.games.canterbury.scoring import district_awards, favour_awards, podium
from referee.report.diagnostics import format_report

from .records import HEADER_2P, HEADER_3P, HEADER_4P, ROUND_1_2P, SHORTENED, check, figures, rule_ids

SECONDARY = load_game("canterbury").spec["scoring"]["district"]["secondary"]
FIRST = {n: n for n in range(1, 26)}
SECOND = {n: n // 2 for n in range(2, 26)}


def _overlay(tmp_path, name, body):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"kind: variant\nid: {name}\ngame: canterbury\ntitle: {name}\nchanges:\n{body}")
    return str(path)


# --- district scoring, as the rulebook states it -------------------------------------------


def test_most_cubes_take_the_primary_and_the_runner_up_half_rounded_down():
    """The rulebook's example (6 and 3) and an odd primary: "fele, lefelé kerekítve"."""
    assert district_awards({"red": 3, "blue": 2, "green": 1}, 6, SECONDARY, "down") == {"red": 6, "blue": 3}
    assert district_awards({"red": 2, "blue": 1}, 5, SECONDARY, "down") == {"red": 5, "blue": 2}
    assert district_awards({"red": 2, "blue": 1}, 1, SECONDARY, "down") == {"red": 1, "blue": 0}


def test_the_secondary_rounding_is_marked_likely_with_the_rulebook_reading():
    spec = load_game("canterbury").spec
    provenance = spec.provenance["scoring:district.secondary.rounding"]
    assert provenance.status == "likely" and "felelefelé" in provenance.note


def test_a_lone_player_takes_only_the_primary():
    assert district_awards({"red": 4}, 6, SECONDARY, "down") == {"red": 6}


def test_a_tie_for_most_shares_the_primary_rounded_down_and_nobody_is_second():
    assert district_awards({"red": 2, "blue": 2, "green": 1}, 5, SECONDARY, "down") == {"red": 2, "blue": 2}


def test_a_tie_for_second_gives_no_secondary():
    assert district_awards({"red": 3, "blue": 1, "green": 1}, 6, SECONDARY, "down") == {"red": 6}


def test_the_runner_up_is_the_one_owner_with_the_most_below_the_leader_wherever_it_stands():
    # a runner-up met after an owner with fewer, and a tie for second met after a larger count
    assert podium({"a": 1, "b": 1, "c": 2, "d": 3}) == (["d"], "c")
    assert podium({"a": 2, "b": 1, "c": 2, "d": 3}) == (["d"], None)
    assert podium({"a": 2, "d": 3, "b": 0, "c": -1}) == (["d"], "a")


def test_the_podium_by_its_definition_for_every_small_count():
    """Leaders: every owner with the largest count, when it is above zero, in name order.
    Runner-up: only behind a lone leader, the owner with the largest count above zero below
    the leader's, when no other owner has that count."""
    names = ["yellow", "red", "neutral", "blue", "green"]
    for size in range(len(names) + 1):
        for counts in itertools.product(range(-1, 4), repeat=size):
            table = dict(zip(names, counts))
            best = max(counts, default=0)
            leaders = sorted(o for o, n in table.items() if n == best) if best > 0 else []
            below = [n for n in counts if 0 < n < best]
            seconds = [o for o, n in table.items() if below and n == max(below)]
            runner = seconds[0] if len(leaders) == 1 and len(seconds) == 1 else None
            assert podium(table) == (leaders, runner), table


def test_kings_favour_first_and_second_by_position():
    assert favour_awards({"green": 10, "red": 8, "blue": 3, "yellow": 2}, FIRST, SECOND, "down") == {"green": 10, "red": 4}


def test_kings_favour_tie_for_first_adds_both_numbers_and_shares_them():
    # 7 + 3 shared by two, no second place for the 5
    assert favour_awards({"green": 7, "red": 7, "blue": 5}, FIRST, SECOND, "down") == {"green": 5, "red": 5}
    assert favour_awards({"green": 7, "red": 7, "blue": 7}, FIRST, SECOND, "down") == {"green": 3, "red": 3, "blue": 3}


def test_kings_favour_tie_for_second_awards_nothing():
    assert favour_awards({"green": 9, "red": 4, "blue": 4}, FIRST, SECOND, "down") == {"green": 9}


def test_kings_favour_position_without_a_number_scores_nothing():
    assert favour_awards({"green": 1, "red": 1}, {5: 5}, {5: 2}, "down") == {"green": 0, "red": 0}


def test_district_scoring_counts_the_roman_well_space_as_empty_and_ignores_the_city_cube():
    report = check(HEADER_4P + "blue: full build garden c3\nred: full build well d3\n")
    state = report.state
    assert state.game.scored_spaces(state.board.tiles["c3"]) == 1  # Roman well and garden
    assert state._cube_counts("c3") == {"blue": 1}  # the purple cube on water is nobody's
    state._score_districts()
    assert figures(report, "blue")["districts"] == 1 and figures(report, "red")["districts"] == 1


def test_the_neutral_competes_in_district_scoring_but_scores_nothing():
    report = check(HEADER_2P + ROUND_1_2P + "blue: neutral well c2\nblue: levy\n")
    state = report.state
    state.board.cubes["c2"].update({"food": "neutral", "religion": "blue"})  # neutral 2, blue 1
    state.board.tiles["c2"].append("garden")  # two spaces taken: a primary of 2
    state._score_districts()
    assert state._cube_counts("c2") == {"neutral": 2, "blue": 1}
    assert figures(report, "blue")["districts"] == 1 + 1  # half of c2's 2, plus b3
    assert "neutral" not in state.players


# --- the city marker and the end of the game ---------------------------------------------


def test_levy_and_tax_at_the_start_and_after_a_disc(tmp_path):
    report = check(HEADER_4P + "check city: levy 5, tax 2, position 1, discs 0\n")
    assert report.status == "legal" and report.checkpoints_confirmed == 4
    overlay = _overlay(tmp_path, "late", "  treasury:\n    city: {start: 139}\n")
    report = check(HEADER_4P + "check city: levy 18, tax 9, position 39, discs 1\n", [overlay])
    assert report.status == "legal" and report.checkpoints_confirmed == 4


def test_landing_exactly_on_space_zero_is_a_crossing(tmp_path):
    overlay = _overlay(tmp_path, "city-at-98", "  treasury:\n    city: {start: 98}\n")
    report = check(HEADER_4P + "blue: full build well b3\ncheck city: prosperity 100, position 0, discs 1\n", [overlay])
    assert report.status == "legal", [d.message for d in report.errors]
    assert report.state.scorings == 1


def _one_disc(tmp_path, start):
    return _overlay(tmp_path, f"one-disc-{start}", f"  treasury:\n    city: {{start: {start}, discs: 1}}\n")


def test_after_the_last_crossing_the_round_ends_and_one_more_round_follows(tmp_path):
    overlay = _one_disc(tmp_path, 98)  # red's first well passes 100: the end is triggered by the start player
    moves = ["red: full build well d3", "blue: full build well b3", "green: full build well c2", "red: levy", "blue: levy", "green: levy"]
    report = check(HEADER_3P + "\n".join(moves[:-1]) + "\n", [overlay])
    assert report.status == "legal" and not report.complete
    assert report.state.city.prosperity == 101  # set to the final position
    report = check(HEADER_3P + "\n".join(moves) + "\n", [overlay])
    assert report.status == "legal" and report.complete
    report = check(HEADER_3P + "\n".join(moves) + "\nred: full build well b2\n", [overlay])
    assert rule_ids(report) == ["canterbury/game-over"]


def test_a_crossing_on_the_last_seats_turn_starts_the_final_round_at_once(tmp_path):
    overlay = _one_disc(tmp_path, 95)  # 97, 99, then green's well passes 100
    moves = ["red: full build well d3", "blue: full build well b3", "green: full build well c2", "red: levy", "blue: levy"]
    report = check(HEADER_3P + "\n".join(moves) + "\n", [overlay])
    assert report.status == "legal" and not report.complete
    report = check(HEADER_3P + "\n".join(moves) + "\ngreen: levy\n", [overlay])
    assert report.status == "legal" and report.complete


def test_neutral_city_points_trigger_district_scoring(tmp_path):
    overlay = _overlay(tmp_path, "city-at-94", "  treasury:\n    city: {start: 94}\n")
    report = check(HEADER_2P + ROUND_1_2P + "blue: neutral well c2\n", [overlay])
    assert report.state.city.prosperity == 100 and report.state.pending_scorings == 1
    report = check(HEADER_2P + ROUND_1_2P + "blue: neutral well c2\nblue: levy\ncheck city: discs 1\n", [overlay])
    assert report.status == "legal" and report.state.scorings == 1


def test_the_first_round_obligation_lapses_when_nothing_can_be_built(tmp_path):
    overlay = _overlay(tmp_path, "penniless", "  setup:\n    money: 0\n")
    report = check(HEADER_4P + "blue: levy\nred: levy\ngreen: levy\nyellow: levy\nblue: levy\n", [overlay])
    assert rule_ids(report) == ["canterbury/after-levy"]  # blue has 5 shillings now and can build
    report = check(HEADER_4P + "blue: levy\nred: levy\ngreen: levy\nyellow: levy\nblue: full build well b3\n", [overlay])
    assert report.status == "legal"


def test_opening_two_structures_in_one_new_district_scores_once():
    report = check(HEADER_4P + "blue: full build well b3, garden b3\nred: full build well d3, well d2\n")
    assert figures(report, "blue")["opening"] == 2  # b3 holds 2 cubes, counted once
    assert figures(report, "red")["opening"] == 2  # two districts with a cube each


def test_cubes_run_out_with_the_colours_stock(tmp_path):
    overlay = _overlay(tmp_path, "few-cubes", "  setup:\n    cubes: {per_colour: 9}\n")  # 8 set aside, one for the districts
    report = check(HEADER_4P + "blue: full build fountain c3\ncheck blue: cubes 1, water 1\n", [overlay])
    assert report.status == "legal", [d.message for d in report.errors]


def test_large_structure_cube_districts_must_be_free_distinct_and_other(tmp_path):
    from .records import RICH

    base = HEADER_4P + "blue: full build well b3\n"
    for serving, reason in (("b3", "own district"), ("a1 a1", "named twice"), ("a1 a2 a3 a4 a5 b5", "at most 5"), ("c3", "already has")):
        report = check(base + f"red: full build aqueduct b2 serving {serving}\n", [RICH])
        assert rule_ids(report) == ["canterbury/large-cubes"], serving
        message = report.errors[0].message
        assert any(word in message for word in ("own district", "twice", "at most", "already has")), (reason, message)
    report = check(base + "red: full build aqueduct b2 serving a1 a2 a3 a4 a5\ncheck red: water 6\n", [RICH])
    assert report.status == "legal"


# --- the tie-break -------------------------------------------------------------------------------


def test_tied_players_are_ranked_by_less_money():
    from referee.engine.replay import check_bytes
    from referee.lab.random_game import play_game

    report = check_bytes(play_game("canterbury", 3, 5).encode(), "x")
    state = report.state
    players = list(state.players.values())
    for i, player in enumerate(players):
        player.points = {"structures": 100}
        player.money = 10 + i
    ordered = rank(state.standings())
    assert [s.seat.colour for s in ordered] == [p.seat.colour for p in players]
    assert [s.rank for s in ordered] == [1, 2, 3]
    report.standings = ordered
    assert "decided by money" in format_report(report)


# --- setup and points from building ---------------------------------------------------------------


def test_setup_money_city_and_ranks():
    report = check(HEADER_4P + "check blue: money 6, prosperity 0\ncheck yellow: money 6\ncheck city: prosperity 1, position 1, discs 0\n")
    assert report.status == "legal" and report.checkpoints_confirmed == 6
    state = report.state
    assert [state.players[c].rank for c in ("blue", "red", "green", "yellow")] == [1, 2, 3, 4]
    assert state.board.tiles["c3"] == ["roman-well"] and state.board.cubes["c3"] == {"water": "city"}


def test_a_large_structure_scores_by_the_ring_of_its_district():
    from .records import RICH

    report = check(HEADER_4P + "blue: full build aqueduct b3 serving a3\nred: full build granary a3\n", [RICH])
    assert report.status == "legal", [d.message for d in report.errors]
    assert figures(report, "blue")["structures"] == 11  # inner
    assert figures(report, "red")["structures"] == 14  # outer
    assert figures(report, "blue")["water"] == 2 and report.state.city.prosperity == 1 + 12 + 14


def test_the_neutral_stacks_come_out_of_the_supply():
    report = check(HEADER_2P)
    state = report.state
    assert state.board.supply["well"] == 9 - 2 and state.board.supply["stage"] == 5 - 2
    assert state.board.supply["guildhall"] == 1
    assert state.players["blue"].stacks[0][0] == "well" and state.players["blue"].stacks[1][0] == "fountain"
    assert state.neutral_colour == "green"


def test_money_scores_one_point_per_full_three_shillings():
    from .records import SHORT_AND_RICH

    report = check((SHORTENED / "kings-favour.log").read_text(), [SHORT_AND_RICH])
    for colour, player in report.state.players.items():
        assert player.points["shillings"] == player.money // 3, colour
