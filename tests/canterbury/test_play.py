"""Random games from `referee play` replay legal, end scored, and reach every kind of move."""

import random
import re
from collections import Counter

import pytest

from referee.engine.replay import check_bytes
from referee.games.canterbury import _search as search
from referee.lab.random_game import play_game

GAMES_PER_COUNT = 50
LARGE = ("aqueduct", "granary", "cathedral", "castle", "guildhall", "amphitheatre")


def _kinds(text):
    for line in text.splitlines():
        if line.startswith(("check ", "result ")):
            yield line.split()[0]
            continue
        m = re.match(r"^\w+: (levy|full build|tax build|neutral)\b(.*)$", line)
        if not m:
            continue
        action, rest = m.groups()
        yield action
        if action == "full build":
            yield "two structures" if "," in rest else "one structure"
        if "demolish" in rest:
            yield "demolish"
        if "roman-well" in rest:
            yield "demolish the roman well"
        if " serving " in rest:
            yield "large with cube districts"
        elif any(f"{name} " in rest for name in LARGE):
            yield "large"
        if action == "neutral":
            yield "neutral skip" if "skip" in rest else "neutral discard" if "discard" in rest else "neutral place"


def _replayed(players, seed):
    """A generated game and its replay, which must be legal, finished and scored."""
    text = play_game("canterbury", players, seed)
    report = check_bytes(text.encode(), f"seed-{seed}.log")
    verdict = (report.status, report.complete, len(report.standings), text.rstrip().rsplit("\n", 1)[-1].split()[0])
    assert verdict == ("legal", True, players, "result"), (seed, [d.message for d in report.diagnostics])
    assert report.checkpoints_confirmed >= players
    assert report.state.city.discs == report.state.spec["treasury"]["city"]["discs"]  # the city reached its peak
    return text, report


@pytest.mark.parametrize("players", [2, 3, 4])
def test_generated_games_replay_legal(players):
    kinds = Counter()
    for seed in range(GAMES_PER_COUNT):
        text, _ = _replayed(players, seed)
        kinds.update(_kinds(text))
    expected = {"levy", "full build", "tax build", "one structure", "two structures", "demolish", "demolish the roman well", "large with cube districts", "check", "result"}
    if players == 2:
        expected |= {"neutral", "neutral place", "neutral skip", "neutral discard"}
    assert expected <= set(kinds), f"never generated: {sorted(expected - set(kinds))}"


def test_generated_games_upgrade_and_make_room():
    """Demolitions of both kinds: for a larger structure of the same service, and for room."""
    upgrade = room = 0
    for seed in range(30):
        text, report = _replayed(4, seed)
        upgrade += sum(s.breakdown.get("upgrade", 0) for s in report.standings)
        room += sum(1 for line in text.splitlines() if re.search(r"(church|chapel|barracks|castle|cathedral) \w+ demolish (well|garden|fountain|farm)", line))
    assert upgrade and room


def test_same_seed_same_game():
    assert play_game("canterbury", 3, 42) == play_game("canterbury", 3, 42)
    assert play_game("canterbury", 3, 42) != play_game("canterbury", 3, 43)


def test_two_players_get_the_neutral_variant_in_the_header():
    text = play_game("canterbury", 2, 1)
    assert '[Variant "two-player"]' in text
    assert ": neutral " in text


def test_the_search_asks_once_per_position_whether_a_full_build_is_possible(monkeypatch):
    """After a Levy (and in the first round) any other action is refused when a Full Build is
    possible, which takes trying every Full Build. The search for random and legal moves once
    asked again for every candidate it worked out: with no service cubes, where players Levy
    often and can seldom build, one generated game took seconds. Each position now asks once."""
    from pathlib import Path

    from referee.games import load_game
    from referee.games.base import Seat, Trace
    from referee.games.canterbury.moves import FULL
    from referee.notation.parser import Header

    asked = []
    find = search.find_full_build

    def counted(state, colour):
        asked.append(colour)
        return find(state, colour)

    monkeypatch.setattr(search, "find_full_build", counted)
    game = load_game("canterbury", [str(Path(__file__).with_name("no-service-cubes.yaml"))])
    state = game.new_state([Seat(c) for c in game.spec.meta["colours"][:4]], 0, Header(), Trace())
    rng = random.Random(1)
    forced_turns = 0
    for _ in range(120):
        forced = state.players[state.to_act()].must_full_build
        asked.clear()
        move = game.random_move(state, rng)
        assert len(asked) <= 1, f"{len(asked)} times for one random move"
        if forced and move.kind != FULL:
            forced_turns += 1  # a Levy called for a Full Build that could not be made
        asked.clear()
        game.legal_moves(state)
        assert len(asked) <= 1, f"{len(asked)} times for one list of legal moves"
        state.apply(move)
    assert forced_turns > 10  # the position the search once lost its time in
    # By now every structure needs room made for it, and none has the services before its own
    # in any district (no cube is ever placed): a demolition moves no cube, so no candidate
    # is listed and the question is answered without working out a single one.
    worked_out = []
    monkeypatch.setattr(search, "try_action", lambda state, move: worked_out.append(move))
    colour = state.to_act()
    lacking_room = [(s, d) for s in game.buildable for d in game.district_ids if state.placement_rule(state.board, s, d) == "space"]
    assert lacking_room  # a search that asked only about room would list demolitions here
    assert list(search.single_builds(state, state.board, state.players[colour].money)) == []
    assert find(state, colour) is None and worked_out == []


def test_a_random_game_that_searches_without_end_is_given_up_at_max_trials():
    """Found by the fuzzer: with districts of two spaces nearly every build must demolish, each
    random move tried hundreds of candidates, and a game that could not end searched for
    seconds before `max_moves`. The work is bounded by the candidates worked out (play.yaml's
    `max_trials`); the shipped data stays far inside it. Since the random player drops the
    demolitions that cannot hold before working them out (`may_demolish`), that game works
    out about one candidate a move and ends at `max_moves`, well inside 5000 trials; the
    bound is held with a lower one."""
    from pathlib import Path

    from referee.errors import SpecError
    from referee.games import load_game
    from referee.games.base import Seat, Trace
    from referee.notation.parser import Header

    with pytest.raises(SpecError) as raised:
        play_game("canterbury", 2, 1, [str(Path(__file__).with_name("cramped-districts-few-trials.yaml"))])
    assert raised.value.key == "max_trials" and "100 candidate moves" in raised.value.message
    with pytest.raises(SpecError) as raised:
        play_game("canterbury", 2, 1, [str(Path(__file__).with_name("cramped-districts.yaml"))])
    assert raised.value.key == "max_moves"
    game = load_game("canterbury")
    most = 0
    for players in (3, 4):
        state = game.new_state([Seat(c) for c in game.spec.meta["colours"][:players]], 0, Header(), Trace())
        rng = random.Random(players)
        while not state.is_over():
            state.apply(game.random_move(state, rng))
        most = max(most, search.trials_of(state))
    assert 0 < most and most * 10 < game.play["max_trials"]


def test_a_search_finds_each_demolition_choice_once_and_random_orders_leave_it_as_found(monkeypatch):
    """During a search the demolition choices of the board as it stands are worked out once
    per structure and district, and the lists are shared: the random player shuffles its own
    copy, so every later question of the same search gets what the rules give."""
    record = play_game("canterbury", 3, 1).encode()
    total = check_bytes(record, "game.log").moves
    state = check_bytes(record, "game.log", stop_after=int(total * 0.6)).state
    game = state.game
    expected = {(s, d): search.demolition_choices(state, state.board, s, d) for s in game.buildable for d in game.district_ids}
    assert any(len(c) > 1 for c in expected.values())  # some lists a random order would shuffle
    worked = Counter()
    work = search._demolition_choices

    def counted(state, board, structure, district):
        worked[structure, district] += 1
        return work(state, board, structure, district)

    monkeypatch.setattr(search, "_demolition_choices", counted)

    money = state.players[state.to_act()].money + state.tax()
    with search.searching(state):
        for seed in range(40):  # random orders, each shuffling lists of several choices
            list(search.single_builds(state, state.board, money, rng=random.Random(seed)))
        found = {key: search.demolition_choices(state, state.board, *key) for key in expected}
    assert found == expected
    assert set(worked.values()) == {1}
    outside = search.demolition_choices(state, state.board, *next(iter(expected)))  # after the search: worked out again
    assert worked[next(iter(expected))] == 2 and outside == expected[next(iter(expected))]


@pytest.mark.parametrize("recording", [False, True])
def test_an_action_just_tried_is_committed_as_worked_out_only_when_nobody_reads_the_trace(recording):
    """The random player mostly plays the action it has just tried, and a random game's trace
    records nothing, so `apply` commits the outcome of the trial instead of working the action
    out again. A replay reads which rules each move used: there every move is worked out."""
    from referee.games import load_game
    from referee.games.base import Seat, Trace, Unrecorded
    from referee.games.canterbury.moves import LEVY, Action
    from referee.notation.parser import Header

    game = load_game("canterbury")
    rng = random.Random(3)
    state = game.new_state([Seat(c) for c in game.spec.meta["colours"][:3]], 0, Header(), Trace() if recording else Unrecorded())
    seen = Counter()
    for turn in range(60):
        move = game.random_move(state, rng)
        builds = isinstance(move, Action) and move.kind != LEVY
        tried = search.try_action(state, move) if builds else None
        other_since = builds and turn % 2 == 1
        if other_since:
            search.try_action(state, Action(move.player, LEVY))  # legal or not, it is the last action tried
        state.apply(move)
        if builds:
            reused = state.board is tried.board  # a build's outcome has a board of its own
            assert reused == (not recording and not other_since), (turn, move)
            seen[reused] += 1
    assert seen[True if not recording else False] > 3
    if recording:
        assert {"payment", "supply", "turn-order"} <= {r.split("/")[-1] for r in state.trace.rules_used | state.trace.rules_applied}


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 7), (4, 11)])
def test_a_demolition_dropped_before_it_is_worked_out_is_one_the_rules_refuse(players, seed):
    """The random player drops a candidate that demolishes when `may_demolish` says it cannot
    hold, alone on the board as it stands and as the second structure on the board a first one
    leaves. Every candidate so dropped, in positions all through random games, is one the rules
    refuse when it is worked out in full; and some are dropped, so the test asks something."""
    from referee.games.canterbury.moves import FULL, TAX, Action

    record = play_game("canterbury", players, seed).encode()
    total = check_bytes(record, "game.log").moves
    dropped = kept = 0
    for after in range(4, total - 2, 5):
        state = check_bytes(record, "game.log", stop_after=after).state
        if state.neutral_due or state.over:
            continue
        colour = state.to_act()
        money = state.players[colour].money
        for kind, funds in ((FULL, money), (TAX, money + state.tax())):
            for build in search.single_builds(state, state.board, funds):
                if not build.demolish:
                    continue
                legal = search.try_action(state, Action(colour, kind, (build,))) is not None
                if not search.may_demolish(state, state.board, build):
                    dropped += 1
                    assert not legal, (after, kind, build)
                kept += legal
        game = state.game
        for first in search.single_builds(state, state.board, money, game.pair):
            single = Action(colour, FULL, (first,))
            outcome = search.try_action(state, single)
            if outcome is None or first.demolish:
                continue
            for second in search.single_builds(state, outcome.board, money - outcome.cost, game.pair):
                if second.demolish and not search.may_demolish(state, outcome.board, second):
                    dropped += 1
                    assert search.try_action(state, Action(colour, FULL, (first, second))) is None, (after, first, second)
    assert dropped and kept
