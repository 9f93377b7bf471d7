"""Messages that say why, where a rules examiner stumbled: a fourth worker, a card nobody
queued for, and a card revealed after the last round's supply is out."""

from __future__ import annotations

from referee.engine.replay import check_bytes
from referee.lab.random_game import play_game

HEADER = '[Game "speicherstadt"]\n[Players "beige, orange"]\n[Start "beige"]\n'
SUPPLY = HEADER + "reveal warehouse\nreveal fireman 3\nreveal contract coffee tea\n"
PLACED = SUPPLY + "beige: place 1\norange: place 1\nbeige: place 1\norange: place 1\nbeige: place 1\n"


def errors(text: str) -> list[tuple[str, str]]:
    return [(e.rule, e.message) for e in check_bytes(text.encode(), "game.log", open_end=True).errors]


def test_a_fourth_worker_says_the_player_has_placed_all_three():
    [(rule, message)] = errors(PLACED + "beige: place 2\n")
    assert rule == "speicherstadt/demand-turn" and message.endswith("; beige has placed all 3 workers this round")
    [(rule, message)] = errors(PLACED + "orange: place 2\nbeige: place 2\n")
    assert rule == "speicherstadt/phase-order" and message.endswith("; beige has placed all 3 workers this round")
    [(rule, message)] = errors(SUPPLY + "beige: place 1\norange: place 1\norange: place 2\n")
    assert "has placed all" not in message  # orange has placed one: the turn alone is the reason


def test_buying_a_card_nobody_queued_for_says_it_was_discarded():
    [(rule, message)] = errors(PLACED + "orange: place 2\nbeige: buy 3\n")
    assert rule == "speicherstadt/purchase-turn"
    assert message.startswith("nobody queued for slot 3, so its card is discarded unbought")


def test_a_reveal_after_the_last_rounds_cards_says_the_fires_come_after_the_last_round():
    lines = play_game("speicherstadt", 2, seed=1).split("\n")
    supply_done = 289  # the last round's three cards are out, no worker placed yet
    state = check_bytes(("\n".join(lines[:supply_done]) + "\n").encode(), "game.log", open_end=True).state
    assert state.last_round and state.phase == "demand" and state.placed == 0
    fire = next(line for line in lines[supply_done:] if line.startswith("reveal fire "))
    [(rule, message)] = errors("\n".join(lines[:supply_done]) + "\n" + fire + "\n")
    assert rule == "speicherstadt/supply-size"
    assert message == "all 3 cards of the last round are out; the fires left in the pile are revealed after this round's Loading"
