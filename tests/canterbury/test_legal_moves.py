"""The legal-move list leaves out only candidates the rules refuse.

`legal_moves` skips demolitions that would remove a tile of another service without need, and
other actions while a Full Build is owed; both short cuts must give the very list that trying
every candidate gives.
"""

import pytest

from referee.engine import check_bytes
from referee.games.canterbury import moves, play, rules
from referee.play import play_game


def listed(state) -> set[str]:
    return {state.game.format_move(m) for m in state.game.legal_moves(state)}


@pytest.mark.parametrize("players, seed, after", [(2, 1, 30), (3, 4, 12), (4, 2, 40)])
def test_the_short_cuts_drop_no_legal_move(monkeypatch, players, seed, after):
    record = play_game("canterbury", players, seed).encode()
    state = check_bytes(record, "game.log", stop_after=after).state
    quick = listed(state)
    monkeypatch.setattr(rules.CanterburyState, "_demolition_needed", lambda self, combo, new, free: True)
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
        if player.must_full_build and state.find_full_build(player.seat.colour) is not None and not state.neutral_due:
            break
    else:
        pytest.fail(f"no turn after a Levy in {len(lines)} lines")
    kinds = {" ".join(text.split()[1:3]) for text in listed(state)}
    assert kinds == {"full build"}
