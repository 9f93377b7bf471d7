"""`referee docs --out DIR` replaces a folder of its own pages whole, and nothing else.

`--out ''` once wrote into the current folder, and a second run kept the pages the first
wrote that no longer exist.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import referee.site
from referee.cli.main import main
from referee.errors import EXIT_USAGE
from referee.site import MARKER
from referee.spec.loader import forget_loaded_specs

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def one_game(tmp_path_factory, monkeypatch):
    """The data of one game: a folder is handled the same whatever the pages in it, and one
    game's replay pages are drawn in a third of the time of three."""
    data = tmp_path_factory.mktemp("data")
    for part in ("common", "schema", "canterbury"):
        shutil.copytree(ROOT / "specs" / part, data / "specs" / part)
    (data / "grammar").symlink_to(ROOT / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(data))
    forget_loaded_specs()
    yield data
    forget_loaded_specs()


def test_an_empty_output_path_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["docs", "--out", ""]) == EXIT_USAGE
    assert "--out" in capsys.readouterr().err and not any(tmp_path.iterdir())


def drawn_in_brief(data=None, lang="en"):
    """A stand-in for the replay pages and pictures (`referee.site.site_files`), which take
    most of a run's time and change nothing in how a folder is replaced: one file in a game's
    folder, as the real ones are. The real ones are drawn by the session's site build
    (`built_site.py`), which every test of the site reads."""
    return [("canterbury/replays/opening-a-district.html", f"<p>{lang}</p>\n")]


def test_a_second_run_leaves_no_stale_page(one_game, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(referee.site, "site_files", drawn_in_brief)
    out = tmp_path / "site"
    assert main(["docs", "--out", str(out)]) == 0
    assert (out / MARKER).is_file() and (out / "cli.md").is_file() and (out / "hu" / "canterbury" / "replays").is_dir()
    (out / "canterbury" / "gone.md").write_text("a page of an older build\n", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == 0
    assert not (out / "canterbury" / "gone.md").exists() and (out / "cli.md").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no temporary folder left beside it


def test_a_folder_with_other_files_is_refused_and_left_alone(tmp_path, capsys, monkeypatch):
    def drawn(*args):
        raise AssertionError("the replay pages drawn for a folder that is refused")

    monkeypatch.setattr(referee.site, "site_files", drawn)  # refused at once, not after minutes
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("keep me\n", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == EXIT_USAGE
    assert "mine.txt" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["mine.txt"]


def test_a_folder_of_pages_written_before_the_marker_is_replaced(one_game, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(referee.site, "site_files", drawn_in_brief)
    out = tmp_path / "generated"
    (out / "hu" / "canterbury" / "replays").mkdir(parents=True)
    (out / "canterbury").mkdir()
    (out / "cli.md").write_text("old\n", encoding="utf-8")
    (out / "hu" / "canterbury" / "replays" / "opening-a-district.html").write_text("old\n", encoding="utf-8")
    (out / "canterbury" / "rules.md").write_text("old\n", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == 0
    assert (out / "cli.md").read_text(encoding="utf-8") != "old\n" and (out / MARKER).is_file()
    assert (out / "hu" / "canterbury" / "replays" / "opening-a-district.html").read_text(encoding="utf-8") != "old\n"
