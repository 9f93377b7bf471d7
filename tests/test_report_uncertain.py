"""The uncertain spec values a verdict relied on: always in the text report, but compact (one
line per spec file, its keys grouped by how sure they are); each value's note with
`check --details`, and always in JSON."""

from __future__ import annotations

import json
from pathlib import Path

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.report.diagnostics import brace_keys, format_report

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"
CANTERBURY = ROOT / "specs" / "canterbury" / "examples" / "random-4p-seed7.log"


def block(text: str) -> list[str]:
    """The lines of the uncertain-values block of a text report."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("this verdict relies on uncertain spec values"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return lines[start:end]


def test_the_text_report_has_one_line_per_spec_file_with_keys_grouped_by_provenance():
    report = check_bytes(CANTERBURY.read_bytes(), "game.log")
    lines = block(format_report(report))
    files = sorted({p.file for p in report.relied_on})
    assert len(lines) == 1 + len(files)
    for stem, line in zip(files, lines[1:]):
        assert line.startswith(f"  {stem}.yaml: ")
        statuses = sorted({p.status for p in report.relied_on if p.file == stem})
        assert line.count(";") == len(statuses) - 1
        for status in statuses:
            assert f"{status} " in line
    assert any(line.startswith("  structures.yaml: provisional structures.{amphitheatre,castle}.{names,printed}, structures.{barracks,") for line in lines)


def test_the_least_certain_values_come_first_and_notes_are_left_out():
    report = check_bytes(SAMPLE.read_bytes(), "game.log")
    lines = block(format_report(report))
    assert lines[1:] == [
        "  cards.yaml: unknown types.contract.faces, types.fire.faces.{0,1,2,3}.points; likely types.{spice-trader,tea-taster,vulcanizer}.{counts,end_points}, types.{st-michaelis,warehouse}.counts"
    ]
    assert "--details" in lines[0]
    assert not any(p.note in format_report(report) for p in report.relied_on)


def test_details_list_each_value_with_its_note(capsys):
    assert main(["check", "--details", str(SAMPLE)]) == 0
    lines = block(capsys.readouterr().out)
    report = check_bytes(SAMPLE.read_bytes(), "game.log")
    assert len(lines) == 1 + len(report.relied_on)
    assert "  unknown     cards:types.fire.faces.0.points = not known  (The points printed on fire 1 are not given by any source; the record states them.)" in lines
    assert any(line.startswith("  likely      cards:types.warehouse.counts = {'A': 1}  (") for line in lines)


def test_json_always_has_the_notes(capsys):
    assert main(["check", "--format", "json", str(SAMPLE)]) == 0
    relies = json.loads(capsys.readouterr().out)["relies_on"]
    fire = next(r for r in relies if r["address"] == "cards:types.fire.faces.0.points")
    assert fire == {"address": "cards:types.fire.faces.0.points", "status": "unknown", "value": None, "note": "The points printed on fire 1 are not given by any source; the record states them."}


def test_quiet_leaves_the_block_out(capsys):
    assert main(["check", "-q", str(SAMPLE)]) == 0
    assert "uncertain" not in capsys.readouterr().out


def test_keys_that_differ_in_one_part_are_written_once():
    assert brace_keys(["a.0.x", "a.1.x", "b"]) == ["a.{0,1}.x", "b"]
    assert brace_keys(["t.p.counts", "t.p.end", "t.q.counts", "t.q.end", "t.r.counts"]) == ["t.{p,q}.{counts,end}", "t.r.counts"]
    assert brace_keys(["levy"]) == ["levy"]
    assert brace_keys(["k.a", "k.b", "rank"]) == ["k.{a,b}", "rank"]


def test_the_values_relied_on_are_found_alike_in_any_order_and_when_asked_again():
    """A value below an uncertain one, the value itself, and a value inside an uncertain table
    all count; the answer is by address, whatever order the rules and values are named in."""
    report = check_bytes(CANTERBURY.read_bytes(), "game.log")
    spec, trace = report.state.game.spec, report.state.trace
    first = spec.relied_on(trace.rules_used, trace.values_used)
    assert first == report.relied_on and [p.address for p in first] == sorted(p.address for p in first)
    values = sorted(trace.values_used)
    assert spec.relied_on(sorted(trace.rules_used, reverse=True), values[::-1]) == first == spec.relied_on(trace.rules_used, values)
    some = next(p for p in first if "." in p.key)
    assert spec.relied_on((), [some.address]) == [some]
    assert spec.relied_on((), [some.address + ".0.deeper"]) == [some]  # held by the uncertain value
    assert some in spec.relied_on((), [some.address.split(".")[0]])  # below the value asked about
    assert spec.relied_on((), ["no-such-file:key"]) == [] == spec.relied_on(["no-such-rule"])
    assert spec.relied_on(iter(trace.rules_used), iter(values)) == first  # iterables read once
