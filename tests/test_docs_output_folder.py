"""`referee docs --out DIR` replaces a folder of its own pages whole, and nothing else.

`--out ''` once wrote into the current folder, and a second run kept the pages the first
wrote that no longer exist.
"""

from __future__ import annotations

from referee.cli.main import main
from referee.errors import EXIT_USAGE
from referee.site import MARKER


def test_an_empty_output_path_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["docs", "--out", ""]) == EXIT_USAGE
    assert "--out" in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_a_second_run_leaves_no_stale_page(tmp_path, capsys):
    out = tmp_path / "site"
    assert main(["docs", "--out", str(out)]) == 0
    assert (out / MARKER).is_file() and (out / "cli.md").is_file()
    (out / "speicherstadt" / "gone.md").write_text("a page of an older build\n", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == 0
    assert not (out / "speicherstadt" / "gone.md").exists() and (out / "cli.md").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no temporary folder left beside it


def test_a_folder_with_other_files_is_refused_and_left_alone(tmp_path, capsys):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("keep me\n", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == EXIT_USAGE
    assert "mine.txt" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["mine.txt"]


def test_a_folder_of_pages_written_before_the_marker_is_replaced(tmp_path, capsys):
    out = tmp_path / "generated"
    (out / "speicherstadt").mkdir(parents=True)
    (out / "cli.md").write_text("old\n", encoding="utf-8")
    (out / "speicherstadt" / "rules.md").write_text("old\n", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == 0
    assert (out / "cli.md").read_text(encoding="utf-8") != "old\n" and (out / MARKER).is_file()
