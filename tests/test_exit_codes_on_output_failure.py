"""An exit code never lies, whatever happens to the streams around the referee.

A closed pipe once turned an illegal verdict into exit 0; a closed or full standard output
and a closed standard input were internal errors (5); a usage error written to a full
standard error exited 1, which means a rule violation. These run real processes: the
streams of a test process are not the streams a shell hands a command.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.errors import EXIT_OUTPUT, EXIT_SIGPIPE, EXIT_USAGE, EXIT_VIOLATION
from referee.lab.random_game import play_game

ROOT = Path(__file__).resolve().parents[1]
GAME = "speicherstadt"
ILLEGAL = f'[Game "{GAME}"]\n[Players "beige, orange"]\n\nreveal warehouse\nreveal fireman 9\n'


@functools.cache
def legal_text() -> str:
    return play_game(GAME, 2, 1)


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    legal, illegal = tmp_path / "legal.log", tmp_path / "illegal.log"
    legal.write_text(legal_text(), encoding="utf-8")
    illegal.write_text(ILLEGAL, encoding="utf-8")
    return {"legal": legal, "illegal": illegal}


def referee(*args: object, **streams) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "referee", *map(str, args)], env=env, **streams).returncode


def closed_stream_shell(command: str, *args: object) -> subprocess.CompletedProcess:
    """A shell line that runs the referee with `command` as its redirections."""
    line = " ".join([f"'{sys.executable}'", "-m", "referee", *(f"'{a}'" for a in args), command])
    return subprocess.run(["sh", "-c", line], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("verdict", ["legal", "illegal"])
def test_a_closed_standard_output_has_its_own_exit_code(files, verdict):
    done = closed_stream_shell(">&-", "check", files[verdict])
    assert done.returncode == EXIT_OUTPUT, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("command", [["check", "{illegal}"], ["play", GAME, "--players", "2"], ["validate"], ["--help"]])
def test_a_full_standard_output_has_its_own_exit_code(files, command):
    argv = [files["illegal"] if a == "{illegal}" else a for a in command]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "referee", *map(str, argv)], stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == EXIT_OUTPUT, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_usage_error_written_to_a_full_standard_error_is_still_a_usage_error():
    with open("/dev/full", "w") as full:
        assert referee("check", "--no-such-option", stderr=full) == EXIT_USAGE
        assert referee("check", "/no/such/file.log", stderr=full) == EXIT_USAGE


def test_a_closed_standard_input_is_a_usage_error_with_a_message():
    done = closed_stream_shell("<&-", "check", "-")
    assert done.returncode == EXIT_USAGE
    assert "standard input is closed" in done.stdout + done.stderr


def closed_pipe(*args: object) -> int:
    """Run with standard output a pipe whose reader has gone before anything is written."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "referee", *map(str, args)], stdout=write, stderr=subprocess.PIPE, env=env).returncode
    finally:
        os.close(write)


def test_a_closed_pipe_keeps_the_verdict_of_an_illegal_record(files):
    assert closed_pipe("check", files["illegal"]) == EXIT_VIOLATION
    assert closed_pipe("check", files["legal"]) == 0  # the verdict was known, and it was legal


def test_a_pipe_closed_before_the_verdict_is_known_exits_as_sigpipe(files):
    # the first file's result cannot be written, so the illegal file after it is never checked
    assert closed_pipe("check", files["legal"], files["legal"], files["illegal"]) == EXIT_SIGPIPE
    assert closed_pipe("check", files["illegal"], files["legal"]) == EXIT_VIOLATION  # a fault already found stays found


def test_a_relative_referee_data_is_resolved(files, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DATA": "."}
    done = subprocess.run([sys.executable, "-m", "referee", "check", str(files["illegal"])], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == EXIT_VIOLATION, done.stderr
    assert f"see: {(ROOT / 'site').as_uri()}" in done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo") or (os.cpu_count() or 1) < 2, reason="needs FIFOs and two processors")
def test_a_closed_pipe_stops_check_j_at_once_even_with_a_worker_waiting(files, tmp_path):
    fifo = tmp_path / "waiting.log"  # its worker waits for a writer that never comes
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "referee", "check", "-j", "2", files["legal"], fifo], stdout=write, stderr=subprocess.PIPE, env=env, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == EXIT_SIGPIPE  # the FIFO's verdict never came
