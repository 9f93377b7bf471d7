"""Reading errors of records and spec data in Hungarian and German.

A record the notation cannot read, and spec data the loader refuses, are told in the
language asked; as strings the messages stay the English ones (JSON and golden output do not
change). Expected texts come from the catalogues, never from sentences typed here.
"""

from __future__ import annotations

import pytest

from referee.engine.replay import check_bytes
from referee.errors import SpecError
from referee.i18n import localized, speaking
from referee.i18n.catalogue import translations
from referee.spec.loader import find_variant, specs_root

HEADER = '[Game "canterbury"]\n[Players "blue, red, green"]\n'
READING = {  # record -> the catalogue's template of the message its reading error gives, and its values
    HEADER + "blue: full bild well c3\n": ("{got}; expected {expected}", "unexpected {word}{hint}"),
    HEADER + '[Players "blue, red, green"]\n': ("tag [{tag}] appears twice", None),
}


def _error(text: str):
    report = check_bytes(text.encode("utf-8"), "game.log", [])
    assert report.status == "malformed"
    return report.errors[0]


@pytest.mark.parametrize("lang", ["hu", "de"])
@pytest.mark.parametrize("text", list(READING), ids=["syntax", "tag-twice"])
def test_a_reading_error_in_the_language_asked(text, lang):
    error = _error(text)
    english = str(error.message)
    with speaking(lang):
        shown = localized(error.message)
    template, part = READING[text]
    translated = translations(lang).gettext
    # the message's fixed words are the catalogue's in that language
    for piece in (template, part):
        if piece is None:
            continue
        for word in (w for w in translated(piece).replace("{", "\0{").replace("}", "}\0").split("\0") if w.strip() and not w.startswith("{")):
            assert word in shown, (word, shown)
    assert shown != english
    with speaking("en"):
        assert localized(error.message) == english  # the English text is the string itself


def test_what_the_grammar_expected_is_named_in_the_language_asked():
    error = _error(HEADER + "blue: full build\n")
    with speaking("de"):
        shown = localized(error.message)
    assert translations("de").gettext("a word") in shown or translations("de").gettext("end of line") in shown
    assert "expected" not in shown


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_spec_error_in_the_language_asked(lang):
    with pytest.raises(SpecError) as caught:
        find_variant(specs_root() / "canterbury", "no-such-variant")
    message = caught.value.message
    assert str(message).startswith("no such variant; known: ")
    with speaking(lang):
        shown = localized(message)
    assert shown.startswith(translations(lang).gettext("no such variant; known: {known}").split("{")[0])


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_lines_left_out_of_a_counterexample_are_named_in_the_language_asked(lang):
    from referee.site import counterexamples
    from referee.spec.loader import load_spec

    found = counterexamples.load(load_spec("speicherstadt"))
    example = next(e for e in found.by_rule.values() if len(e.before.splitlines()) > counterexamples.CONTEXT + 4)
    start = len(example.before.splitlines()) - counterexamples.CONTEXT
    english = counterexamples.snippet(example)[0]
    with speaking(lang):
        shown = counterexamples.snippet(example)[0]
    assert english == f"      | … lines 1 to {start} of the record"  # the English page is as before
    assert shown == "      | " + translations(lang).gettext("… lines 1 to {n} of the record").format(n=start) != english


@pytest.mark.parametrize("lang", ["hu", "de"])
@pytest.mark.parametrize(
    "text, template",
    [
        ("", "empty record: it needs at least a [Game] tag and a [Players] tag"),
        ("blue: pass\n", 'missing [Game "..."] tag ({games})'),
        (HEADER + '[Variant "nope"]\n', "no {game} variant {name}"),
    ],
    ids=["empty", "no-game", "unknown-variant"],
)
def test_a_record_the_engine_refuses_before_reading_is_told_in_the_language_asked(text, template, lang):
    error = _error(text)
    with speaking(lang):
        shown = localized(error.message)
    fixed = translations(lang).gettext(template).split("{")[0]
    assert fixed != template.split("{")[0] and fixed in shown, shown
    assert shown != str(error.message)
