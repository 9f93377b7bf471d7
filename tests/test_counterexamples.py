"""Every rule has the record that breaks it (specs/<game>/examples/counterexamples.yaml) or a
stated reason; the rules page shows it with the diagnostic `referee check` prints for it."""

import html
import re
import shutil
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.site import counterexamples, render_site
from referee.site.markdown import DocsError
from referee.spec.loader import available_games, load_spec

ROOT = Path(__file__).resolve().parents[1]
GAMES = available_games()
EXAMPLES = [(game, rule) for game in GAMES for rule in sorted(counterexamples.load(load_spec(game)).by_rule)]


def example(game, rule):
    return counterexamples.load(load_spec(game)).by_rule[rule]


def referee_check(tmp_path, monkeypatch, capsys, name, text, variants=()):
    """What `referee check NAME` prints for a record saved as NAME in the current folder."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = ["check", name]
    for v in variants:
        args += ["--variant", v]
    code = main(args)
    out = capsys.readouterr()
    return code, out.out + out.err


def rule_sections(page: str) -> dict[str, str]:
    """The HTML under each rule's heading of a built rules page, up to the next heading."""
    parts = re.split(r'(<h[23] id="[^"]+")', page)
    out = {}
    for opening, body in zip(parts[1::2], parts[2::2]):
        out[re.search(r'id="([^"]+)"', opening).group(1)] = body
    return out


def code_blocks(section: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", block)).rstrip("\n") for block in re.findall(r"<pre[^>]*>(?:\s|<span></span>)*<code[^>]*>(.*?)</code>\s*</pre>", section, re.S)]


@pytest.mark.parametrize("game, rule", EXAMPLES, ids=[rule for _, rule in EXAMPLES])
def test_the_counterexample_breaks_its_rule_and_its_fix_passes(game, rule, tmp_path, monkeypatch, capsys):
    ce = example(game, rule)
    code, out = referee_check(tmp_path, monkeypatch, capsys, ce.name, ce.text, ce.variants)
    assert code == (3 if ce.unreadable else 1), out
    first = out.splitlines()[0]
    assert first.startswith(f"{ce.name}:{ce.line}:")
    assert (f"error[{rule}]" not in first) if ce.unreadable else (f"error[{rule}]" in first), first
    code, out = referee_check(tmp_path, monkeypatch, capsys, "fixed.log", ce.fixed, ce.variants)
    assert code == 0, out


def test_every_rule_of_every_game_has_a_counterexample_or_a_reason():
    for game in GAMES:
        spec = load_spec(game)
        found = counterexamples.load(spec)
        assert set(found.by_rule) | set(found.reasons) == set(spec.rules)
        assert not set(found.by_rule) & set(found.reasons)
        # every rule a move can break has a record, not a reason
        moves = {rid for rid, rule in spec.rules.items() if rule.checked == "move"}
        assert moves <= set(found.by_rule), sorted(moves - set(found.by_rule))


@pytest.mark.parametrize("game", GAMES)
def test_the_built_rules_page_shows_each_rules_counterexample_with_what_check_prints(game, site, tmp_path, monkeypatch, capsys):
    found = counterexamples.load(load_spec(game))
    sections = rule_sections((site / game / "rules.html").read_text(encoding="utf-8"))
    for rule, ce in found.by_rule.items():
        anchor = rule.split("/", 1)[1]
        section = sections[anchor]
        assert "A record that breaks it" in section, rule
        assert f'href="counterexamples/{ce.name}"' in section
        assert (site / game / "counterexamples" / ce.name).read_text(encoding="utf-8") == ce.text
        _, printed = referee_check(tmp_path, monkeypatch, capsys, ce.name, ce.text, ce.variants)
        diagnostic = printed.split("\nsee: ")[0].split(f"\n{ce.name}: ")[0].rstrip("\n")
        blocks = code_blocks(section.split("A record that breaks it", 1)[1])  # after any worked example
        assert [line.rstrip() for line in diagnostic.splitlines()] in [[line.rstrip() for line in b.splitlines()] for b in blocks], (rule, diagnostic, blocks)
        assert blocks[0].splitlines()[-1].endswith(ce.breaks)  # the snippet ends with the breaking line
        if ce.fix is not None:
            assert blocks[-1].splitlines()[0].endswith(ce.fix.splitlines()[0])
    for rule, reason in found.reasons.items():
        section = sections[rule.split("/", 1)[1]]
        assert "No record breaks it under its own id" in section
        assert html.escape(reason.split(" ")[0]) in section


@pytest.fixture
def data_copy(tmp_path):
    for part in ("common", "schema", "speicherstadt"):
        shutil.copytree(ROOT / "specs" / part, tmp_path / "specs" / part)
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    return tmp_path


def test_a_rule_with_neither_an_example_nor_a_reason_stops_the_build(data_copy):
    path = data_copy / "specs" / "speicherstadt" / "examples" / "counterexamples.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - rule: speicherstadt/round-number\n")
    end = text.index("  - rule: ", start + 1)
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(DocsError) as caught:
        render_site(data_copy)
    assert "speicherstadt/round-number has neither a counter-example nor a reason" in caught.value.display()


def test_a_counterexample_the_referee_accepts_stops_the_build(data_copy):
    path = data_copy / "specs" / "speicherstadt" / "examples" / "counterexamples.yaml"
    text = path.read_text(encoding="utf-8").replace('breaks: "round 2"', 'breaks: "round 1"')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DocsError) as caught:
        render_site(data_copy)
    assert "should break speicherstadt/round-number on line 4; the referee reports no error" in caught.value.display()


def test_a_fix_the_referee_refuses_stops_the_build(data_copy):
    path = data_copy / "specs" / "speicherstadt" / "examples" / "counterexamples.yaml"
    text = path.read_text(encoding="utf-8").replace('fix: "round 1"', 'fix: "round 3"')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DocsError) as caught:
        render_site(data_copy)
    assert "the corrected record is refused: speicherstadt/round-number" in caught.value.display()


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_the_tests_break_has_its_counterexample_on_the_site(game):
    """The tests' illegal records per rule (tests/<game>/test_rules.py) and the site's
    counter-examples cover the same rules: neither falls behind when a rule is added."""
    import importlib

    illegal = importlib.import_module(f"tests.{game}.test_rules").ILLEGAL
    found = counterexamples.load(load_spec(game))
    assert set(illegal) <= set(found.by_rule), sorted(set(illegal) - set(found.by_rule))
