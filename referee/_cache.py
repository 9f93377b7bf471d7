"""Files kept between runs so that a start is quick: each grammar's LALR tables (written by
Lark) and each game's validated spec.

Both are pickles, and unpickling runs code chosen by whoever wrote the file. So they live in a folder of the user's own: `REFEREE_CACHE` when set (empty: no cache at
all), otherwise `$XDG_CACHE_HOME/referee` or `~/.cache/referee`. A folder that another user
owns or may write to is not used, and a missing home folder is never created: then a private
folder in the temporary folder is used instead (without a cache every run would cost several
times a warm one), and the referee says once why. A cache file is only ever a shortcut: one
that is missing, corrupt, written for other data or by other code (or another Python) is
ignored, and the work is simply done again; a file a newer one replaces is removed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    """The user's cache folder for the referee, created private; the fallback in the temporary
    folder when that cannot be used (said once, on standard error); None when neither can be
    used safely, or REFEREE_CACHE is set empty."""
    override = os.environ.get("REFEREE_CACHE")
    if override == "":
        return None
    return _choose(override)


def _choose(override: str | None) -> Path | None:
    directory, why = _preferred(override)
    if directory is not None:
        why = _usable(directory)
        if why is None:
            return directory
    fallback = Path(tempfile_dir()) / f"referee-cache-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    if _usable(fallback) is not None:
        return None
    chosen = f"the cache folder {directory} cannot be used" if directory is not None else "there is no cache folder"
    _say_once(fallback, f"referee: {chosen} ({why}); using {fallback} instead")
    return fallback


def tempfile_dir() -> str:
    import tempfile

    return tempfile.gettempdir()


def _base() -> str | None:
    return os.environ.get("XDG_CACHE_HOME") or (os.environ.get("LOCALAPPDATA") if sys.platform == "win32" else None)


def _preferred(override: str | None) -> tuple[Path | None, str]:
    """The folder the settings name, or None and why there is none."""
    if override:
        return Path(override), ""
    base = _base()
    if base:
        return Path(base) / "referee", ""
    try:
        home = Path.home()
    except RuntimeError:
        return None, "no home folder is set"
    if not home.is_dir():  # never created: a home folder is not the referee's to make
        return None, f"the home folder {home} does not exist"
    return home / ".cache" / "referee", ""


def _usable(directory: Path) -> str | None:
    """None if `directory` is (now) a private folder of this user's; else why not."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as exc:
        return exc.strerror or str(exc)
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return "another user owns it"
    if info.st_mode & 0o022:
        return "others may write to it"
    return None


_said: set[str] = set()  # the reasons this process has given already


def _say_once(folder: Path, message: str) -> None:
    """Tell the user why the fallback is used, once for as long as the reason stays the same
    (a note in the fallback folder remembers it between runs)."""
    if message in _said:
        return
    _said.add(message)
    note = folder / "why-this-folder.txt"
    try:
        if note.read_text(encoding="utf-8") == message:
            return
    except (OSError, UnicodeError):
        pass
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        note.write_text(message, encoding="utf-8")
    except OSError:
        pass


def sweep(directory: Path, keep: str, stale: Callable[[str], bool]) -> None:
    """Remove the cache files that `keep` replaces (those `stale` names), so that files of
    older grammars, specs or code do not pile up."""
    try:
        names = [entry.name for entry in os.scandir(directory) if entry.is_file(follow_symlinks=False)]
    except OSError:
        return
    for name in names:
        if name != keep and stale(name):
            try:
                os.unlink(directory / name)
            except OSError:
                pass


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
