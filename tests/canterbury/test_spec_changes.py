"""Rules read their numbers from the spec: provisional values are listed wherever a verdict
relies on them, and typing other numbers into a YAML file changes verdicts and scores with
no change to the code."""

import json

from referee.cli.validate import validate
from referee.report.diagnostics import format_report
from referee.spec.loader import load_spec

from ..runner import run
from .records import EXAMPLES, HEADER_4P, ROOT, SHORT_AND_RICH, SHORTENED, check, figures, rule_ids


def referee(*args, stdin=None):
    return run(*args, stdin=stdin, cwd=ROOT)


def _overlay(tmp_path, name, body):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"kind: variant\nid: {name}\ngame: canterbury\ntitle: {name}\nchanges:\n{body}")
    return str(path)


def test_validate_lists_every_provisional_canterbury_value():
    spec = load_spec("canterbury")
    provisional = [p for p in spec.provenance.values() if p.status == "provisional"]
    assert len(provisional) >= 30
    lines, code = validate(ROOT / "specs", provenance=True)
    assert code == 0
    text = "\n".join(lines)
    for p in provisional:
        address = f"canterbury/{p.file}.yaml:{p.key}"
        assert f"{address} = " in text or f"{address}:\n" in text, p.address  # a value on its line, or YAML under it
    for address in ("treasury.yaml:levy", "scoring.yaml:rank_markers", "scoring.yaml:kings_favour.defense", "structures.yaml:structures.well.printed", "structures.yaml:structures.guildhall.printed"):
        assert address in text


def test_a_check_report_lists_the_provisional_values_it_relied_on():
    report = check((EXAMPLES / "random-4p-seed7.log").read_text())
    relied = {p.address for p in report.relied_on}
    for address in ("treasury:levy", "scoring:rank_markers", "scoring:kings_favour.defense", "structures:structures.well.printed", "board:districts"):
        assert address in relied
    text = format_report(report)
    assert "this verdict relies on uncertain spec values" in text
    assert "  structures.yaml: provisional structures." in text and ",well}.printed" in text
    assert "provisional structures:structures.well.printed" in format_report(report, details=True)


def test_a_short_record_relies_only_on_what_it_used():
    report = check(HEADER_4P + "blue: full build well b3\n")
    relied = {p.address for p in report.relied_on}
    assert "structures:structures.well.printed" in relied
    assert not any(a.startswith("scoring:kings_favour") for a in relied)  # nobody scored the favour yet


def test_a_dearer_well_makes_the_same_record_illegal(tmp_path):
    record = HEADER_4P + "blue: full build well b3, garden b3\n"
    assert check(record).status == "legal"
    overlay = _overlay(tmp_path, "dear-well", "  structures:\n    structures:\n      well:\n        printed: {value: {tiles: 9, cost: 4, city: 2, player: 1}, provenance: certain}\n")
    report = check(record, [overlay])
    assert rule_ids(report) == ["canterbury/payment"]
    assert "the Well (4)" in report.errors[0].message


def test_a_typed_in_kings_favour_table_changes_the_final_score(tmp_path):
    record = (SHORTENED / "kings-favour.log").read_text().split("check green: favour-defense")[0]
    base = check(record, [SHORT_AND_RICH])
    overlay = _overlay(tmp_path, "favour", "  scoring:\n    kings_favour:\n      religion: {value: {first: {6: 11}, second: {}}, provenance: certain}\n")
    changed = check(record, [SHORT_AND_RICH, overlay])
    assert changed.status == "legal"
    assert figures(base, "blue")["favour-religion"] == 6
    assert figures(changed, "blue")["favour-religion"] == 11
    assert figures(changed, "blue")["prosperity"] - figures(base, "blue")["prosperity"] == 5
    assert figures(changed, "green")["prosperity"] == figures(base, "green")["prosperity"]


def test_the_rulebooks_own_favour_numbers_cannot_be_overwritten(tmp_path):
    overlay = _overlay(tmp_path, "bad-favour", "  scoring:\n    kings_favour:\n      defense: {value: {first: {10: 15}, second: {8: 7}}, provenance: certain}\n")
    report = check(HEADER_4P, [overlay])
    assert report.status == "invalid-spec" and "kings_favour_known" in report.diagnostics[0].message


def test_a_typed_in_treasury_track_changes_the_levy(tmp_path):
    record = HEADER_4P + "blue: full build well b3\nred: full build well d3\ngreen: full build well c2\nyellow: full build well c4\nblue: levy\ncheck blue: money 9\n"
    assert check(record).status == "legal"  # 4 + 5
    levy = load_spec("canterbury")["treasury"]["levy"]
    track = ", ".join(str(7 if position == 9 else amount) for position, amount in enumerate(levy))  # the city stands on 9
    overlay = _overlay(tmp_path, "richer-treasury", f"  treasury:\n    levy: {{value: [{track}], provenance: certain}}\n")
    report = check(record, [overlay])
    assert rule_ids(report) == ["canterbury/checkpoint"]
    assert "rules give 11" in report.errors[0].message


def test_the_command_line_takes_an_overlay_path(tmp_path):
    overlay = _overlay(tmp_path, "dear-well", "  structures:\n    structures:\n      well:\n        printed: {value: {tiles: 9, cost: 7, city: 2, player: 1}, provenance: certain}\n")
    record = HEADER_4P + "blue: full build well b3\n"
    assert referee("check", "-", stdin=record).returncode == 0
    result = referee("check", "-", "--variant", overlay, "--format", "json", stdin=record)
    assert result.returncode == 1
    assert json.loads(result.stdout)["diagnostics"][0]["rule"] == "canterbury/payment"


def test_data_that_contradicts_the_rulebook_is_rejected(tmp_path):
    overlay = _overlay(tmp_path, "wrong-track", f"  treasury:\n    levy: {{value: [{', '.join(['6'] * 100)}], provenance: provisional, note: a wrong guess}}\n")
    report = check(HEADER_4P, [overlay])
    assert report.status == "invalid-spec"
    assert "position 1" in report.diagnostics[0].message
    overlay = _overlay(tmp_path, "wrong-tiles", "  structures:\n    tiles: {small: 54}\n")
    report = check(HEADER_4P, [overlay])
    error = report.diagnostics[0]
    # the variant wrote the number that no longer adds up, so the error is placed in the variant
    assert report.status == "invalid-spec" and "wrong-tiles.yaml:7:" in error.file
    assert error.message.startswith("changes.structures.tiles.small: the box holds 54 small tiles")
