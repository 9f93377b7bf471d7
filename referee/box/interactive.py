"""`referee box GAME --interactive`: the questions one by one, each answer checked as it is typed.

An answer is checked twice: while it is typed, that it reads as the kind of value the
stand-in is (a whole number, a table, a list, or `dash`); when Enter is pressed, that the
game accepts it with the answers before it (schema and the game's own cross-checks, as any
command would check the box file). A blank answer skips the question; `quit` (or Ctrl-D)
stops and keeps what has been answered. The answers are kept as the group's box file, or
written to --out FILE.

With standard input not a terminal, the answers are read from it one a line, with the same
checks: a refused line is reported and the next line answers the same question.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from referee.box.questions import Question
from referee.box.template import shown, write_box
from referee.errors import EXIT_OK, SpecError
from referee.i18n import _
from referee.spec.boxfile import DASH
from referee.spec.loader import MAX_SPEC_NUMBER
from referee.terminal import visible

QUIT = ("quit", "q", "exit")


class Refused(ValueError):
    """An answer that is not a value of the kind asked for."""


def read_answer(q: Question, text: str) -> Any:
    """The value an answer means, or Refused with why. Blank: None (not answered)."""
    import yaml

    text = text.strip()
    if not text:
        return None
    if text.lower() in DASH:
        if q.standin is None or isinstance(q.standin, int):
            return "dash"
        raise Refused(_("a dash answers only a number the tile may leave out"))
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise Refused(_("not readable as a value: {why}").format(why=str(getattr(exc, "problem", "") or exc).splitlines()[0])) from None
    standin = q.standin
    if isinstance(standin, bool) or isinstance(value, bool):
        if not isinstance(value, bool) or not isinstance(standin, bool):
            raise Refused(_("a yes or no (true or false) is asked for") if isinstance(standin, bool) else _("a yes or no is not asked for here"))
    elif isinstance(standin, int):
        if not isinstance(value, int):
            raise Refused(_("a whole number is asked for"))
        if not -MAX_SPEC_NUMBER <= value <= MAX_SPEC_NUMBER:
            raise Refused(_("numbers lie between -{most} and {most}").format(most=MAX_SPEC_NUMBER))
    elif isinstance(standin, dict) and not isinstance(value, dict):
        raise Refused(_("a table is asked for, as {{key: value, ...}}").format())
    elif isinstance(standin, list) and not isinstance(value, list):
        raise Refused(_("a list is asked for, as [a, b, ...]"))
    elif isinstance(standin, str) and not isinstance(value, str):
        raise Refused(_("a name is asked for"))
    return value


def ask(game: str, out: str | None, lang: str, say, verdict) -> int:
    """Ask every question of the game's template; keep the answers."""
    from referee.box import keep
    from referee.box.questions import questions
    from referee.games import load_game
    from referee.spec.boxfile import box_in_use
    from referee.spec.loader import read_answers

    shipped = load_game(game, box=False).spec
    asked = questions(shipped, lang)
    box = box_in_use(game)
    answers: dict[str, Any] = dict(read_answers(box, game)) if box else {}
    lines = _primed(_terminal_lines() if sys.stdin.isatty() else _stream_lines())
    with tempfile.TemporaryDirectory(prefix="referee-box-") as folder:
        trial = Path(folder) / f"{game}.yaml"
        count = 0
        for number, q in enumerate(asked, 1):
            now = f" [{shown(answers[q.address])}]" if q.address in answers else ""
            standin = _("not known") if q.unknown else shown(q.standin)
            say(
                _("({number}/{count}) {group}: {question} (stand-in: {value}){now}").format(
                    number=number, count=len(asked), group=visible(q.group), question=visible(q.text), value=visible(standin), now=now
                )
            )
            while True:
                text = lines.send(q)
                if text is None or text.strip().lower() in QUIT:
                    return _finish(game, answers, out, trial, count, say, verdict, keep)
                try:
                    value = read_answer(q, text)
                except Refused as why:
                    say(_("  refused: {why}; answer again, blank to skip").format(why=why))
                    continue
                if value is None:
                    break
                tried = {**answers, q.address: value}
                problem = _problem(game, trial, tried)
                if problem:
                    say(_("  refused: {why}; answer again, blank to skip").format(why=visible(problem)))
                    continue
                answers, count = tried, count + 1
                break
        return _finish(game, answers, out, trial, count, say, verdict, keep)


def _problem(game: str, trial: Path, answers: dict) -> str | None:
    """Why the game refuses these answers, or None."""
    from referee.box.keep import try_box

    write_box(trial, game, answers)
    try:
        try_box(game, trial)
    except SpecError as exc:
        return exc.message
    return None


def _finish(game, answers, out, trial, count, say, verdict, keep) -> int:
    verdict(EXIT_OK)
    if out:
        write_box(Path(out), game, answers)
        say(_("{n} answered in this session; wrote {file}: referee box {game} --use {file} puts it in use").format(n=count, file=visible(out), game=game))
        return EXIT_OK
    if not answers:
        say(_("nothing answered: no box file kept"))
        return EXIT_OK
    write_box(trial, game, answers)
    say(_("{n} answered in this session").format(n=count))
    for line in keep.use(game, trial, _("the answers of this session and those kept before")):
        say(line)
    return EXIT_OK


def _stream_lines():
    """Answers from standard input, one a line (None at its end); the question sent in is
    not needed to read one."""
    yield
    while True:
        line = sys.stdin.readline()
        yield line.rstrip("\n") if line else None


def _terminal_lines():
    """Answers typed at a terminal, checked as they are typed."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.validation import ValidationError, Validator

    class Answer(Validator):
        def __init__(self):
            self.question: Question | None = None

        def validate(self, document) -> None:
            text = document.text
            if self.question is None or text.strip().lower() in QUIT:
                return
            try:
                read_answer(self.question, text)
            except Refused as why:
                raise ValidationError(message=str(why), cursor_position=len(text)) from None

    checker = Answer()
    session = PromptSession(validator=checker, validate_while_typing=True)
    q = yield
    while True:
        checker.question = q
        try:
            text = session.prompt("> ")
        except EOFError:
            text = None
        except KeyboardInterrupt:
            text = ""
        q = yield text


def _primed(lines):
    """A generator of answers, started: each `send(question)` returns the answer to it."""
    next(lines)
    return lines
