"""How a name written in a record is matched with the names a spec gives.

A record may name a thing by its id, by its name in any language the spec gives (English,
German, Hungarian) or by an alias, in any case. Every name is compared in one form, its
*spelling*: Unicode NFC (an accent typed as a combining mark is the same letter), lower
case, words joined by hyphens, without dots and apostrophes. So "St. Nikolai",
"st-nikolai" and "ST NIKOLAI" are one spelling, and "Performers' wagon" is written
`performers-wagon`. A slip of the pen gets the nearest spellings (`nearest`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Iterable

_DROPPED = re.compile("['\u2019\u02bc]")  # apostrophes: ' and the typographic ones
_BLANKS = re.compile(r"[\s.\-]+")


@functools.lru_cache(maxsize=4096)  # a record writes its few names hundreds of times
def spelling(text: str) -> str:
    """The form in which a written name and a spec's name are compared."""
    text = unicodedata.normalize("NFC", str(text)).lower()
    return _BLANKS.sub("-", _DROPPED.sub("", text)).strip("-")


def words(text: str) -> list[str]:
    """A name as the words a record writes one after the other ("Tax & Build": tax, &, build)."""
    return unicodedata.normalize("NFC", _DROPPED.sub("", str(text))).replace(".", " ").split()


def nearest(word: str, candidates: Iterable[str], n: int = 2) -> list[str]:
    """The candidates closest to a misspelt word, best first (at most `n`)."""
    import difflib  # only a slip of the pen needs it

    by_spelling: dict[str, str] = {}
    for candidate in candidates:
        by_spelling.setdefault(spelling(candidate), candidate)
    close = difflib.get_close_matches(spelling(word), list(by_spelling), n=n, cutoff=0.6)
    return [by_spelling[c] for c in close]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the nearest candidates, or nothing."""
    close = nearest(word, candidates)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def names_of(entry: dict | None) -> list[str]:
    """Every name a spec entry gives: its `names` in each language, then its `aliases`."""
    entry = entry or {}
    names = entry.get("names") or {}
    return [*(n for n in names.values() if isinstance(n, str)), *(entry.get("aliases") or ())]


def index(entries: dict, extra: dict | None = None) -> dict[str, str]:
    """Every spelling of every entry (its id, names and aliases) -> the entry's id; the first
    entry to claim a spelling keeps it."""
    out: dict[str, str] = {}
    for eid, entry in entries.items():
        for name in (eid, *names_of(entry if isinstance(entry, dict) else None)):
            key = spelling(name)
            if key:
                out.setdefault(key, eid)
    for name, eid in (extra or {}).items():
        out.setdefault(spelling(name), eid)
    return out
