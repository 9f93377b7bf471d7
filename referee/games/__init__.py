"""Game modules, found by name: `referee.games.<name>` defines `GAME`, a Game subclass."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

from ..spec import Spec, SpecError, available_games, blame_variant, load_spec, specs_root


def game_class(name: str):
    if name not in available_games():
        raise SpecError(name, "", f"unknown game {name!r}; known games: {', '.join(available_games())}")
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise SpecError(name, "", f"game {name!r} has specs but no rules module yet") from None
    return module.GAME


@functools.lru_cache(maxsize=None)
def _load(name: str, variants: tuple[str, ...], root: str):
    cls = game_class(name)
    spec: Spec = load_spec(name, variants, Path(root))
    try:
        cls.check_spec(spec)
    except SpecError as exc:
        # a cross-check that fails on a value a variant wrote is the variant's error
        stem = next((stem for stem, path in spec.paths.items() if str(path) == str(exc.file)), None)
        if stem is None or not spec.variants:
            raise
        raise blame_variant(exc, stem, str(spec.paths[stem]), list(spec.variants)) from None
    return cls(spec)


def load_game(name: str, variants=()):
    """The game with its spec (and variants) loaded and validated once per process and data
    root: a change of REFEREE_DATA within a process reads the other data, not the first."""
    return _load(name, tuple(variants), str(specs_root()))


def forget_loaded_data() -> None:
    """Drop every spec, game and grammar read so far, so that the next use reads the files again.

    A command reads its data once; a long-lived process that rebuilds from edited files
    (`mkdocs serve` rendering the rulebook site) calls this before each rebuild.
    """
    from ..notation import parser_for
    from ..spec import forget_loaded_specs

    _load.cache_clear()
    forget_loaded_specs()
    parser_for.cache_clear()

