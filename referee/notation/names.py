"""How a name written in a record is matched with the names a spec gives.

A record may name a thing by its id, by its name in any language the spec gives (English,
German, Hungarian) or by an alias, in any case. Every name is compared in one form, its
*spelling*: Unicode NFC (an accent typed as a combining mark is the same letter), lower
case, words joined by hyphens, without dots and apostrophes. So "St. Nikolai",
"st-nikolai" and "ST NIKOLAI" are one spelling, and "Performers' wagon" is written
`performers-wagon`. A slip of the pen gets the nearest spellings (`nearest`).

People type names as their keyboard lets them, so a name is also found by its *folded*
forms: without accents (kave = kávé, Raktar = Raktár), with ß as ss, and with a German
umlaut written out (Kaffeeroester = Kaffeeröster). An `index` answers an exact spelling
first and a folded one only when it names one thing; when it names several, `ambiguous`
lists them so that the message can name the candidates.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from referee.i18n import Message

_DROPPED = re.compile("['\u2019\u02bc]")  # apostrophes: ' and the typographic ones
_BLANKS = re.compile(r"[\s.\-]+")


@functools.lru_cache(maxsize=4096)  # a record writes its few names hundreds of times
def spelling(text: str) -> str:
    """The form in which a written name and a spec's name are compared."""
    text = unicodedata.normalize("NFC", str(text)).lower()
    return _BLANKS.sub("-", _DROPPED.sub("", text)).strip("-")


# letters that are not a base letter with a mark, and how a keyboard without them writes them
_LIGATURES = str.maketrans({"ß": "ss", "ẞ": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i"})
# a German umlaut (and the Hungarian long ones) as it is written out without the mark
_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ő": "oe", "ű": "ue"})


@functools.lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """A spelling without its accents, ß as ss: how a name is typed without the letters."""
    text = spelling(text).translate(_LIGATURES)
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)


def spelled_out(text: str) -> str:
    """A name with its umlauts written out (Kaffeeröster: kaffeeroester)."""
    return spelling(text).translate(_SPELLED_OUT)


def folded_forms(text: str) -> set[str]:
    """Every folded form a name may be typed in: without accents, and with umlauts written
    out (Kaffeeröster: kaffeeroster, kaffeeroester)."""
    return {folded(text), folded(spelled_out(text))}


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
    close = [repr(c) for c in nearest(word, candidates)]
    if len(close) == 2:
        return Message(" (did you mean {first} or {second}?)", first=close[0], second=close[1])
    return Message(" (did you mean {first}?)", first=close[0]) if close else ""


def names_of(entry: dict | None) -> list[str]:
    """Every name a spec entry gives: its `names` in each language, then its `aliases`."""
    entry = entry or {}
    names = entry.get("names") or {}
    return [*(n for n in names.values() if isinstance(n, str)), *(entry.get("aliases") or ())]


class Names(dict):
    """Spellings -> ids, that also finds a spelling by its folded forms.

    The mapping holds the exact spellings (what is iterated and offered); a spelling that is
    not one of them is looked up by its folded form (`folded`), and found when that form
    belongs to one id only. The table of folded forms is built when first needed and again
    after a change."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._folds: dict[str, set[str]] | None = None

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self._folds = None

    def __delitem__(self, key):
        super().__delitem__(key)
        self._folds = None

    def update(self, *args, **kwargs):
        super().update(*args, **kwargs)
        self._folds = None

    def setdefault(self, key, default=None):
        self._folds = None
        return super().setdefault(key, default)

    def pop(self, *args):
        self._folds = None
        return super().pop(*args)

    def copy(self) -> Names:
        return Names(self)

    def _fold_table(self) -> dict[str, set[str]]:
        if self._folds is None:
            folds: dict[str, set[str]] = {}
            for key, eid in self.items():
                for form in folded_forms(key):
                    folds.setdefault(form, set()).add(eid)
            self._folds = folds
        return self._folds

    def _by_fold(self, key) -> set[str]:
        return self._fold_table().get(folded(key), set()) if isinstance(key, str) else set()

    def __contains__(self, key) -> bool:
        return super().__contains__(key) or len(self._by_fold(key)) == 1

    def __missing__(self, key):
        found = self._by_fold(key)
        if len(found) == 1:
            return next(iter(found))
        raise KeyError(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def ambiguous(self, key: str) -> list[str]:
        """The spellings of the things a folded name may mean, one per thing, when it
        means more than one (else nothing)."""
        if super().__contains__(key):
            return []
        found = self._by_fold(key)
        if len(found) < 2:
            return []
        form, out = folded(key), {}
        for spelt, eid in self.items():
            if eid in found and form in folded_forms(spelt):
                out.setdefault(eid, spelt)
        return sorted(out.values())


def index(entries: dict, extra: dict | None = None) -> Names:
    """Every spelling of every entry (its id, names and aliases) -> the entry's id; the first
    entry to claim a spelling keeps it. Folded spellings are found too (`Names`)."""
    out = Names()
    for eid, entry in entries.items():
        for name in (eid, *names_of(entry if isinstance(entry, dict) else None)):
            key = spelling(name)
            if key:
                out.setdefault(key, eid)
    for name, eid in (extra or {}).items():
        out.setdefault(spelling(name), eid)
    return out
