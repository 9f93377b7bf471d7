"""Game modules, found by name: `referee.games.<name>` defines `GAME`, a Game subclass."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

from referee.spec.boxfile import box_fingerprint
from referee.spec.loader import Spec, SpecError, available_games, blame_variant, load_spec, no_games, specs_root, unknown_game


def game_class(name: str):
    """The rules of a game the data folder holds, looked up once per name and data folder:
    every random game of `referee play` asks, and the look through the folder cost a
    twentieth of a short one."""
    return _game_class(name, str(specs_root()))


@functools.cache
def _game_class(name: str, root: str):
    known = available_games(Path(root))
    if not known:
        raise no_games()
    if name not in known:
        raise SpecError(name, "", unknown_game(name, known))
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise SpecError(name, "", f"game {name!r} has specs but no rules module yet") from None
    return module.GAME


@functools.cache
def _load(name: str, variants: tuple[str, ...], root: str, box: tuple | None = None, use_box: bool = True):
    """`box` is the box file's fingerprint: a box file put in place or changed is read again."""
    cls = game_class(name)
    spec: Spec = load_spec(name, variants, Path(root), box=use_box)
    return cross_check(cls, spec)


def _built(cls, spec: Spec):
    cls.check_spec(spec)
    return cls(spec)  # which reads the tables the rules need, checking them too (figures.yaml)


def cross_check(cls, spec: Spec):
    """The game made from its spec, after the game's cross-checks of it (`Game.check_spec`)
    and the checks of making it. A check that fails on a value a variant wrote is the
    variant's error, reported in the variant's file; so is one that fails only with the
    variants applied, though no single value of theirs is named."""
    try:
        return _built(cls, spec)
    except SpecError as exc:
        stem = next((stem for stem, path in spec.paths.items() if str(path) == str(exc.file)), None)
        if stem is None or not spec.variants:
            raise
        blamed = blame_variant(exc, stem, str(spec.paths[stem]), list(spec.variants))
        if blamed is not exc:
            raise blamed from None
        try:
            _built(cls, load_spec(spec.game, (), spec.directory.parent))
        except SpecError:
            raise exc from None  # the base data fails by itself: the error is the base file's
        variant = next((v for v in reversed(spec.variants) if stem in v.changes), spec.variants[-1])
        key = f"changes.{stem}" if stem in variant.changes else "changes"
        raise SpecError(variant.path, key, f"with this variant, {stem}.yaml {exc.key}: {exc.message}") from None


def load_game(name: str, variants=(), box: bool = True):
    """The game with its spec (and variants) loaded and validated once per process and data
    root: a change of REFEREE_DATA within a process reads the other data, not the first.
    The group's box file for the game lies under the variants (`box=False`: as shipped)."""
    return _load(name, tuple(variants), str(specs_root()), box_fingerprint(name) if box else None, box)


def load_game_with_box(name: str, box_file: Path, variants=()):
    """The game with a box file of one's choosing under its variants, checked as the game
    checks its spec (`referee box --use` tries a file with it before keeping it)."""
    from referee.spec.loader import load_spec_with_box

    return cross_check(game_class(name), load_spec_with_box(name, box_file, variants))


def forget_loaded_data() -> None:
    """Drop every spec, game and grammar read so far, so that the next use reads the files again.

    A command reads its data once; a long-lived process that rebuilds from edited files
    (`mkdocs serve` rendering the rulebook site) calls this before each rebuild.
    """
    from referee.notation.parser import forget_grammars
    from referee.spec.loader import forget_loaded_specs

    _load.cache_clear()
    _game_class.cache_clear()
    forget_loaded_specs()
    forget_grammars()
