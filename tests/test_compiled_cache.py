"""The compiled `__init__` of the data classes (plain.py) kept in the cache folder: a second
start compiles none of them, and a file that is corrupt or from another Python is ignored."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

from referee import _cache as cache

ROOT = Path(__file__).resolve().parents[1]

# Defines every data class of a check, checks a record, and says how many `__init__` texts it compiled.
PROBE = """
import builtins, sys
compiled = []
real = builtins.compile
def counting(source, *args, **kwargs):
    if isinstance(source, str) and source.startswith("def __init__("):
        compiled.append(source)
    return real(source, *args, **kwargs)
builtins.compile = counting
from referee.engine.replay import check_bytes
report = check_bytes(open(sys.argv[1], "rb").read(), "probe")
print(report.status, len(compiled))
"""

RECORD = ROOT / "specs" / "hamburgum" / "examples"


def probe(folder: str, **more: str) -> tuple[str, int]:
    record = next(p for p in sorted(RECORD.glob("*.log")))
    env = {**os.environ, "REFEREE_CACHE": folder, "PYTHONPATH": str(ROOT), **more}
    env.pop("REFEREE_DATA", None)
    done = subprocess.run([sys.executable, "-c", PROBE, str(record)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0 and not done.stderr, done.stderr
    status, count = done.stdout.split()
    return status, int(count)


def kept(folder: Path) -> list[Path]:
    return sorted(folder.glob("compiled-*.marshal"))


def test_the_second_start_compiles_no_init(tmp_path):
    first = probe(str(tmp_path))
    assert first[1] > 20  # the data classes of a check, compiled and kept
    [file] = kept(tmp_path)
    version, texts = marshal.loads(file.read_bytes())
    assert version == sys.version and len(texts) == first[1]
    assert probe(str(tmp_path)) == (first[0], 0)


def test_a_corrupt_or_foreign_file_is_ignored_and_written_again(tmp_path):
    status, count = probe(str(tmp_path))
    [file] = kept(tmp_path)
    whole = file.read_bytes()
    for broken in (whole[: len(whole) // 2], b"not marshal data", marshal.dumps(("2.7.18", {})), marshal.dumps([1, 2, 3])):
        file.write_bytes(broken)
        assert probe(str(tmp_path)) == (status, count)
        assert marshal.loads(file.read_bytes())[0] == sys.version
    texts = marshal.loads(whole)[1]
    file.write_bytes(marshal.dumps((sys.version, {text: "not code" for text in texts})))
    assert probe(str(tmp_path)) == (status, count)
    assert probe(str(tmp_path)) == (status, 0)


def test_without_a_cache_folder_nothing_is_written(tmp_path):
    assert probe("", HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"))[1] > 20
    assert probe("", HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"))[1] > 20  # compiled again: nothing was kept
    assert not list(tmp_path.rglob("*.marshal"))
    assert probe(str(tmp_path / "kept"), HOME=str(tmp_path))[1] > 20 and len(kept(tmp_path / "kept")) == 1


def test_a_file_grown_past_its_bound_keeps_only_what_the_process_used(tmp_path):
    stale = {f"def __init__(self):\n    pass  # {i}\n": compile("def __init__(self):\n    pass\n", "<stale>", "exec") for i in range(cache.MAX_COMPILED + 20)}
    status, count = probe(str(tmp_path))
    [file] = kept(tmp_path)
    file.write_bytes(marshal.dumps((sys.version, stale)))
    assert probe(str(tmp_path)) == (status, count)  # none of the stale texts is of use
    texts = marshal.loads(file.read_bytes())[1]
    assert len(texts) == count and not set(texts) & set(stale)
