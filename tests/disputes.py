"""The tests of a dispute that every game runs with records of its own (tests/<game>/test_disputes.py).

A game's test class subclasses `DisputeCases` and fills in its records:

- `accepted`: a record whose one illegal move the table let stand (`ruling accept`), with a
  checkpoint after it that only the accepted move makes right; and the rule it set aside.
- `voided`: a record whose one illegal move the table took back (`ruling void`), and the rule
  it broke; the game goes on legally without it.
- `after_legal`: a ruling after a move that breaks no rule.
- `refused`: a ruling accept that the state cannot honour, and words of the reason.
- `problems`: a record with three independent problems and some that may follow from them, and
  what `check --keep-going` reports: (line, rule or None for an unreadable line, the line of the
  earlier problem it may follow from, or None), with the exit code.
"""

from __future__ import annotations

from referee.engine.replay import check_bytes
from referee.report.diagnostics import format_report, report_json


def check(text: str, keep_going: bool = False):
    return check_bytes(text.encode("utf-8"), "dispute.log", keep_going=keep_going)


def line_of(text: str, words: str) -> int:
    """The number of the line of `text` that is `words` (the last one, if several are)."""
    lines = text.split("\n")
    return max(i for i, line in enumerate(lines, 1) if line.strip() == words)


class DisputeCases:
    game: str
    accepted: tuple[str, str]
    voided: tuple[str, str]
    after_legal: str
    refused: tuple[str, str]
    problems: tuple[str, list[tuple[int, str | None, int | None]], int]

    def test_an_accepted_move_stands_and_the_record_is_legal(self):
        text, rule = self.accepted
        report = check(text)
        assert (report.status, report.exit_code) == ("legal", 0), [d.message for d in report.errors]
        assert report.checkpoints_confirmed >= 1  # the checkpoint after it counts the move as made
        [ruling] = report.rulings
        ruling_line = next(i for i, line in enumerate(text.split("\n"), 1) if line.startswith("ruling accept"))
        assert (ruling.verdict, ruling.rules, ruling.line, ruling.move_line) == ("accept", [rule], ruling_line, ruling_line - 1)
        assert ruling.text  # the table's words are kept
        shown = format_report(report)
        assert f"setting aside {rule}: {ruling.text}" in shown
        assert "resting on 1 ruling of the table" in shown
        assert report_json(report)["rulings"] == [{"line": ruling.line, "verdict": "accept", "move_line": ruling.move_line, "rules": [rule], "text": ruling.text}]

    def test_without_its_ruling_the_accepted_move_is_illegal(self):
        text, rule = self.accepted
        without = "\n".join(line for line in text.split("\n") if not line.startswith("ruling"))
        report = check(without)
        assert report.exit_code == 1 and report.errors[0].rule == rule

    def test_a_voided_move_is_skipped(self):
        text, rule = self.voided
        report = check(text)
        assert (report.status, report.exit_code) == ("legal", 0), [d.message for d in report.errors]
        [ruling] = report.rulings
        assert (ruling.verdict, ruling.rules) == ("void", [rule])
        assert "void line" in format_report(report)

    def test_a_ruling_after_a_legal_move_is_reported(self):
        report = check(self.after_legal)
        assert report.exit_code == 1
        [error] = report.errors
        assert error.rule == f"{self.game}/ruling" and "breaks no rule" in error.message
        assert error.pos.line == line_of(self.after_legal, self.after_legal.rstrip("\n").split("\n")[-1].strip())

    def test_a_ruling_that_cannot_be_honoured_is_reported_with_why(self):
        text, reason = self.refused
        report = check(text)
        assert report.exit_code == 1
        [error] = report.errors
        assert error.rule == f"{self.game}/ruling" and "cannot be honoured" in error.message and reason in error.message, error.message
        assert not report.rulings

    def test_keep_going_reports_every_problem_and_what_may_follow(self):
        text, expected, code = self.problems
        report = check(text, keep_going=True)
        assert report.exit_code == code
        got = [(d.pos.line, d.rule, d.follows) for d in report.errors]
        assert got == expected
        # each problem names its repair, or says that no edit helps and what the replay did
        assert all(d.repair or any(n.startswith("no repair found") for n in d.notes) for d in report.errors)
        data = report_json(report)
        assert [(d["line"], d["rule"], d["follows_line"]) for d in data["diagnostics"] if d["severity"] == "error"] == expected
        shown = format_report(report)
        for line, _, _follows in expected:
            assert f"dispute.log:{line}:" in shown
        assert shown.count("note: this may follow from the problem on line") == sum(1 for _, _, f in expected if f)

    def test_without_keep_going_the_first_stopping_problem_ends_the_replay(self):
        text, expected, _ = self.problems
        report = check(text)
        assert len(report.errors) < len(expected)
        assert all(d.follows is None for d in report.errors)
