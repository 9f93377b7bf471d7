"""`referee box GAME`: the template, --interactive, --use, --show, --forget and --infer."""

from __future__ import annotations

import locale
import os
from pathlib import Path

from referee.box.questions import LANGUAGES, questions
from referee.errors import EXIT_OK, EXIT_VIOLATION, UsageError
from referee.terminal import readable_name, visible

PROOF_LINES = 6  # the checkpoints named for one value; more are counted


def language(chosen: str | None) -> str:
    """--lang (as every command takes it, `referee.i18n.current`), or the language of the
    locale when it is one of ours, or English."""
    from referee.i18n import current

    if chosen:
        return chosen
    return current()
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    code = (locale.getlocale()[0] or "en").split("_")[0].lower()
    return code if code in LANGUAGES else "en"


def run(args, say, verdict) -> int:
    """Carry out one `referee box` command; `say` prints a line, `verdict` tells the exit code
    before the output (see cli/output.py)."""
    from referee.box import keep
    from referee.spec.loader import available_games, no_games

    game = args.game
    if not available_games():
        raise no_games()
    if game not in available_games():
        raise UsageError(f"unknown game {game!r}; games: {', '.join(available_games())}")
    lang = language(None)
    if args.use:
        lines, code = keep.use(game, Path(args.use)), EXIT_OK
    elif args.show:
        lines, code = keep.show(game, lang), EXIT_OK
    elif args.forget:
        lines, code = keep.forget(game), EXIT_OK
    elif args.infer:
        lines, code = inferred(game, args.infer, args.variant, args.out, lang)
    elif args.interactive:
        from referee.box.interactive import ask

        return ask(game, args.out, lang, say, verdict)
    else:
        text = template_text(game, lang)
        verdict(EXIT_OK)
        return write_or_say(text, args.out, say)
    verdict(code)
    for line in lines:
        say(line)
    return code


def template_text(game: str, lang: str, learnt: dict | None = None) -> str:
    """The template of a game's questions, with the answers of the box file in use (and any
    numbers learnt from records) filled in."""
    from referee.box.template import template
    from referee.games import load_game
    from referee.spec.boxfile import box_in_use
    from referee.spec.loader import read_answers

    shipped = load_game(game, box=False).spec
    box = box_in_use(game)
    answers = dict(read_answers(box, game)) if box else {}
    answers.update(learnt or {})
    return template(game, shipped.meta["names"].get(lang) or shipped.meta["names"]["en"], questions(shipped, lang), answers, lang)


def write_or_say(text: str, out: str | None, say) -> int:
    if out and out != "-":
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {readable_name(out)}: {exc.strerror or exc}") from None
    else:
        say(text, end="")
    return EXIT_OK


def proved(proof) -> str:
    """The checkpoints a value rests on, by record: `a.log lines 10, 24; b.log line 7`."""
    by_file: dict[str, list[int]] = {}
    for eq in proof:
        by_file.setdefault(eq.file, []).append(eq.line)
    parts = []
    for name, numbers in by_file.items():
        numbers = sorted(set(numbers))
        shown_lines = ", ".join(map(str, numbers[:PROOF_LINES])) + (f" and {len(numbers) - PROOF_LINES} more" if len(numbers) > PROOF_LINES else "")
        parts.append(f"{visible(name)} line{'s' if len(numbers) > 1 else ''} {shown_lines}")
    return "; ".join(parts)


def inferred(game: str, records: list[str], variants: list[str], out: str | None, lang: str) -> tuple[list[str], int]:
    """The report of --infer, and its exit code: 1 when a record is refused or the records
    contradict each other."""
    from referee.box.infer import infer
    from referee.box.template import shown
    from referee.games import load_game

    found = infer(game, records, variants)
    shipped = load_game(game, box=False).spec
    lines = [
        f"{game}: {len(records)} record{'s' if len(records) != 1 else ''} read, "
        f"{found.figures} checkpoint figures over the printed numbers, "
        f"settled in {found.rounds} round{'s' if found.rounds != 1 else ''}"
    ]
    if found.values:
        lines.append(f"determined by the checkpoints ({len(found.values)}):")
        for address, value in sorted(found.values.items()):
            standin = shipped.get(address) if shipped.has(address) else None
            was = f"stand-in {shown(standin)}" if standin != value else "as the stand-in"
            box = found.used.get(address)
            if box != standin and box != value:
                was += f"; your box says {shown(box)}"
            lines.append(f"  {address} = {value}  ({was}; from {proved(found.proofs[address])})")
    if found.open:
        lines.append(f"left open: the records read these but do not determine them ({len(found.open)}):")
        lines += [f"  {a}" for a in found.open]
    if found.unread:
        lines.append(f"not read: no move of the records uses these ({len(found.unread)}): " + ", ".join(found.unread))
    code = EXIT_OK
    for name, why in sorted(found.refused.items()):
        lines.append(f"{visible(name)}: refused: {visible(why)}")
        code = EXIT_VIOLATION
    if found.conflict:
        lines.append(
            "the records contradict each other: no printed numbers satisfy these checkpoints together: "
            + ", ".join(visible(e.where()) for e in found.conflict[:12])
            + (" ..." if len(found.conflict) > 12 else "")
        )
        code = EXIT_VIOLATION
    if out and found.values:
        write_or_say(template_text(game, lang, found.values), out, lambda *a, **k: None)
        lines.append(f"wrote {readable_name(out)}: the box template with these numbers filled in; check it, then referee box {game} --use {readable_name(out)}")
    elif found.values:
        lines.append(f"(-o FILE writes them into a box template, for referee box {game} --use FILE)")
    return lines, code
