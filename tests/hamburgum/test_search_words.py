"""The turn search's shortcuts (_search.py) offer exactly the words the plain search offers.

The plain search reads every trial line with the parser, tries it on a deep copy of the
position, and tries every house on every site before it says that no house may follow. The
search as it runs builds a Guildhall turn one house longer on the one read before, copies
the position structurally, and says at once that no house may follow where the player cannot
pay for one more. Both are asked the same questions at positions of random games and of the
examples: every start of every listed move, and starts of Guildhall turns of two and three
houses drawn from the words offered.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from referee.engine.replay import check_bytes
from referee.games.hamburgum import _search
from referee.games.hamburgum.play import legal_moves
from referee.lab.random_game import play_game
from referee.notation.parser import parse

from .records import EXAMPLES, TEST_BOARD

GUILDHALL_STARTS = 8  # starts of Guildhall turns asked about at every second position that lists one
EVERY = 25  # every start of every listed move is asked about at every twenty-fifth position of a random game (and the first)
EVERY_IN_EXAMPLES = 10  # and at every tenth of an example (and the first)


class Plain(_search.Words):
    """The search without its shortcuts, as it was before them."""

    def _affords(self, houses: int) -> bool:
        return True  # every house is tried on every site

    def _house_on(self, base, word, parish, number) -> bool:
        return self.legal([*base, word, "at", parish, str(number)])  # the line read by the parser

    def _copy(self):
        state = self.state
        shared = {id(state.game): state.game, id(state.game.spec): state.game.spec, id(state.trace): _search._TRIAL}
        trial = copy.deepcopy(state, shared)
        trial.rolls_back = True
        return trial


class Compared:
    """Asks both searches at positions, and counts what the questions covered."""

    def __init__(self, every: int):
        self.every = every
        self.rng = random.Random(0)
        self.failure: AssertionError | None = None
        self.positions = 0
        self.guildhalls = 0  # positions that list a Guildhall turn
        self.starts = 0
        self.more = {True: 0, False: 0}  # another house judged by the player's means: possible, not
        self.houses = 0  # starts of Guildhall turns asked about that name two houses or more
        self.built = 0  # Guildhall turns built rather than read

    def __call__(self, event, move, state) -> None:
        """Told of each position of the replay (the replay reports what its watch raises as an
        internal error): the first difference is kept for the test to raise."""
        if event == "end" or state.is_over() or self.failure is not None:
            return
        try:
            self.position(state)
        except AssertionError as failure:
            self.failure = failure

    def position(self, state) -> None:
        self.positions += 1
        game = state.game
        hints = [game.format_move(m) for m in legal_moves(state)]
        fast, plain = _search.Words(state, hints), Plain(state, hints)
        affords, read, lines_read = fast._affords, fast._read, set()

        def counted(houses: int) -> bool:
            self.more[affords(houses)] += 1
            return affords(houses)

        def reading(line: str):
            lines_read.add(line)
            return read(line)

        fast._affords, fast._read = counted, reading
        starts = {tuple(h.split()[:i]) for h in hints for i in range(len(h.split()) + 1)} if self.positions % self.every == 1 % self.every else set()
        heads = [tuple(h.split()[:2]) for h in hints if h.split()[1:2] == ["guildhall"]]
        for words in sorted(starts):
            self.same(fast, plain, list(words))
        self.guildhalls += bool(heads)
        frontier = list(dict.fromkeys(heads))
        for _ in range(GUILDHALL_STARTS if heads and self.guildhalls % 2 else 0):
            if not frontier:
                break
            # half the time the start last offered, so that turns of several houses are met
            words = list(frontier.pop(-1 if self.rng.random() < 0.5 else self.rng.randrange(len(frontier))))
            offered = self.same(fast, plain, words)
            self.houses += any(w.endswith(",") for w in words)
            frontier += [(*words, w) for w in offered if w]
        for line, turn in fast._turns.items():
            assert parse(line + "\n", "<line>", game.name, game.build_move, keywords=game.keywords()).entries == [turn], line  # as the notation reads it
        self.built += len(set(fast._turns) - lines_read)
        assert fast._judged == {line: plain._judged[line] for line in fast._judged}

    def same(self, fast, plain, words: list[str]) -> list[str]:
        self.starts += 1
        offered = fast(words)
        assert offered == plain(words), words
        return offered


def compare(text: str, variants=(), every: int = EVERY) -> Compared:
    compared = Compared(every)
    report = check_bytes(text.encode(), "game.log", list(variants), watch=compared)
    if compared.failure is not None:
        raise compared.failure
    assert report.status == "legal", report.diagnostics
    return compared


@pytest.mark.parametrize(
    "variant, players",
    [(None, 3), (None, 5), (TEST_BOARD, 3), ("advanced-1", 3), ("advanced-2", 4)],
    ids=["base-3", "base-5", "test-board-3", "advanced-1-3", "advanced-2-4"],
)
def test_the_shortcuts_offer_the_words_of_the_plain_search(variant, players):
    variants = [variant] if variant else []
    covered = compare(play_game("hamburgum", players, 0, variants), variants)
    assert covered.more[False] and covered.more[True]  # both answers of the player's means were met
    assert covered.houses >= 5 and covered.built >= 100


@pytest.mark.parametrize("example", sorted(p.name for p in Path(EXAMPLES).glob("*.log")))
def test_the_shortcuts_offer_the_words_of_the_plain_search_in_the_examples(example):
    text = (Path(EXAMPLES) / example).read_text("utf-8")
    covered = compare(text, every=EVERY_IN_EXAMPLES)
    assert covered.positions and covered.starts
