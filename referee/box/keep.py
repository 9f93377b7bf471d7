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
        raise UsageError(f"cannot read {readable_name(str(source))}: {exc.strerror or exc}") from None
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
        raise UsageError(f"cannot write {readable_name(str(target))}: {exc.strerror or exc}") from None
    left = sum(1 for _ in iter_uncertain(spec, ASKED))
    return [
        f"{game}: box file in use: {readable_name(str(target))} ({told or 'copied from ' + readable_name(str(source))})",
        f"  {len(spec.box_replaced)} value{'s' if len(spec.box_replaced) != 1 else ''} answered; {left} provisional or unknown value{'s' if left != 1 else ''} left open",
        f"  every command now uses it for {game}; referee box {game} --show lists what it changed",
    ]


def show(game: str, lang: str = "en") -> list[str]:
    """Which box file is in use for the game, each value it changed, and what is still open."""
    from referee.games import load_game

    path = box_in_use(game)
    if path is None:
        shipped = load_game(game, box=False).spec
        open_ = sum(1 for _ in iter_uncertain(shipped, ASKED))
        return [f"{game}: no box file in use (it would be {readable_name(str(box_path(game)))}); {open_} provisional or unknown values use their stand-ins. referee box {game} writes the questions."]
    spec = load_game(game).spec
    out = [f"{game}: box file in use: {readable_name(str(path))}"]
    changed = [(a, old, spec.get(a)) for a, old in sorted(spec.box_replaced.items())]
    differ = [(a, old, new) for a, old, new in changed if old != new]
    out.append(f"  {len(changed)} value{'s' if len(changed) != 1 else ''} answered, {len(differ)} of them different from the stand-in:")
    for address, old, new in changed:
        mark = "changed" if old != new else "same   "
        out.append(f"  {mark} {address}: {_short(old)} -> {_short(new)}")
    left = [q for q in questions(spec, lang)]
    if left:
        out.append(f"  still open ({len(left)}): " + ", ".join(q.address for q in left[:12]) + (" ..." if len(left) > 12 else ""))
    else:
        out.append("  nothing left open: every provisional and unknown value is answered")
    return out


def forget(game: str) -> list[str]:
    path = box_in_use(game)
    if path is None:
        return [f"{game}: no box file in use"]
    try:
        path.unlink()
    except OSError as exc:
        raise UsageError(f"cannot remove {readable_name(str(path))}: {exc.strerror or exc}") from None
    return [f"{game}: box file removed ({readable_name(str(path))}); the stand-ins are used again"]


def _short(value: Any, limit: int = 60) -> str:
    text = "not known" if value is None else shown(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
