"""The work and the output of a run are bounded by its input, and no process outlives it.

A 129 KB record of wide checkpoint lines once printed 216 MB; `-j 200` started 200
workers; ten thousand files printed nothing until the last was done; a killed worker lost
every result; the workers of a killed `check -j` ran on for ever.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.cli._workers import in_order, usable_processors
from referee.cli.main import main
from referee.errors import EXIT_INTERNAL, EXIT_USAGE
from referee.lab.random_game import play_game
from referee.notation.parser import MAX_RECORD_BYTES
from referee.report import diagnostics as report_module
from referee.report.diagnostics import MAX_SHOWN

ROOT = Path(__file__).resolve().parents[1]
GAME = "speicherstadt"


@functools.cache
def legal_text() -> str:
    return play_game(GAME, 2, 1)


def wide_checkpoints() -> str:
    """A record just under the size limit whose checkpoint lines each contradict hundreds of figures."""
    lines = legal_text().split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("check beige:"))
    wide = "check beige: " + ", ".join(["coins 999"] * 900)
    count = (MAX_RECORD_BYTES - len(legal_text())) // (len(wide) + 1)
    return "\n".join(lines[: first + 1] + [wide] * count + lines[first + 1 :])


def test_a_record_of_thousands_of_contradicted_figures_prints_a_bounded_report(tmp_path, capsys):
    record = tmp_path / "wide.log"
    record.write_text(wide_checkpoints(), encoding="utf-8")
    assert main(["check", str(record)]) == 1
    out = capsys.readouterr().out
    assert out.count("error[speicherstadt/checkpoint]") == MAX_SHOWN
    assert "more errors" in out and len(out) < 200_000
    assert max(len(line) for line in out.splitlines()) < 700
    assert main(["check", "--format", "json", str(record)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert len(report["diagnostics"]) == MAX_SHOWN and report["diagnostics_omitted"] > 10_000


def test_json_is_made_without_the_text_report(tmp_path, capsys, monkeypatch):
    def no_text(report):
        raise AssertionError("the text report was built for JSON output")

    monkeypatch.setattr(report_module, "format_report", no_text)
    record = tmp_path / "game.log"
    record.write_text(legal_text(), encoding="utf-8")
    assert main(["check", "--format", "json", str(record)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "legal"


@pytest.mark.parametrize("count", ["0", "-1", "x"])
def test_a_number_of_processes_below_one_is_a_usage_error(capsys, count):
    with pytest.raises(SystemExit) as stop:
        main(["check", "-j", count, "game.log"])
    assert stop.value.code == EXIT_USAGE
    assert "process" in capsys.readouterr().err


def test_results_come_in_order_as_soon_as_they_are_ready_with_few_jobs_in_flight():
    handed = []

    def work(job):
        handed.append(job)
        return job * 10

    results = in_order(work, list(range(1000)), 1, lambda job, why: None)
    assert next(results) == 0 and handed == [0]  # the first result comes before the other jobs start
    assert list(results) == [i * 10 for i in range(1, 1000)]


def test_many_files_in_json_make_one_array_in_command_line_order(tmp_path, capsys):
    files = []
    for i in range(3):
        files.append(tmp_path / f"{i}.log")
        files[-1].write_text(legal_text() if i != 1 else "nonsense\n", encoding="utf-8")
    assert main(["check", "--format", "json", *map(str, files)]) == 3
    reports = json.loads(capsys.readouterr().out)
    assert [r["file"] for r in reports] == list(map(str, files))
    assert [r["status"] for r in reports] == ["legal", "malformed", "legal"]


# --- worker processes -------------------------------------------------------------------


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists() or usable_processors() < 2, reason="needs /proc and two processors")


def first_line(proc: subprocess.Popen, seconds: float = 60) -> str:
    """The first line the process prints, or "" if it prints none in a minute (results once
    came only at the end, which a waiting FIFO never lets come)."""
    import select

    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return proc.stdout.readline() if ready else ""


def start_check_with_a_waiting_file(tmp_path: Path) -> tuple[subprocess.Popen, Path, Path]:
    """`check -j 2` of a legal file, a FIFO that nobody writes (its worker waits on it), and
    another legal file."""
    first, fifo, last = tmp_path / "first.log", tmp_path / "waiting.log", tmp_path / "last.log"
    first.write_text(legal_text(), encoding="utf-8")
    last.write_text(legal_text(), encoding="utf-8")
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "check", "-j", "2", str(first), str(fifo), str(last)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return proc, first, fifo


@linux_only
def test_a_killed_worker_loses_no_result_already_made_and_the_exit_code_says_so(tmp_path):
    proc, first, fifo = start_check_with_a_waiting_file(tmp_path)
    try:
        assert first_line(proc).startswith(f"{first}: legal")  # printed while the FIFO still waits
        workers = children(proc.pid)
        assert workers
        killed = 0
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:  # a child that ended between listing and killing
                pass
        assert killed
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == EXIT_INTERNAL, err
    assert f"{fifo}: NOT CHECKED" in out and "last.log: NOT CHECKED" in out
    assert "Traceback" not in err


@linux_only
def test_workers_die_with_their_parent(tmp_path):
    proc, first, fifo = start_check_with_a_waiting_file(tmp_path)
    try:
        assert first_line(proc).startswith(f"{first}: legal")
        workers = children(proc.pid)
        assert workers
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert wait_for(lambda: not any(alive(pid) for pid in workers)), "workers outlived their parent"
    finally:
        proc.kill()
        for pid in children(proc.pid):
            os.kill(pid, signal.SIGKILL)


def _half_a_result_then_killed(serve, work, pipe, parents_ends, parent):
    """A worker that, on job 1, writes the first half of its result to the pipe and is
    killed there: the moment at which the standard library's pool waited for ever."""
    import pickle
    import struct

    class HalfWay:
        def recv(self):
            return pipe.recv()

        def send(self, answer):
            if answer[1] != "result 1":
                return pipe.send(answer)
            data = pickle.dumps(answer) * 1000
            os.write(pipe.fileno(), struct.pack("!i", len(data)) + data[: len(data) // 2])
            os.kill(os.getpid(), signal.SIGKILL)

    serve(work, HalfWay(), parents_ends, parent)


def _numbered(job):
    return f"result {job}"


@linux_only
def test_a_worker_killed_half_way_through_its_result_stops_nothing(monkeypatch):
    from referee.cli import _workers as workers

    monkeypatch.setattr(workers, "_serve", functools.partial(_half_a_result_then_killed, workers._serve))

    def too_long(signum, frame):
        raise TimeoutError("the parent still waits for the killed worker's result")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(60)  # a guard against waiting for ever, not a measure of speed
    try:
        results = list(in_order(_numbered, [0, 1, 2, 3], 2, lambda job, why: f"lost {job}"))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert results[1] == "lost 1"
    assert results[0] in ("result 0", "lost 0")  # done before the death, or still in flight
    assert set(results[2:]) <= {"result 2", "result 3", "lost 2", "lost 3"}
    import multiprocessing

    assert not multiprocessing.active_children()  # the other worker was stopped, not left waiting
