"""Text from a record, a file name or a spec folder is shown, never obeyed by the terminal."""

from referee.terminal import visible


def test_escape_sequences_are_shown_not_obeyed():
    assert visible("red\x1b[1A\x1b[2Klegal") == "red\\x1b[1A\\x1b[2Klegal"


def test_c1_del_and_bidi_overrides_are_escaped():
    assert visible("a\x7fb\x9bc\u202ed\u2066e") == "a\\x7fb\\x9bc\\u202ed\\u2066e"


def test_line_breaks_are_kept_only_when_asked():
    assert visible("one\ntwo") == "one\\x0atwo"
    assert visible("one\ntwo\r", keep_lines=True) == "one\ntwo\\x0d"


def test_printable_text_in_any_script_is_unchanged():
    text = "kávé szőnyeg Kaffee tűzoltó bеige"
    assert visible(text) == text
