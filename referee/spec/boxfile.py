"""A group's own box file: their answers for the spec values no source gives for certain.

`referee box GAME --use FILE` keeps the file at `<config>/referee/box/<game>.yaml` (config:
XDG_CONFIG_HOME, or ~/.config). From then on the loader lays its answers over the shipped
spec of that game before any variant, so every command uses them and every report lists
only the values still uncertain. The file is plain data::

    kind: box
    game: canterbury
    answers:
      structures:structures.well.printed.cost: 3     # a value read off the tile
      structures:structures.well.printed.city:       # blank: not answered yet

An answer replaces the uncertain value at its address (`file:dotted.key`, as
`referee validate --provenance` names them) and makes it the group's, no longer uncertain.
An answer inside a table that was typed in with one provenance (a tile's printed numbers)
answers that one number: the others of the table stay uncertain, each on its own.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

from referee.errors import MAX_SPEC_BYTES, SpecError
from referee.i18n import Message

BOX_KIND = "box"
# What an answer may write for a number the tile prints as a dash (a large tile's centre).
DASH = ("-", "dash", "—", "–")


def config_dir() -> Path:
    """The user's configuration folder for the referee: XDG_CONFIG_HOME/referee, or
    ~/.config/referee."""
    base = os.environ.get("XDG_CONFIG_HOME")
    return (Path(base) if base else Path.home() / ".config") / "referee"


def box_path(game: str) -> Path:
    """Where the box file of a game is kept (whether or not there is one)."""
    return config_dir() / "box" / f"{game}.yaml"


def box_in_use(game: str) -> Path | None:
    """The box file the loader lays over this game's spec, or None."""
    path = box_path(game)
    return path if path.is_file() else None


def box_fingerprint(game: str) -> tuple | None:
    """What tells one box file from another without reading it: a spec loaded once per
    process is loaded again when the group's file is put in place, changed or removed."""
    return fingerprint_of(box_path(game))


def fingerprint_of(path: Path) -> tuple | None:
    """A box file's path, modification time and size; None when there is no such file."""
    try:
        info = path.stat()
    except OSError:
        return None
    return (str(path), info.st_mtime_ns, info.st_size)


def answers_in(data: Any, path: Path, game: str) -> dict[str, Any]:
    """The answers of a box file read as YAML (loader.read_answers reads it), by address; a
    blank answer is left out (not answered yet), a dash becomes null (the tile prints no
    number there)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SpecError(path, "", Message("a box file is a mapping with kind: box, game and answers"))
    if data.get("kind") != BOX_KIND:
        raise SpecError(path, "kind", Message("a box file starts with 'kind: box' (referee box GAME writes one)"))
    if data.get("game") != game:
        raise SpecError(path, "game", Message("this box file is for {other}, not {game}", other=repr(str(data.get("game"))[:40]), game=repr(game)))
    unknown = sorted(str(k) for k in data if k not in ("kind", "game", "answers"))
    if unknown:
        raise SpecError(path, unknown[0], Message("unknown key; a box file has kind, game and answers"))
    answers = data.get("answers") or {}
    if not isinstance(answers, dict):
        raise SpecError(path, "answers", Message("answers is a mapping of spec addresses (file:key) to values"))
    out: dict[str, Any] = {}
    for address, value in answers.items():
        if not isinstance(address, str) or ":" not in address:
            raise SpecError(path, "answers", Message("{address} is not a spec address such as structures:structures.well.printed.cost", address=repr(str(address)[:60])))
        if value is None:
            continue
        out[address] = None if isinstance(value, str) and value.strip().lower() in DASH else value
    return out


def lay_over(raw: dict[str, Any], answers: dict[str, Any], path: Path) -> dict[str, Any]:
    """The raw spec files with the answers in place of the uncertain values they answer.
    The value each answer replaced is returned by address (for `referee box --show`)."""
    replaced: dict[str, Any] = {}
    for address, value in answers.items():
        stem, _, key = address.partition(":")
        if stem not in raw or not key:
            raise box_error(path, address, Message("no spec file {file} holds this value", file=stem + ".yaml") if stem not in raw else Message("an answer names a value inside a file, as file:key"))
        replaced[address] = _answer(raw, stem, key.split("."), value, path, address)
    return replaced


def _answer(raw: dict, stem: str, parts: list[str], value: Any, path: Path, address: str) -> Any:
    """Put one answer in place; the value it replaces is returned."""
    parent: Any = raw
    slot: Any = stem
    uncertain = False
    for part in [*parts, None]:
        node = parent[slot]
        if _uncertain_wrapper(node):
            uncertain = True
            if part is None:
                break
            node = _split(node, path, address)
            parent[slot] = node
        elif _is_wrapper(node):
            node = node["value"]  # certain: a plain value all the same
            parent[slot] = node
        if part is None:
            break
        found = _slot(node, part)
        if found is None:
            raise box_error(path, address, Message("the spec has no {part} here (referee box GAME lists every address a box file may answer)", part=repr(part)))
        parent, slot = node, found
    if not uncertain:
        raise box_error(path, address, Message("this value is certain, not one a box answers; to change it, write a variant"))
    old = parent[slot]
    parent[slot] = copy.deepcopy(value)
    return _plain(old)


def _slot(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        for k in node:
            if str(k) == part:
                return k
        return None
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return int(part)
    return None


def _split(wrapper: dict, path: Path, address: str) -> Any:
    """A table typed in with one provenance, as a table of values each with that provenance,
    so that one of them can be answered and the others stay uncertain."""
    inner = wrapper["value"]
    meta = {k: v for k, v in wrapper.items() if k != "value"}
    if isinstance(inner, dict):
        return {k: {"value": v, **copy.deepcopy(meta)} for k, v in inner.items()}
    if isinstance(inner, list):
        return [{"value": v, **copy.deepcopy(meta)} for v in inner]
    raise box_error(path, address, Message("this value is a single value; answer it at its own address"))


def _is_wrapper(node: Any) -> bool:
    return isinstance(node, dict) and "provenance" in node and "value" in node and set(node) <= {"value", "provenance", "note", "source"}


def _uncertain_wrapper(node: Any) -> bool:
    return _is_wrapper(node) and node["provenance"] != "certain"


def _plain(node: Any) -> Any:
    """A value with its provenance wrappers taken off."""
    if _is_wrapper(node):
        return _plain(node["value"])
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def line_of(path: Path, address: str) -> tuple[int | None, int | None]:
    """Where an answer's address is written in the box file (line and column, 1-based)."""
    try:
        lines = read_box_bytes(path).decode("utf-8", "replace").splitlines()
    except OSError:
        return None, None
    for number, line in enumerate(lines, 1):
        column = line.find(address)
        if column >= 0 and not line.lstrip().startswith("#"):
            return number, column + 1
    return None, None


def box_error(path: Path, address: str, message: str) -> SpecError:
    """An error at one answer of a box file, with the line it is on."""
    return SpecError(path, address, message, *line_of(path, address))


def read_box_bytes(path: Path) -> bytes:
    """The box file's bytes, as the spec cache's key needs them."""
    from referee.spec.files import read_bytes

    return read_bytes(path, MAX_SPEC_BYTES)
