"""Files written so that a stop at any moment loses nothing already accepted.

`referee record` appends each checked line and waits until the disk has it; it replaces a
whole file (`undo`, or a record cut at its last good line) through a temporary file beside it
that is synced and then renamed over the old one, so that a reader, or a crash, finds either
the old content or the new, never a mix; and it sets lines aside in a file that must not exist
yet, so nothing earlier is overwritten.

A session holds an advisory lock on its record (`hold`) from start to end, so a second session
on the same file (through another name, a symlink or a hard link too) is refused rather than
writing "the next move" from a view of the game that is no longer the file's. Taking lines back
cuts the file where it stands (`truncate_synced`), so the lock, symlinks and hard links keep
pointing at the record.
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
from pathlib import Path


class Held(Exception):
    """Another process holds the record's lock."""


def hold(path: str) -> int:
    """An open descriptor of the record holding its exclusive advisory lock (kept until it is
    closed, or the process ends). Raises Held if another process holds it, OSError if the
    file cannot be opened."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise Held(path) from None
    except OSError:  # a file system without locks: the session goes on without one
        pass
    return fd


def truncate_synced(path: str, size: int) -> None:
    """Cut the file to its first `size` bytes in place and wait until the disk has it."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_stale_temporaries(path: str) -> list[str]:
    """Remove the temporary files a rewrite of `path` left behind when it was stopped
    (`.NAME.xxxxxxxx.tmp` beside it, as `replace_synced` names them); the names removed."""
    target = Path(path).resolve()
    pattern = re.compile(re.escape(f".{target.name}.") + r"[A-Za-z0-9_]{8}\.tmp")
    removed = []
    try:
        candidates = list(target.parent.iterdir())
    except OSError:
        return removed
    for candidate in candidates:
        if pattern.fullmatch(candidate.name) and candidate.is_file() and not candidate.is_symlink():
            try:
                candidate.unlink()
                removed.append(str(candidate))
            except OSError:
                pass
    return removed


def _write_all(fd: int, data: bytes) -> None:
    """Every byte written (a write may take fewer than given), then synced to the disk."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def append_synced(path: str, data: bytes) -> None:
    """Add bytes at the end of the file and wait until the disk has them. A write that fails
    half-way (a full disk) is cut off again, so the file never ends in part of the bytes."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        try:
            _write_all(fd, data)
        except OSError:
            try:
                os.ftruncate(fd, size)
                os.fsync(fd)
            except OSError:
                pass
            raise
    finally:
        os.close(fd)


def create_synced(path: str, data: bytes) -> None:
    """Write a file that must not exist yet (O_EXCL), and wait until the disk has it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        _write_all(fd, data)
    except BaseException:  # a full disk: no empty or partial file is left behind
        os.close(fd)
        try:
            os.unlink(path)
        except OSError:
            pass
        raise
    os.close(fd)
    _sync_directory(Path(path).resolve().parent)


def replace_synced(path: str, data: bytes) -> None:
    """Replace the file's content at once: a temporary file beside it, synced, renamed over it."""
    target = Path(path)
    directory = target.resolve().parent
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        try:
            os.fchmod(fd, mode)
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    _sync_directory(directory)


def set_aside_path(path: str, suffix: str) -> str:
    """A file name beside `path` for lines taken out of it; an existing one is never reused."""
    candidate, n = f"{path}.{suffix}", 1
    while os.path.exists(candidate):
        n += 1
        candidate = f"{path}.{suffix}.{n}"
    return candidate


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_directory(directory: Path) -> None:
    """A rename or a new file is durable once its directory is synced (where the system allows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
