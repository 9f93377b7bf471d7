"""The rulebook site as `mkdocs build --strict` makes it, built once per test session (the
`site` fixture of conftest.py): a build replays every example and counter-example."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _command(dest: Path, data: Path | None) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if data is not None:
        env["REFEREE_DATA"] = str(data)
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(dest)], env


def mkdocs_build(dest: Path, data: Path | None = None) -> subprocess.CompletedProcess:
    command, env = _command(dest, data)
    # three sites (en, hu, de), each with its replay pages: a loaded machine of two cores needs minutes
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=1200)


# --- the session's site, built in the background -------------------------------------------
# The first process of a test session that collects a test reading the site starts its build
# at once, beside the tests, in the session's folder (REFEREE_TEST_SITE, made by conftest.py);
# a test that needs the site waits until it is there. Without a background build (a session
# where none was started) the first test to need it builds it, the others waiting.


def start_background_build(folder: Path) -> None:
    try:
        (folder / "started").open("x").close()  # one build a session, whichever process comes first
    except FileExistsError:
        return
    command, env = _command(folder / "site", None)
    script = f"import subprocess, sys; rc = subprocess.call({command!r}, stdout=sys.stdout, stderr=subprocess.STDOUT); open({str(folder / 'rc')!r}, 'w').write(str(rc))"
    with open(folder / "build.log", "w", encoding="utf-8") as log:
        build = subprocess.Popen([sys.executable, "-c", script], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT, start_new_session=True)
    (folder / "pid").write_text(str(build.pid), encoding="utf-8")


def stop_background_build(folder: Path) -> None:
    """At the session's end (the controller's): a build still running, as after a failed
    test with -x, is stopped with its mkdocs."""
    try:
        os.killpg(int((folder / "pid").read_text(encoding="utf-8")), signal.SIGKILL)
    except (OSError, ValueError):
        pass  # none started, or it has ended


def session_site(folder: Path, timeout: float = 1500) -> Path:
    """The session's site once it is built; raises AssertionError with the build's output if
    it failed."""
    if not (folder / "started").exists():
        with open(folder / "site.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (folder / "rc").exists():
                result = mkdocs_build(folder / "site")
                (folder / "build.log").write_text(result.stdout + result.stderr, encoding="utf-8")
                (folder / "rc").write_text(str(result.returncode), encoding="utf-8")
    deadline = time.monotonic() + timeout
    while not (folder / "rc").exists():
        assert time.monotonic() < deadline, "the site's build did not end"
        time.sleep(0.2)
    rc = (folder / "rc").read_text(encoding="utf-8")
    assert rc == "0", (folder / "build.log").read_text(encoding="utf-8")
    return folder / "site"
