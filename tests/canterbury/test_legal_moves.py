"""The legal-move list leaves out only candidates the rules refuse.

`legal_moves` skips demolitions that would remove a tile of another service without need, and
other actions while a Full Build is owed; both short cuts must give the very list that trying
every candidate gives.
"""

import pytest

from referee.engine.replay import check_bytes
from referee.games.canterbury import _search as search
from referee.games.canterbury import moves, play
from referee.lab.random_game import play_game


def listed(state) -> set[str]:
    return {state.game.format_move(m) for m in state.game.legal_moves(state)}


@pytest.mark.parametrize("players, seed, after", [(2, 1, 30), (3, 4, 12), (4, 2, 40)])
def test_the_short_cuts_drop_no_legal_move(monkeypatch, players, seed, after):
    record = play_game("canterbury", players, seed).encode()
    state = check_bytes(record, "game.log", stop_after=after).state
    quick = listed(state)
    monkeypatch.setattr(search, "_demolition_needed", lambda structures, combo, new, free: True)
    monkeypatch.setattr(play, "open_kinds", lambda state, player: (moves.LEVY, moves.FULL, moves.TAX))
    assert listed(state) == quick
    assert quick


def test_after_a_levy_only_full_builds_are_listed_while_one_is_possible():
    record = play_game("canterbury", 3, 4)
    lines = record.splitlines()
    # find a state right after a Levy by the player to act next
    for after in range(3, 60):
        state = check_bytes(record.encode(), "game.log", stop_after=after).state
        player = state.players[state.to_act()]
        if player.must_full_build and search.find_full_build(state, player.seat.colour) is not None and not state.neutral_due:
            break
    else:
        pytest.fail(f"no turn after a Levy in {len(lines)} lines")
    kinds = {" ".join(text.split()[1:3]) for text in listed(state)}
    assert kinds == {"full build"}


def every_candidate_tried(state) -> list[str]:
    """The legal-move list as trying every candidate in full gives it: each Full Build of two
    structures worked out from scratch, whatever the first and the second demolish."""
    if state.over:
        return []
    colour = state.to_act()
    if state.neutral_due:
        return [state.game.format_move(m) for m in play.neutral_options(state, colour)]
    player = state.players[colour]
    found = []
    for kind in (moves.LEVY, moves.FULL, moves.TAX):
        if kind == moves.LEVY:
            candidates = [moves.Action(colour, kind)]
        else:
            money = player.money + (state.tax() if kind == moves.TAX else 0)
            candidates = [moves.Action(colour, kind, (b,)) for b in search.single_builds(state, state.board, money)]
        legal = [m for m in candidates if search.try_action(state, m) is not None]
        found.extend(legal)
        if kind != moves.FULL:
            continue
        for single in legal:
            first = single.builds[0]
            if state.game.structures[first.structure].size not in state.game.pair:
                continue
            outcome = search.try_action(state, single)
            for second in search.single_builds(state, outcome.board, player.money - outcome.cost, state.game.pair):
                pair = moves.Action(colour, kind, (first, second))
                if search.try_action(state, pair) is not None:
                    found.append(pair)
    return [state.game.format_move(m) for m in found]


# positions with hundreds to thousands of moves, many of them Full Builds of two structures
# that demolish, in districts near each other and far apart
@pytest.mark.parametrize("players, seed, fraction", [(3, 1, 0.25), (4, 3, 0.75), (3, 1, 0.75), (2, 1, 0.25), (3, 2, 0.5), (4, 2, 0.5), (4, 5, 0.35)])
def test_the_list_is_the_one_trying_every_candidate_gives_in_the_same_order(players, seed, fraction):
    record = play_game("canterbury", players, seed).encode()
    total = check_bytes(record, "game.log").moves
    state = check_bytes(record, "game.log", stop_after=int(total * fraction)).state
    listed_in_order = [state.game.format_move(m) for m in state.game.legal_moves(state)]
    assert listed_in_order == every_candidate_tried(state)


def words_after(texts: list[str], words: list[str]) -> list[str]:
    n = len(words)
    return sorted({t.split()[n] if len(t.split()) > n else "" for t in texts if t.split()[:n] == words})


@pytest.mark.parametrize("players, seed, fraction", [(4, 3, 0.5), (2, 1, 0.5), (3, 4, 0.1)])
def test_next_words_are_those_of_the_whole_list(players, seed, fraction):
    """Word by word, the continuations found without listing every Full Build of two
    structures are exactly those the whole list has, for every start of a listed move."""
    import random

    from referee.games.base import Game

    record = play_game("canterbury", players, seed).encode()
    total = check_bytes(record, "game.log").moves
    state = check_bytes(record, "game.log", stop_after=int(total * fraction)).state
    texts = state.game.move_hints(state)
    assert texts
    starts = {()}
    for text in random.Random(seed).sample(texts, min(6, len(texts))):
        parts = text.split()
        starts.update(tuple(parts[:k]) for k in range(len(parts) + 1))
    starts.update({("nobody:",), (state.to_act() + ":", "full", "build", "no-such-structure")})
    for start in sorted(starts):
        words = list(start)
        assert state.game.next_words(state, words) == words_after(texts, words), words
    assert Game.next_words(state.game, state, []) == words_after(texts, [])


SMALL_BACKS = """kind: variant
id: small-backs
game: canterbury
title: Small structures back demolitions nearby
changes:
  structures:
    sizes:
      small:
        demolition: {replaced_by: [medium, large], neighbour: [small, medium], anywhere: [large]}
"""


@pytest.mark.parametrize("seed", [2, 4])
def test_a_first_structure_that_takes_away_the_backing_of_the_seconds_demolition(tmp_path, seed):
    """With the shipped data a first structure only ever demolishes tiles too small to back
    another demolition. In a variant where a small structure backs one next door, a first
    structure's demolition can take that backing away from the second's: the list must
    still be the one trying every candidate gives."""
    variant = tmp_path / "small-backs.yaml"
    variant.write_text(SMALL_BACKS, encoding="utf-8")
    record = play_game("canterbury", 3, seed, [str(variant)]).encode()
    total = check_bytes(record, "game.log", [str(variant)]).moves
    state = check_bytes(record, "game.log", [str(variant)], stop_after=int(total * 0.7)).state
    listed_in_order = [state.game.format_move(m) for m in state.game.legal_moves(state)]
    assert listed_in_order == every_candidate_tried(state)
