"""The rulebook site as `mkdocs build --strict` makes it, built once per test session (the
`site` fixture of conftest.py): a build replays every example and counter-example."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def mkdocs_build(dest: Path, data: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if data is not None:
        env["REFEREE_DATA"] = str(data)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(dest)]
    # three sites (en, hu, de), each with its replay pages: a loaded machine of two cores needs minutes
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=1200)
