"""`referee check -j N`: the workers start with the records' games already loaded."""

from __future__ import annotations

from pathlib import Path

from referee import games
from referee.cli import parallel
from referee.cli.main import main
from referee.cli.parallel import load_games_of, map_in_processes
from referee.lab.random_game import play_game


def games_loaded(job: int) -> int:
    """Run in a worker: how many games (with their variants) it found loaded."""
    return games._load.cache_info().currsize


def write_records(tmp_path: Path) -> list[str]:
    files = []
    for game, players in (("canterbury", 2), ("hamburgum", 3), ("speicherstadt", 2)):
        path = tmp_path / f"{game}.log"
        path.write_text(play_game(game, players, 1), encoding="utf-8")
        files.append(str(path))
    (tmp_path / "broken.log").write_text('[Game "nonsense"]\n', encoding="utf-8")
    return files + [str(tmp_path / "broken.log"), str(tmp_path / "missing.log")]


def test_workers_inherit_the_games_the_records_name(tmp_path):
    files = write_records(tmp_path)
    games._load.cache_clear()
    found = map_in_processes(games_loaded, [0, 1], 2, prepare=lambda: load_games_of(files, []))
    # canterbury with the two-player variant, hamburgum, speicherstadt
    assert found == [3, 3]


def test_a_parallel_check_reports_as_a_serial_one(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)  # processes, however short the records
    files = write_records(tmp_path)
    serial = main(["check", "--format", "json", *files])
    serial_out = capsys.readouterr()
    in_processes = main(["check", "--format", "json", "-j", "2", *files])
    in_processes_out = capsys.readouterr()
    assert serial == in_processes == 3  # the worst of the broken record (3) and the missing file (2)
    assert serial_out.out == in_processes_out.out


def test_a_few_small_records_are_checked_without_starting_processes(tmp_path, monkeypatch, capsys):
    """Starting workers costs more than checking two short records: -j 2 checks them here."""
    from referee.cli import _workers as workers

    started = []

    class Worker(workers._Worker):
        def __init__(self, *args):
            started.append(self)
            super().__init__(*args)

    monkeypatch.setattr(workers, "_Worker", Worker)
    files = write_records(tmp_path)[:2]
    assert sum(Path(f).stat().st_size for f in files) < parallel.PARALLEL_MIN_BYTES
    assert main(["check", "-q", "-j", "2", *files]) == 0
    assert started == []
    assert capsys.readouterr().out.count(": legal (") == 2
    many = [str(tmp_path / f"copy-{i}.log") for i in range(parallel.PARALLEL_MIN_BYTES // Path(files[0]).stat().st_size + 1)]
    for path in many:
        Path(path).write_text(Path(files[0]).read_text(encoding="utf-8"), encoding="utf-8")
    assert parallel.worth_processes(many)


def test_a_fifo_among_small_records_is_worth_workers_and_is_not_opened_before_them(tmp_path):
    """A FIFO may keep its reader waiting for ever: checked in this process it would hold back
    every file after it, so it gets a worker; loading the games first must not open it."""
    import os

    files = write_records(tmp_path)[:2]
    assert not parallel.worth_processes(files)
    fifo = tmp_path / "waiting.log"
    os.mkfifo(fifo)
    assert parallel.worth_processes([*files, str(fifo)])
    games._load.cache_clear()
    load_games_of([str(fifo), *files], [])  # returns at once: nobody ever writes the FIFO
    assert games._load.cache_info().currsize == 2
