"""`referee rule ID`: a rule looked up from the id a diagnostic names, in the terminal."""

import pytest

from referee.cli.main import main
from referee.site import counterexamples
from referee.spec.loader import load_spec


def run(capsys, *args):
    code = main(["rule", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_rule_prints_its_text_counterexample_diagnostic_fix_and_link(capsys, tmp_path, monkeypatch):
    code, out, _ = run(capsys, "speicherstadt/purchase-funds")
    assert code == 0
    spec = load_spec("speicherstadt")
    rule = spec.rules["speicherstadt/purchase-funds"]
    assert out.startswith(f"speicherstadt/purchase-funds: {rule.title}\n")
    assert " ".join(rule.text.split()) in " ".join(out.split())
    example = counterexamples.load(spec).by_rule[rule.id]
    # the diagnostic is the one referee check prints for the same record
    (tmp_path / example.name).write_text(example.text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", example.name]) == 1
    printed = capsys.readouterr().out.split("\nsee: ")[0]
    assert printed in out
    assert f"{example.line:>5} | {example.breaks}" in out
    assert f"{example.line:>5} | {example.fix}" in out.split("it passes with this instead:")[1]
    assert out.rstrip().endswith("speicherstadt/rules.html#purchase-funds")


def test_a_rule_no_record_breaks_gives_the_reason(capsys):
    code, out, _ = run(capsys, "canterbury/money-points")
    assert code == 0
    assert "no record breaks it under its own id" in out and "canterbury/checkpoint" in out


def test_the_game_may_be_left_out_when_the_id_is_unique(capsys):
    code, out, _ = run(capsys, "Rondel-Steps")
    assert code == 0 and out.startswith("hamburgum/rondel-steps: ")


@pytest.mark.parametrize(
    "rule, says",
    [("tie-break", "a rule of several games: canterbury/tie-break"), ("speicherstadt/purchase-fund", "did you mean speicherstadt/purchase-funds"), ("nosuchgame/x", "no rule 'nosuchgame/x'")],
)
def test_an_unknown_or_ambiguous_id_is_a_usage_error(capsys, rule, says):
    code, out, err = run(capsys, rule)
    assert code == 2 and not out
    assert says in err and "Traceback" not in err


def test_another_language_shows_the_rule_in_it_with_its_numbers_filled_in(capsys):
    code, out, _ = run(capsys, "purchase-funds", "--lang", "hu")
    assert code == 0 and out.startswith("speicherstadt/purchase-funds: Az ár a sorban álló munkások száma\n")
    assert "A vásárló annyi érmét fizet" in out and "no Hungarian text" not in out
    code, out, _ = run(capsys, "speicherstadt/start-money", "--lang", "de")
    assert code == 0 and out.startswith("speicherstadt/start-money: Jeder beginnt mit 5 Münzen\n")
    code, out, _ = run(capsys, "speicherstadt/seat", "--lang", "de")
    assert out.startswith("speicherstadt/seat: Nur Spieler am Tisch sind am Zug") and "note:" not in out
    code, out, _ = run(capsys, "speicherstadt/seat", "--lang", "en")
    assert out.startswith("speicherstadt/seat: Only seated players act")


def test_a_rule_without_a_text_in_the_language_says_so_and_shows_the_english(capsys, tmp_path, monkeypatch):
    from referee.cli import rule_command
    from referee.spec.loader import Rule

    rule = Rule("speicherstadt/x", "An English title", "English words.", "Notation")
    out = rule_command.describe(load_spec("speicherstadt"), rule, "hu")
    assert out[0] == "note: this rule has no Hungarian text yet; shown in English"
    assert out[2] == "speicherstadt/x: An English title"


def test_an_unreadable_counterexample_says_check_cannot_read_it(capsys):
    code, out, _ = run(capsys, "canterbury/structure-names")
    assert code == 0 and "referee check cannot read it:" in out and "unknown structure 'tavern'" in out


def test_a_rule_with_a_worked_example_names_it_with_its_figures_confirmed(capsys):
    code, out, _ = run(capsys, "speicherstadt/fire-resolution")
    assert code == 0
    assert "worked example: " in out and "fire-ties.log" in out
    assert "the figures it records, confirmed by the referee:" in out
    assert "   84 | check purple: points -2" in out
