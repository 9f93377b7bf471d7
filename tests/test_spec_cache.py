"""The cache of validated specs: a start that finds it reads one file and imports neither
PyYAML nor jsonschema; a cache that is corrupt, foreign, out of date or in a folder others may
write to is ignored, and the spec is read and validated as if there were none."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee import _cache as cache
from referee import games
from referee.spec import loader as spec
from referee.spec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]

# Loads one game in a fresh process and says which slow modules the load imported.
PROBE = """
import sys
from referee.games import load_game
game = load_game(sys.argv[1], sys.argv[2:])
print(game.spec.meta["players"]["max"], "jsonschema" in sys.modules, "yaml" in sys.modules)
"""


def probe(folder: Path, game: str = "canterbury", *variants: str) -> list[str]:
    env = {**os.environ, "REFEREE_CACHE": str(folder), "PYTHONPATH": str(ROOT)}
    env.pop("REFEREE_DATA", None)
    done = subprocess.run([sys.executable, "-c", PROBE, game, *variants], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def cached_specs(folder: Path, game: str = "canterbury") -> list[Path]:
    return sorted(folder.glob(f"spec-{game}-*.pickle"))


def test_the_second_start_reads_the_validated_spec_without_yaml_or_jsonschema(tmp_path):
    assert probe(tmp_path) == ["4", "True", "True"]  # read and validated, then kept
    assert len(cached_specs(tmp_path)) == 1
    assert probe(tmp_path) == ["4", "False", "False"]
    assert probe(tmp_path, "canterbury", "two-player") == ["4", "True", "True"]  # a variant is a spec of its own
    assert probe(tmp_path, "canterbury", "two-player") == ["4", "False", "False"]


def test_a_corrupt_cache_file_is_ignored_and_written_again(tmp_path):
    probe(tmp_path)
    [kept] = cached_specs(tmp_path)
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2])
    assert probe(tmp_path) == ["4", "True", "True"]
    assert kept.read_bytes() == whole
    kept.write_bytes(b"not a pickle at all")
    assert probe(tmp_path)[0] == "4"


class _Payload:
    """What a foreign cache file might hold: an object whose unpickling runs code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_foreign_cache_file_runs_no_code_and_is_ignored(tmp_path):
    probe(tmp_path)
    [kept] = cached_specs(tmp_path)
    marker = tmp_path / "ran"
    key, _ = pickle.loads(kept.read_bytes())
    kept.write_bytes(pickle.dumps((key, _Payload(marker))))
    assert probe(tmp_path) == ["4", "True", "True"]
    assert not marker.exists()
    kept.write_bytes(pickle.dumps(("another key", load_spec("canterbury"))))
    assert probe(tmp_path) == ["4", "True", "True"]


def test_a_cache_folder_that_others_may_write_to_is_not_used(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(cache, "tempfile_dir", lambda: str(tmp_path / "tmp"))
    monkeypatch.setenv("REFEREE_CACHE", str(folder))
    fallback = cache.cache_dir()
    assert fallback is not None and fallback.parent == tmp_path / "tmp" and fallback.stat().st_mode & 0o777 == 0o700
    assert f"the cache folder {folder} cannot be used (others may write to it); using {fallback} instead" in capsys.readouterr().err
    (fallback / "junk").touch()
    fallback.chmod(0o777)  # a fallback others may write to is not used either
    assert cache.cache_dir() is None
    fallback.chmod(0o700)
    monkeypatch.setenv("REFEREE_CACHE", "")
    assert cache.cache_dir() is None
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "own"))
    assert cache.cache_dir() == tmp_path / "own"
    assert (tmp_path / "own").stat().st_mode & 0o777 == 0o700


def test_the_cache_goes_to_the_users_cache_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "referee"


@pytest.fixture
def edited_checkout(tmp_path, monkeypatch):
    """A copy of the shipped data standing for the data of a checkout that someone edits."""
    shutil.copytree(ROOT / "specs", tmp_path / "data" / "specs")
    shutil.copytree(ROOT / "grammar", tmp_path / "data" / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(spec, "shipped_data_root", lambda: tmp_path / "data")
    clear = (spec._load_spec.cache_clear, spec._shipped_rule_ids.cache_clear, games._load.cache_clear)
    for c in clear:
        c()
    yield tmp_path / "data" / "specs"
    monkeypatch.undo()
    for c in clear:
        c()


def test_an_edited_spec_file_is_read_again_not_taken_from_the_cache(edited_checkout):
    path = edited_checkout / "canterbury" / "setup.yaml"
    first = load_spec("canterbury")["setup"]["money"]
    assert len(cached_specs(edited_checkout.parent.parent / "cache")) == 1
    text = path.read_text(encoding="utf-8")
    assert f"\nmoney: {first} " in text
    path.write_text(text.replace(f"\nmoney: {first} ", f"\nmoney: {first + 7} ", 1), encoding="utf-8")
    spec._load_spec.cache_clear()
    assert load_spec("canterbury")["setup"]["money"] == first + 7
    assert len(cached_specs(edited_checkout.parent.parent / "cache")) == 1  # the file of the old spec is removed


def test_an_edited_schema_is_validated_again(edited_checkout):
    load_spec("canterbury")
    schema = edited_checkout / "schema" / "canterbury" / "setup.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8").replace('"required": [', '"required": ["no-such-key", ', 1), encoding="utf-8")
    spec.forget_loaded_specs()
    with pytest.raises(spec.SpecError) as caught:
        load_spec("canterbury")
    assert "no-such-key" in caught.value.message


def test_a_cached_spec_equals_the_spec_read_from_the_files(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path))
    for game, variants in (("canterbury", ()), ("canterbury", ("two-player",)), ("hamburgum", ()), ("speicherstadt", ())):
        spec._load_spec.cache_clear()
        fresh = load_spec(game, variants)
        spec._load_spec.cache_clear()
        with monkeypatch.context() as m:
            m.setattr(spec, "_build_spec", None)  # a hit builds nothing
            again = load_spec(game, variants)
        assert again is not fresh and again == fresh
    spec._load_spec.cache_clear()


# Checks a record in a fresh process with a spec folder standing for the shipped data, whose
# specs are therefore cached (only the shipped data is).
CHECK_AS_SHIPPED = """
import sys
from pathlib import Path
from referee.spec import loader as spec
spec.shipped_data_root = lambda: Path(sys.argv[1])
from referee.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_spec_file_that_is_no_regular_file_is_refused_while_hashing_for_the_cache(tmp_path, kind):
    """The cache's key is a hash of every spec file: it is read as the full load reads a file,
    so a FIFO (which once made the start wait for a writer) or a link to /dev/zero (which read
    without end) is exit 4, as without a cache."""
    from referee.lab.random_game import play_game

    data, folder = tmp_path / "data", tmp_path / "cache"
    shutil.copytree(ROOT / "specs", data / "specs")
    shutil.copytree(ROOT / "grammar", data / "grammar")
    record = tmp_path / "game.log"
    record.write_text(play_game("speicherstadt", 2, 1), encoding="utf-8")
    env = {**os.environ, "REFEREE_CACHE": str(folder), "REFEREE_DATA": str(data), "PYTHONPATH": str(ROOT)}

    def check() -> subprocess.CompletedProcess:
        try:
            return subprocess.run([sys.executable, "-c", CHECK_AS_SHIPPED, str(data), "check", str(record)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the check waited on a spec file that is no regular file")

    assert check().returncode == 0
    assert cached_specs(folder, "speicherstadt")  # the folder's specs go through the cache
    odd = data / "specs" / "speicherstadt" / "odd.yaml"
    if kind == "fifo":
        os.mkfifo(odd)
    else:
        odd.symlink_to("/dev/zero")
    done = check()
    assert done.returncode == 4, done.stderr
    assert f"{odd}: error: cannot read: not a regular file" in done.stdout + done.stderr
