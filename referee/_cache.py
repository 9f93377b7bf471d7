"""Files kept between runs so that a start is quick: each grammar's LALR tables (written by
Lark) and each game's validated spec.

Both are pickles, and unpickling runs code chosen by whoever wrote the file. So they live in a folder of the user's own: `REFEREE_CACHE` when set (empty: no cache at
all), otherwise `$XDG_CACHE_HOME/referee` or `~/.cache/referee`. A folder that another user
owns or may write to is not used. A cache file is only ever a shortcut: one that is missing,
corrupt, written for other data or by other code (or another Python) is ignored, and the
work is simply done again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterable


def cache_dir() -> Path | None:
    """The user's cache folder for the referee, created private; None when there is none to
    use safely (or REFEREE_CACHE is set empty)."""
    override = os.environ.get("REFEREE_CACHE")
    if override == "":
        return None
    if override:
        directory = Path(override)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or (os.environ.get("LOCALAPPDATA") if sys.platform == "win32" else None)
        try:
            directory = Path(base) / "referee" if base else Path.home() / ".cache" / "referee"
        except RuntimeError:  # no home folder to be found
            return None
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            return None
    except OSError:
        return None
    return directory


def read(path: Path, key: str, allowed: Iterable[tuple[str, str]]) -> Any | None:
    """What `write` stored under `key` at `path`, or None: no file, another key (data or code
    changed since), or a file that is not one of ours."""
    import pickle  # here: a start that reads no pickle (`--version`, `--help`) does without it

    class Only(pickle.Unpickler):
        """An unpickler that builds objects of the named classes only, so that a file that is
        not what the referee wrote cannot make it run other code."""

        def find_class(self, module: str, name: str) -> Any:
            if (module, name) not in permitted:
                raise pickle.UnpicklingError(f"{module}.{name} is not expected in this cache file")
            return super().find_class(module, name)

    permitted = frozenset(allowed)
    try:
        with open(path, "rb") as fh:
            stored_key, value = Only(fh).load()
    except FileNotFoundError:
        return None
    except Exception:  # corrupt, truncated, foreign: ignored, the work is done again
        return None
    return value if stored_key == key else None


def write(path: Path, key: str, value: Any) -> None:
    """Store `value` under `key`, whole or not at all: written aside, then renamed into place,
    so that a reader never sees half a file. A cache that cannot be written is no error."""
    import pickle

    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as fh:
            pickle.dump((key, value), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        try:
            temporary.unlink()
        except OSError:
            pass
