"""The public API: a record read, a position driven one entry at a time, a replay with visitors."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

import referee
from referee.cli.main import main
from referee.notation.parser import Move, Ruling


def random_record(game: str, players: int, seed: int) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", game, "--players", str(players), "--seed", str(seed)]) == 0
    return out.getvalue()


@pytest.fixture(scope="module", params=["canterbury", "hamburgum", "speicherstadt"])
def game_record(request):
    text = random_record(request.param, 3, 5)
    record, game = referee.read_record(text, name=f"{request.param}.log")
    return text, record, game


def test_the_public_names_are_stated_and_importable():
    assert sorted(referee.__all__) == sorted(set(referee.__all__))
    for name in referee.__all__:
        assert getattr(referee, name) is not None


def test_a_position_driven_entry_by_entry_ends_as_the_replay_does(game_record):
    text, record, game = game_record
    position = referee.Position(game, record.header, record)
    position.resolve(record.entries)
    for index, entry in enumerate(record.entries):
        if isinstance(entry, Ruling):
            continue
        ruling = record.entries[index + 1] if index + 1 < len(record.entries) and isinstance(record.entries[index + 1], Ruling) else None
        outcome = position.apply(entry, ruling)
        assert outcome.verdict is referee.Verdict.LEGAL, outcome.diagnostics
    position.end()
    report = referee.replay(record, game)
    assert report.status is referee.Status.LEGAL and report.exit_code == 0
    assert position.is_over() and report.complete
    assert [(s.seat.colour, s.total) for s in position.standings()] == [(s.seat.colour, s.total) for s in report.standings]


def test_a_refused_move_leaves_the_position_and_names_its_rule(game_record):
    text, record, game = game_record
    position = referee.Position(game, record.header, record)
    position.resolve(record.entries)
    index = next(i for i, e in enumerate(record.entries) if isinstance(e, Move) and getattr(e, "player", None))
    for entry in record.entries[:index]:
        if isinstance(entry, Move):
            assert position.apply(entry).legal
    first = record.entries[index]
    played = position.moves
    seats = [s.colour for s in position.state.seats]
    other = next(c for c in seats if c != first.player)
    wrong = referee.read_entry(game, game.format_move(first).replace(first.player, other, 1), line=first.pos.line)
    outcome = position.apply(wrong)
    assert not outcome.played and outcome.verdict is referee.Verdict.ILLEGAL
    assert outcome.diagnostics[0].rule in game.spec.rules
    assert position.apply(first).legal and position.moves == played + 1


def test_restore_goes_back_to_the_snapshot_and_the_snapshot_stays_usable(game_record):
    text, record, game = game_record
    position = referee.Position(game, record.header, record)
    position.resolve(record.entries)
    moves = [e for e in record.entries if isinstance(e, Move)]
    mark = position.snapshot()
    before = position.state.describe()
    for move in moves[:5]:
        assert position.apply(move).legal
    assert position.state.describe() != before
    position.restore(mark)
    assert position.state.describe() == before and position.moves == 0
    for move in moves[:5]:
        assert position.apply(move).legal
    position.restore(mark)
    assert position.state.describe() == before
    assert position.legal_moves() == game.legal_moves(position.state)
    colour = position.state.seats[0].colour
    assert position.figures(colour) == position.state.figures(colour) and position.figures(colour)


class Counting(referee.Visitor):
    def __init__(self):
        self.played, self.began, self.ended = 0, 0, None

    def begin(self, position):
        self.began += 1

    def visit(self, outcome, position):
        self.played += outcome.played

    def end(self, position, replayed):
        self.ended = replayed

    def result(self):
        return self.played


def test_a_visitor_of_its_own_is_told_of_every_entry(game_record):
    text, record, game = game_record
    report_builder, counting = referee.ReportBuilder(name="x"), Counting()
    played = referee.replay(record, game, referee.Tee(counting, report_builder))
    assert played == counting.played == report_builder.report.moves > 0
    assert counting.began == 1 and counting.ended is True


def test_every_error_carries_its_exit_code():
    assert referee.UsageError("x").exit_code == 2
    assert referee.RecordError("x").exit_code == 3
    assert referee.SpecError("f", "k", "m").exit_code == 4
    assert referee.Violation("r", "m").exit_code == 1
    assert all(issubclass(e, referee.RefereeError) for e in (referee.UsageError, referee.RecordError, referee.SpecError, referee.Violation))
    assert [s.exit_code for s in referee.Status] == [0, 1, 3, 4, 5]
    assert referee.Status.LEGAL.worse("malformed") is referee.Status.MALFORMED


def test_a_record_without_a_game_tag_is_refused_with_a_position():
    with pytest.raises(referee.RecordError) as caught:
        referee.read_record("red: pass\n")
    assert caught.value.pos.line == 1


def test_a_blank_or_comment_line_is_no_entry():
    game = referee.load_game("canterbury")
    assert referee.read_entry(game, "") is None
    assert referee.read_entry(game, "   \t") is None
    assert referee.read_entry(game, "# a note of the table") is None


def test_a_ruling_applied_as_its_own_entry_decides_on_the_entry_before_it(game_record):
    text, record, game = game_record
    moves = [e for e in record.entries if isinstance(e, Move) and getattr(e, "player", None)]
    first = moves[0]
    before = record.entries[: record.entries.index(first)]
    other = next(s.colour for s in referee.Position(game, record.header).state.seats if s.colour != first.player)
    wrong = referee.read_entry(game, game.format_move(first).replace(first.player, other, 1), line=first.pos.line)

    def fresh():
        position = referee.Position(game, record.header, record)
        position.resolve(record.entries)
        for entry in before:
            assert position.apply(entry).legal
        return position

    for verdict in ("accept", "void"):
        ruling = referee.read_entry(game, f"ruling {verdict}: the table says so", line=first.pos.line + 1)
        paired, alone = fresh(), fresh()
        given = paired.apply(wrong, ruling)
        assert not alone.apply(wrong).legal  # refused, and kept for a ruling to decide on
        decided = alone.apply(ruling)
        assert decided.entry is wrong and decided.legal == given.legal and decided.played == given.played
        assert (decided.ruling.verdict, decided.ruling.rules) == (given.ruling.verdict, given.ruling.rules) == (verdict, given.ruling.rules)
        assert alone.state.describe() == paired.state.describe() and alone.moves == paired.moves and alone.rulings == paired.rulings
        again = alone.apply(ruling)  # a second ruling decides on nothing
        assert not again.legal and "another ruling" in str(again.diagnostics[0].message)

    void = referee.read_entry(game, "ruling void", line=first.pos.line + 1)
    kept = fresh()
    assert kept.apply(first, ruling_follows=True).played
    taken = kept.apply(void)  # on a legal move: an error, and the move is taken back all the same
    assert not taken.legal and taken.taken_back and not taken.played and kept.moves == fresh().moves
    assert kept.state.describe() == fresh().state.describe()
    stays = fresh()
    assert stays.apply(first).played
    said = stays.apply(void)  # the position before the move was not kept: the move stays
    assert not said.legal and not said.taken_back and stays.moves == fresh().moves + 1
    assert "breaks no rule" in str(said.diagnostics[0].message) and "taken back" not in str(said.diagnostics[0].message)
    alone = referee.Position(game, record.header, record)
    assert "follows no move" in str(alone.apply(void).diagnostics[0].message)


def test_ruling_adopt_as_its_own_entry_takes_the_figures_of_the_checkpoint_before_it():
    text = "\n".join(
        ['[Game "speicherstadt"]', '[Players "beige Ann, orange Ben"]', '[Start "beige"]', "", "reveal warehouse", "reveal fireman 3", "reveal contract coffee tea", "check beige: coins 7"]
    )
    record, game = referee.read_record(text + "\nruling adopt: Ann counted twice\n", name="adopt.log")
    position = referee.Position(game, record.header, record)
    outcomes = [position.apply(entry) for entry in record.entries]
    assert not outcomes[-2].legal and outcomes[-2].diagnostics[0].figure == ("beige", "coins")
    assert outcomes[-1].legal and outcomes[-1].entry is record.entries[-2] and outcomes[-1].ruling.verdict == "adopt"
    assert position.figures("beige", {"coins"}) == {"coins": 7} and [r.verdict for r in position.rulings] == ["adopt"]
    assert [r.verdict for r in referee.replay(record, game).rulings] == ["adopt"]


def test_the_examples_of_the_api_page_run(tmp_path, monkeypatch, capsys):
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) >= 4
    lines = [
        '[Game "speicherstadt"]',
        '[Players "beige Ann, orange Ben"]',
        '[Start "beige"]',
        "",
        "reveal warehouse",
        "reveal fireman 3",
        "reveal contract coffee tea",
        "beige: place 2",
        "orange: place 1",
    ]
    (tmp_path / "night.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    for block in blocks:  # one after another, as a reader types them
        exec(compile(block, "docs/api.md", "exec"), scope)
    assert scope["played"] == 5 and scope["decided"].ruling.rules == ["speicherstadt/demand-turn"]
