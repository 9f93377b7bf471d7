"""`referee record`: each line checked before it is written, undo, resume, nothing lost.

The session is driven here through its non-terminal side (`record_stream`, lines from a
byte stream), which is the same session the terminal's line editor drives
(tests/test_record_prompt.py); the command itself is run as a process where the exit code,
standard input that is not a terminal, or a kill -9 matter.
"""

from __future__ import annotations

import datetime
import io
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.engine.replay import check_bytes
from referee.errors import UsageError
from referee.lab.random_game import play_game
from referee.recording.durable import replace_synced
from referee.recording.session import Changed, Recording, open_recording, record_stream
from referee.report.diagnostics import format_diagnostic, format_report
from referee.terminal import visible

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"
TODAY = datetime.date.today().isoformat()


def header(game: str, players: str, start: str) -> str:
    return f'[Game "{game}"]\n[Players "{players}"]\n[Start "{start}"]\n[Date "{TODAY}"]\n'


def feed(path: Path, lines: list[str], **options) -> int:
    return record_stream(str(path), io.BytesIO("".join(f"{line}\n" for line in lines).encode()), **options)


def no(question: str) -> str:
    raise AssertionError(f"unexpected question: {question}")


def started(path: Path, game="speicherstadt", players="beige Ann, orange Ben, purple Cleo") -> Recording:
    recording, new = open_recording(str(path), no, game=game, players=players)
    assert new
    return recording


def sample_body() -> list[str]:
    """The sample game's lines after its header."""
    lines = SAMPLE.read_text().split("\n")
    return lines[lines.index("") + 1 :]


# --- a new record --------------------------------------------------------------------------


def test_a_new_record_gets_its_header_from_the_options_and_today_as_its_date(tmp_path):
    path = tmp_path / "game.log"
    assert feed(path, [], game="canterbury", players="blue Ann, red Ben", start="red") == 0
    assert path.read_text() == header("canterbury", "blue Ann, red Ben", "red") + '[Variant "two-player"]\n'
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def test_a_new_record_needs_a_game_and_players(tmp_path):
    result = subprocess.run([sys.executable, "-m", "referee", "record", str(tmp_path / "new.log")], input="", capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert "needs --game and --players" in result.stderr
    assert not (tmp_path / "new.log").exists()


def test_options_that_a_record_cannot_have_are_a_usage_error_and_write_nothing(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "referee", "record", str(tmp_path / "new.log"), "--game", "speicherstadt", "--players", "pink Ann, blue Ben"], input="", capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2
    assert "unknown colour 'pink'" in result.stderr
    assert not (tmp_path / "new.log").exists()


# --- each line checked -----------------------------------------------------------------------


def test_a_legal_line_is_in_the_file_before_the_next_prompt(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    outcome = recording.enter("reveal warehouse")
    assert outcome.accepted
    assert path.read_text().endswith("\nreveal warehouse\n")
    assert recording.prompt() == "2 · round 1 · Supply · reveal the next card of the Winter (A) stack > "


def test_names_in_any_language_and_players_by_name_are_taken_as_in_a_record(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    for line in ("round 1", "reveal Raktár", "reveal kávépörkölő", "reveal szerződés kávé tea", "reveal Teakóstoló", "Ann: place 1"):
        assert recording.enter(line).accepted, line
    assert path.read_text().endswith("\nAnn: place 1\n")
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def refused_as_check_refuses_it(recording, path, line: str):
    """Enter a line the rules refuse: it is not written, and the session shows it as `check`
    reports the record with that line. Returns the outcome and that report."""
    before = path.read_bytes()
    outcome = recording.enter(line)
    assert not outcome.accepted
    assert path.read_bytes() == before
    report = check_bytes(before + line.encode() + b"\n", str(path))
    assert outcome.messages[0] == visible(format_diagnostic(report, report.errors[0]), keep_lines=True)
    return outcome, report


def test_a_rejected_line_is_not_written_and_is_shown_as_check_shows_it(tmp_path):
    path = tmp_path / "game.log"
    outcome, report = refused_as_check_refuses_it(started(path), path, "beige: place 2")
    assert report.status == "illegal"
    assert "error[speicherstadt/phase-order]" in outcome.messages[0]


def test_a_rejected_move_comes_with_the_nearest_legal_moves(tmp_path):
    recording = started(tmp_path / "game.log", players="beige Ann, orange Ben")
    for line in ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea"]:
        assert recording.enter(line).accepted
    outcome = recording.enter("beige: place 7")
    assert not outcome.accepted
    nearest = next(m for m in outcome.messages if m.startswith("nearest legal moves:")).split("\n")[1:]
    assert [m.strip() for m in nearest] == ["beige: place 1", "beige: place 2", "beige: place 3"]


def test_a_misspelt_name_is_refused_with_the_nearest_name_and_moves(tmp_path):
    recording = started(tmp_path / "game.log")
    outcome = recording.enter("reveal warehose")
    assert not outcome.accepted
    assert "unknown card 'warehose' (did you mean 'warehouse'?)" in outcome.messages[0]
    assert "  reveal warehouse" in next(m for m in outcome.messages if m.startswith("nearest legal moves:"))


def test_checkpoints_and_comments_are_checked_as_in_a_record(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    assert recording.enter("# the table's own notes").accepted
    assert recording.enter("check beige: coins 5, points 0").accepted
    wrong = recording.enter("check orange: coins 4")
    assert not wrong.accepted
    assert "error[speicherstadt/checkpoint]: orange coins recorded as 4, but the rules give 5" in wrong.messages[0]
    assert path.read_text().endswith("# the table's own notes\ncheck beige: coins 5, points 0\n")


def test_a_header_tag_is_taken_before_the_first_move_only(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    assert recording.enter('[Event "club night"]').accepted
    assert recording.enter("reveal warehouse").accepted
    late = recording.enter('[Round "one"]')
    assert not late.accepted
    assert "a header tag belongs before the first move" in late.messages[0]
    report = check_bytes(path.read_bytes(), "game.log")
    assert report.status == "legal" and report.record.header.get("event") == "club night"


def test_a_move_number_is_checked(tmp_path):
    recording = started(tmp_path / "game.log")
    assert recording.enter("1. reveal warehouse").accepted
    wrong = recording.enter("5. reveal fireman 3")
    assert not wrong.accepted and "move number 5, but this is move 2" in wrong.messages[0]


def test_a_line_no_record_may_hold_is_refused(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    before = path.read_bytes()
    for line in ["reveal warehouse\x00", "x" * 10_001, "reveal warehouse\rreveal fireman 3"]:
        assert not recording.enter(line).accepted
    assert path.read_bytes() == before


def test_the_prompt_says_where_the_game_is():
    body = sample_body()
    text = SAMPLE.read_text()
    cut = text.index("beige: buy 3")  # round 1, Purchase: slot 3 is offered to beige
    report = check_bytes(text[:cut].encode(), "sample.log", open_end=True)
    recording = Recording("sample.log", [], text[:cut], report)
    assert recording.prompt() == "16 · round 1 · Purchase · slot 3 offered to beige at 1 coin > "
    assert body  # the sample has moves after its header


# --- the end of the game -----------------------------------------------------------------------


@pytest.mark.parametrize("game, players", [("speicherstadt", 3), ("hamburgum", 3), ("canterbury", 3)])
def test_a_random_game_typed_line_by_line_gives_the_same_file(tmp_path, capsys, game, players):
    text = play_game(game, players, seed=23)
    lines = text.split("\n")
    seated = lines[1].split('"')[1]
    start = lines[2].split('"')[1]
    path = tmp_path / "game.log"
    typed = lines[4:-1]  # from the [Event] tag on; the options give the four tags before it
    assert feed(path, typed, game=game, players=seated, start=start) == 0
    out = capsys.readouterr().out
    assert path.read_text() == text
    assert "not recorded" not in out
    # the final standings, printed as check prints them, when the game ended
    final = check_bytes(path.read_bytes(), str(path))
    assert final.complete
    assert "final standings:" in out and "winner:" in out
    standings = format_report(final).split("final standings:\n", 1)[1].split("\n")[0]
    assert standings in out


def test_a_result_before_the_end_is_refused(tmp_path):
    recording = started(tmp_path / "game.log")
    outcome = recording.enter("result beige 0, orange 0, purple 0")
    assert not outcome.accepted
    assert "a result is stated but the game is not over" in outcome.messages[0]


# --- undo --------------------------------------------------------------------------------------


def test_undo_takes_the_last_line_back_by_cutting_the_file_where_it_stands(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    assert recording.enter("reveal warehouse").accepted
    kept = path.read_bytes()
    assert recording.enter("reveal fireman 3").accepted
    assert recording.enter("").accepted
    inode = path.stat().st_ino
    outcome = recording.undo()
    assert outcome.accepted and outcome.messages == ["took back line 6: reveal fireman 3"]
    assert path.read_bytes() == kept
    assert path.stat().st_ino == inode  # cut in place: the session's lock and any link stay on the record
    assert not [p for p in tmp_path.iterdir() if p.name != "game.log"]  # no temporary file left
    assert recording.prompt().startswith("2 · round 1 · Supply")
    assert recording.enter("reveal fireman 3").accepted


def test_undo_does_not_take_the_header(tmp_path):
    path = tmp_path / "game.log"
    recording = started(path)
    before = path.read_bytes()
    outcome = recording.undo()
    assert not outcome.accepted and "nothing to take back" in outcome.messages[0]
    assert path.read_bytes() == before


def test_an_undo_that_cannot_rewrite_the_file_leaves_it_and_the_game_as_they_were(tmp_path, monkeypatch):
    path = tmp_path / "game.log"
    recording = started(path)
    assert recording.enter("reveal warehouse").accepted
    before = path.read_bytes()

    def fail(fd, size):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "ftruncate", fail)
    outcome = recording.undo()
    assert not outcome.accepted and "Input/output error" in outcome.messages[0]
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name != "game.log"]
    assert recording.prompt().startswith("2 ·")


def test_a_rewrite_stopped_half_way_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "game.log"
    path.write_bytes(b"old content\n")

    def killed(fd):
        raise KeyboardInterrupt  # the process stops before the new file is on the disk

    monkeypatch.setattr(os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        replace_synced(str(path), b"new content\n")
    assert path.read_bytes() == b"old content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.log"]


# --- resume ------------------------------------------------------------------------------------


def test_an_existing_record_is_resumed_at_its_end(tmp_path, capsys):
    path = tmp_path / "game.log"
    text = SAMPLE.read_text()
    cut = text.index("beige: buy 3")
    path.write_text(text[:cut])
    assert feed(path, ["beige: buy 3"]) == 0
    out = capsys.readouterr().out
    assert "recording goes on after move 15" in out
    assert path.read_text() == text[:cut] + "beige: buy 3\n"


def test_options_that_agree_with_the_header_resume_and_others_are_refused(tmp_path):
    path = tmp_path / "game.log"
    started(path, players="beige Ann, orange Ben").close()
    recording, new = open_recording(str(path), no, game="speicherstadt", players="beige Ann, orange Ben")
    assert not new
    recording.close()
    for options in ({"game": "canterbury"}, {"players": "beige Ann, purple Ben"}, {"start": "orange"}):
        with pytest.raises(Exception, match="to resume it"):
            open_recording(str(path), no, **options)


def test_a_file_without_a_final_line_break_is_continued_on_a_new_line(tmp_path):
    path = tmp_path / "game.log"
    path.write_text(header("speicherstadt", "beige, orange", "beige") + "reveal warehouse")
    assert feed(path, ["reveal fireman 3"]) == 0
    assert path.read_text().endswith("reveal warehouse\nreveal fireman 3\n")


def broken(tmp_path) -> tuple[Path, str, str]:
    """A record whose line 9 breaks a rule, and what lies before and after it."""
    good = header("speicherstadt", "beige, orange", "beige") + "reveal warehouse\nreveal fireman 3\nreveal contract coffee tea\nbeige: place 1\n"
    rest = "beige: place 2\norange: place 1\n"
    path = tmp_path / "game.log"
    path.write_text(good + rest)
    return path, good, rest


def test_a_failing_record_goes_on_after_its_last_good_line_when_the_user_agrees(tmp_path, capsys):
    path, good, rest = broken(tmp_path)
    assert feed(path, ["n", "y", "orange: place 1"]) == 0  # no to the repair (test_repair.py), yes to the cut
    out = capsys.readouterr().out
    assert "game.log:9:1: error[speicherstadt/demand-turn]" in out
    assert "lines 1-8 replay without error" in out and "keeping lines 9-10 in" in out
    assert path.read_text() == good + "orange: place 1\n"
    assert (tmp_path / "game.log.rejected").read_text() == rest


def test_a_failing_record_is_left_as_it_is_when_the_user_declines(tmp_path, capsys):
    path, good, rest = broken(tmp_path)
    result = subprocess.run([sys.executable, "-m", "referee", "record", str(path)], input="n\n", capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1  # what check says of the file
    assert path.read_text() == good + rest
    assert not (tmp_path / "game.log.rejected").exists()


def test_rejected_lines_never_overwrite_an_earlier_rejected_file(tmp_path):
    path, good, rest = broken(tmp_path)
    (tmp_path / "game.log.rejected").write_text("kept from before\n")
    assert feed(path, ["no", "yes"]) == 0
    assert (tmp_path / "game.log.rejected").read_text() == "kept from before\n"
    assert (tmp_path / "game.log.rejected.2").read_text() == rest


def test_a_malformed_line_is_cut_off_like_an_illegal_one(tmp_path):
    path = tmp_path / "game.log"
    good = header("speicherstadt", "beige, orange", "beige") + "reveal warehouse\n"
    path.write_text(good + "reveal warehouse fireman\x01\n")
    assert feed(path, ["n", "y"]) == 0
    assert path.read_text() == good


# --- the command, as a process -------------------------------------------------------------------


def test_piped_lines_that_are_not_all_recorded_exit_non_zero(tmp_path):
    path = tmp_path / "game.log"
    result = subprocess.run(
        [sys.executable, "-m", "referee", "record", str(path), "--game", "speicherstadt", "--players", "beige, orange"],
        input="reveal warehouse\nbeige: place 1\nreveal fireman 3\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 1, result.stdout + result.stderr  # the file alone checks as legal: a line was refused
    assert "error[speicherstadt/phase-order]" in result.stdout and "line 6 is not recorded" in result.stdout
    assert path.read_text().endswith('[Date "' + TODAY + '"]\nreveal warehouse\nreveal fireman 3\n')
    assert "traceback" not in (result.stdout + result.stderr).lower()


def test_a_kill_at_any_moment_leaves_a_prefix_that_check_accepts_and_record_resumes(tmp_path):
    text = play_game("speicherstadt", 3, seed=5)
    lines = text.split("\n")
    typed = lines[4:-1]
    path = tmp_path / "game.log"
    command = [sys.executable, "-m", "referee", "record", str(path), "--game", "speicherstadt", "--players", "beige, orange, purple", "--start", "beige"]
    for stop_after in (40, 90, 160):
        process = subprocess.Popen(command if not path.exists() else command[:5], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        written = path.read_text() if path.exists() else ""
        resume_from = written.count("\n") - 4 if written else 0
        batch = typed[resume_from:stop_after]
        process.stdin.write("".join(f"{line}\n" for line in batch).encode())
        process.stdin.flush()
        if stop_after != 90:  # wait until some of the lines are in, then kill mid-stream
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and (not path.exists() or path.read_text().count("\n") < 4 + resume_from + len(batch) // 2):
                time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.wait()
        kept = path.read_text()
        assert text.startswith(kept) and kept.endswith("\n")  # whole lines of the game, in order
        assert check_bytes(kept.encode(), "game.log").status == "legal"
    written = path.read_text().count("\n") - 4
    assert feed(path, typed[written:]) == 0
    assert path.read_text() == text


def test_the_getting_started_page_shows_what_record_prints(tmp_path, monkeypatch, capsys):
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    section = page.split("## Record a game at the table, step by step", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in section.split("```text\n")[1:]]
    prompt, rejected = blocks[0].strip(), next(b for b in blocks if "error[" in b)
    monkeypatch.chdir(tmp_path)
    recording = started(Path("club-night.log"))
    assert recording.prompt() == prompt + " "
    recording.close()
    # piped lines that are not all recorded: the exit code says so (1, a rule refused one)
    assert feed(Path("club-night.log"), ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea", "reveal spice-trader", "beige: place 2", "orange: place 5"]) == 1
    out = capsys.readouterr().out.split("\n")
    shown = [line.strip() for line in rejected.strip().split("\n") if not line.strip().startswith("see:")]
    assert all(line in [o.strip() for o in out] for line in shown), shown


def test_undo_does_not_take_the_lines_a_new_record_starts_with(tmp_path):
    overlay = ROOT / "specs" / "hamburgum" / "variants" / "advanced-1.yaml"
    path = tmp_path / "game.log"
    recording, new = open_recording(str(path), no, game="hamburgum", players="red, blue", variants=[str(overlay)])
    start = path.read_text()
    assert start.endswith(f"# variant file {overlay}: check this record with --variant {overlay}\n")
    assert recording.enter("# a note").accepted
    assert recording.undo().accepted
    assert not recording.undo().accepted
    assert path.read_text() == start


def test_a_fault_of_the_referee_is_reported_and_the_session_goes_on(tmp_path, monkeypatch, capsys):
    import referee.recording.session as record
    from referee.engine.position import Position

    class Broken(Position):
        def apply(self, *args, **kwargs):
            raise RuntimeError("a bug")

    monkeypatch.setattr(record, "Position", Broken)  # the session's position, not check's
    monkeypatch.setattr(record.Recording, "show", lambda self: 1 / 0)
    path = tmp_path / "game.log"
    assert feed(path, ["reveal warehouse", "show", "# a comment"], game="speicherstadt", players="beige, orange") == 5  # a line lost to a fault
    out = capsys.readouterr().out
    assert "game.log:5:1: error: internal error: RuntimeError: a bug" in out and "line 5 is not recorded" in out
    assert "internal error: ZeroDivisionError: division by zero; the file is as it was" in out
    assert path.read_text().endswith(f'[Date "{TODAY}"]\n# a comment\n')
    assert "traceback" not in out.lower()


def test_a_line_the_disk_cannot_take_is_not_half_written(tmp_path, monkeypatch):
    path = tmp_path / "game.log"
    recording = started(path)
    before = path.read_bytes()
    real_write = os.write

    def full_disk(fd, data):
        if len(data) > 4:  # the first few bytes go in, then the disk is full
            return real_write(fd, bytes(data[:4]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    outcome = recording.enter("reveal warehouse")
    monkeypatch.undo()
    assert not outcome.accepted and "No space left on device" in outcome.messages[0]
    assert path.read_bytes() == before
    assert recording.enter("reveal warehouse").accepted
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


# --- rulings -------------------------------------------------------------------------------------


def two_player_supply(path: Path) -> Recording:
    recording = started(path, players="beige Ann, orange Ben")
    for line in ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea"]:
        assert recording.enter(line).accepted
    return recording


def test_a_refused_move_the_table_lets_stand_is_written_with_its_ruling(tmp_path):
    path = tmp_path / "game.log"
    recording = two_player_supply(path)
    refused = recording.enter("orange: place 1")  # beige places first
    assert not refused.accepted and "ruling accept" in refused.messages[-1]
    kept = recording.enter("ruling accept: Ben went first by mistake")
    assert kept.accepted
    assert path.read_text().endswith("reveal contract coffee tea\norange: place 1\nruling accept: Ben went first by mistake\n")
    report = check_bytes(path.read_bytes(), "game.log")
    assert report.status == "legal" and [r.verdict for r in report.rulings] == ["accept"]
    assert recording.prompt().startswith("5 · round 1 · Demand")
    # undo takes the ruling back with the move it decides on
    assert recording.undo().messages == ["took back line 8: orange: place 1\ntook back line 9: ruling accept: Ben went first by mistake"]
    assert path.read_text().endswith("reveal contract coffee tea\n")


def test_a_voided_move_counts_in_the_move_numbers_but_changes_nothing(tmp_path):
    path = tmp_path / "game.log"
    recording = two_player_supply(path)
    before = recording.where().split(" · ", 1)[1]
    assert not recording.enter("orange: place 1").accepted
    assert recording.enter("ruling void").accepted
    assert recording.where() == "5 · " + before  # the written move 4 was taken back
    assert recording.enter("5. beige: place 1").accepted
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def test_a_ruling_on_a_move_the_rules_accept_is_refused_as_check_refuses_it(tmp_path):
    path = tmp_path / "game.log"
    recording = two_player_supply(path)
    outcome, report = refused_as_check_refuses_it(recording, path, "ruling accept")


# --- one entry at a time ----------------------------------------------------------------------


def no_replay(monkeypatch) -> None:
    """From here on the session may not replay its file: each line goes to the engine alone,
    and `explain`, a contradicted checkpoint's ledger and the final verdict are read off the
    session's position."""
    import referee.engine.replay as replay
    import referee.recording.session as session
    import referee.report.explain as explain

    def replayed(*args, **kwargs):
        raise AssertionError("the session replayed its file")

    monkeypatch.setattr(session, "check_bytes", replayed)
    monkeypatch.setattr(replay, "check_bytes", replayed)
    monkeypatch.setattr(explain, "check_bytes", replayed)
    monkeypatch.setattr(explain, "explain_bytes", replayed)


def agrees_with_check(recording: Recording, path: Path) -> None:
    """The session stands where `check` of its file stands: the same figures, moves and prompt."""
    report = check_bytes(path.read_bytes(), str(path), open_end=True)
    assert report.status == "legal", report.errors
    owners = report.state.figure_owners()
    assert {o: recording.state.figures(o) for o in owners} == {o: report.state.figures(o) for o in owners}
    assert recording.played == report.moves
    assert recording.where() == Recording(str(path), [], report.source, report).where()


def test_lines_tags_rulings_and_undo_go_to_the_engine_without_a_replay_of_the_file(tmp_path, monkeypatch):
    path = tmp_path / "game.log"
    recording = started(path, players="beige Ann, orange Ben")
    no_replay(monkeypatch)
    assert recording.enter('[Event "club night"]').accepted
    for line in ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea"]:
        assert recording.enter(line).accepted
    assert not recording.enter("orange: place 1").accepted  # beige places first
    assert recording.enter("ruling accept").accepted
    agrees_with_check(recording, path)
    assert not recording.enter("beige: place 1").accepted  # orange's turn now
    assert recording.enter("ruling void: a slip of the pen").accepted
    agrees_with_check(recording, path)
    refused = recording.enter("ruling accept")  # after a line the ruling above wrote: as check refuses it
    assert not refused.accepted and "a ruling decides on the move on the line before it" in refused.messages[0]
    assert recording.enter("orange: place 2").accepted
    agrees_with_check(recording, path)
    for _ in range(3):  # the move, then each ruling with the move it decides on
        assert recording.undo().accepted
        agrees_with_check(recording, path)
    assert path.read_text().endswith('[Event "club night"]\nreveal warehouse\nreveal fireman 3\nreveal contract coffee tea\n')


def explained(path: Path, who: str, figure: str) -> str:
    """What `referee explain` prints for the file as it is."""
    from referee.report.explain import explain_bytes, format_explanation

    return format_explanation(*explain_bytes(path.read_bytes(), str(path), [], who, figure))


def test_explain_a_contradicted_checkpoint_and_the_verdict_are_read_off_the_position(tmp_path, monkeypatch):
    from tests.speicherstadt.records import TO_ROUND_2

    path = tmp_path / "game.log"
    lines = TO_ROUND_2.split("\n")
    path.write_text("\n".join(lines[:12]) + "\n")
    recording, new = open_recording(str(path), no)
    assert not new
    typed = [line for line in lines[12:] if line] + ["round 2"]
    wrong = "check beige: coins 40"
    expected = {}
    for count in (len(typed), len(typed) - 2):  # what check and explain say of the file, typed to there
        path.write_text("\n".join(lines[:12] + typed[:count]) + "\n")
        contradicted = check_bytes(path.read_bytes() + f"{wrong}\n".encode(), str(path))
        expected[count] = (explained(path, "beige", "coins"), explained(path, "Ben", "contracts"), format_diagnostic(contradicted, contradicted.errors[0]))
    path.write_text("\n".join(lines[:12]) + "\n")
    verdict = format_report(check_bytes((TO_ROUND_2 + "round 2\n").encode(), str(path)))
    no_replay(monkeypatch)
    for line in typed:
        assert recording.enter(line).accepted
    for count in (len(typed), len(typed) - 2):
        ledger, goods, diagnostic = expected[count]
        assert recording.explain("beige", "coins") == ledger
        assert recording.explain("Ben", "contracts") == goods
        refused = recording.enter(wrong)
        assert not refused.accepted and refused.messages[0] == visible(diagnostic, keep_lines=True)
        assert "the last changes of beige coins up to line" in diagnostic and "[speicherstadt/purchase-funds]" in diagnostic
        assert recording.enter("ruling adopt").accepted and recording.undo().accepted  # the ledger goes back too
        assert recording.explain("beige", "coins") == ledger
        for _ in range(2):
            assert recording.undo().accepted
    for line in typed[-4:]:  # the four lines taken back
        assert recording.enter(line).accepted
    assert format_report(recording.final_report()) == verdict


def test_a_contradicted_checkpoint_the_table_played_on_from_is_written_with_ruling_adopt(tmp_path):
    path = tmp_path / "game.log"
    recording = two_player_supply(path)
    refused = recording.enter("check beige: coins 7")  # the rules give 5
    assert not refused.accepted and "ruling adopt" in refused.messages[-1]
    assert recording.enter("ruling adopt: Ann counted twice").accepted
    assert recording.state.figures("beige")["coins"] == 7
    agrees_with_check(recording, path)
    assert [r.verdict for r in check_bytes(path.read_bytes(), str(path)).rulings] == ["adopt"]
    assert recording.enter("check beige: coins 7").accepted  # the session plays on from the table's figures
    assert not recording.enter("check orange: coins 2").accepted
    assert not recording.enter("ruling accept").accepted  # after a checkpoint only adopt decides
    assert path.read_text().endswith("check beige: coins 7\nruling adopt: Ann counted twice\ncheck beige: coins 7\n")


def test_undo_goes_back_past_the_session_into_the_lines_it_read_from_the_file(tmp_path, monkeypatch):
    text = play_game("hamburgum", 3, seed=23)
    lines = text.split("\n")
    path = tmp_path / "game.log"
    path.write_text("\n".join(lines[:60]) + "\n")
    recording, new = open_recording(str(path), no)
    assert not new
    no_replay(monkeypatch)
    for line in lines[60:63]:
        assert recording.enter(line).accepted
    for _ in range(8):
        assert recording.undo().accepted
        agrees_with_check(recording, path)
    kept = path.read_text().count("\n")
    assert kept < 60
    for line in lines[kept:63]:  # typed again, they give the same file
        assert recording.enter(line).accepted
    assert path.read_text() == "\n".join(lines[:63]) + "\n"
    agrees_with_check(recording, path)


# --- fewer keystrokes ----------------------------------------------------------------------


def test_when_one_player_can_act_the_bare_move_is_taken_and_written_whole(tmp_path, capsys):
    path = tmp_path / "game.log"
    lines = ["warehouse", "reveal fireman 3", "reveal contract coffee tea", "2", "place 1", "3", "2", "1", "1", "buy", "pass"]
    assert feed(path, lines, game="speicherstadt", players="beige Ann, orange Ben") == 0
    assert path.read_text().split("\n")[4:-1] == [
        "reveal warehouse",
        "reveal fireman 3",
        "reveal contract coffee tea",
        "beige: place 2",
        "orange: place 1",
        "beige: place 3",
        "orange: place 2",
        "beige: place 1",
        "orange: place 1",
        "orange: buy 1",
        "beige: pass 2",
    ]
    assert "line 8: beige: place 2" in capsys.readouterr().out
    assert check_bytes(path.read_bytes(), "game.log").status == "legal"


def test_a_bare_line_that_could_mean_several_moves_is_checked_as_typed(tmp_path, capsys):
    path = tmp_path / "game.log"
    lines = ["reveal warehouse", "reveal fireman 3", "reveal contract coffee tea", "place"]
    feed(path, lines, game="speicherstadt", players="beige Ann, orange Ben")
    assert "line 8 is not recorded" in capsys.readouterr().out
    assert path.read_text().split("\n")[-2] == "reveal contract coffee tea"


# --- one writer per record -------------------------------------------------------------------

RECORD = [sys.executable, "-m", "referee", "record"]


def test_a_second_session_on_the_same_file_is_refused_while_the_first_holds_it(tmp_path):
    path = tmp_path / "game.log"
    first = subprocess.Popen(RECORD + [str(path), "--game", "speicherstadt", "--players", "beige, orange"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        first.stdout.readline()  # the opening line: the session holds the file
        link = tmp_path / "other-name.log"
        link.symlink_to(path)
        for name in (path, link):
            second = subprocess.run(RECORD + [str(name)], input="reveal warehouse\n", capture_output=True, text=True, cwd=ROOT)
            assert second.returncode == 2
            assert "another `referee record` session is recording this file" in second.stdout
        first.stdin.write(b"reveal warehouse\n")
    finally:
        first.stdin.close()
        first.wait(timeout=60)
    assert first.returncode == 0
    assert path.read_text().endswith("\nreveal warehouse\n")
    assert feed(path, ["reveal fireman 3"]) == 0  # once the first session ended, the file resumes


@pytest.mark.parametrize(
    "change, said",
    [
        (lambda path: path.write_bytes(path.read_bytes().rsplit(b"\n", 2)[0] + b"\n"), "it was cut back by"),
        (lambda path: path.open("ab").write(b"reveal fireman 2\n"), "bytes were added at its end"),
    ],
)
def test_a_file_changed_by_another_program_stops_the_session_with_a_message(tmp_path, change, said):
    path = tmp_path / "game.log"
    recording = started(path)
    assert recording.enter("reveal warehouse").accepted
    change(path)
    changed = path.read_bytes()
    for action in (lambda: recording.enter("reveal fireman 3"), recording.undo):
        with pytest.raises(Changed, match=said):
            action()
        assert path.read_bytes() == changed  # nothing written, nothing taken back
    recording.close()


def test_a_session_stopped_by_a_changed_file_says_so_and_exits_non_zero(tmp_path, capsys):
    path = tmp_path / "game.log"
    assert feed(path, ["reveal warehouse"], game="speicherstadt", players="beige, orange") == 0

    class CutsTheFile(io.BytesIO):
        def readline(self, *args):
            line = super().readline(*args)
            if line.startswith(b"reveal fireman"):
                path.write_bytes(path.read_bytes().rsplit(b"\n", 2)[0] + b"\n")  # another program takes a line
            return line

    assert record_stream(str(path), CutsTheFile(b"reveal spice-trader\nreveal fireman 3\nreveal contract coffee tea\n")) == 2
    out = capsys.readouterr().out
    assert "another program changed the file during this session (it was cut back by" in out
    assert path.read_text().endswith("\nreveal warehouse\n")


def test_an_empty_file_is_a_new_record(tmp_path):
    path = tmp_path / "game.log"
    path.touch()
    assert feed(path, ["reveal warehouse"], game="speicherstadt", players="beige, orange") == 0
    assert path.read_text() == header("speicherstadt", "beige, orange", "beige") + "reveal warehouse\n"


def test_a_new_record_the_disk_cannot_take_leaves_no_file_behind(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.log"

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(UsageError, match="No space left on device"):
        open_recording(str(path), no, game="speicherstadt", players="beige, orange")
    assert not path.exists()
    path.touch()  # an empty file stays empty
    with pytest.raises(UsageError, match="No space left on device"):
        open_recording(str(path), no, game="speicherstadt", players="beige, orange")
    assert path.read_bytes() == b""


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_undo_through_a_link_writes_to_the_record_itself(tmp_path, link):
    real = tmp_path / "real.log"
    assert feed(real, ["reveal warehouse", "reveal fireman 3"], game="speicherstadt", players="beige, orange") == 0
    other = tmp_path / "other.log"
    other.symlink_to(real) if link == "symlink" else os.link(real, other)
    assert feed(other, ["undo"]) == 0
    assert real.read_text().endswith("\nreveal warehouse\n")
    assert other.read_bytes() == real.read_bytes()
    assert other.is_symlink() == (link == "symlink")


def test_the_size_limit_counts_the_bytes_on_the_disk(tmp_path):
    from referee.notation.parser import MAX_RECORD_BYTES

    path = tmp_path / "game.log"
    head = header("speicherstadt", "beige, orange", "beige").split("\n")[:-1]
    comments = (MAX_RECORD_BYTES - 1000 - len("\r\n".join(head))) // 64  # lines of 62 characters and CRLF
    path.write_bytes("".join(line + "\r\n" for line in head + ["# " + "x" * 60] * comments).encode())
    assert feed(path, ["# " + "y" * 60] * 100) != 0  # some are refused: the file is full
    data = path.read_bytes()
    assert MAX_RECORD_BYTES - 63 <= len(data) <= MAX_RECORD_BYTES  # as text (LF) there was room for about 2,000 bytes more
    assert check_bytes(path.read_bytes(), "game.log", open_end=True).status == "legal"
    assert feed(path, []) == 0  # and it resumes


def test_the_resume_hint_names_the_variant_file_the_session_needs(tmp_path, capsys):
    variant = tmp_path / "mine file.yaml"
    variant.write_text((ROOT / "specs" / "speicherstadt" / "variants" / "easy-start.yaml").read_text())
    path = tmp_path / "game.log"
    assert feed(path, ["reveal warehouse"], game="speicherstadt", players="beige, orange", variants=[str(variant)]) == 0
    assert f"`referee record {path} --variant '{variant}'` resumes it" in capsys.readouterr().out


def test_a_temporary_file_left_by_a_stopped_rewrite_is_removed_at_the_next_start(tmp_path, capsys):
    path = tmp_path / "game.log"
    assert feed(path, ["reveal warehouse"], game="speicherstadt", players="beige, orange") == 0
    stale = tmp_path / ".game.log.k3j_x9a2.tmp"
    stale.write_text("half a rewrite")
    unrelated = tmp_path / ".other.log.k3j_x9a2.tmp"
    unrelated.write_text("another record's")
    assert feed(path, []) == 0
    assert not stale.exists() and unrelated.exists()
    assert f"removed {stale}" in capsys.readouterr().out


@pytest.mark.parametrize("redirect, code", [("<&-", 2), (">/dev/full", 6), (">&-", 6)])
def test_exit_codes_when_standard_input_or_output_fail(tmp_path, redirect, code):
    path = tmp_path / "game.log"
    command = " ".join(shlex.quote(part) for part in RECORD + [str(path), "--game", "speicherstadt", "--players", "beige, orange"])
    feed_lines = "" if redirect == "<&-" else "printf 'reveal warehouse\\n' | "
    result = subprocess.run(f"{feed_lines}{command} {redirect}", shell=True, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == code, result.stderr
    assert "traceback" not in result.stderr.lower() and "internal error" not in result.stderr
    if redirect == "<&-":
        assert "standard input is closed" in result.stderr and not path.exists()


def test_a_short_list_of_civitas_hamburgum_moves_is_numbered_for_a_pick(tmp_path):
    # Hamburgum completes a line word by word, but its moves list in a millisecond: where
    # they are few, they are numbered as in The Speicherstadt
    from referee.recording.session import PICKS

    head, _blank, body = (ROOT / "specs" / "hamburgum" / "examples" / "quick-start.log").read_text().partition("\n\n")
    path = tmp_path / "h.log"
    path.write_text(head + "\n\n")
    recording, _new = open_recording(str(path), lambda question: "n")
    assert recording.word_by_word(recording.state)
    seen = 0
    for line in body.split("\n"):
        if line.strip() and not line.startswith(("#", "[", "{")):
            hints = recording.hints()
            if len(hints) <= PICKS:
                seen += 1
                assert recording.numbered() == hints
            recording.enter(line)
    assert seen
