"""Reading a file of a folder that may come from anyone: a regular file, of bounded size.

A spec folder (`REFEREE_DATA`, `referee validate SPECDIR`) may be a download. A name in it
may be a symlink to /dev/zero (which reads without end), a FIFO (whose opening waits for a
writer that never comes) or a file of gigabytes. Every spec, schema, grammar and example
file is read through here: only a regular file is opened, without waiting, and no more than
a bound is read.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class FileRefused(OSError):
    """A file that is not read: not a regular file, or larger than the bound."""

    def __init__(self, reason: str, size: int | None = None):
        super().__init__(errno.EINVAL, reason)
        self.size = size


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; OSError (or FileRefused) otherwise."""
    info = os.stat(path)  # follows a symlink to what it names; does not wait on a FIFO
    _check(info, limit)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        _check(os.fstat(fd), limit)  # the file opened is the file checked
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileRefused(f"file is larger than {limit} bytes", len(data))
    return data


def read_text(path: str | Path, limit: int) -> str:
    """A regular UTF-8 text file of at most `limit` bytes (UnicodeDecodeError for other bytes)."""
    return read_bytes(path, limit).decode("utf-8")


def _check(info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a directory"
            if stat.S_ISDIR(info.st_mode)
            else "a socket or other special file"
        )
        raise FileRefused(f"not a regular file ({kind})")
    if info.st_size > limit:
        raise FileRefused(f"file is {info.st_size} bytes; the limit is {limit}", info.st_size)
