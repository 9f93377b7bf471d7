"""Keeping a group's box file: `--use FILE` tries it and puts it in place, `--show` says
which file is in use and what it changed, `--forget` takes it away again."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from referee.box.questions import ASKED, questions
from referee.box.template import shown
from referee.errors import UsageError
from referee.i18n import _, ngettext
from referee.spec.boxfile import box_in_use, box_path, read_box_bytes
from referee.spec.loader import iter_uncertain
from referee.terminal import readable_name


def try_box(game: str, path: Path):
    """The game with this box file under it, checked as every command would check it:
    a SpecError (exit 4) names the answer at fault, with its line."""
    from referee.games import load_game_with_box

    return load_game_with_box(game, path)


def use(game: str, source: Path, told: str | None = None) -> list[str]:
    """Try the file, then keep a copy where every command finds it; what it answers.
    `told`: where the answers came from, when not from a file the user named."""
    try:
        data = read_box_bytes(source)
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {reason}").format(path=readable_name(str(source)), reason=exc.strerror or exc)) from None
    spec = try_box(game, source).spec
    target = box_path(game)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{game}.", suffix=".yaml")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)  # whole or not at all: a command never reads half a file
    except OSError as exc:
        raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(str(target)), reason=exc.strerror or exc)) from None
    left = sum(1 for _ in iter_uncertain(spec, ASKED))
    answered = len(spec.box_replaced)
    return [
        _("{game}: box file in use: {path} ({whence})").format(game=game, path=readable_name(str(target)), whence=told or _("copied from {path}").format(path=readable_name(str(source)))),
        "  "
        + ngettext("{n} value answered", "{n} values answered", answered).format(n=answered)
        + "; "
        + ngettext("{n} provisional or unknown value left open", "{n} provisional or unknown values left open", left).format(n=left),
        _("  every command now uses it for {game}; referee box {game} --show lists what it changed").format(game=game),
    ]


def show(game: str, lang: str = "en") -> list[str]:
    """Which box file is in use for the game, each value it changed, and what is still open."""
    from referee.games import load_game

    path = box_in_use(game)
    if path is None:
        shipped = load_game(game, box=False).spec
        open_ = sum(1 for _ in iter_uncertain(shipped, ASKED))
        return [
            _("{game}: no box file in use (it would be {path}); {n} provisional or unknown values use their stand-ins. referee box {game} writes the questions.").format(
                game=game, path=readable_name(str(box_path(game))), n=open_
            )
        ]
    spec = load_game(game).spec
    out = [_("{game}: box file in use: {path}").format(game=game, path=readable_name(str(path)))]
    changed = [(a, old, spec.get(a)) for a, old in sorted(spec.box_replaced.items())]
    differ = [(a, old, new) for a, old, new in changed if old != new]
    out.append("  " + ngettext("{n} value answered", "{n} values answered", len(changed)).format(n=len(changed)) + ", " + _("{n} of them different from the stand-in:").format(n=len(differ)))
    for address, old, new in changed:
        line = _("  changed {address}: {old} -> {new}") if old != new else _("  same    {address}: {old} -> {new}")
        out.append(line.format(address=address, old=_short(old), new=_short(new)))
    left = [q for q in questions(spec, lang)]
    if left:
        out.append(_("  still open ({n}): {addresses}").format(n=len(left), addresses=", ".join(q.address for q in left[:12]) + (" ..." if len(left) > 12 else "")))
    else:
        out.append(_("  nothing left open: every provisional and unknown value is answered"))
    return out


def forget(game: str) -> list[str]:
    path = box_in_use(game)
    if path is None:
        return [_("{game}: no box file in use").format(game=game)]
    try:
        path.unlink()
    except OSError as exc:
        raise UsageError(_("cannot remove {path}: {reason}").format(path=readable_name(str(path)), reason=exc.strerror or exc)) from None
    return [_("{game}: box file removed ({path}); the stand-ins are used again").format(game=game, path=readable_name(str(path)))]


def _short(value: Any, limit: int = 60) -> str:
    text = _("not known") if value is None else shown(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
