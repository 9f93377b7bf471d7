"""Rulings of the table in every game: how they are written, where they may stand, and what
`ruling void` relies on (a move the rules refuse leaves the state as it was)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.engine.rulings import copy_state
from referee.errors import Violation
from referee.games import load_game
from referee.games.base import Trace
from referee.lab.random_game import play_game
from referee.notation.parser import Move, Ruling, parse
from referee.spec.loader import available_games

from .speicherstadt.records import HEADER_2P
from .speicherstadt.test_disputes import OVERBID
from .speicherstadt.test_rules import R1_SUPPLY
from .test_grammar_text_in_play import grammar, legal_lines


def check(text: str, variants=(), keep_going=False):
    return check_bytes(text.encode("utf-8"), "ruled.log", list(variants), keep_going=keep_going)


def test_a_ruling_is_read_with_its_verdict_and_words():
    game = load_game("speicherstadt")
    text = HEADER_2P + "reveal warehouse\nruling accept: we forgot the bank's income  # said Anna\nreveal tea-taster\nruling void\n"
    entries = parse(text, "r.log", "speicherstadt", game.build_move).entries
    rulings = [e for e in entries if isinstance(e, Ruling)]
    assert [(r.verdict, r.text, r.pos.line) for r in rulings] == [("accept", "we forgot the bank's income", 6), ("void", None, 8)]


@pytest.mark.parametrize("line", ["ruling\n", "ruling maybe\n", "ruling accept we forgot\n"])
def test_a_ruling_needs_accept_or_void_and_a_colon_before_its_words(line):
    report = check(HEADER_2P + "reveal warehouse\n" + line)
    assert report.exit_code == 3 and report.errors[0].pos.line == 6


@pytest.mark.parametrize(
    "body, follows",
    [
        ("ruling void\n", "no move"),
        ("reveal warehouse\ncheck beige: coins 5\nruling void\n", "a checkpoint"),
        (R1_SUPPLY.split("\n\n", 1)[1] + "orange: place 1\nruling void\nruling void\n", "another ruling"),
    ],
)
def test_a_ruling_decides_on_the_move_just_before_it(body, follows):
    report = check(HEADER_2P + body)
    assert report.exit_code == 1
    [error] = report.errors
    assert error.rule == "speicherstadt/ruling" and error.message.endswith(f"this one follows {follows}")


def test_a_rule_the_pieces_make_is_never_set_aside():
    report = check(R1_SUPPLY + "beige: place 4\nruling accept: beige meant the fourth card\n")
    [error] = report.errors
    assert error.rule == "speicherstadt/ruling"
    assert "breaks speicherstadt/demand-slot, which no ruling sets aside" in error.message


def test_a_variant_that_allows_debt_lets_the_table_accept_a_purchase_beyond_the_purse(tmp_path):
    debt = tmp_path / "debt.yaml"
    debt.write_text(
        "kind: variant\nid: debt\ngame: speicherstadt\ntitle: Coins may run into debt\ndescription: A table's house rule.\nchanges:\n  components:\n    coins: {minimum: -10}\n",
        encoding="utf-8",
    )
    text = OVERBID + "ruling accept: beige pays it back later\ncheck beige: coins -1\n"
    assert check(text).exit_code == 1
    report = check(text, [str(debt)])
    assert (report.exit_code, report.checkpoints_confirmed) == (0, 1), [d.message for d in report.errors]
    assert report.rulings[0].rules == ["speicherstadt/purchase-funds"]


def test_check_prints_the_rulings_in_text_and_json(tmp_path, capsys):
    record = tmp_path / "ruled.log"
    record.write_text(OVERBID.replace("beige: buy 2", "beige: buy 2\nruling void: beige cannot pay") + "beige: pass 2\norange: buy 2\n", encoding="utf-8")
    assert main(["check", str(record)]) == 0
    out = capsys.readouterr().out
    assert "rulings of the table (1):" in out and "which broke speicherstadt/purchase-funds: beige cannot pay" in out
    assert main(["check", "--format", "json", str(record)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["verdict"], r["rules"], r["text"]) for r in data["rulings"]] == [("void", ["speicherstadt/purchase-funds"], "beige cannot pay")]


@pytest.mark.parametrize("game_name", available_games())
def test_a_move_the_rules_refuse_leaves_the_state_as_it_was(game_name):
    """What `ruling void` and `check --keep-going` rely on: moves of the same game, tried where
    they do not belong, are refused without a trace in the state."""
    game = load_game(game_name)
    players = game.spec.meta["players"]["max"]
    text = play_game(game_name, players, 3)
    record = parse(text, "g.log", game_name, game.build_move)
    moves = [e for e in record.entries if isinstance(e, Move)]
    seats, start = game.seats_from_header(record.header)
    state = game.new_state(seats, start, record.header, Trace())
    rng = random.Random(7)
    stops = set(rng.sample(range(len(moves)), 12))
    refused = 0
    for index, move in enumerate(moves):
        if index in stops:
            before = _picture(state)
            for other in rng.sample(moves, 10):
                trial = copy_state(state)
                try:
                    trial.apply(other)
                except Violation:
                    refused += 1
                    assert _picture(trial) == before, (index, other)
        state.apply(move)
    assert refused > 20


def _picture(state) -> str:
    figures = {owner: state.figures(owner) for owner in state.figure_owners()}
    return json.dumps([state.describe(), figures], sort_keys=True, default=str)


@pytest.mark.parametrize("game", available_games())
def test_a_ruling_on_any_move_the_grammar_accepts_ends_in_a_verdict(game):
    """Moves carried out with rules set aside meet code written for moves that keep them:
    whatever the move, an accepted one is honoured or refused, never a crash."""
    header = next(i for i, line in enumerate(legal_lines(game)) if not line.startswith("["))

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=from_lark(grammar(game)), at=st.integers(min_value=header, max_value=len(legal_lines(game))))
    def check_one(body, at):
        lines = legal_lines(game)
        body = "\n".join(line for line in body.split("\n") if not line.lstrip().startswith("["))
        text = "\n".join(lines[:at] + [body, "ruling accept: the table agreed"] + lines[at:])
        report = check_bytes(text.encode(), "generated.log", keep_going=True)
        assert report.status in ("legal", "illegal", "malformed"), [d.message for d in report.diagnostics]
        for d in report.errors:
            assert d.pos is not None and (d.rule or report.status == "malformed"), d.message

    check_one()


def test_the_words_of_a_ruling_reach_a_terminal_escaped(tmp_path, capsys):
    record = tmp_path / "ruled.log"
    record.write_text(OVERBID.replace("beige: buy 2", "beige: buy 2  # \x1b[2J\nruling void: \x1b[2Jall is well") + "beige: pass 2\n", encoding="utf-8")
    assert main(["check", str(record)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2Jall is well" in out


def test_a_rule_whose_message_is_written_only_when_broken_is_set_aside_like_any_other():
    from referee.errors import Violation
    from referee.games.base import require, waiving

    written = []

    def message():
        written.append(True)
        return "blue has 2 shillings"

    require(True, "canterbury/payment", message)
    assert written == []  # a rule that holds puts no message together
    with pytest.raises(Violation) as caught:
        require(False, "canterbury/payment", message)
    assert caught.value.rule == "canterbury/payment" and caught.value.message == "blue has 2 shillings"
    with waiving(["canterbury/payment"]):
        require(False, "canterbury/payment", message)  # set aside: no refusal
        with pytest.raises(Violation):
            require(False, "canterbury/supply", lambda: "no well is left")
        with pytest.raises(Violation):  # a fact of the pieces is never set aside
            require(False, "canterbury/payment", "blue has 2 shillings", waivable=False)


# --- rulings are bound by the pieces -----------------------------------------------------------


def _no_well_left():
    """A four-player Canterbury game at a turn of blue's with every Well built."""
    text = play_game("canterbury", 4, seed=0).split("\n")
    cut = 55
    while text[cut].startswith("check"):
        cut += 1
    record = "\n".join(text[:cut]) + "\n"
    state = check_bytes(record.encode(), "ruled.log", open_end=True).state
    assert state.board.supply["well"] == 0 and state.to_act() == "blue"
    return record


def test_a_ruling_cannot_build_a_structure_the_supply_no_longer_has(capsys):
    record = _no_well_left() + "blue: full build well c1\nruling accept: we did not see the sideboard\n"
    report = check_bytes(record.encode(), "ruled.log", open_end=True)
    assert report.status == "illegal"
    assert "canterbury/supply, which no ruling sets aside (a fact of the pieces)" in report.errors[0].message
    assert report.state.describe()["supply"]["well"] == 0


@pytest.mark.parametrize("game_name", ["canterbury", "hamburgum", "speicherstadt"])
def test_every_game_marks_the_rules_of_the_pieces_and_a_ruling_never_waives_them(game_name):
    game = load_game(game_name)
    fixed = [r for r in game.spec.rules.values() if not r.waivable]
    assert fixed and any(r.id.endswith("/seat") for r in fixed)
    assert any(r.waivable for r in game.spec.rules.values())


def test_a_state_with_fewer_than_no_pieces_cannot_be_held():
    state = check_bytes(_no_well_left().encode(), "ruled.log", open_end=True).state
    assert state.cannot_hold() is None
    state.board.supply["well"] = -1
    assert "the Well tiles left on the structure sideboard would be -1" in state.cannot_hold()


def test_the_rules_page_says_which_rules_a_ruling_may_set_aside():
    from pathlib import Path

    from referee.site import rules as page
    from referee.site.tables import GamePages
    from referee.site.tables import render as tables

    game = load_game("canterbury")
    doc = GamePages(game.spec, Path(__file__).resolve().parents[1])
    tables(doc)  # records the anchors the rules page links to
    text = page.render(doc)
    supply = text.split("{#supply}", 1)[1].split("\n### ", 1)[0]
    payment = text.split("{#payment}", 1)[1].split("\n### ", 1)[0]
    assert "a fact of the pieces: a ruling never sets it aside" in supply
    assert "a table's ruling may set it aside" in payment
