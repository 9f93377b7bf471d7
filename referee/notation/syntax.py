"""The parse tree of a record: the referee's own `Tree` and `Token`, shaped as Lark's.

Lark builds the parse tables (grammar/*.lark) and reports every syntax error, but a
well-formed record is read by the loop in lalr.py, which builds these classes. They hold
what Lark's own tree holds (a rule's name and children; a token's kind, text and place) and
compare as Lark's do, so a tree read here equals the tree Lark reads. Keeping them here
means a check of a well-formed record never imports Lark, whose import costs about as much
as the rest of the referee's start.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator


class Token(str):
    """A word of the record with its kind (the grammar's terminal) and place: `line` and
    `column` from 1, `end_column` just after its last character, `start_pos` and `end_pos`
    as offsets in the text. Compares as its text, and unequal to a token of another kind."""

    __slots__ = ("type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos")

    type: str
    value: Any
    start_pos: int | None
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    end_pos: int | None

    def __new__(cls, type: str, value: Any, start_pos: int | None = None, line: int | None = None, column: int | None = None,
                end_line: int | None = None, end_column: int | None = None, end_pos: int | None = None) -> "Token":
        token = super().__new__(cls, value)
        token.type = type
        token.value = value
        token.start_pos = start_pos
        token.line = line
        token.column = column
        token.end_line = end_line
        token.end_column = end_column
        token.end_pos = end_pos
        return token

    def __reduce__(self):
        return (self.__class__, (self.type, self.value, self.start_pos, self.line, self.column, self.end_line, self.end_column, self.end_pos))

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__


class Tree:
    """One rule of the grammar as it was read: the rule's name (or its alias) and its
    children, tokens and trees, in the order of the text."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list) -> None:
        self.data = data
        self.children = children

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def __eq__(self, other: object) -> bool:
        try:
            return self.data == other.data and self.children == other.children  # type: ignore[attr-defined]
        except AttributeError:
            return False

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.data, tuple(self.children)))

    def scan_values(self, pred: Callable[[Any], bool]) -> Iterator[Any]:
        """Every token under the tree (in the order of the text) for which `pred` is true."""
        for child in self.children:
            if isinstance(child, Tree):
                yield from child.scan_values(pred)
            elif pred(child):
                yield child


def from_lark(node: Any) -> Any:
    """A tree (or token) that Lark's own parser built, in these classes: where Lark parses a
    record itself, the games still get the one kind of tree."""
    children = getattr(node, "children", None)
    if children is not None:
        return Tree(str(node.data), [from_lark(child) for child in children])
    if isinstance(node, str) and hasattr(node, "type"):
        return Token(node.type, node.value, node.start_pos, node.line, node.column, node.end_line, node.end_column, node.end_pos)
    return node
