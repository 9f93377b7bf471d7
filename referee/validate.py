"""`referee validate`: every game's spec and every variant, alone and checked."""

from __future__ import annotations

from pathlib import Path

from .engine import SETUP_ERRORS, setup_error
from .errors import EXIT_OK, EXIT_SPEC, SpecError
from .games import cross_check, game_class
from .spec import available_games, iter_uncertain, load_spec
from .svg import colours_of


def _targets(root: Path) -> tuple[Path, list[str]]:
    """A specs root and the games to validate; SPECDIR may be one game's directory."""
    if (root / "game.yaml").is_file():
        return root.parent, [root.name]
    return root, available_games(root)


def validate(root: Path, provenance: bool = False) -> tuple[list[str], int]:
    specs_root, games = _targets(root)
    lines: list[str] = []
    code = EXIT_OK
    if not games:
        return [f"{root}: error: no game specs found (a game is a directory with a game.yaml)"], EXIT_SPEC
    for game in games:
        variants = sorted(p.stem for p in (specs_root / game / "variants").glob("*.yaml"))
        for combo in [()] + [(v,) for v in variants]:
            label = game + (f" + variant {combo[0]}" if combo else "")
            try:
                spec = load_spec(game, combo, root=specs_root)
                try:
                    cls = game_class(game)
                except SpecError as exc:
                    lines.append(f"{label}: data valid; {exc.message}")
                    continue
                cross_check(cls, spec)
                cls(spec)  # the game module can read everything it needs
            except SpecError as exc:
                lines.append(f"{exc.display()}  ({label})")
                code = EXIT_SPEC
                continue
            except SETUP_ERRORS as exc:
                lines.append(f"{setup_error(specs_root / game, exc).display()}  ({label})")
                code = EXIT_SPEC
                continue
            uncertain = list(iter_uncertain(spec))
            lines.append(f"{label}: valid ({len(spec.files)} files, {len(spec.rules)} rules, {len(uncertain)} uncertain values)")
            if provenance and not combo:
                for p in uncertain:
                    shown = "not known" if p.status == "unknown" else repr(p.value)
                    lines.append(f"  {p.status:<11} {spec.path_of(p.file)}:{p.key} = {shown}")
                    lines.append(f"              {p.note}")
    colours = specs_root / "common" / "colours.yaml"
    if colours.is_file() or (specs_root / "common").is_dir():
        try:
            table, _ = colours_of(str(specs_root))
            lines.append(f"colours: valid ({len(table)} colours for pictures)")
        except SpecError as exc:
            lines.append(f"{exc.display()}  (colours)")
            code = EXIT_SPEC
    return lines, code
