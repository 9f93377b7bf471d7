"""The names a record may give a player's colour, from `specs/common/colours.yaml`.

Players at a Hungarian or German table write their colours as they say them (`kék: ...`,
[Players "rot Anna"]); the colour's id stays the one the game's spec lists (blue, red), so a
record checks the same in every language.
"""

from __future__ import annotations

import functools
from pathlib import Path

from referee.errors import SpecError
from referee.i18n import Named
from referee.notation.names import Names, names_of, spelling
from referee.spec.loader import on_forget, read_yaml, specs_root


def colour_names(colours) -> Names:
    """Every spelling of the given colours (id, names in each language, aliases) -> id."""
    table = _table(str(specs_root()))
    out = Names()
    for colour in colours:
        out.setdefault(spelling(colour), colour)
    for colour in colours:
        for name in names_of(table.get(colour)):
            out.setdefault(spelling(name), colour)
    return out


def colour_named(colour: str) -> Named:
    """A colour as a message shows it: its id in English, its name in the reader's language
    (`referee.i18n.Named`)."""
    return Named(colour, {**(_table(str(specs_root())).get(colour) or {}).get("names", {}), "en": colour})


@functools.cache
def _table(root: str) -> dict:
    """The colours of a data root, each with its names as strings; none when the file is
    missing or unreadable, so that a record is still read by the colours' ids. The file's
    schema is `validate`'s to check: loading jsonschema to check it cost every `check` a
    third of its time."""
    path = Path(root) / "common" / "colours.yaml"
    try:
        data = read_yaml(path)
    except (SpecError, OSError):
        return {}
    colours = data.get("colours") if isinstance(data, dict) else None
    if not isinstance(colours, dict):
        return {}
    table = {}
    for colour, entry in colours.items():
        if isinstance(entry, dict):
            names = entry.get("names") if isinstance(entry.get("names"), dict) else {}
            aliases = [a for a in entry.get("aliases") or () if isinstance(a, str)] if isinstance(entry.get("aliases"), list) else []
            table[colour] = {"names": {k: v for k, v in names.items() if isinstance(v, str)}, "aliases": aliases}
    return table


on_forget(_table.cache_clear)
