"""Checkpoint figures: each game's table of them, and the values a game in progress gives.

A checkpoint line states what the table wrote down: `check red: money 70, prestige 4`.
Each game's `figures.yaml` lists every figure a checkpoint may state, with what it counts
and when it changes, and the game's rules give a *reader* for each one. A state's figures
are read through the table, so the referee accepts exactly the figures the table lists,
and the Notation page, rendered from the same table, documents every one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import SpecError
from referee.i18n import Message
from referee.spec.loader import Spec

# A reader: (state, who) -> value, or (state, who, item) for a figure that has one key per
# entry of a spec table (`each`). A value is a number, or a list of words (ids). The rules
# name their readers by figure key, after `subject:` for a subject other than a player.
Reader = Callable[..., Any]

PLAYER = "player"
NONE = "none"  # the spelling of an empty list of words (a bare figure name means the same)


@dataclass(frozen=True)
class Figure:
    """One entry of figures.yaml."""

    key: str  # "{}" stands for each id of `each`
    counts: str
    changes: str
    subject: str = PLAYER
    each: str | None = None  # spec address (`file:key`) of a table whose ids make the keys
    words: str | None = None  # the kind of words a list figure holds; None: a number


def figures_of(spec: Spec) -> list[Figure]:
    """The entries of a game's figures.yaml, in its order."""
    return [Figure(**entry) for entry in spec["figures"]["figures"]] if "figures" in spec.files else []


def keys_of(spec: Spec, figure: Figure) -> list[tuple[str, str | None]]:
    """A figure's keys as a record writes them, each with the spec id it stands for."""
    if figure.each is None:
        return [(figure.key, None)]
    table = spec.get(figure.each)
    ids = [str(e["id"]) for e in table] if isinstance(table, list) else [str(k) for k in table]
    return [(figure.key.replace("{}", item), item) for item in ids]


class FigureTable:
    """A game's checkpoint figures: figures.yaml and the readers of the rules, one for one.

    A figure of the file that the rules cannot read, or a reader of the rules that the file
    does not describe, is a spec error: no figure is accepted that the docs do not list.
    """

    def __init__(self, spec: Spec, readers: Mapping[str, Reader]):
        self.spec = spec
        self.readers = readers
        self.figures = figures_of(spec)
        path = spec.path_of("figures")
        for i, figure in enumerate(self.figures):
            if reader_name(figure) not in readers:
                known = sorted(readers)
                raise SpecError(
                    path,
                    f"figures.{i}.key",
                    Message("the {game} rules know no {subject} figure {key}; they know: {known}", game=spec.game, subject=str(figure.subject), key=repr(figure.key), known=known),
                )
            if figure.each is not None and not spec.has(figure.each):
                raise SpecError(path, f"figures.{i}.each", Message("{address} is not in the spec", address=str(figure.each)))
            # a key with `{}` stands for one figure per id of `each`: without `each` its reader
            # would be asked without the id it needs; with `each` but no `{}` every id would
            # give the same key
            if "{}" in figure.key and figure.each is None:
                raise SpecError(path, f"figures.{i}.key", Message("the figure {key} holds `{{}}`, so it needs `each`: the table whose ids stand in for `{{}}`", key=repr(figure.key)))
            if "{}" not in figure.key and figure.each is not None:
                raise SpecError(path, f"figures.{i}.each", Message("`each` is only for a key with `{{}}` in it, which each id of the table stands in for; the key is {key}", key=repr(figure.key)))
        missing = sorted(set(readers) - {reader_name(f) for f in self.figures})
        if missing:
            raise SpecError(
                path, "figures", Message("the {game} rules read the figure {key}, which is not listed: every figure a checkpoint may state is described here", game=spec.game, key=repr(missing[0]))
            )
        self._keys = {f: keys_of(spec, f) for f in self.figures}
        self.kinds = {key: f.words for f, keys in self._keys.items() for key, _ in keys}
        # per subject, each key's reader and the id it stands for, in the file's order: a
        # replay reads a checkpoint's figures hundreds of times
        self._readers: dict[str, dict[str, tuple[Reader, str | None]]] = {}
        self._picked: dict[tuple[str, tuple], list] = {}  # by subject and a tuple of keys (`values`)
        for figure, keys in self._keys.items():
            read = readers[reader_name(figure)]
            for key, item in keys:
                self._readers.setdefault(figure.subject, {})[key] = (read, item)

    def subjects(self) -> list[str]:
        return list(dict.fromkeys(f.subject for f in self.figures))

    def values(self, state: Any, who: Any, subject: str = PLAYER, only: Collection[str] | None = None) -> dict[str, Any]:
        """Every figure of a subject (a player, the city...), read from the state; with `only`,
        those of these keys alone (a checkpoint states a few of a dozen figures, some of which
        take a look over the whole board to read)."""
        readers = self._readers.get(subject, {})
        if only is None:
            picked = readers.items()
        elif isinstance(only, tuple):  # the same few keys after every round of a random game
            picked = self._picked.get((subject, only))
            if picked is None:
                picked = self._picked[subject, only] = [(key, entry) for key, entry in readers.items() if key in only]
        else:
            picked = [(key, entry) for key, entry in readers.items() if key in only]
        return {key: read(state, who) if item is None else read(state, who, item) for key, (read, item) in picked}


def reader_name(figure: Figure) -> str:
    """How the rules name a figure's reader: its key, after `subject:` for a subject other
    than a player (`city:prosperity`)."""
    return figure.key if figure.subject == PLAYER else f"{figure.subject}:{figure.key}"


def written(value: Any) -> str:
    """A figure's value as a checkpoint line writes it; an empty list is `none`."""
    if isinstance(value, list):
        return " ".join(value) or NONE
    return str(value)
