"""The box template (`referee box GAME`): a short YAML file with one question a value.

Each value no source gives is a commented question followed by its address and a blank
answer, grouped under the component it is printed on. A blank answer stays unanswered: the
referee keeps its stand-in and keeps saying so. The same file, filled in, is what
`referee box GAME --use FILE` takes.
"""

from __future__ import annotations

import json
from typing import Any

from referee.box.questions import Question
from referee.i18n import _, speaking
from referee.terminal import visible


def head() -> str:
    """The comment at the top of a template, in the language in use."""
    return _(
        "{title}: the numbers of your own box.\n"
        "Answer what your box shows after each question's address; leave an answer blank when you\n"
        "cannot tell (the referee keeps its stand-in and says so). Then: referee box {game} --use FILE\n"
        "Tables and lists are written as YAML: {{1: 3, 2: 5}} or [5, 5, 6]."
    )


def shown(value: Any) -> str:
    """A value as YAML's flow style writes it on one line (JSON is a part of YAML)."""
    if value is None:
        return "dash"
    return json.dumps(value, ensure_ascii=False)


def template(game: str, title: str, asked: list[Question], answers: dict[str, Any], lang: str = "en") -> str:
    """The template text; `answers` (a box file in use) fills in what the group has answered."""
    with speaking(lang):
        return _template(game, title, asked, answers)


def _template(game: str, title: str, asked: list[Question], answers: dict[str, Any]) -> str:
    lines = [f"# {line}" if line else "#" for line in head().format(title=title, game=game).split("\n")]
    lines += ["kind: box", f"game: {game}", "answers:"]
    group = None
    for q in asked:
        if q.group != group:
            group = q.group
            lines += ["", f"  # == {_comment(group)} =="]
        standin = _("not known") if q.unknown else shown(q.standin)
        lines.append("  # " + _("{question} (stand-in: {value})").format(question=_comment(q.text), value=_comment(standin)))
        answer = f" {shown(answers[q.address])}" if q.address in answers else ""
        lines.append(f"  {q.address}:{answer}")
    return "\n".join(lines) + "\n"


def _comment(text: str) -> str:
    """Text for a comment line: visible, and on one line."""
    return visible(str(text)).replace("\n", " ")


def write_box(path, game: str, answers: dict) -> None:
    """A box file with these answers, one a line in YAML's flow style; an answer of None or
    'dash' is a dash (the tile prints no number there)."""
    from pathlib import Path

    lines = ["kind: box", f"game: {game}", "answers:"]
    lines += [f"  {address}: {'dash' if value in (None, 'dash') else shown(value)}" for address, value in sorted(answers.items())]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
