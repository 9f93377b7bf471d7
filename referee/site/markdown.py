"""Markdown pieces every page of the rulebook site is made of: headings' anchors, table
rows, escapes, fenced blocks and the words a spec key stands for."""

from __future__ import annotations

import datetime
import re
from typing import Any

from referee.errors import SpecError
from referee.i18n import N_, _, current
from referee.notation.names import folded_forms, spelling
from referee.spec.loader import Provenance

LANGS = {"en": N_("English"), "de": N_("German"), "hu": N_("Hungarian")}
PAGE_LANGS = ("en", "hu", "de")  # the languages the site's pages are written in
OWN_NAMES = {"en": "English", "hu": "Magyar", "de": "Deutsch"}  # each language by its own name
# The pages written in every language, by stem (cli.md, cli.hu.md; a game's tables.md, tables.de.md):
# a page in Hungarian links to the Hungarian page where there is one, else to the English.
TRANSLATED = ("cli", "index", "rules", "tables", "variants", "notation", "gallery", "verify", "replays")
MAX_INLINE_ITEMS = 12  # longer lists and mappings get a table of their own


def page_file(stem: str, lang: str | None = None) -> str:
    """The Markdown file of a page in `lang` (default: the language in use): `tables.md`,
    `tables.hu.md`; a page that is not translated is the English one in every language."""
    lang = lang or current()
    return f"{stem}.md" if lang == "en" or stem not in TRANSLATED else f"{stem}.{lang}.md"


class DocsError(SpecError):
    """Spec data that the rulebook cannot show."""


def slug(*parts: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", "-".join(str(p) for p in parts).lower()).strip("-")


def words(key: Any) -> str:
    """A spec key as words: `end_points_per_coin` -> `end points per coin`."""
    return str(key).replace("_", " ")


def human(key: Any) -> str:
    text = words(key)
    return text[:1].upper() + text[1:]


def escape(text: str) -> str:
    return str(text).replace("<", "&lt;").replace("|", "\\|").replace("\n", " ").strip()


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def is_names(value: Any) -> bool:
    """A mapping of a thing's names by language: {en: fireman, de: Feuerwehrmann, hu: tűzoltó}."""
    return isinstance(value, dict) and bool(value) and set(value) <= set(LANGS) and all(isinstance(v, str) for v in value.values())


def names_of(value: Any) -> dict:
    """The names of a thing: its `names` mapping, or the mapping itself when it is only names."""
    if is_names(value):
        return value
    return value["names"] if isinstance(value, dict) and is_names(value.get("names")) else {}


def names_line(names: dict) -> str:
    """A thing's names in each language, and how they may be typed without their accents
    (szonyegkereskedo, Kaffeeroester), which a record accepts and the site's search finds."""
    line = " · ".join(_(LANGS[lang]).capitalize() + f": **{escape(names[lang])}**" for lang in LANGS if names.get(lang))
    shown = {spelling(n) for n in names.values() if isinstance(n, str)}
    typed = sorted({form for n in names.values() if isinstance(n, str) for form in folded_forms(n)} - shown)
    return line + (" · " + _("typed as: {names}").format(names=escape(", ".join(typed))) if typed and line else "")


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool, datetime.date))


def table_like(value: Any) -> bool:
    """Too big or too nested for one table cell: it gets a heading and a table of its own."""
    if isinstance(value, dict):
        items = [v for k, v in value.items() if not (k == "names" and is_names(v))]
        numeric = len(items) >= 3 and all(isinstance(k, int) for k in value) and all(map(is_scalar, items))
        return numeric or len(items) > MAX_INLINE_ITEMS or any((isinstance(v, dict) and not only_names(v)) or table_like(v) for v in items)
    if isinstance(value, list):
        return len(value) > MAX_INLINE_ITEMS or any(isinstance(v, dict) for v in value)
    return False


def is_entries(items: dict) -> bool:
    """Mappings of one kind side by side (goods, card types, player counts): they share a field or have names."""
    values = list(items.values())
    if not values or not all(isinstance(v, dict) for v in values):
        return False
    shared = set.intersection(*(set(v) for v in values))
    return any(names_of(v) for v in values) or (len(values) >= 2 and bool(shared))


def only_names(value: Any) -> bool:
    """Names and nothing else: shown as a name, never opened up into a table."""
    return is_names(value) or (isinstance(value, dict) and set(value) == {"names"} and is_names(value["names"]))


def key_header(path: tuple) -> str:
    """The heading of a table's key column: `by_players` keys are players, others ids."""
    last = str(path[-1]) if path else ""
    return human(last[3:]) if last.startswith("by_") else "Id"


def entry_title(value: Any) -> str | None:
    """A heading for one entry: its English name, id or title, when it has one."""
    if isinstance(value, dict):
        if names_of(value).get("en"):
            return human(names_of(value)["en"])
        for field in ("id", "title"):
            if value.get(field) is not None and is_scalar(value[field]):
                return str(value[field])
    return None


def flatten(entry: dict, prefix: tuple = ()) -> tuple[dict[tuple, Any], list[tuple]]:
    """An entry's values by key path, nested mappings opened up; also the paths opened."""
    leaves: dict[tuple, Any] = {}
    through: list[tuple] = []
    for k, v in entry.items():
        if not prefix and k == "names" and is_names(v):
            continue
        if isinstance(v, dict) and v and not only_names(v):
            sub, sub_through = flatten(v, prefix + (k,))
            leaves.update(sub)
            through += [prefix + (k,), *sub_through]
        else:
            leaves[prefix + (k,)] = v
    return leaves, through


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)


def verify_anchor(p: Provenance) -> str:
    return slug("value", p.file, p.key)


def link_or_text(where: str) -> str:
    return f"<{where}>" if re.match(r"https?://", where) else f"`{escape(where)}`"


def fenced(text: str, lang: str) -> list[str]:
    fence = "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    return [fence + lang, *text.rstrip("\n").splitlines(), fence]
