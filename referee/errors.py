"""The errors every layer may raise, and the exit code each one means.

This module is at the bottom of the package: it imports nothing of the referee, so the
spec loader, the notation, the engine, the games and the command line can all raise and
catch the same four kinds of error without importing one another.

- `UsageError`: the command was given wrong arguments (exit 2).
- `RecordError`: a record that cannot be read (exit 3), with its line and column.
- `SpecError`: spec or variant data that cannot be used (exit 4), with its file and key.
- `Violation`: a move the rules do not allow (exit 1), with the rule id it breaks.

Exit code 6 says that the answer could not be written (standard output closed or full): the
verdict is unknown to whoever reads the exit code, so no verdict's code stands for it.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE, EXIT_MALFORMED, EXIT_SPEC, EXIT_INTERNAL = 0, 1, 2, 3, 4, 5
EXIT_OUTPUT = 6  # standard output closed or full: the report could not be written
EXIT_SIGPIPE = 128 + 13  # the reader closed the pipe before the verdict was known, as a shell reports SIGPIPE


class Status(enum.StrEnum):
    """A report's verdict, worst last; each one has the exit code it means."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    INVALID_SPEC = "invalid-spec"
    INTERNAL_ERROR = "internal-error"

    @property
    def exit_code(self) -> int:
        return _STATUS_CODES[self]

    def worse(self, other: Status | str) -> Status:
        """The worse of two verdicts: a report's exit code is its worst problem's."""
        other = Status(other)
        order = list(Status)
        return other if order.index(other) > order.index(self) else self


_STATUS_CODES = {"legal": EXIT_OK, "illegal": EXIT_VIOLATION, "malformed": EXIT_MALFORMED, "invalid-spec": EXIT_SPEC, "internal-error": EXIT_INTERNAL}

# The largest spec file is 31 KB. `validate` reads a file once for each variant, and
# 100 KB of YAML takes a tenth of a second to read and as long to locate an error in.
MAX_SPEC_BYTES = 128 * 1024
MAX_SPEC_DEPTH = 64


@dataclass(frozen=True)
class Pos:
    """A place in a record: 1-based line and column; the marked span ends before `end_column`."""

    line: int
    column: int
    end_column: int | None = None

    @classmethod
    def of(cls, item: Any) -> Pos:
        """The position of a parsed token, or of the tokens under a parse tree."""
        if not hasattr(item, "children"):
            end = item.end_column if item.end_line == item.line else None
            return cls(item.line, item.column, end)
        first = edge_token(item, last=False)
        if first is None:
            return cls(1, 1)
        last = edge_token(item, last=True)
        end = last.end_column if last.end_line == first.line else None
        return cls(first.line, first.column, end)


def edge_token(tree: Any, last: bool) -> Any:
    """The first (or last) token under a tree.

    Positions come from the tokens rather than from Lark's propagated tree
    positions, which cost almost half of the parse and are needed only for
    the few trees a diagnostic points at.
    """
    node = tree
    while True:  # straight down the first (last) children, as long as there are some
        children = getattr(node, "children", None)
        if children is None:
            return node
        if not children:
            break
        node = children[-1] if last else children[0]
    stack: list = [tree]  # an empty subtree on the way: every branch in turn
    while stack:
        node = stack.pop()
        if not hasattr(node, "children"):
            return node
        stack.extend(node.children if last else reversed(node.children))
    return None


class RefereeError(Exception):
    """The root of the referee's errors. Each kind carries the exit code it means, so the command
    line maps an error to its code in one place (`exit_code`), as Click's exceptions do."""

    exit_code = EXIT_INTERNAL


class UsageError(RefereeError):
    """The command line asks for something that cannot be done (exit code 2)."""

    exit_code = EXIT_USAGE


class RecordError(RefereeError):
    """A record that cannot be read (exit code 3)."""

    exit_code = EXIT_MALFORMED

    def __init__(self, message: str, pos: Pos | None = None):
        self.message = message
        self.pos = pos or Pos(1, 1)
        super().__init__(message)


class Violation(RefereeError):
    """A move the rules do not allow (exit code 1)."""

    exit_code = EXIT_VIOLATION

    def __init__(self, rule: str, message: str, pos: Pos | None = None):
        self.rule = rule
        self.message = message
        self.pos = pos
        super().__init__(f"[{rule}] {message}")


class SpecError(RefereeError):
    """Spec or variant data that cannot be used (exit code 4).

    `key` is the dotted path of the offending value inside `file` (or a rule
    id). `line` and `column` are found from the key when not given, so that
    the message points where an editor can jump to, as for a record.
    """

    exit_code = EXIT_SPEC

    def __init__(self, file: str | Path, key: str, message: str, line: int | None = None, column: int | None = None):
        self.file = str(file)
        self.key = key
        self.message = message
        self.line = line
        self.column = column
        where = f"{self.file}:{key}" if key else self.file
        super().__init__(f"{where}: {message}")

    @property
    def where(self) -> str:
        """`file:line:column` when the file exists (a variant may have any name), else `file`."""
        if self.line is None:
            self.line, self.column = locate(Path(self.file), self.key) or (None, None)
        return f"{self.file}:{self.line}:{self.column}" if self.line else self.file

    def display(self, error: str = "error", shown=str) -> str:
        """The one-line message a user sees: `file:line:column: error: key: message`; the
        command line passes the word for "error" and `shown` (localized) of its language, as
        nothing at this bottom layer knows of languages."""
        return f"{self.where}: {error}: {self.key + ': ' if self.key else ''}{shown(self.message)}"


def locate(path: Path, key: str) -> tuple[int, int] | None:
    """Line and column of a dotted key in a YAML file (1-based).

    A key that is not there points at its deepest existing parent (a missing
    required key is reported at the mapping that lacks it); a key that is no
    path at all (a rule id) points at the first scalar equal to it.
    """
    try:
        info = path.stat()
    except OSError:
        return None
    if not path.is_file():
        return None
    # `validate` meets the same error once per variant: read the file for it once
    return _locate(str(path), key, info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=32)
def _locate(file: str, key: str, mtime_ns: int, size: int) -> tuple[int, int]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if size > MAX_SPEC_BYTES:
            return 1, 1
        text = Path(file).read_text(encoding="utf-8")
        if not _plain(text, yaml, loader):
            return 1, 1
        node = yaml.compose(text, Loader=loader)
    except Exception:  # unreadable or broken: the start of the file is the best we can say
        return 1, 1
    if node is None:
        return 1, 1
    mark = node.start_mark
    found_any = False
    for part in key.split(".") if key else ():
        child = None
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == part:
                    child, mark = v, k.start_mark
                    break
        elif isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            child = node.value[int(part)]
            mark = child.start_mark
        if child is None:
            break
        node, found_any = child, True
    if key and not found_any:
        scalar = _find_scalar(node, key, yaml)
        if scalar is not None:
            mark = scalar.start_mark
    return mark.line + 1, mark.column + 1


def _plain(text: str, yaml: Any, loader: Any) -> bool:
    """No aliases (a search through them can take exponential time) and no deep nesting."""
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            return False
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_SPEC_DEPTH:
                return False
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return True


def _find_scalar(root: Any, value: str, yaml: Any) -> Any:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            if node.value == value:
                return node
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return None
