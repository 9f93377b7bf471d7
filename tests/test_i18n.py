"""The referee in English, Hungarian and German: catalogues, the choice of language, output.

Expected texts come from the catalogues (`translations(lang).gettext`), never from English
sentences typed here, so a changed translation does not break a test and a missing one does.
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee import i18n
from referee.i18n import Message, _, localized
from referee.i18n.catalogue import compiled, po_path, translations

ROOT = Path(__file__).resolve().parents[1]
ILLEGAL = '[Game "canterbury"]\n[Players "kék Anna, piros Ben, zöld"]\n\nkék: levy\n'


def _catalogues_script():
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "scripts" / "catalogues.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def catalogues():
    return _catalogues_script()


def test_every_message_of_the_code_is_in_the_catalogues_and_translated(catalogues, capsys):
    """Fails when a message marked in the code lacks a Hungarian or German translation, or
    when the committed catalogues were not brought up to date (scripts/catalogues.py)."""
    code = catalogues.main(["--check"])
    assert code == 0, capsys.readouterr().out


def test_the_check_finds_an_untranslated_message(catalogues):
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="hu")
    catalog.add("legal", "szabályos")
    catalog.add("winner: {players}", "")
    catalog.add(("{n} point", "{n} points"), ("{n} pont", ""))
    assert catalogues.untranslated(catalog) == ["winner: {players}", "{n} point"]


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{[a-z_]*\}|%\([a-z_]+\)[sr]|%[sr]", text))


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_translations_keep_every_placeholder(lang):
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            assert _fields(string) == _fields(ids[-1]), (lang, message.id, string)


def test_a_catalogue_compiles_from_its_po():
    data = compiled(po_path("de"))
    de = gettext.GNUTranslations(io.BytesIO(data))
    assert de.gettext("legal") == translations("de").gettext("legal") != "legal"


@pytest.mark.parametrize(
    "environ, lang",
    [
        ({"LANG": "hu_HU.UTF-8"}, "hu"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LANG": "hu_HU.UTF-8", "LC_ALL": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "hu:de"}, "hu"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_comes_from_the_locale(environ, lang):
    assert i18n.from_environment(environ) == lang


def test_a_message_is_translated_when_shown():
    message = Message("winner: {players}", players="red")
    assert message == "winner: red"
    with i18n.speaking("hu"):
        assert localized(message) == translations("hu").gettext("winner: {players}").format(players="red")
    assert localized(message) == "winner: red"
    import pickle

    assert localized(pickle.loads(pickle.dumps(message))) == "winner: red"


def referee(*args, env=None, stdin=None):
    import os

    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "referee", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, env=environ)


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_an_illegal_record_is_reported_in_the_language_asked(lang, tmp_path):
    record = tmp_path / "game.log"
    record.write_text(ILLEGAL, encoding="utf-8")
    t = translations(lang).gettext
    for args, env in ((["check", "--lang", lang, str(record)], None), (["--lang", lang, "check", str(record)], None), (["check", str(record)], {"LANG": f"{lang}_{lang.upper()}.UTF-8"})):
        result = referee(*args, env=env)
        assert result.returncode == 1, result.stderr
        out = result.stdout
        assert f"{t('error')}[canterbury/first-round]" in out  # the rule id stays as it is
        assert f"{record}: {t('ILLEGAL')} (canterbury;" in out
        assert t("see: {link}").split("{")[0] in out
        assert t("standings when the replay stopped:") in out
        for english in ("ILLEGAL", "error[", "see:", "standings"):
            assert english not in out


def test_help_and_usage_errors_in_the_language_asked():
    t = translations("hu").gettext
    result = referee("--lang", "hu", "check", "--help")
    assert result.returncode == 0
    assert t("usage: ") in result.stdout and t("the game records to check, or - for standard input")[:30] in result.stdout
    result = referee("check", "--lang", "de", "--format", "xml", "x.log")
    assert result.returncode == 2
    de = translations("de").gettext
    assert de("invalid choice: %(value)r (choose from %(choices)s)").split("%")[0] in result.stderr
    assert "invalid choice" not in result.stderr


def test_an_unknown_language_is_a_usage_error():
    result = referee("check", "--lang", "fr", "x.log")
    assert result.returncode == 2 and "--lang" in result.stderr


def test_a_record_checks_the_same_in_every_language(tmp_path):
    """The verdict, the exit code and the JSON do not depend on the language spoken."""
    record = tmp_path / "game.log"
    record.write_text(ILLEGAL, encoding="utf-8")
    results = [referee("check", "--lang", lang, "--format", "json", str(record)) for lang in ("en", "hu", "de")]
    assert {r.returncode for r in results} == {1}
    reports = [json.loads(r.stdout) for r in results]
    assert reports[0] == reports[1] == reports[2]


def test_the_command_leaves_no_language_behind(capsys, tmp_path):
    from referee.cli.main import main

    record = tmp_path / "game.log"
    record.write_text(ILLEGAL, encoding="utf-8")
    assert main(["check", "--lang", "de", str(record)]) == 1
    assert translations("de").gettext("ILLEGAL") in capsys.readouterr().out
    assert i18n.current() == "en" and _("ILLEGAL") == "ILLEGAL"


SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"


@pytest.fixture(scope="module")
def replay_pages(tmp_path_factory):
    out = {}
    for lang in ("en", "hu", "de"):
        page = tmp_path_factory.mktemp(lang) / "replay.html"
        result = referee("replay", "--lang", lang, str(SAMPLE), "-o", str(page))
        assert result.returncode == 0, result.stderr
        out[lang] = page.read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("lang, card", [("hu", "Kávépörkölő"), ("de", "Kaffeeröster")])
def test_the_replay_page_and_its_sentences_in_the_language_asked(replay_pages, lang, card):
    page, t = replay_pages[lang], translations(lang).gettext
    assert f'<html lang="{lang}">' in page
    for label in ("Moves", "By round", "previous move"):
        assert html_text(t(label)) in page and t(label) != label
    assert t("{card} is revealed into slot {slot}").format(card=card, slot=1) in page
    for english in ("is revealed into slot", "places a worker on slot", "buys the", ">Moves<"):
        assert english not in page
    assert "is revealed into slot" in replay_pages["en"]


def html_text(text: str) -> str:
    import html

    return html.escape(text)


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_show_in_the_language_asked(lang):
    t = translations(lang).gettext
    result = referee("show", "--lang", lang, "--at", "40", str(SAMPLE))
    assert result.returncode == 0, result.stderr
    assert t("after move {n} (line {line})").format(n=40, line=53) in result.stdout
    assert t("Round {n}").format(n=3) in result.stdout and "Round 3" not in result.stdout


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_picture_labels_in_the_language_asked(lang, tmp_path):
    out = tmp_path / "position.svg"
    result = referee("draw", "--lang", lang, str(SAMPLE), "-o", str(out))
    assert result.returncode == 0, result.stderr
    picture, t = out.read_text(encoding="utf-8"), translations(lang).gettext
    assert html_text(t("bag:")) in picture and f">{html_text(t('coins'))}<" in picture
    assert ">bag:<" not in picture
