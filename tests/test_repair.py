"""Slips and repairs: `check --keep-going` gives one diagnostic per slip with the edit that
repairs it, `referee repair` writes the repaired record, a plain check reports in line order.
The share of random slips repaired is measured by benchmarks/slips.py, not here."""

from __future__ import annotations

import functools
import random
import re
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import slips  # noqa: E402

from referee.cli.main import main  # noqa: E402
from referee.engine.repair import MAX_SEARCHES, repaired_text  # noqa: E402
from referee.engine.replay import KEEP_GOING_HINT, check_bytes  # noqa: E402
from referee.lab.random_game import play_game  # noqa: E402


@functools.cache
def game_record(game: str) -> str:
    return play_game(game, 3, seed=11)


def check(text: str, keep_going: bool = True):
    return check_bytes(text.encode("utf-8"), "game.log", keep_going=keep_going)


# the slip of each kind that a seed puts in; a slip that leaves the record legal is
# invisible to any referee, so the seeds are ones whose slip the rules can see
SEEDS = {("canterbury", "missing"): 3}


@pytest.mark.parametrize("game", ["speicherstadt", "canterbury", "hamburgum"])
@pytest.mark.parametrize("kind", slips.KINDS)
def test_a_slip_of_every_kind_in_every_game_is_one_problem_repaired_to_the_original(game, kind):
    original = game_record(game)
    lines = original.split("\n")
    colours = re.search(r'\[Players "([^"]*)"\]', original).group(1).split(", ")
    slipped = "\n".join(slips.slip(lines, kind, random.Random(SEEDS.get((game, kind), 1)), colours))
    assert slipped != original
    report = check(slipped)
    assert len(report.errors) == 1, [d.message for d in report.errors]
    assert report.errors[0].repair and len(report.repairs) == 1
    repaired = repaired_text(slipped, report.repairs, mark=False)
    assert repaired == original or slips.same_game(repaired, original)


def _three_slips() -> tuple[str, str]:
    """A Speicherstadt game with a wrong coin figure at a checkpoint, a misspelt card and a
    worker placed by the wrong player, in that order."""
    original = game_record("speicherstadt")
    lines = original.split("\n")
    checks = [i for i, line in enumerate(lines) if line.startswith("check ") and "coins" in line]
    at_check = checks[3]
    lines[at_check] = re.sub(r"coins (\d+)", lambda m: f"coins {int(m.group(1)) + 7}", lines[at_check])
    reveal = next(i for i in range(at_check + 1, len(lines)) if lines[i].startswith("reveal ") and "-" in lines[i])
    lines[reveal] = lines[reveal].replace("-", "", 1)  # coffee-roaster -> coffeeroaster
    place = next(i for i in range(reveal + 1, len(lines)) if ": place " in lines[i])
    actor = lines[place].split(":")[0]
    lines[place] = lines[place].replace(actor, next(c for c in ("beige", "orange", "purple") if c != actor), 1)
    return original, "\n".join(lines)


def test_three_slips_are_three_problems_each_with_its_repair():
    original, slipped = _three_slips()
    report = check(slipped)
    errors = report.errors
    assert [d.rule for d in errors] == ["speicherstadt/checkpoint", None, "speicherstadt/demand-turn"]
    original_lines = original.split("\n")
    for d in errors:
        assert d.repair, d.message
        assert d.repair.startswith(original_lines[d.pos.line - 1] + " (the next ")
    assert "checkpoint" in errors[2].repair  # e.g. "(the next 262 lines and 29 checkpoints agree with it)"
    assert repaired_text(slipped, report.repairs, mark=False) == original


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_repairs_are_proposed_in_the_readers_language(lang, tmp_path, capsys):
    from referee.i18n import localized, speaking

    original, slipped = _three_slips()
    path = tmp_path / "game.log"
    path.write_text(slipped, encoding="utf-8")
    assert main(["--lang", lang, "check", "--keep-going", str(path)]) == 3
    out = capsys.readouterr().out
    report = check(slipped)
    with speaking(lang):
        proposals = [localized(d.repair) for d in report.errors]
    for proposal, d in zip(proposals, report.errors):
        assert proposal != d.repair and proposal.startswith(original.split("\n")[d.pos.line - 1] + " (")  # the line itself as written
        assert proposal in out
    assert "agree with it" not in out


def test_a_plain_check_reports_in_line_order_and_hints_at_keep_going():
    original, slipped = _three_slips()
    report = check(slipped, keep_going=False)
    assert [d.rule for d in report.errors] == ["speicherstadt/checkpoint", None]  # the checkpoint first
    assert report.exit_code == 3
    assert KEEP_GOING_HINT in report.errors[-1].notes
    assert all(d.repair is None for d in report.errors)  # a plain check proposes nothing


def test_a_forgotten_line_is_one_problem_proposing_it():
    lines = game_record("speicherstadt").split("\n")
    passes = [i for i, line in enumerate(lines) if ": pass " in line]
    forgotten = lines.pop(passes[4])
    report = check("\n".join(lines))
    assert len(report.errors) == 1
    assert report.errors[0].repair.startswith(f"a line missing before it: {forgotten} (the next ")


def test_a_contradicted_checkpoint_stays_one_diagnostic_and_changes_nothing_after_it():
    lines = game_record("canterbury").split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith("check ") and "money" in line and i > 40)
    lines[i] = re.sub(r"money (\d+)", lambda m: f"money {int(m.group(1)) + 3}", lines[i])
    report = check("\n".join(lines))
    assert len(report.errors) == 1 and report.errors[0].figure
    assert report.complete and report.errors[0].ledger  # its ledger is shown as before


def test_several_slips_in_several_games():
    for game in ("canterbury", "hamburgum"):
        original = game_record(game)
        lines = original.split("\n")
        colours = re.search(r'\[Players "([^"]*)"\]', original).group(1).split(", ")
        moves = slips.move_lines(lines)
        third = len(moves) // 3
        # one slip in each third of the record, so that each one is read apart from the others
        for k, kind in enumerate(("name", "player")):
            i = moves[(k + 1) * third]
            part = slips.slip(lines[: i + 1], kind, random.Random(i), colours)
            lines = part + lines[i + 1 :] if part is not None else lines
        report = check("\n".join(lines))
        assert len(report.errors) == len(report.repairs) == 2
        assert repaired_text("\n".join(lines), report.repairs, mark=False) == original


def test_repair_writes_the_repaired_record_and_leaves_the_file_alone(tmp_path, capsys):
    original, slipped = _three_slips()
    record = tmp_path / "game.log"
    record.write_text(slipped, encoding="utf-8")
    out = tmp_path / "fixed.log"
    assert main(["repair", str(record), "-o", str(out)]) == 0
    assert record.read_text(encoding="utf-8") == slipped
    fixed = out.read_text(encoding="utf-8")
    assert fixed.count("# repaired line ") == 3
    assert "\n".join(line for line in fixed.split("\n") if not line.startswith("# repaired")) == original
    assert main(["check", str(out)]) == 0
    capsys.readouterr()
    assert main(["repair", str(record)]) == 0  # to standard output
    assert capsys.readouterr().out.rstrip("\n") == fixed.rstrip("\n")
    assert main(["repair", "--in-place", str(record)]) == 0
    assert record.read_text(encoding="utf-8") == fixed


def test_repair_refuses_what_it_cannot_do(tmp_path, capsys):
    record = tmp_path / "game.log"
    record.write_text(game_record("speicherstadt"), encoding="utf-8")
    assert main(["repair", "--in-place", "-o", str(tmp_path / "x.log"), str(record)]) == 2
    assert main(["repair", "-o", str(record), str(record)]) == 2
    assert main(["repair", "--in-place", "-"]) == 2
    capsys.readouterr()
    assert main(["repair", str(record), "-o", str(tmp_path / "same.log")]) == 0
    assert "nothing to repair" in capsys.readouterr().err
    garbled = tmp_path / "garbled.log"
    lines = game_record("speicherstadt").split("\n")
    garbled.write_text("\n".join(lines[:20] + ["beige: place 9 and more words"] * 3 + ["orange: fly away"] + lines[20:]), encoding="utf-8")
    target = tmp_path / "never.log"
    code = main(["repair", str(garbled), "-o", str(target)])
    if code != 0:  # what no edit repairs is listed, and nothing is written
        assert not target.exists() and "not written" in capsys.readouterr().err


def test_a_record_full_of_garbage_finishes_within_its_bounds():
    lines = game_record("speicherstadt").split("\n")
    rng = random.Random(3)
    moves = slips.move_lines(lines)
    for i in rng.sample(moves, 60):
        lines[i] = rng.choice(["beige: place 7", "purple: buy 9", "reveal fire 9", "orange: contract 2 tea"])
    start = time.perf_counter()
    report = check("\n".join(lines))
    assert time.perf_counter() - start < 30  # a generous bound on a shared machine; typically a few seconds
    assert report.replayed and len(report.errors) >= 30
    assert any(f"no repair is searched after {MAX_SEARCHES} problems" in n for d in report.errors for n in d.notes)


def _mispaid(game: str, figure: str, by: int, ruling: str | None) -> str:
    """A game whose table wrote `by` too many of a figure at its fifth checkpoint of the
    first seat and played on from it: every later checkpoint of that seat states it too
    (and the final scores, which count money in some games, are not stated)."""
    lines = [line for line in game_record(game).split("\n") if not line.startswith("result ")]  # money scores
    colour = re.search(r'\[Players "([^",]*)', lines[1] if lines[1].startswith("[Players") else "\n".join(lines)).group(1).split()[0]
    checks = [i for i, line in enumerate(lines) if line.startswith(f"check {colour}:") and f"{figure} " in line]
    first = checks[4]
    for i in checks[4:]:
        lines[i] = re.sub(rf"{figure} (\d+)", lambda m: f"{figure} {int(m.group(1)) + by}", lines[i])
    if ruling:
        lines.insert(first + 1, ruling)
    return "\n".join(lines)


@pytest.mark.parametrize("game, figure", [("speicherstadt", "coins"), ("hamburgum", "money"), ("canterbury", "money")])
def test_ruling_adopt_takes_the_tables_figures_and_checks_the_rest_from_them(game, figure):
    unruled = check(_mispaid(game, figure, 2, None), keep_going=False)
    assert unruled.exit_code == 1 and len(unruled.errors) > 1  # every later checkpoint disagrees
    report = check(_mispaid(game, figure, 2, "ruling adopt: paid twice by mistake"), keep_going=False)
    assert report.exit_code == 0, [d.message for d in report.errors]
    [ruling] = report.rulings
    assert ruling.verdict == "adopt" and f" {figure} " in ruling.adopted
    from referee.report.diagnostics import format_report

    assert "adopt the figures of line" in format_report(report)


def test_ruling_adopt_is_refused_where_it_has_nothing_to_adopt_or_cannot_be():
    agreeing = _mispaid("speicherstadt", "coins", 0, "ruling adopt")
    [error] = check(agreeing, keep_going=False).errors
    assert error.rule == "speicherstadt/ruling" and "agree with every figure" in error.message
    below = _mispaid("speicherstadt", "coins", -50, "ruling adopt")
    errors = check(below, keep_going=False).errors
    assert errors[1].rule == "speicherstadt/ruling" and "cannot be honoured" in errors[1].message


def test_a_contradicted_checkpoint_in_a_session_may_be_adopted(tmp_path, capsys):
    from tests.test_record import feed

    lines = game_record("speicherstadt").split("\n")
    at = [i for i, line in enumerate(lines) if line.startswith("check orange:")][3]
    wrong = re.sub(r"coins (\d+)", lambda m: f"coins {int(m.group(1)) + 7}", lines[at])
    path = tmp_path / "game.log"
    path.write_text("\n".join(lines[:at]) + "\n", encoding="utf-8")
    assert feed(path, [wrong, "ruling adopt: the bank paid orange twice", wrong]) == 0
    out = capsys.readouterr().out
    assert "record that with `ruling adopt` next" in out
    assert "the last changes of orange coins up to line" in out  # the ledger, as check shows it
    assert path.read_text().endswith(f"{wrong}\nruling adopt: the bank paid orange twice\n{wrong}\n")
    assert check(path.read_text(), keep_going=False).exit_code == 0


def test_resuming_a_record_with_a_slip_offers_its_repair(tmp_path, capsys):
    from tests.test_record import feed

    original, slipped = _three_slips()
    path = tmp_path / "game.log"
    path.write_text(slipped, encoding="utf-8")
    assert feed(path, ["y"]) == 0
    out = capsys.readouterr().out
    assert "with 3 repairs the whole record replays" in out
    assert "\n".join(line for line in path.read_text().split("\n") if not line.startswith("# repaired")) == original
    assert (tmp_path / "game.log.before-repair").read_text(encoding="utf-8") == slipped


def test_explain_works_inside_a_session(tmp_path, capsys):
    from tests.test_record import feed

    path = tmp_path / "game.log"
    path.write_text("\n".join(game_record("speicherstadt").split("\n")[:30]) + "\n", encoding="utf-8")
    assert feed(path, ["explain orange coins", "explain orange wealth", "explain nobody coins"]) == 0
    out = capsys.readouterr().out
    assert "orange coins at the end of the record" in out and "bought the" in out
    assert "explain: orange has no figure 'wealth'" in out and "explain: no player 'nobody'" in out


@pytest.mark.parametrize(
    "game, line, nth",
    [
        ("speicherstadt", "reveal ship carpet carpet saffron", 0),  # the cubes drawn, from the hint's placeholder
        ("speicherstadt", "reveal fireman 5", 1),  # the value shown, from the hint's number range
        ("canterbury", "red: full build well b2, well e2", 0),  # one of thousands of builds, screened
    ],
)
def test_a_missing_line_the_legal_moves_write_short_or_list_late_is_put_back(game, line, nth):
    original = game_record(game)
    lines = original.split("\n")
    at = [i for i, written in enumerate(lines) if written == line][nth]
    slipped = "\n".join(lines[:at] + lines[at + 1 :])
    report = check(slipped)
    assert len(report.errors) == 1, [d.message for d in report.errors]
    assert line in report.errors[0].repair
    repaired = repaired_text(slipped, report.repairs, mark=False)
    assert repaired == original
    assert not check(repaired, keep_going=False).errors  # the repair, applied, replays legal


def test_fillings_of_a_hint_are_every_way_to_write_its_placeholders():
    from referee.engine.repair import _fillings

    assert _fillings("reveal fireman <value 1-3>", lambda p: []) == ["reveal fireman 1", "reveal fireman 2", "reveal fireman 3"]
    ships = _fillings("reveal ship <3 cubes from the bag>", lambda p: ["tea", "coffee"])
    assert ships == ["reveal ship coffee coffee coffee", "reveal ship coffee coffee tea", "reveal ship coffee tea tea", "reveal ship tea tea tea"]
    assert _fillings("reveal x <name>", lambda p: ["a"]) == []  # a placeholder of no known kind: nothing


def test_a_build_of_two_left_out_among_thousands_of_legal_builds_is_one_problem():
    # 3,835 legal builds where red's line is missing: more than a record's screening reads
    # one by one, so they are screened by the figures they leave; before, the first 120
    # listed were tried, a wrong build was put back and every later checkpoint of red's
    # disagreed (42 problems)
    original = play_game("canterbury", 3, seed=1574954820)
    lines = original.split("\n")
    at = lines.index("red: full build watchtower b2, chapel b4")
    slipped = "\n".join(lines[:at] + lines[at + 1 :])
    report = check(slipped)
    assert len(report.errors) == 1, [d.message for d in report.errors]
    [repair] = report.repairs
    assert repair.kind == "missing" and sorted(repair.lines[0].split(": full build ")[1].split(", ")) == ["chapel b4", "watchtower b2"]
    repaired = repaired_text(slipped, report.repairs, mark=False)
    after, before = check(repaired, keep_going=False), check(original, keep_going=False)
    assert not after.errors and [(s.seat.colour, s.total) for s in after.standings] == [(s.seat.colour, s.total) for s in before.standings]


@pytest.mark.parametrize(
    "game, players, seed, at, slipped",
    [
        # a misspelt name put right, not left out: both read to the end alike
        ("speicherstadt", 3, 624070721, 30, "reveal contract carept coffee rubber rubber"),
        # a hyphenated name misspelt in a guildhall move of three houses
        ("hamburgum", 4, 1036079676, 168, "green: guildhall brewery at petri 6, waeving-mill at petri 7, office at michaelis 4"),
        # two edits of an earlier line agree with the checkpoint that shows the slip: the one
        # that reads on further (3 brick 1 wood, not 4 brick 0 wood)
        ("hamburgum", 3, 2072391340, 170, "green: trade buy 4 brick 1 wood"),
        # a district one off that the checkpoints after it let through, shown by a move two
        # checkpoint groups later
        ("canterbury", 3, 877913884, 118, "blue: full build stage d4 demolish well garden, church e3 demolish chapel stall"),
        # a fire's points one off, which only the checkpoints at the round's end read
        ("speicherstadt", 4, 1005141944, 211, "reveal fire 2"),
        # a ship left out where contracts alone would fill the lines tried
        ("speicherstadt", 4, 375167019, 71, None),
        # a ship left out in the middle of Supply: a later purchase names its slot
        ("speicherstadt", 3, 1853623402, 259, None),
    ],
)
def test_a_slip_that_reads_on_alike_or_shows_late_is_repaired_to_the_original(game, players, seed, at, slipped):
    original = play_game(game, players, seed=seed)
    lines = original.split("\n")
    text = "\n".join(lines[:at] + ([slipped] if slipped is not None else []) + lines[at + 1 :])
    report = check(text)
    assert len(report.errors) == 1, [d.message for d in report.errors]
    assert lines[at] in report.errors[0].repair
    assert slips.same_game(repaired_text(text, report.repairs, mark=False), original)


def test_the_searches_of_a_record_stop_once_they_have_tried_their_share_of_positions(monkeypatch):
    """Past MAX_TRIALS positions gone back to, the problems that follow get no search: a record
    of many slips that are each hard to repair is still checked in the time of any record."""
    import referee.engine.repair as repair

    original, slipped = _three_slips()
    monkeypatch.setattr(repair, "MAX_TRIALS", 1)  # the first search tries more than one
    errors = check(slipped).errors
    assert errors[0].repair and not any(d.repair for d in errors[1:])  # the first search, then none
    assert repair.TRIALS_NOTE in errors[1].notes and not any(repair.TRIALS_NOTE in d.notes for d in errors[2:])  # said once
