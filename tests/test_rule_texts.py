"""Rule texts in Hungarian and German (rules.<lang>.yaml beside rules.yaml): read by the
loader with their placeholders filled, and checked by `referee validate`."""

import shutil
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.cli.validate import TEXT_LANGS, untranslated
from referee.errors import SpecError
from referee.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent


def copy_specs(tmp_path: Path) -> Path:
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", specs, ignore=shutil.ignore_patterns("examples", "box"))
    return specs


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("game", ["speicherstadt", "canterbury", "hamburgum"])
def test_every_shipped_rule_and_section_has_hungarian_and_german_words(game):
    spec = load_spec(game)
    untranslated(spec)  # raises for the first rule or section without its words
    for rule in spec.rules.values():
        for lang in TEXT_LANGS:
            title, text = rule.words(lang)
            assert title.strip() and text.strip() and "{" not in title + text, (rule.id, lang)
            assert (title, text) != (rule.title, rule.text), (rule.id, lang)


def test_placeholders_are_filled_from_the_spec_in_every_language():
    rule = load_spec("speicherstadt").rules["speicherstadt/start-money"]
    assert rule.words("hu")[0] == "Mindenki 5 érmével kezd"
    assert rule.words("de")[0] == "Jeder beginnt mit 5 Münzen"
    assert rule.words("en") == (rule.title, rule.text)


def test_a_variant_that_changes_a_number_changes_it_in_the_translations_too():
    rule = load_spec("speicherstadt", ["easy-start"]).rules["speicherstadt/start-money"]
    en = rule.title.split()[-2]
    assert en != "5" and en in rule.words("hu")[0] and en in rule.words("de")[0]


def test_a_text_for_a_rule_that_does_not_exist_is_refused_by_validate_and_changes_no_verdict(tmp_path, capsys):
    specs = copy_specs(tmp_path)
    path = specs / "speicherstadt" / "rules.hu.yaml"
    edit(path, "  speicherstadt/income:\n", "  speicherstadt/incomes:\n")
    spec = load_spec("speicherstadt", root=specs)  # the words of another language never stop a check
    [problem] = spec.text_problems
    assert problem.file == str(path) and "no rule 'speicherstadt/incomes' in rules.yaml" in problem.message
    assert spec.rules["speicherstadt/income"].words("hu") is None
    assert main(["validate", str(specs / "speicherstadt")]) == 4
    assert "no rule 'speicherstadt/incomes' in rules.yaml" in capsys.readouterr().err


def test_a_text_for_a_section_that_does_not_exist_is_refused_by_validate(tmp_path, capsys):
    specs = copy_specs(tmp_path)
    path = specs / "speicherstadt" / "rules.de.yaml"
    edit(path, "  fire: {title", "  fires: {title")
    assert [p.key for p in load_spec("speicherstadt", root=specs).text_problems] == ["sections.fires"]
    assert main(["validate", str(specs / "speicherstadt")]) == 4
    assert "sections.fires" in capsys.readouterr().err


def test_a_text_file_against_its_schema(tmp_path):
    specs = copy_specs(tmp_path)
    path = specs / "speicherstadt" / "rules.de.yaml"
    edit(path, "    title: Einkommen\n", "    titel: Einkommen\n")
    with pytest.raises(SpecError) as caught:
        load_spec("speicherstadt", root=specs)
    assert caught.value.file == str(path) and "titel" in caught.value.message


def test_validate_reports_a_rule_without_its_german_text(tmp_path, capsys):
    specs = copy_specs(tmp_path)
    path = specs / "speicherstadt" / "rules.de.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  speicherstadt/income:\n")
    end = text.index("  speicherstadt/coin-supply:\n")
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    assert main(["validate", str(specs / "speicherstadt")]) == 4
    err = capsys.readouterr().err
    assert "rule speicherstadt/income has no German title and text" in err and str(path) in err


def test_validate_reports_a_common_rule_without_its_hungarian_text(tmp_path, capsys):
    specs = copy_specs(tmp_path)
    edit(specs / "common" / "rules.hu.yaml", "  game-over:\n", "  game-over-x:\n")
    assert main(["validate", str(specs / "speicherstadt")]) == 4
    assert "no common rule 'game-over-x'" in capsys.readouterr().err


def test_a_word_a_spec_value_gives_is_said_in_the_language():
    rule = load_spec("canterbury").rules["canterbury/money-points"]
    assert "rounded down" in rule.text
    assert "lefelé kerekítve" in rule.words("hu")[1] and "(abgerundet)" in rule.words("de")[1]


def test_a_spec_folder_without_rule_texts_loads_and_validate_names_what_is_missing(tmp_path, capsys):
    specs = copy_specs(tmp_path)
    (specs / "speicherstadt" / "rules.hu.yaml").unlink()
    spec = load_spec("speicherstadt", root=specs)
    assert spec.rules["speicherstadt/income"].words("hu") is None
    assert spec.rules["speicherstadt/seat"].words("hu")[0] == "Csak az asztalnál ülő játékosok lépnek"  # the common texts
    assert main(["validate", str(specs / "speicherstadt")]) == 4
    assert "has no Hungarian title and text" in capsys.readouterr().err


def test_a_file_of_rule_texts_says_the_language_its_name_gives(tmp_path):
    specs = copy_specs(tmp_path)
    edit(specs / "speicherstadt" / "rules.hu.yaml", "lang: hu", "lang: de")
    with pytest.raises(SpecError) as caught:
        load_spec("speicherstadt", root=specs)
    assert caught.value.key == "lang"
