"""Random games from `referee play` replay legal, end scored, and reach every kind of move."""

import copy
import re
from collections import Counter

import pytest

from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.games.base import Seat, Trace
from referee.games.hamburgum.moves import Reveal, Turn
from referee.lab.random_game import play_game
from referee.notation.parser import parse

from .records import TEST_BOARD

GAMES_PER_COUNT = 50
VARIANT_GAMES = 8  # per player count and variant


def _replay(text, variants=()):
    report = check_bytes(text.encode(), "generated.log", list(variants))
    assert report.status == "legal", [(d.rule, d.message, d.pos) for d in report.errors]
    assert report.complete
    assert text.rstrip().splitlines()[-1].startswith("result ")
    return report


def _kinds(text):
    """Kinds of line in a record: the action word, and the parts of trade and church lines."""
    for line in text.splitlines():
        if line.startswith(("check ", "result ", "reveal ")):
            yield line.split()[0]
            continue
        m = re.match(r"^\w+: (?:(upper|lower) )?(\w+)(.*)$", line)
        if not m:
            continue
        side, action, rest = m.groups()
        yield action
        if side:
            yield "side"
        for part in ("sell", "bank", "buy", "donate", "score"):
            if re.search(rf"\b{part}\b", rest):
                yield part
        if action == "church" and re.search(r"donate \w+ \w+", rest):
            yield "several donations"
        if action == "guildhall" and rest.count(",") and re.search(r"\b(office|councillor|vicar|mayor|canon|guildmaster|harbour-master|deacon|sexton|master-builder|civil-servant) at", rest):
            yield "several houses with an office"
        if action == "dockyard" and int(rest or 1) > 1:
            yield "several ships"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_generated_games_replay_legal(players):
    kinds = Counter()
    for seed in range(GAMES_PER_COUNT):
        text = play_game("hamburgum", players, seed)
        report = _replay(text)
        assert len(report.standings) == players
        assert report.checkpoints_confirmed >= players
        assert len(report.state.completed) == len(report.state.churches)
        kinds.update(_kinds(text))
    expected = {
        "beer",
        "sugar",
        "cloth",
        "trade",
        "dockyard",
        "church",
        "guildhall",
        "side",
        "sell",
        "bank",
        "buy",
        "donate",
        "score",
        "several donations",
        "several houses with an office",
        "several ships",
        "check",
        "result",
    }
    assert expected <= set(kinds), f"never generated: {sorted(expected - set(kinds))}"


@pytest.mark.parametrize("variant", ["advanced-1", "advanced-2", "londinium", TEST_BOARD], ids=["advanced-1", "advanced-2", "londinium", "test-board"])
def test_generated_games_under_variants(variant):
    offices = Counter()
    for players in (2, 3, 4, 5):
        for seed in range(VARIANT_GAMES):
            text = play_game("hamburgum", players, seed, [variant])
            report = _replay(text, [variant])  # a record names a shipped variant; a file is given again
            built = [o for p in report.state.players.values() for o in p.offices]
            offices.update(built)
            if variant == "advanced-2":
                assert text.count("\nreveal ") >= len(built) and "office turned up" in report.record_facts[0][0]
            if variant == TEST_BOARD:
                assert not [d for d in report.diagnostics if d.severity == "warning"]
            else:
                warned = {d.rule for d in report.diagnostics if d.severity == "warning"}
                assert "hamburgum/site-type" in warned and warned <= {"hamburgum/guildhall-adjacency", "hamburgum/site-type"}
    if variant.startswith("advanced"):
        assert set(offices) == set(load_game("hamburgum").spec["offices"]["blue"]), offices
        assert len(offices) == len(load_game("hamburgum").spec["offices"]["blue"])


def test_canon_donations_are_generated():
    texts = [play_game("hamburgum", players, seed, ["advanced-1"]) for players in (2, 3, 4, 5) for seed in range(VARIANT_GAMES)]
    assert any(re.search(r"canon at \w+ \d+ donate", t) for t in texts)


def test_generated_harbour_shifts_and_church_completions():
    """Replaying move by move: some dockyard turn pushes the harbour on and brings a ship back."""
    game = load_game("hamburgum")
    shifts = returned = 0
    for seed in range(10):
        text = play_game("hamburgum", 3, seed)
        state = game.new_state([Seat("red"), Seat("blue"), Seat("green")], 0, None, Trace())
        record = parse(text, "x", "hamburgum", game.build_move)
        for move in [e for e in record.entries if isinstance(e, Turn)]:
            before = {b: list(s) for b, s in state.harbour.items()}
            supply = state.ships_in_supply(move.player)
            state.apply(move)
            if type(move).__name__ == "Dockyard" and state.harbour[1] != before[1]:
                shifts += 1
                returned += state.ships_in_supply(move.player) + move.ships > supply
        assert state.is_over()
    assert shifts and returned


def test_same_seed_same_game():
    assert play_game("hamburgum", 3, 42) == play_game("hamburgum", 3, 42)
    assert play_game("hamburgum", 3, 42) != play_game("hamburgum", 3, 43)


def test_five_player_seed_3_has_standings_tie_break_and_board_warnings():
    report = _replay(play_game("hamburgum", 5, 3))
    assert [s.rank for s in report.standings][0] == 1
    assert all(s.tiebreak and s.tiebreak[0][0] == "money" for s in report.standings)
    warned = {d.rule: d.message for d in report.diagnostics if d.severity == "warning"}
    assert "board:links" in warned["hamburgum/guildhall-adjacency"]


def test_every_listed_legal_move_is_legal():
    """`referee moves` lists moves the rules accept, at every turn of some generated games."""
    game = load_game("hamburgum", ("advanced-2",))
    for seed in range(3):
        text = play_game("hamburgum", 3, seed, ["advanced-2"])
        state = game.new_state([Seat("red"), Seat("blue"), Seat("green")], 0, None, Trace())
        record = parse(text, "x", "hamburgum", game.build_move)
        for number, move in enumerate(e for e in record.entries if isinstance(e, (Turn, Reveal))):
            if number % 7 == 0:
                listed = state.game.legal_moves(state)
                assert listed
                shared = {id(state.game): state.game, id(state.spec): state.spec}
                for candidate in listed:
                    copy.deepcopy(state, dict(shared)).apply(candidate)
            state.apply(move)
        assert state.game.legal_moves(state) == []


def test_a_house_material_that_costs_nothing_limits_no_guildhall_purchase(tmp_path):
    # found by the fuzzer: the random player divided each stock by its cost, and a cost of 0 crashed
    overlay = tmp_path / "free-wood.yaml"
    overlay.write_text("kind: variant\nid: free-wood\ngame: hamburgum\ntitle: Free wood\nchanges:\n  houses:\n    cost:\n      wood: 0\n      brick: 1\n", encoding="utf-8")
    record = play_game("hamburgum", 4, 10, [str(overlay)])
    assert check_bytes(record.encode(), "free-wood.log", [str(overlay)]).status == "legal"


def test_a_random_game_copies_nothing_to_put_back(monkeypatch):
    """A random game stops at the first refused move, so its turns skip the copy a replay
    takes to undo a refused one (a sixth of a random game's time), and the game comes out
    the same."""
    from referee.games.hamburgum.rules import HamburgumState

    expected = play_game("hamburgum", 3, 7)
    copies = []
    take = HamburgumState._snapshot

    def counted(self, actor, **parts):
        copies.append(actor)
        return take(self, actor, **parts)

    monkeypatch.setattr(HamburgumState, "_snapshot", counted)
    assert play_game("hamburgum", 3, 7) == expected
    assert copies == []
    _replay(expected)
    assert len(copies) > 50  # a replay copies before every turn


def test_a_listed_donation_beside_an_unscored_token_of_its_kind_scores_the_new_token_every_time():
    """Listing moves draws nothing: where a donation would leave two unscored tokens of a kind,
    the listed move scores the one just taken and keeps the older one, at every listing."""
    game = load_game("hamburgum")
    found = 0
    for seed in range(4):
        text = play_game("hamburgum", 3, seed)
        state = game.new_state([Seat("red"), Seat("blue"), Seat("green")], 0, None, Trace())
        record = parse(text, "x", "hamburgum", game.build_move)
        for move in (e for e in record.entries if isinstance(e, (Turn, Reveal))):
            player = state.players[state.current()]
            held = {t.kind for t in player.unscored()}
            listings = [game.legal_moves(state) for _ in range(8)]
            assert all(listing == listings[0] for listing in listings)
            for candidate in listings[0]:
                for donation in getattr(candidate, "donations", ()):
                    kind = donation.tokens[0]
                    if kind in held:
                        found += 1
                        older = {(t.church, t.kind) for t in player.unscored() if t.kind == kind}
                        assert (donation.church, kind) in candidate.scores
                        assert not older & set(candidate.scores)
            state.apply(move)
    assert found > 20


def test_the_kinds_of_house_left_are_those_with_a_tile_left():
    """`_kinds_left` lists, in the spec's order, each kind with a tile left beside the houses
    chosen: an office only while the stack holds one, none is chosen and one is wanted."""
    from referee.games.hamburgum.moves import House, Site
    from referee.games.hamburgum.play import _kinds_left

    game = load_game("hamburgum")
    text = play_game("hamburgum", 4, 2)
    state = game.new_state([Seat(c) for c in ("red", "blue", "green", "yellow")], 0, None, Trace())
    record = parse(text, "x", "hamburgum", game.build_move)
    checked = 0
    for move in (e for e in record.entries if isinstance(e, (Turn, Reveal))):
        for kind in [None, *game.house_types]:
            chosen = [] if kind is None else [House(kind, Site("petri", 99)), House(kind, Site("petri", 98))][: 1 + checked % 2]
            for office in (True, False):

                def left(k):
                    planned = sum(1 for h in chosen if h.kind == k)
                    if k == game.office_type:
                        return office and bool(state.office_stack) and not planned
                    return game.house_types[k]["count"] - state.built[k] - planned > 0

                assert _kinds_left(state, chosen, office) == [k for k in game.house_types if left(k)]
                checked += 1
        state.apply(move)
    assert checked > 1000


@pytest.mark.parametrize("variant", [TEST_BOARD, "advanced-2"], ids=["test-board", "advanced-2"])
def test_every_turn_of_a_game_is_offered_word_by_word(variant):
    """The game's next words lead to each turn of a generated game, word after word, and
    say where it may end (""): on a board whose sites show their houses, and with offices
    turned up from a shuffled stack. The state is asked, moved on in place and asked again,
    so what the search keeps of a position never answers for the next one."""
    game = load_game("hamburgum", (variant,))
    text = play_game("hamburgum", 3, 1, [variant])
    state = game.new_state([Seat("red"), Seat("blue"), Seat("green")], 0, None, Trace())
    record = parse(text, "x", "hamburgum", game.build_move, keywords=game.keywords())
    kinds = set()
    for number, move in enumerate(e for e in record.entries if isinstance(e, (Turn, Reveal))):
        if number % 3 == 0:
            line = re.sub(r"^(\S+: (?:beer|sugar|cloth)) \d+$", r"\1", game.format_move(move))  # a yield stated is a check
            words = line.split()
            for i, word in enumerate(words):
                assert word in game.next_words(state, words[:i]), (line, i)
            assert "" in game.next_words(state, words), line
            kinds |= {kind for kind, found in (("houses", " at "), ("sale and bank", ", bank "), ("scores", ", score ")) if found in line}
        state.apply(move)
    assert game.next_words(state, []) == []  # the game is over
    assert "houses" in kinds
