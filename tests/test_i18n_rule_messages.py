"""The diagnostics of the rules in Hungarian and German, from the catalogue: the rules every
game shares (move numbers, the end of the game, the result, rulings, checkpoints) and each
game's own rules, as its counter-examples break them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee.i18n import Message, localized, speaking
from referee.i18n.catalogue import translations
from referee.site import counterexamples
from referee.spec.loader import available_games, load_spec

SHARED = ("move-number", "game-over", "result", "ruling", "checkpoint")


@pytest.mark.parametrize("game", available_games())
def test_the_shared_rules_speak_the_language_asked(game):
    found = counterexamples.load(load_spec(game))
    for short in SHARED:
        diagnostic = counterexamples.check(found.by_rule[f"{game}/{short}"]).errors[0]
        message = diagnostic.message
        assert isinstance(message, Message), (game, short, message)
        for lang in ("hu", "de"):
            template = translations(lang).gettext(message.template)
            assert template != message.template, (lang, message.template)
            with speaking(lang):
                shown = localized(message)
            assert shown != str(message) and shown.startswith(template.split("{")[0]), (lang, shown)


# Counter-examples whose message is not yet in the catalogue, with the module that says it.
ENGLISH_STILL: dict[str, str] = {}


def _pieces(template: str) -> list[str]:
    """The words of a message around its values: what any text made from it shows."""
    return [p for p in re.split(r"{\w+}", template) if p.strip(" ;:,.()'")]


@pytest.mark.parametrize("game", available_games())
def test_every_counterexample_is_explained_in_the_language_asked(game):
    found = counterexamples.load(load_spec(game))
    english = set()
    for rule, example in found.by_rule.items():
        for diagnostic in counterexamples.check(example).errors:
            message = diagnostic.message
            for lang in ("hu", "de"):
                with speaking(lang):
                    shown = localized(message)
                if shown == str(message):
                    english.add(rule)
                    continue
                template = translations(lang).gettext(message.template)
                assert template != message.template, (rule, lang, message.template)
                for piece in _pieces(template):
                    assert piece in shown, (rule, lang, piece, shown)
    assert english == {rule for rule in ENGLISH_STILL if rule.startswith(f"{game}/")}


@pytest.mark.parametrize("game", available_games())
def test_check_prints_a_games_violation_in_the_language_asked(game, tmp_path, capsys):
    from referee.cli.main import main

    found = counterexamples.load(load_spec(game))
    example = next(e for rule, e in sorted(found.by_rule.items()) if rule.split("/")[1] not in SHARED and rule not in ENGLISH_STILL and not e.unreadable)
    record = tmp_path / "game.log"
    record.write_text(example.text, encoding="utf-8")
    variants = [arg for v in example.variants for arg in ("--variant", v)]
    message = counterexamples.check(example).errors[0].message
    for lang in ("hu", "de"):
        assert main(["check", "--lang", lang, *variants, str(record)]) == 1
        out = capsys.readouterr().out
        with speaking(lang):
            shown = localized(message)
        assert f"[{example.rule}]" in out and shown in out and str(message) not in out, (lang, out)


RULES = sorted((Path(__file__).resolve().parents[1] / "referee" / "games").glob("*/rules.py"))


@pytest.fixture(scope="module")
def catalogues():
    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[1] / "referee" / "i18n" / "locale"
    out = {}
    for lang in ("hu", "de"):
        with (root / lang / "LC_MESSAGES" / "referee.po").open("rb") as f:
            out[lang] = read_po(f, locale=lang)
    return out


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.parent.name)
def test_every_message_of_the_rules_is_in_the_catalogue(path, catalogues):
    """A message the rules put together has its translations, even one built inside another
    message's values (where the extraction does not look)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Message", "N_", "_") and node.args and isinstance(node.args[0], ast.Constant):
            text = node.args[0].value
            for lang, catalogue in catalogues.items():
                entry = catalogue.get(text)
                assert entry is not None and entry.string, (path.parent.name, node.lineno, lang, text)
