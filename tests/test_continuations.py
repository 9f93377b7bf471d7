"""Completion for `referee record`: word by word from the legal next moves, in every language
the specs and the grammar allow, with chance outcomes filled from names and ranges."""

from __future__ import annotations

import random
import re

import pytest

from referee.engine.continuations import TOKEN, Continuations, MoreThan
from referee.engine.replay import check_bytes
from referee.engine.rulings import copy_state
from referee.games import load_game
from referee.games.base import Game
from referee.lab.random_game import play_game
from referee.notation.parser import parser_for
from referee.recording.session import Recording


def recording_at(game: str, players: int, seed: int, moves: int) -> Recording:
    text = play_game(game, players, seed=seed)
    report = check_bytes(text.encode(), "game.log", stop_after=moves)
    assert report.status == "legal" and report.moves == moves
    cut = "\n".join(text.split("\n")[: report.position.line]) + "\n" if moves else text.split("\n\n")[0] + "\n"
    replay = check_bytes(cut.encode(), "game.log", open_end=True)
    assert replay.moves == moves
    return Recording("game.log", [], cut, replay)


def texts(choices) -> list[str]:
    return [c.text for c in choices]


def typed_with(text: str, choice) -> str:
    return text[: len(text) - choice.replace] + choice.text


@pytest.fixture(scope="module")
def canterbury():
    recording = recording_at("canterbury", 3, 1, 18)
    assert len(recording.hints()) > 300  # a position with hundreds of moves
    return recording


def test_many_moves_are_completed_word_by_word(canterbury):
    continuations = canterbury.continuations()
    hints = canterbury.hints()
    for hint in hints[:: max(1, len(hints) // 40)]:
        words = TOKEN.findall(hint)
        for i, word in enumerate(words):
            text = " ".join(words[:i]) + (" " if i else "")
            choices = continuations.complete(text)
            assert len(choices) <= 30, (text, len(choices))  # a handful of next words, never every move
            assert any(c.text.rstrip() == word or c.text == " ".join(words[i:]) for c in choices), (text, word, texts(choices))


def test_every_completion_leads_to_a_legal_move(canterbury):
    continuations = canterbury.continuations()
    hints = canterbury.hints()
    for text in ["", "b", "blue: ", "blue: full build ", "blue: full build well ", "blue: full build well c2, "]:
        for choice in continuations.complete(text):
            if choice.meta == "a checkpoint line":
                continue
            line = typed_with(text, choice)
            assert any(h.startswith(line) for h in hints), (text, choice.text)


def test_few_moves_are_offered_whole():
    recording = recording_at("speicherstadt", 2, 3, 7)  # Demand: a worker to place
    moves = recording.hints()
    assert 1 < len(moves) <= 12
    offered = texts(recording.continuations().complete(""))
    assert set(moves) <= set(offered)


def test_a_chance_outcome_is_filled_from_its_range_and_from_the_goods():
    recording = recording_at("speicherstadt", 2, 3, 0)  # Supply: the table reveals a card
    continuations = recording.continuations()
    assert texts(continuations.complete("reveal fireman ")) == ["1", "2", "3", "4", "5"]
    goods = texts(continuations.complete("reveal contract "))
    assert goods == [f"{g} " for g in recording.game.goods]
    # a contract shows at most four goods: after four none are offered
    assert continuations.complete("reveal contract tea tea coffee ") and not continuations.complete("reveal contract tea tea coffee rubber ")


def test_a_ship_is_filled_only_with_goods_the_bag_still_holds():
    recording = recording_at("speicherstadt", 2, 3, 0)
    game, state = recording.game, recording.state
    state.bag = state.bag.__class__({g: (0 if g == "tea" else n) for g, n in state.bag.items()})
    continuations = Continuations(["reveal ship <3 cubes from the bag>"], {}, lambda placeholder: game.placeholder_words(state, placeholder))
    offered = texts(continuations.complete("reveal ship "))
    assert offered == [f"{g} " for g in game.goods if g != "tea"]
    assert texts(continuations.complete("reveal ship coffee coffee ")) and not continuations.complete("reveal ship coffee coffee coffee ")


def test_names_in_other_languages_are_offered_where_the_grammar_reads_them():
    recording = recording_at("speicherstadt", 2, 3, 0)
    continuations = recording.continuations()
    assert ("kaffee ", "= coffee") in [(c.text, c.meta) for c in continuations.complete("reveal contract kaf")]
    # a name the grammar cannot read as a word (today: one with accents) is not offered
    word = re.compile(parser_for("speicherstadt").get_terminal("WORD").pattern.to_regexp())
    offered = texts(continuations.complete("reveal contract sz"))
    assert ("szőnyeg " in offered) == bool(word.fullmatch("szőnyeg"))
    # and a line completed with another language's name is accepted
    line = typed_with("reveal contract kaf", next(c for c in continuations.complete("reveal contract kaf") if c.text == "kaffee ")) + "tea"
    assert check_bytes((recording.text + line + "\n").encode(), "game.log").status == "legal"


def test_an_alias_from_the_spec_completes_and_the_move_is_legal():
    recording = recording_at("hamburgum", 3, 1, 0)
    continuations = recording.continuations()
    choices = continuations.complete("red: church nikolaik")
    assert [(c.text, c.meta) for c in choices] == [("nikolaikirche ", "= nikolai")]
    line = "red: church nikolaikirche donate five"
    # the game completes a whole turn word by word: this one may end here, and none goes on
    # past its last word (a comma after it would go on to the tokens scored)
    assert continuations.open_moves(line + " ") == 1
    assert check_bytes((recording.text + line + "\n").encode(), "game.log").status == "legal"


def test_a_checkpoint_line_is_completed_with_colours_and_figures():
    recording = recording_at("speicherstadt", 2, 3, 0)
    continuations = recording.continuations()
    assert texts(continuations.complete("check ")) == ["beige: ", "orange: "]
    state = recording.state
    assert texts(continuations.complete("check beige: ")) == [f"points {state.figures('beige')['points']}, coins {state.figures('beige')['coins']}"]
    assert "coins " in texts(continuations.complete("check beige: c"))
    assert "points " in texts(continuations.complete("check beige: p"))
    assert "coins " not in texts(continuations.complete("check beige: coins 5, "))


def test_commands_complete_at_the_start_of_a_line():
    continuations = Continuations(["red: place 1"])
    assert texts(continuations.complete("un")) == ["undo"]
    assert texts(continuations.complete("red: pl")) == ["place 1"]  # one move left: offered whole


def test_the_result_line_is_offered_once_the_game_is_over(tmp_path):
    text = play_game("speicherstadt", 2, seed=4)
    without_result = text[: text.index("\nresult ")] + "\n"
    replay = check_bytes(without_result.encode(), "game.log", open_end=True)
    recording = Recording("game.log", [], without_result, replay)
    assert replay.state.is_over()
    result = text.split("\n")[-2]
    assert recording.hints() == [result]
    assert texts(recording.continuations().complete("res")) == [result]


# --- a position with thousands of moves: completed from the game's next words ---------------


def next_words_of(hints: list[str], words: list[str]) -> set[str]:
    """The words that follow `words` in the listed moves (the full list, worked out apart)."""
    n = len(words)
    return {h.split()[n] for h in hints if h.split()[:n] == words and len(h.split()) > n}


def moves_from(hints: list[str], words: list[str]) -> int:
    n = len(words)
    return sum(h.split()[:n] == words for h in hints)


@pytest.fixture(scope="module")
def large_canterbury():
    """A Canterbury position of thousands of moves (Full Builds of two structures), and its
    full list of moves, worked out once apart from the session."""
    recording = recording_at("canterbury", 4, 3, 20)
    hints = recording.game.move_hints(copy_state(recording.state))
    assert len(hints) > 3000
    return recording, hints


@pytest.fixture
def no_listing(monkeypatch):
    """Listing every legal move fails the test (and is noted, as the session hides faults)."""
    listed: list[str] = []

    def refuse(self, state):
        listed.append(type(self).__name__)
        raise AssertionError("every legal move was listed")

    game = type(load_game("canterbury"))
    monkeypatch.setattr(game, "move_hints", refuse)
    monkeypatch.setattr(game, "legal_moves", refuse)
    return listed


def test_thousands_of_moves_are_completed_without_listing_them(large_canterbury, no_listing):
    recording, hints = large_canterbury
    recording._continuations = None
    assert recording.word_by_word(recording.state)
    continuations = recording.continuations()
    assert isinstance(continuations.open_moves(""), MoreThan)
    whole_offered = counted = 0
    for hint in random.Random(3).sample(hints, 8):
        words = hint.split()
        for i in range(len(words) + 1):
            typed = " ".join(words[:i]) + (" " if i else "")
            for partial in ["", words[i][:1]] if i < len(words) else [""]:
                text = typed + partial
                choices = [c for c in continuations.complete(text) if not c.meta.startswith("=") and c.meta not in ("command", "a checkpoint line")]
                expected = {w for w in next_words_of(hints, words[:i]) if w.startswith(partial)}
                assert {c.text.split()[0] for c in choices} == expected, text
                for choice in choices:  # every word (or whole move) offered leads to a listed move
                    line = typed_with(text, choice)
                    if line.endswith(" "):
                        assert any(h.startswith(line) for h in hints), (text, choice.text)
                    else:  # a whole word: a move ends with it or goes on after it
                        assert any(h == line or h.startswith(line + " ") for h in hints), (text, choice.text)
                    if choice.meta == "move":
                        whole_offered += 1
                        assert line in hints, (text, choice.text)
                if not partial:
                    found = continuations.open_moves(text)
                    if isinstance(found, int):
                        counted += 1
                        assert found == moves_from(hints, words[:i]), text
                    elif found.moves is not None:
                        assert moves_from(hints, words[:i]) > found.moves, text
    assert whole_offered and counted  # where few moves remain they are offered whole, and counted
    assert no_listing == []


def test_a_word_leads_on_with_a_space_only_where_a_move_goes_on(large_canterbury, no_listing):
    recording, hints = large_canterbury
    continuations = Continuations((), next_words=lambda words: recording.game.next_words(recording.state, words))
    hint = next(h for h in hints if h.startswith("blue: full build ") and "," in h)
    for i, _word in enumerate(hint.split()):
        text = " ".join(hint.split()[:i]) + (" " if i else "")
        for choice in continuations.complete(text):
            if choice.text.endswith(" "):  # a space only after a word that more words follow
                assert next_words_of(hints, (text + choice.text).split()), (text, choice.text)
    assert no_listing == []


def test_what_is_offered_does_not_depend_on_what_was_typed_before(large_canterbury):
    recording, hints = large_canterbury
    game, state = recording.game, copy_state(recording.state)

    def grown() -> Continuations:
        return Continuations((), next_words=lambda words: game.next_words(state, words))

    seen = grown()
    for hint in random.Random(5).sample(hints, 3):
        words = hint.split()
        for i in range(len(words) + 1):  # the line typed as a person types it, the bar counting
            text = " ".join(words[:i]) + (" " if i else "")
            seen.open_moves(text)
            seen.complete(text)
        for text in [" ".join(words[:3]) + " ", " ".join(words[:-1]) + " ", hint[:-1]]:
            fresh = [(c.text, c.display, c.meta) for c in grown().complete(text)]
            assert [(c.text, c.display, c.meta) for c in seen.complete(text)] == fresh, text


def test_a_tree_grown_word_by_word_puts_placeholders_together_and_fills_them():
    """A game's next words give a placeholder one piece at a time (`<value` `1-5>`); the
    tree grown from them completes chance outcomes as the tree of every move does."""
    recording = recording_at("speicherstadt", 2, 3, 0)  # Supply: the table reveals a card
    game, state = recording.game, recording.state
    assert not recording.word_by_word(state)  # the game lists its moves fast: the full list is used

    def fill(placeholder: str) -> list[str]:
        return game.placeholder_words(state, placeholder)

    grown = Continuations((), recording._spellings_of(), fill, next_words=lambda words: Game.next_words(game, state, words))
    listed = Continuations(recording.hints(), recording._spellings_of(), fill)
    for text in ["reveal fireman ", "reveal contract ", "reveal contract tea tea coffee ", "reveal contract tea tea coffee rubber ", "reveal contract kaf"]:
        assert texts(grown.complete(text)) == texts(listed.complete(text)), text
    assert texts(grown.complete("reveal fireman ")) == ["1", "2", "3", "4", "5"]
    assert grown.open_moves("reveal fireman 3") == listed.open_moves("reveal fireman 3") == 1


def test_a_name_typed_without_its_accents_is_completed_in_its_language():
    """`kav` offers kávé (the Hungarian name), and a line typed on without accents is read."""
    recording = recording_at("speicherstadt", 2, 3, 0)
    continuations = recording.continuations()
    offered = [(c.text, c.meta) for c in continuations.complete("reveal contract kav")]
    assert ("kávé ", "= coffee") in offered
    assert continuations.open_moves("reveal contract kave tea") == continuations.open_moves("reveal contract coffee tea") > 0
    assert check_bytes((recording.text + "reveal contract kave tea\n").encode(), "game.log").status == "legal"
