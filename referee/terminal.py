"""Text that reaches a terminal: shown visibly, never obeyed.

A record, a file name or a spec folder may hold anything, and a terminal obeys some
characters instead of showing them: an escape sequence can move the cursor and erase the
line above, so that an illegal record looks legal. Every piece of such text passes
through `visible` before it is printed. Control characters (C0, DEL, C1) and the
invisible characters that reorder or hide text (bidirectional overrides and isolates,
zero-width characters) are written as Python escapes (`\\x1b`, `\\u202e`), which a reader
can see and a terminal does not act on.
"""

from __future__ import annotations

import os
import re
import unicodedata

from referee.i18n import Message

# C0 and DEL and C1; the bidirectional embeddings, overrides, isolates and marks; zero-width
# characters and the byte-order mark; the line and paragraph separators.
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
_HIDDEN_KEEP_LINES = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, keep_lines: bool = False) -> str:
    """`text` with every control or invisible character written as an escape.

    `keep_lines` leaves line breaks alone, for a block of several lines.
    """
    pattern = _HIDDEN_KEEP_LINES if keep_lines else _HIDDEN
    return pattern.sub(_escape, str(text))


def readable_name(name: str) -> str:
    """A file name as text. Bytes of a name that are not UTF-8 (Python keeps them as lone
    surrogates, which no encoder writes) become `\\xff`, in text and in JSON alike."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        try:
            return os.fsencode(name).decode("utf-8", "backslashreplace")
        except UnicodeError:
            return name.encode("utf-8", "backslashreplace").decode("ascii")


def shorten(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


# --- a record's line quoted under a diagnostic ----------------------------------------------

TAB_STOP = 8
QUOTE_WIDTH = 120  # terminal cells of a quoted line; a longer line is cut around the marked span
QUOTE_BEFORE = 40  # cells kept before the marked span when a line is cut


def _cells(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def quote(line: str, column: int, end_column: int | None) -> tuple[str, str]:
    """A record's line as shown under a diagnostic, and the marker line below it.

    The line is shown visibly (tabs as blanks to the next tab stop, control and invisible
    characters escaped) and the marker counts terminal cells, not characters, so that the
    caret stands under the spot after tabs, escapes and wide letters. A long line is cut
    around the marked span, with `…` where text was left out.
    """
    cut_left = cut_right = False
    if len(line) > 2 * QUOTE_WIDTH:  # only the characters around the span can be shown: look at no others
        first = min(max(column, 1), len(line) + 1) - 1
        low, high = max(0, first - QUOTE_WIDTH), min(len(line), first + QUOTE_WIDTH + 1)
        cut_left, cut_right = low > 0, high < len(line)
        line, column = line[low:high], column - low
        end_column = None if end_column is None else min(end_column - low, len(line) + 1)
    pieces: list[str] = []  # what each character of the line looks like on screen
    widths: list[int] = []
    at = 0
    for char in line:
        if char == "\t":
            shown = " " * (TAB_STOP - at % TAB_STOP)
            width = len(shown)
        elif _HIDDEN.match(char):
            shown = visible(char)
            width = len(shown)
        else:
            shown, width = char, _cells(char)
        pieces.append(shown)
        widths.append(width)
        at += width
    first = min(max(column, 1), len(line) + 1) - 1
    last = min(max((end_column or column + 1) - 1, first + 1), len(line) + 1)  # one past the span
    starts = [0]
    for width in widths:
        starts.append(starts[-1] + width)
    starts.append(starts[-1] + 1)  # the place after the line's last character
    caret_at = starts[first]
    caret_width = max(1, starts[last] - caret_at)
    left = 0
    if starts[len(line)] > QUOTE_WIDTH:
        left = max(0, min(caret_at - QUOTE_BEFORE, starts[len(line)] - QUOTE_WIDTH))
    right = left + QUOTE_WIDTH
    shown_line, cells = "", 0
    prefix = "…" if left or cut_left else ""
    for piece, start, width in zip(pieces, starts, widths):
        if start < left:
            continue
        if start + width > right:
            cut_right = True
            break
        shown_line += piece
        cells += width
    shown_line += "…" if cut_right else ""
    caret_width = max(1, min(caret_width, right - caret_at)) if caret_at < right else 1
    offset = len(prefix) + max(0, caret_at - left)
    return prefix + shown_line, " " * offset + "^" + "~" * (caret_width - 1)


# --- letters that look like others ------------------------------------------------------------


def odd_letters(word: str, shown: int = 3) -> str:
    """A note on the letters of a word that are not Latin, such as a Cyrillic `е` in `bеige`,
    which looks the same on screen; empty when every letter is Latin. A name the referee does
    not know may differ from one it knows only in such a letter, so the message must say it."""
    odd = []
    for char in dict.fromkeys(word):
        if char.isalpha():
            script = unicodedata.name(char, "UNKNOWN").split(" ")[0]
            if script != "LATIN":
                odd.append(f"{char!r} {script.title()} U+{ord(char):04X}")
    if not odd:
        return ""
    if len(odd) > shown:
        return Message(" (it holds letters that are not Latin: {letters} and {n} more)", letters=odd[:shown], n=len(odd) - shown)
    return Message(" (it holds letters that are not Latin: {letters})", letters=odd)
