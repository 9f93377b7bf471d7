"""Without a usable cache folder the referee falls back to a private folder in the temporary
folder and says once why; it never creates a missing home folder; files of older grammars,
specs and code are removed when newer ones are written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"


def check(tmp_path: Path, **env) -> subprocess.CompletedProcess:
    settings = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "REFEREE_CACHE")}
    settings.update(HOME=str(tmp_path / "no-home"), TMPDIR=str(tmp_path / "tmp"), **env)
    return subprocess.run([sys.executable, "-m", "referee", "check", "-q", str(SAMPLE)], capture_output=True, text=True, env=settings, cwd=ROOT)


def test_no_home_folder_falls_back_to_the_temporary_folder_and_says_so_once(tmp_path):
    (tmp_path / "tmp").mkdir()
    fallback = tmp_path / "tmp" / f"referee-cache-{os.getuid()}"
    first = check(tmp_path)
    assert first.returncode == 0
    assert first.stderr == f"referee: there is no cache folder (the home folder {tmp_path / 'no-home'} does not exist); using {fallback} instead\n"
    assert not (tmp_path / "no-home").exists()  # never created
    assert list(fallback.glob("spec-speicherstadt-*.pickle")) and list(fallback.glob("grammar-speicherstadt-*.lark"))
    second = check(tmp_path)
    assert second.returncode == 0 and second.stderr == ""  # said once


def test_stale_cache_files_are_removed_and_other_games_files_kept(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    stale = [
        "parse-00000000-aaaaaaaaaaaaaaaaaaaaaaaa.pickle",
        "parse-bbbbbbbbbbbbbbbbbbbbbbbb.pickle",
        "spec-speicherstadt-0123456789abcdef01234567.pickle",
        "grammar-speicherstadt-00000000000000000000.lark",
    ]
    kept = ["spec-canterbury-2e38e7-0123456789abcdef01234567.pickle", "grammar-canterbury-00000000000000000000.lark", "notes.txt"]
    for name in stale + kept:
        (cache / name).write_bytes(b"old")
    assert check(tmp_path, REFEREE_CACHE=str(cache)).returncode == 0
    names = {p.name for p in cache.iterdir()}
    assert not names & set(stale)
    assert set(kept) <= names
    assert any(n.startswith("spec-speicherstadt-") for n in names) and any(n.startswith("grammar-speicherstadt-") for n in names)
