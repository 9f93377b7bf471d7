"""Files kept between runs so that a start is quick: each grammar's LALR tables (written by
Lark), each game's validated spec, and the compiled `__init__` of the data classes.

The first two are pickles, and unpickling runs code chosen by whoever wrote the file; the
third is Python bytecode, which runs as it is, as a module's bytecode in `__pycache__` does.
So they live in a folder of the user's own: `REFEREE_CACHE` when set (empty: no cache at
all), otherwise `$XDG_CACHE_HOME/referee` or `~/.cache/referee`. A folder that another user
owns or may write to is not used, and a missing home folder is never created: then a private
folder in the temporary folder is used instead (without a cache every run would cost several
times a warm one), and the referee says once why. A cache file is only ever a shortcut: one
that is missing, corrupt, written for other data or by other code (or another Python) is
ignored, and the work is simply done again; a file a newer one replaces is removed.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Iterable


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hash, as `hashlib.sha256` makes it. hashlib loads OpenSSL's module first, a
    few milliseconds of every start whose only hashing is a cache's key; Python's own
    built-in module makes the same digest at once."""
    try:
        from _sha256 import sha256 as new  # Python 3.11
    except ImportError:
        try:
            from _sha2 import sha256 as new  # Python 3.12 and later
        except ImportError:
            from hashlib import sha256 as new  # a Python built without its own hashes
    return new(data)


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


def sweep(directory: Path, keep: str, stale: "Callable[[str], bool]") -> None:
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


# --- compiled code ---------------------------------------------------------------------------

# The texts this process compiled or found in the cache file, with their code (None until
# the file is read, at the first text asked for).
_compiled: dict[str, Any] | None = None
_compiled_file: Path | None = None  # where they were read from, and are written to
_compiled_used: set[str] = set()
_to_write = False  # True once this process compiled a text, and the file is to be written at its end
# A file holding more texts than this (from code since changed) keeps only those used now.
MAX_COMPILED = 150  # the package has about seventy distinct texts; reading 150 takes under a millisecond


def compiled(source: str, filename: str) -> CodeType:
    """`compile(source, filename, "exec")`, kept between runs as Python keeps a module's
    bytecode. Every start defines some thirty-five data classes, and compiling their
    `__init__` (plain.py) took 4 to 5 ms of it; reading them all from one file takes a tenth
    of a millisecond. The file is read once per process and written when the process ends,
    if it compiled a text that the file did not hold."""
    global _compiled, _compiled_file, _to_write
    if _compiled is None:
        _compiled_file = _compiled_path()
        _compiled = _read_compiled(_compiled_file)
    code = _compiled.get(source)
    if not isinstance(code, CodeType):
        code = _compiled[source] = compile(source, filename, "exec")
        if not _to_write and _compiled_file is not None:
            _to_write = True
            atexit.register(_write_compiled)
    _compiled_used.add(source)
    return code


def _compiled_path() -> Path | None:
    directory = cache_dir()
    return directory / f"compiled-{sys.implementation.cache_tag}.marshal" if directory is not None else None


def _read_compiled(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            version, texts = marshal.loads(fh.read())  # marshal.load reads a file a piece at a time, ten times slower
    except Exception:  # none yet, corrupt, truncated, foreign: compiled again
        return {}
    if version != sys.version or not isinstance(texts, dict):  # bytecode is read by the Python that wrote it
        return {}
    return texts


def _write_compiled() -> None:
    """Run at the end of the process: it never fails, whatever the folder or the file."""
    path = _compiled_file
    if path is None or _compiled is None:
        return
    texts = {t: c for t, c in _compiled.items() if isinstance(t, str) and isinstance(c, CodeType)}
    if len(texts) > MAX_COMPILED:
        texts = {t: c for t, c in texts.items() if t in _compiled_used}
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as fh:
            marshal.dump((sys.version, texts), fh)
        os.replace(temporary, path)
    except Exception:
        try:
            temporary.unlink()
        except OSError:
            pass
