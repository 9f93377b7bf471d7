"""The questions of a box template: one for each value no source gives, in a player's words.

What a question says comes from `specs/<game>/box/questions.yaml` (data, in English,
Hungarian and German); which values are asked comes from the spec's provenance: every
provisional and unknown value. A small table typed in with one provenance (a tile's printed
numbers) is asked number by number; a long one (a track of a hundred spaces, a scoring
table) or one the questions mark `whole` is asked as one answer.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.i18n import _
from referee.spec.loader import Spec, iter_uncertain, read_yaml, specs_root, validate_against_schema

ASKED = ("provisional", "unknown")
LANGUAGES = ("en", "hu", "de")
# A table of at most this many numbers is asked number by number.
SMALL_TABLE = 12


@dataclass(frozen=True)
class Question:
    """One value to read off the box: where it goes, what to ask, and what is used until then."""

    address: str  # file:dotted.key, the key of the answer in a box file
    group: str  # the component heading it is listed under
    text: str
    standin: Any  # the value used now (None for an unknown one)
    status: str  # provisional or unknown
    note: str  # why the value is uncertain

    @property
    def unknown(self) -> bool:
        return self.status == "unknown"


def questions(spec: Spec, lang: str = "en") -> list[Question]:
    """Every question for the uncertain values of a spec, grouped by component in the order
    of the groups of questions.yaml, and by address within a group."""
    data = question_data(spec.game)
    asked: list[Question] = []
    for p in iter_uncertain(spec, ASKED):
        for address, value in _leaves(p.address, p.value, data, p.status == "unknown"):
            asked.append(Question(address, _group(spec, data, address, lang), _text(spec, data, address, lang), value, p.status, p.note))
    groups = list(data.get("groups", ()))

    def place(q: Question) -> tuple:
        index = next((i for i, g in enumerate(groups) if _pattern(g["match"], False).match(q.address)), len(groups))
        return (index, _address_key(q.address))

    return sorted(asked, key=place)


def _address_key(address: str) -> tuple:
    """Addresses in reading order: numbers as numbers (space 10 after space 9)."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"[:.]", address))


@functools.cache
def _question_file(game: str, root: str) -> dict:
    path = Path(root) / game / "box" / "questions.yaml"
    if not path.is_file():
        return {"kind": "box-questions", "groups": [], "questions": []}
    data = read_yaml(path)
    validate_against_schema(data, "box-questions", path, Path(root))
    return data


def question_data(game: str) -> dict:
    """The game's questions.yaml, validated (none: every question in the generic words)."""
    return _question_file(game, str(specs_root()))


def _leaves(address: str, value: Any, data: dict, unknown: bool):
    """(address, value) for each answer a value is asked as."""
    if unknown or _says_whole(data, address) or not isinstance(value, dict):
        yield address, value
        return
    small = _numbers(value) <= SMALL_TABLE
    for key, child in value.items():
        below = f"{address}.{key}"
        if isinstance(child, dict) and small and not _says_whole(data, below):
            yield from _leaves(below, child, data, False)
        else:
            yield below, child


def _numbers(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_numbers(v) for v in value.values())
    if isinstance(value, list):
        return sum(_numbers(v) for v in value)
    return 1


def _says_whole(data: dict, address: str) -> bool:
    entry = _matching(data.get("questions", ()), address, whole=True)
    return bool(entry and entry.get("whole"))


def _pattern(pattern: str, whole: bool) -> re.Pattern:
    parts = re.split(r"([:.])", pattern)
    regex = "".join("([^:.]+)" if part == "*" else re.escape(part) for part in parts)
    return re.compile(regex + ("" if whole else r"(?=$|[.:])"))


def _matching(entries, address: str, whole: bool) -> dict | None:
    for entry in entries:
        found = _pattern(entry["match"], whole).fullmatch(address) if whole else _pattern(entry["match"], whole).match(address)
        if found:
            return {**entry, "_stars": found.groups()}
    return None


def _fill(spec: Spec, data: dict, template: str, entry: dict, lang: str) -> str:
    stars = entry.get("_stars", ())
    words = data.get("words") or {}

    def star(match: re.Match) -> str:
        n = int(match.group(1))
        if n > len(stars):
            return match.group(0)
        seg = stars[n - 1]
        if match.group(2):
            return str(int(seg) + 1) if seg.isdigit() else seg
        said = words.get(seg)
        return (said.get(lang) or said["en"]) if said else seg

    text = re.sub(r"\{(\d)(\+?)\}", star, template)
    if "{name}" in text and entry.get("name"):
        text = text.replace("{name}", _name(spec, entry["name"], stars, lang))
    return text


def _name(spec: Spec, pattern: str, stars: tuple, lang: str) -> str:
    """The names of the entry a question is about, in the language (English if it has none)."""
    address = pattern
    for seg in stars:
        address = address.replace("*", seg, 1)
    try:
        entry = spec.get(address)
    except (KeyError, IndexError, TypeError, ValueError):
        return address.rsplit(".", 1)[-1]
    return spec.name(entry if isinstance(entry, dict) else None, lang, address.rsplit(".", 1)[-1])


def _text(spec: Spec, data: dict, address: str, lang: str) -> str:
    entry = _matching(data.get("questions", ()), address, whole=True)
    if entry is None:
        return _("the value of {address} in your box").format(address=address)
    return _fill(spec, data, entry["text"].get(lang) or entry["text"]["en"], entry, lang)


def _group(spec: Spec, data: dict, address: str, lang: str) -> str:
    entry = _matching(data.get("groups", ()), address, whole=False)
    if entry is None:
        return address.partition(":")[0]
    return _fill(spec, data, entry["title"].get(lang) or entry["title"]["en"], entry, lang)
