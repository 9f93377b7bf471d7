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

import re

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
