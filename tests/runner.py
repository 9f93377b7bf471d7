"""The `referee` command run in this process, as Click's `CliRunner` runs a command: standard
input, output and error are in-memory streams for the length of the call, and the result holds
the exit code and what was printed. Starting Python for each call cost most of these tests' time.
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from referee.cli.main import main
from referee.games import forget_loaded_data

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Result:
    """What one run of the command did: its exit code, and what it printed on each stream."""

    returncode: int
    stdout: str
    stderr: str


def _stream(data: bytes = b"") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="", write_through=True)


@contextmanager
def _isolated(stdin: bytes, env: dict[str, str] | None, cwd: Path):
    saved = sys.stdin, sys.stdout, sys.stderr
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = _stream(stdin), _stream(), _stream()
    if env:
        os.environ.update(env)
    os.chdir(cwd)
    try:
        yield sys.stdout, sys.stderr
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)


def run(*args: object, stdin: str | bytes | None = None, env: dict[str, str] | None = None, cwd: Path | None = None) -> Result:
    """`referee ARGS...` with `stdin` as its standard input; never raises for an exit."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin or b""
    if env and "REFEREE_DATA" in env:  # data a test edits between runs is read afresh, as by a new process
        forget_loaded_data()
    with _isolated(data, env, cwd or ROOT) as (out, err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as stop:  # --help and --version exit as argparse has them exit
            code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
        out.flush()
        err.flush()
        printed = out.buffer.getvalue().decode("utf-8", errors="replace"), err.buffer.getvalue().decode("utf-8", errors="replace")
    if env and "REFEREE_DATA" in env:
        forget_loaded_data()
    return Result(code, *printed)
