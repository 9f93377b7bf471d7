"""`referee validate`: every game's spec and every variant, alone and checked."""

from __future__ import annotations

from pathlib import Path

from referee.drawing.svg import colours_of
from referee.engine.replay import SETUP_ERRORS, setup_error
from referee.errors import EXIT_OK, EXIT_SPEC, SpecError
from referee.games import cross_check, game_class
from referee.i18n import _, localized, ngettext
from referee.notation.parser import parser_for
from referee.report.diagnostics import status_word
from referee.site.markdown import LANGS
from referee.spec.loader import available_games, grammar_root, iter_uncertain, load_spec, no_games

TEXT_LANGS = ("hu", "de")  # the languages every rule text is written in besides English


def _targets(root: Path) -> tuple[Path, list[str]]:
    """A specs root and the games to validate; SPECDIR may be one game's directory."""
    if (root / "game.yaml").is_file():
        return root.parent, [root.name]
    return root, available_games(root)


def untranslated(spec) -> None:
    """Every rule and section of a game has its title and text in every language of the
    rule texts (rules.<lang>.yaml): the rules pages and `referee rule` show all of them; and
    every text names a rule and section that exist."""
    for problem in spec.text_problems:
        raise problem
    sections = [s["id"] for s in spec.files["rules"].get("sections", [])]
    for lang in TEXT_LANGS:
        stem = f"rules.{lang}"
        where = spec.path_of(stem) if stem in spec.files else str(spec.directory / f"{stem}.yaml")
        given = (spec.files.get(stem) or {}).get("sections") or {}
        missing = [r.id for r in spec.rules.values() if r.words(lang) is None]
        missing_sections = [sid for sid in sections if sid not in given]
        if missing:
            message = _("rule {rule} has no {lang} title and text").format(rule=missing[0], lang=_(LANGS[lang]))
            if len(missing) > 1:
                message += " " + _("(and {n} more)").format(n=len(missing) - 1)
            raise SpecError(where, f"rules.{missing[0]}", message)
        if missing_sections:
            raise SpecError(where, f"sections.{missing_sections[0]}", _("section {section} has no {lang} title").format(section=missing_sections[0], lang=_(LANGS[lang])))


def readable_yaml(value: object) -> str:
    """A spec value as YAML, the way the spec file writes it: lists of plain values on one
    line, mappings one key a line."""
    import yaml

    text = yaml.safe_dump(value, default_flow_style=None, sort_keys=False, allow_unicode=True, width=100)
    return text.removesuffix("\n...\n").rstrip("\n")


def validate(root: Path, provenance: bool = False) -> tuple[list[str], int]:
    specs_root, games = _targets(root)
    lines: list[str] = []
    code = EXIT_OK
    if not games:
        return [no_games(root).display(_("error"), localized)], EXIT_SPEC
    # the grammar beside the specs (a data folder has both), or the one these specs are read with
    grammars = specs_root.parent / "grammar"
    grammars = grammars if grammars.is_dir() else grammar_root()
    for game in games:
        variants = sorted(p.stem for p in (specs_root / game / "variants").glob("*.yaml"))
        for combo in [()] + [(v,) for v in variants]:
            label = game + (" + " + _("variant {name}").format(name=combo[0]) if combo else "")
            loaded = False
            try:
                spec = load_spec(game, combo, root=specs_root)
                loaded = True
                try:
                    cls = game_class(game)
                except SpecError as exc:
                    lines.append(_("{label}: data valid; {message}").format(label=label, message=exc.message))
                    continue
                cross_check(cls, spec)
                cls(spec)  # the game module can read everything it needs
                if not combo:
                    parser_for(game, str(grammars))  # its records can be read
                    untranslated(spec)
            except SpecError as exc:
                lines.append(f"{exc.display(_('error'), localized)}  ({label})")
                code = EXIT_SPEC
                if not combo and not loaded and variants:
                    # each variant is read over the same broken files: the same error again, and
                    # again the time to read them (a large file read once per variant)
                    lines.append(
                        ngettext("{game}: its {n} variant is not checked until its own spec is valid", "{game}: its {n} variants are not checked until its own spec is valid", len(variants)).format(
                            game=game, n=len(variants)
                        )
                    )
                    break
                continue
            except SETUP_ERRORS as exc:
                lines.append(f"{setup_error(specs_root / game, exc).display(_('error'), localized)}  ({label})")
                code = EXIT_SPEC
                continue
            uncertain = list(iter_uncertain(spec))
            lines.append(_("{label}: valid ({files} files, {rules} rules, {uncertain} uncertain values)").format(label=label, files=len(spec.files), rules=len(spec.rules), uncertain=len(uncertain)))
            if provenance and not combo:
                width = max(11, *(len(status_word(p.status)) for p in uncertain)) if uncertain else 11
                indent = " " * (width + 3)  # under the status column, as wide as its words in the language in use
                for p in uncertain:
                    where = f"  {status_word(p.status):<{width}} {spec.path_of(p.file)}:{p.key}"
                    if p.status == "unknown":
                        lines.append(f"{where} = " + _("not known"))
                    elif isinstance(p.value, (dict, list)) and p.value:
                        lines.append(f"{where}:")
                        lines.extend(f"{indent}{line}" for line in readable_yaml(p.value).splitlines())
                    else:
                        lines.append(f"{where} = {readable_yaml(p.value)}")
                    lines.append(f"{indent}{p.note}")
    colours = specs_root / "common" / "colours.yaml"
    if colours.is_file() or (specs_root / "common").is_dir():
        try:
            table = colours_of(str(specs_root))[0]
            lines.append(_("colours: valid ({n} colours for pictures)").format(n=len(table)))
        except SpecError as exc:
            lines.append(f"{exc.display(_('error'), localized)}  (colours)")
            code = EXIT_SPEC
    return lines, code
