"""The command-line contract: commands, exit codes, formats, standard input."""

import json
from pathlib import Path

from .runner import run

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"


def referee(*args, stdin=None):
    return run(*args, stdin=stdin)


def test_play_piped_into_check_gives_scores_by_source_and_a_winner():
    game = referee("play", "speicherstadt", "--players", 3, "--seed", 1)
    assert game.returncode == 0
    result = referee("check", "-", stdin=game.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "legal" in out and "game complete" in out
    assert "winner:" in out
    assert "fires" in out and "counting offices" in out
    assert "traceback" not in (out + result.stderr).lower()


def test_check_json_has_standings_with_breakdowns():
    result = referee("check", SAMPLE, "--format", "json")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["status"] == "legal" and report["complete"]
    assert len(report["standings"]) == 3
    for s in report["standings"]:
        assert s["total"] == sum(s["breakdown"].values())
    assert report["winners"]
    assert any(p["status"] == "unknown" for p in report["relies_on"])


def test_illegal_record_prints_a_compiler_style_diagnostic(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\n\nreveal warehouse\nreveal fireman 9\n')
    result = referee("check", bad)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{bad}:5:1: error[speicherstadt/card-face]: a fireman shows at most 5, not 9"
    assert lines[1] == "    5 | reveal fireman 9"
    assert lines[2] == "      | ^~~~~~~~~~~~~~~~"
    assert lines[3].startswith("see: ") and lines[3].endswith("#card-face")


def test_several_files_exit_with_the_worst_code(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\nreveal nonsense\n')
    result = referee("check", SAMPLE, bad)
    assert result.returncode == 3
    assert "MALFORMED" in result.stdout and "legal" in result.stdout


def test_parallel_check_gives_the_same_verdicts(tmp_path):
    files = []
    for seed in range(4):
        path = tmp_path / f"g{seed}.log"
        path.write_text(referee("play", "speicherstadt", "--players", 2, "--seed", seed).stdout)
        files.append(path)
    serial = referee("check", "--format", "json", *files)
    parallel = referee("check", "-j", 2, "--format", "json", *files)
    assert serial.returncode == parallel.returncode == 0
    assert json.loads(serial.stdout) == json.loads(parallel.stdout)


def test_usage_errors_exit_2():
    assert referee("check").returncode == 2
    assert referee("check", "/no/such/file.log").returncode == 2
    assert referee("play", "speicherstadt", "--players", 9).returncode == 2
    assert referee("play", "chess", "--players", 2).returncode == 2
    assert referee("frobnicate").returncode == 2
    assert referee().returncode == 2


def test_show_at_a_move_and_at_the_end():
    early = referee("show", SAMPLE, "--at", 4, "--format", "json")
    assert early.returncode == 0
    state = json.loads(early.stdout)
    assert state["after_move"] == 4
    assert state["state"]["phase"] == "demand"  # four cards out: Supply is complete
    assert len(state["state"]["supply"]) == 4
    end = referee("show", SAMPLE, "--format", "yaml")
    assert end.returncode == 0
    assert "phase: over" in end.stdout


def test_moves_lists_the_legal_next_moves(tmp_path):
    record = tmp_path / "r.log"
    record.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\nreveal warehouse\nreveal bank\nreveal tea-taster\n')
    # the bank is a Summer card: the record is illegal and `moves` says so
    assert referee("moves", record).returncode == 1
    record.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\nreveal warehouse\nreveal coffee-roaster\nreveal tea-taster\n')
    result = referee("moves", record)
    assert result.returncode == 0
    assert "beige: place 1" in result.stdout and "beige: place 3" in result.stdout
    assert "orange" not in result.stdout


def test_validate_and_provenance():
    result = referee("validate")
    assert result.returncode == 0
    assert "speicherstadt: valid" in result.stdout
    listing = referee("validate", "--provenance").stdout
    assert "cards.yaml:types.fire.faces.0.points = not known" in listing
    assert "likely" in listing


def test_version_and_help():
    assert referee("--version").stdout.startswith("referee ")
    help_text = referee("check", "--help").stdout
    assert "exit codes" in help_text and "--variant" in help_text


def test_many_moves_are_grouped_by_player_and_action():
    from referee.cli.main import grouped_moves

    moves = ["blue: levy"] + [f"blue: tax build well {d}" for d in ("b1", "c1", "e1", "a2", "b2")] + ["blue: full build well b1, garden b1"]
    assert grouped_moves(moves, shown=3) == [
        "blue: levy",
        "blue: tax build (5): well b1; well c1; well e1; ...",
        "blue: full build (1): well b1, garden b1",
    ]


def test_check_holds_the_cyclic_collector_off_until_its_first_record_is_done(monkeypatch, capsys):
    """Starting and replaying a first record makes tens of thousands of objects and hardly any
    garbage, so `check` lets the cyclic collector wait until that record is done; the records
    after it, and everything after the command, are collected as usual, also when the command
    ends in an error before any record is done."""
    import gc

    from referee.cli import main as cli
    from referee.engine import replay as engine

    seen = []
    check_bytes = engine.check_bytes

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return check_bytes(*args, **kwargs)

    monkeypatch.setattr(engine, "check_bytes", watched)
    assert gc.isenabled()
    assert cli.main(["check", "-q", str(SAMPLE), str(SAMPLE), str(SAMPLE)]) == 0
    assert seen == [False, True, True] and gc.isenabled()

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(engine, "check_bytes", broken)
    assert cli.main(["check", "-q", str(SAMPLE)]) == 5  # an internal error, said without a traceback
    assert gc.isenabled()
    capsys.readouterr()
