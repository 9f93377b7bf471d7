"""The Hamburgum data: valid, cross-checked, honest about what it does not know; the module holds logic only."""

import ast
import re
from pathlib import Path

import pytest

from referee.cli.validate import validate
from referee.engine.replay import check_bytes
from referee.errors import SpecError
from referee.games import load_game
from referee.games.hamburgum import Hamburgum
from referee.spec.loader import iter_uncertain, load_spec, specs_root

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "referee" / "games" / "hamburgum").glob("*.py"))
SPEC_DIR = ROOT / "specs" / "hamburgum"


def test_every_spec_and_variant_validates():
    lines, code = validate(SPEC_DIR)
    assert code == 0, lines
    assert any("hamburgum + variant londinium: valid" in line for line in lines)


def test_every_spec_file_has_a_kind_and_a_schema():
    for path in sorted(SPEC_DIR.glob("*.yaml")):
        kind = load_spec("hamburgum").files[path.stem]["kind"]
        if path.stem in ("game", "rules", "figures"):  # kinds every game shares
            assert kind == path.stem
            continue
        if path.stem.startswith("rules."):  # the rule texts in one more language
            assert kind == "rule-texts"
            continue
        assert kind == f"hamburgum/{path.stem}"
        assert (ROOT / "specs" / "schema" / "hamburgum" / f"{path.stem}.schema.json").is_file()


def test_provisional_values_are_marked_and_listed():
    spec = load_spec("hamburgum")
    provisional = {p.address for p in iter_uncertain(spec, ("provisional",))}
    for n in (2, 4, 7, 8, 9):
        assert f"market:materials_price.totals.{n}" in provisional
    for n in (1, 3, 5, 6, 10):
        assert f"market:materials_price.totals.{n}" not in provisional
    for church in ("nikolai", "michaelis", "katharinen", "petri", "jacobi", "cathedral"):
        assert f"churches:churches.{church}.building" in provisional
    for church in ("nikolai", "michaelis", "katharinen", "jacobi"):
        assert f"churches:churches.{church}.citizen" in provisional
    assert {f"churches:completion_bonus.{i}" for i in (2, 3, 4, 5)} <= provisional
    assert not {"churches:completion_bonus.0", "churches:completion_bonus.1"} & provisional
    unknown = {p.address for p in iter_uncertain(spec, ("unknown",))}
    assert {"board:sites", "board:links"} <= unknown
    lines, _ = validate(SPEC_DIR, provenance=True)
    assert any("market.yaml:materials_price.totals.7 = 330" in line for line in lines)


# Each question the sources leave open, and the rule whose reading answers it (in words a
# reader follows: what is uncertain, and why it is read so).
OPEN_QUESTIONS = {
    1: ["hamburgum/site-type", "hamburgum/guildhall-adjacency"],
    2: ["hamburgum/token-building", "hamburgum/token-citizen"],
    3: ["hamburgum/site"],
    4: ["hamburgum/buy-price"],
    5: ["hamburgum/price-drop"],
    6: ["hamburgum/church-completion"],
    7: ["hamburgum/captain"],
    8: ["hamburgum/canon"],
    9: ["hamburgum/token-limit"],
    10: ["hamburgum/game-end"],
    11: ["hamburgum/supply-unlimited"],
    12: ["hamburgum/guildhall-donor"],
    13: ["hamburgum/board-side"],
    14: ["hamburgum/supply-unlimited"],
}


def test_every_open_question_has_a_reading():
    rules = load_game("hamburgum").spec.rules
    assert sorted(OPEN_QUESTIONS) == list(range(1, 15))
    for n, ids in OPEN_QUESTIONS.items():
        for rid in ids:
            reading = rules[rid].reading or ""
            assert reading, f"open question {n}: {rid} has no reading"
            assert not re.search(r"[Oo]pen question", reading), f"{rid}: a reading says what is uncertain, not a question's number"


def test_every_rule_id_in_the_code_is_in_rules_yaml():
    rules = load_game("hamburgum").spec.rules
    used = set()
    for path in MODULES:
        used |= set(re.findall(r'rule\("([a-z0-9-]+)"\)', path.read_text()))
    assert used
    assert sorted(f"hamburgum/{r}" for r in used if f"hamburgum/{r}" not in rules) == []


def test_the_modules_hold_no_numbers():
    """Every number belongs in the spec: no numeric literal but 0 and 1 in the game's code."""
    for path in MODULES:
        tree = ast.parse(path.read_text())
        numbers = [(node.lineno, node.value) for node in ast.walk(tree) if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex) and node.value not in (0, 1)]
        assert numbers == [], f"{path.name}: {numbers}"


def test_names_in_three_languages():
    spec = load_spec("hamburgum")
    assert spec["offices"]["offices"]["harbour-master"]["names"] == {"en": "harbour master", "de": "Hafenmeister", "hu": "kikötőmester"}
    for table in (spec["components"]["goods"], spec["houses"]["types"], spec["churches"]["churches"], spec["rondel"]["actions"]):
        for entry in table.values():
            assert set(entry["names"]) == {"en", "de", "hu"}


def _variant(tmp_path, body):
    path = tmp_path / "board.yaml"
    path.write_text("kind: variant\nid: mine\ngame: hamburgum\ntitle: my board\nchanges:\n" + body)
    return str(path)


@pytest.mark.parametrize(
    "body, message",
    [
        ("  board:\n    sites: [{parish: petri, number: 1, type: brewery}]\n    links: []\n", "1 sites listed"),
        ("  board:\n    links: [[petri-1, petri]]\n", "need the sites"),
        ("  churches:\n    completion_bonus: [8, 7]\n", "2 bonuses for 6 churches"),
        ("  houses:\n    types:\n      merchant: {count: 4}\n", "add up to 29"),
        ("  offices:\n    numbered: [{number: 1, office: mayor}]\n", "1 offices for 7 office tiles"),
    ],
)
def test_broken_overlays_are_refused(tmp_path, body, message):
    with pytest.raises(SpecError) as caught:
        Hamburgum.check_spec(load_spec("hamburgum", (_variant(tmp_path, body),), root=specs_root()))
    assert message in caught.value.message


def test_the_grammar_example_is_a_legal_record():
    text = (ROOT / "grammar" / "hamburgum.lark").read_text(encoding="utf-8")
    block = text.split("// A complete record")[1].split("// Names may")[0]
    record = "\n".join(line[len("//   ") :] for line in block.splitlines()[1:] if line.startswith("//   "))
    report = check_bytes(record.encode(), "grammar example")
    assert report.status == "legal", [d.message for d in report.errors]
    assert report.moves > 20 and report.checkpoints_confirmed


def test_londinium_has_its_own_churches_marked_uncertain():
    game = load_game("hamburgum", ("londinium",))
    assert game.church_ids[0] == "st-pauls" and "nikolai" not in game.church_ids
    assert game.token_spec("st-pauls", "citizen") == {**game.spec["churches"]["tokens"]["citizen"], "per": "own-citizens", "points": 1}
    statuses = {p.address: p.status for p in iter_uncertain(game.spec)}
    assert statuses["churches:churches.yellow-church.building"] == "likely"
    assert statuses["churches:churches.church-4.building"] == "provisional"
    header = '[Game "hamburgum"]\n[Variant "londinium"]\n[Players "red, blue"]\n\n'
    assert check_bytes((header + "red: church st-pauls donate five\n").encode(), "x").status == "legal"
    assert check_bytes((header + "red: church nikolai donate five\n").encode(), "x").status == "malformed"
