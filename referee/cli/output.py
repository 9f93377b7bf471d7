"""What the referee writes, and an exit code that tells the truth when writing fails.

Every command prints through `say` (standard output) and `warn` (standard error):

- text is shown visibly (`terminal.visible`): a control character from a record, a file
  name or a spec folder never reaches a terminal raw;
- a terminal or pipe that cannot encode a character (`PYTHONIOENCODING=ascii`) gets an
  escape such as `\\xe9` instead of losing the whole report;
- a failure to write standard output becomes an exit code of its own, never the code of
  a verdict the reader did not receive, and never 0 for an illegal record:

  | what happened to standard output | exit code |
  | --- | --- |
  | the reader closed the pipe (`check ... \\| head -1`) | the verdict's code once it is known; 141 (as a process stopped by SIGPIPE) when the pipe closed before the verdict was |
  | closed (`>&-`), full (`>/dev/full`) or any other write error | 6 (`EXIT_OUTPUT`) |

- a failure to write standard error (where usage errors and diagnostics of `show` go)
  keeps the exit code: the code is then the only message that arrives.

A command runs inside `Guard`, and tells it its verdict with `verdict(code)` as soon as
it is known (`verdict(code, final=False)` for a verdict still growing, such as the worst
code of the files checked so far):

    with output.Guard() as guard:
        code = command(args)
    return guard.exit_code(code)
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from typing import Any

from referee.errors import EXIT_OUTPUT, EXIT_SIGPIPE
from referee.i18n import N_, _, current
from referee.terminal import visible

# Why a file could not be read or written, in the reader's language (the system's own words,
# `strerror`, are English whatever the language asked for); a reason not listed keeps them.
REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EEXIST: N_("it exists already"),
    errno.ENAMETOOLONG: N_("the name is too long"),
}


def reason(exc: OSError) -> str:
    """Why an operation on a file failed, as `cannot read FILE: REASON` says it: in English
    the system's words, as before."""
    if exc.errno in REASONS and current() != "en":
        return _(REASONS[exc.errno])
    return exc.strerror or str(exc)


class OutputFailed(Exception):
    """Standard output cannot be written; `broken_pipe` when its reader went away."""

    def __init__(self, error: BaseException | None):
        super().__init__(str(error) if error else "standard output is closed")
        self.broken_pipe = isinstance(error, BrokenPipeError) or getattr(error, "errno", None) == errno.EPIPE


class Guard:
    """Turns a failure to write standard output into the exit code it stands for."""

    active: Guard | None = None

    def __init__(self) -> None:
        self.known: int | None = None  # the verdict's code so far
        self.final = False  # the verdict is complete
        self.failure: OutputFailed | None = None

    def __enter__(self) -> Guard:
        self._outer, Guard.active = Guard.active, self
        prepare_streams()
        return self

    def __exit__(self, kind, error, tb) -> bool:
        try:
            if error is None:
                flush()
        except OutputFailed as exc:
            error = exc
        finally:
            Guard.active = self._outer
        if isinstance(error, (BrokenPipeError, OutputFailed)):
            self.failure = error if isinstance(error, OutputFailed) else OutputFailed(error)
            _silence(sys.stdout, 1)
            return True
        return False

    def exit_code(self, code: int | None = None) -> int:
        """The code to exit with: the command's own `code` unless standard output failed."""
        if self.failure is None:
            return code if code is not None else self.known or 0
        if not self.failure.broken_pipe:
            return EXIT_OUTPUT
        if self.final and self.known is not None:
            return self.known
        return self.known or EXIT_SIGPIPE  # a non-zero verdict so far stays true whatever follows


def verdict(code: int, final: bool = True) -> None:
    """The verdict's exit code, told to the guard before the verdict is printed."""
    guard = Guard.active
    if guard is not None:
        guard.known = code if guard.known is None else max(guard.known, code)
        guard.final = final


def say(text: str = "", end: str = "\n") -> None:
    """Print `text` on standard output, visibly (line breaks kept); OutputFailed if it cannot."""
    stream = sys.stdout
    if stream is None:  # the process started with its standard output closed
        raise OutputFailed(None)
    try:
        _write(stream, visible(text, keep_lines=True) + end)
    except (OSError, ValueError) as exc:  # ValueError: a stream closed in this process
        raise OutputFailed(exc) from None


def emit(text: str) -> None:
    """Write a document made by the referee (an SVG picture, an HTML page) to standard output;
    its tabs and line breaks are kept, any other control or invisible character from a record
    is escaped (none belongs in XML or HTML text, and a terminal would obey it)."""
    stream = sys.stdout
    if stream is None:
        raise OutputFailed(None)
    try:
        _write(stream, _HIDDEN_IN_DOCUMENTS.sub(lambda m: visible(m.group()), text))
    except (OSError, ValueError) as exc:
        raise OutputFailed(exc) from None


def warn(text: str = "", end: str = "\n") -> None:
    """Print `text` on standard error, visibly; a standard error that cannot be written is
    given up silently (the exit code still says what happened)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        _write(stream, visible(text, keep_lines=True) + end)
        stream.flush()
    except (OSError, ValueError):
        _silence(stream, 2)


def flush() -> None:
    """Write out what standard output still holds, so that a failure is seen while the exit
    code can still say so (not at the interpreter's exit, which would print a traceback)."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError) as exc:
        raise OutputFailed(exc) from None


def _write(stream: Any, text: str) -> None:
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))


def prepare_streams() -> None:
    """Characters the output encoding lacks become escapes (`\\xe9`) rather than an error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def _silence(stream: Any, fd: int) -> None:
    """After a write failed, point the process's own stream at the null device, so that the
    interpreter's last flush at exit does not fail again and print a traceback."""
    if stream is None or stream is not getattr(sys, f"__{'stdout' if fd == 1 else 'stderr'}__", None):
        return
    try:
        if stream.fileno() != fd:
            return
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


_HIDDEN_IN_DOCUMENTS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


# --- JSON ------------------------------------------------------------------------------------

# json.dumps(ensure_ascii=False) escapes C0 characters but leaves DEL, C1, bidirectional
# controls, zero-width characters and lone surrogates raw; inside JSON text they can only
# stand in strings, where \\uXXXX means the same character.
_RAW_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")


def dumps(data: Any) -> str:
    """JSON for a report, with every invisible or control character escaped. Where standard
    output cannot carry every character (PYTHONIOENCODING=ascii, latin-1), every one beyond
    ASCII is written as a JSON escape (`\\u00e9`): the stream's own fallback (`\\xe9`) is no
    JSON."""
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return json.dumps(data, indent=2, ensure_ascii=True, default=str)
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
