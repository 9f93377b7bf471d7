"""`referee box GAME`: the template, --interactive, --use, --show, --forget and --infer."""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from pathlib import Path

from referee.box.questions import questions
from referee.errors import EXIT_OK, EXIT_VIOLATION, UsageError
from referee.i18n import _, ngettext
from referee.terminal import readable_name, visible

PROOF_LINES = 6  # the checkpoints named for one value; more are counted


def language(chosen: str | None) -> str:
    """--lang (as every command takes it, `referee.i18n.current`), or the language of the
    locale when it is one of ours, or English."""
    from referee.i18n import current

    return chosen or current()


def run(args, say, verdict) -> int:
    """Carry out one `referee box` command; `say` prints a line, `verdict` tells the exit code
    before the output (see cli/output.py)."""
    from referee.box import keep
    from referee.spec.loader import available_games, no_games

    game = args.game
    if not available_games():
        raise no_games()
    if game not in available_games():
        raise UsageError(_("unknown game {game}; games: {games}").format(game=visible(repr(game)), games=", ".join(available_games())))
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
            raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(out), reason=exc.strerror or exc)) from None
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
        shown_lines = ", ".join(map(str, numbers[:PROOF_LINES]))
        if len(numbers) > PROOF_LINES:
            shown_lines = _("{lines} and {n} more").format(lines=shown_lines, n=len(numbers) - PROOF_LINES)
        parts.append(ngettext("{file} line {lines}", "{file} lines {lines}", len(numbers)).format(file=visible(name), lines=shown_lines))
    return "; ".join(parts)


def relation(coefficients: dict[str, Fraction], right: Fraction) -> tuple[str, dict[str, int], int]:
    """A row of what the records say of numbers they leave open, in whole numbers:
    `2 × a + b = 7`, with its coefficients and right side."""
    scale = lcm(*(c.denominator for c in coefficients.values()), right.denominator)
    whole = {a: int(c * scale) for a, c in sorted(coefficients.items())}
    terms = []
    for address, c in whole.items():
        sign = "-" if c < 0 else "+"
        size = abs(c)
        term = address if size == 1 else f"{size} × {address}"
        terms.append(("- " if sign == "-" else "") + term if not terms else f"{sign} {term}")
    return " ".join(terms) + f" = {int(right * scale)}", whole, int(right * scale)


def choices(whole: dict[str, int], right: int, most: int = 8) -> str:
    """The whole numbers from 0 that satisfy `sum(c * x) = right`, when its coefficients are
    all above 0 and there are at most `most` ways: `(a, b) = (0, 7), (1, 5)`; else ''."""
    names = list(whole)
    if not names or any(c <= 0 for c in whole.values()) or right < 0 or len(names) > 3:
        return ""
    found: list[tuple[int, ...]] = []

    def fill(i: int, left: int, chosen: tuple[int, ...]) -> bool:
        c = whole[names[i]]
        if i == len(names) - 1:
            if left % c == 0:
                found.append((*chosen, left // c))
            return len(found) <= most
        return all(fill(i + 1, left - c * x, (*chosen, x)) for x in range(left // c + 1))

    if not fill(0, right, ()) or not found:
        return ""
    return f"({', '.join(names)}) = " + ", ".join(f"({', '.join(map(str, f))})" for f in found)


def _was(address: str, value: int, shipped, box_answers: dict) -> str:
    """What the number found is beside the stand-in and the group's box."""
    from referee.box.template import shown

    standin = shipped.get(address) if shipped.has(address) else None
    if standin is None:
        was = _("no stand-in")
    elif standin == value:
        was = _("as the stand-in")
    else:
        was = _("stand-in {value}").format(value=shown(standin))
    box = box_answers.get(address)
    if box is not None and box != value:
        was = _("{was}; your box says {value}").format(was=was, value=shown(box))
    return was


def _sure(further: int) -> str:
    """How sure a number found is: the checkpoint figures that read it beyond those it rests on."""
    if not further:
        return _("no other checkpoint figure reads it")
    return ngettext("{n} more checkpoint figure agrees", "{n} more checkpoint figures agree", further).format(n=further)


def inferred(game: str, records: list[str], variants: list[str], out: str | None, lang: str) -> tuple[list[str], int]:
    """The report of --infer, and its exit code: 1 when a record is refused or the records
    contradict each other."""
    from referee.box.infer import infer
    from referee.games import load_game

    code = EXIT_OK
    found = infer(game, records, variants)
    plain = load_game(game, box=False)
    shipped = plain.spec
    lines = [
        ", ".join(
            (
                ngettext("{game}: {n} record read", "{game}: {n} records read", len(records)).format(game=game, n=len(records)),
                ngettext("{n} checkpoint figure over the printed numbers", "{n} checkpoint figures over the printed numbers", found.figures).format(n=found.figures),
                ngettext("settled in {n} round", "settled in {n} rounds", found.rounds).format(n=found.rounds),
            )
        )
    ]
    if found.values:
        lines.append(_("determined by the checkpoints ({n}):").format(n=len(found.values)))
        for address, value in sorted(found.values.items()):
            proof = found.proofs[address]
            was = _was(address, value, shipped, found.box)
            if address in found.assumed:
                name, choice = found.assumed[address]
                was = _("{was}; if {address} is {value}").format(was=was, address=name, value=choice)
            lines.append(_("  {address} = {value}  ({was}; from {proof}; {sure})").format(address=address, value=value, was=was, proof=proved(proof), sure=_sure(found.further.get(address, 0))))
    if found.named:
        lines.append(_("names the checkpoints tell apart ({n}):").format(n=len(found.named)))
        for address, fits in sorted(found.named.items()):
            standin = shipped.get(address) if shipped.has(address) else None
            if len(fits) == 1:
                lines.append(_("  {address} = {value}  ({was}; no other choice fits the checkpoints as well)").format(address=address, value=fits[0], was=_was(address, fits[0], shipped, found.box)))
            else:
                lines.append(_("  {address}: {values} fit the checkpoints equally well (stand-in {value})").format(address=address, values=", ".join(fits), value=standin))
    if found.faces:
        lines.append(_("read off the records' reveals ({n}):").format(n=len(found.faces)))
        for address, faces in sorted(found.faces.items()):
            lines.append(
                _("  {address}: {n} of {cards} cards: {faces}").format(address=address, n=len(faces), cards=found.faces_cards.get(address, len(faces)), faces=_faces(faces, plain.spec_names, lang))
            )
    for where in found.faces_over:
        lines.append(_("the records show more faces than {where} has cards: they are of other boxes, or a reveal is wrong; none is kept").format(where=where))
        code = EXIT_VIOLATION
    if not (found.values or found.named or found.faces or found.refused or found.conflict or found.faces_over):
        lines.append(_("nothing determined: the checkpoints of these records pin down none of the printed numbers, and no number is proposed"))
    if found.open:
        lines.append(_("left open: the records read these but do not determine them ({n}):").format(n=len(found.open)))
        lines += [f"  {a}" for a in found.open]
        relations = [relation(c, r) for c, r in found.relations if set(c) <= set(found.open)]
        if relations:
            lines.append(_("the numbers left open are consistent with the records when:"))
            for text, whole, right in relations:
                now = sum(c * _number(found.used.get(a)) for a, c in whole.items())
                said = _("the numbers in use satisfy it") if now == right else _("the numbers in use give {value}").format(value=now)
                lines.append(f"  {text}  ({said})")
                allowed = choices(whole, right)
                if allowed:
                    lines.append(_("    whole numbers from 0 that satisfy it: {choices}").format(choices=allowed))
    if found.unread:
        lines.append(_("not read: no checkpoint of the records depends on these ({n}): {addresses}").format(n=len(found.unread), addresses=", ".join(found.unread)))
    for name, why in sorted(found.refused.items()):
        lines.append(_("{file}: refused: {why}").format(file=visible(name), why=visible(why)))
        code = EXIT_VIOLATION
    if found.conflict:
        where = ", ".join(visible(e.where()) for e in found.conflict[:12]) + (" ..." if len(found.conflict) > 12 else "")
        lines.append(_("the records contradict each other: no printed numbers satisfy these checkpoints together: {lines}").format(lines=where))
        code = EXIT_VIOLATION
    # the template takes what the records tell outright, not a number resting on a name they leave open
    learnt = {**{a: v for a, v in found.values.items() if a not in found.assumed}, **{a: fits[0] for a, fits in found.named.items() if len(fits) == 1}, **found.faces}
    if out and learnt:
        write_or_say(template_text(game, lang, learnt), out, lambda *a, **k: None)
        lines.append(_("wrote {file}: the box template with these numbers filled in; check it, then referee box {game} --use {file}").format(file=readable_name(out), game=game))
    elif learnt:
        lines.append(_("(-o FILE writes them into a box template, for referee box {game} --use FILE)").format(game=game))
    return lines, code


def _faces(faces: list[dict], names: dict[str, dict], lang: str) -> str:
    """Card faces as a line shows them, each thing by its name in the language: `A: coffee
    tea; A: carpet rubber saffron` (the file written keeps the spec's ids)."""
    shown = []
    for face in faces:
        words = [str((names.get(word) or {}).get(lang, word)) for key, value in face.items() if key != "season" for word in (value if isinstance(value, list) else [value])]
        shown.append(visible(f"{face.get('season')}: {' '.join(words)}"))
    return "; ".join(shown)


def _number(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
