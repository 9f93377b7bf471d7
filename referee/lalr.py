"""Lark's LALR parse of a record, run by one tight loop.

Lark reads a record with a contextual lexer: in each state of the LALR automaton it
matches only the terminals that state accepts, one regular expression per state. Its lexer
and its parser are general (generators, a line counter object, a method call per token);
a record is read in one go, so this module runs the same automaton, the same per-state
patterns and the same tree-building callbacks, all taken from the Lark object, in a single
loop. The tree it returns is the tree Lark returns.

Only well-formed records take this path. At the first character or token that the
automaton refuses, the record is handed to Lark's own `parse`, so that every syntax error
is Lark's own exception, with its position and its expected terminals, word for word.
"""

from __future__ import annotations

import functools
from typing import Any

from lark import Lark, Token, Tree


class _Refused(Exception):
    """The loop met input the automaton does not accept: Lark's own parse says why."""


class Driver:
    """The tables of one Lark LALR parser, laid out for the loop in `parse`."""

    def __init__(self, lark: Lark, start: str = "start"):
        from lark.lexer import ContextualLexer
        from lark.parsers.lalr_analysis import Shift

        frontend = lark.parser
        parser = frontend.parser.parser
        if not isinstance(frontend.lexer, ContextualLexer) or lark.options.postlex is not None:
            raise TypeError("only a contextual lexer without a post-lexer is driven here")
        if any(isinstance(key, str) for key in parser.callbacks):
            raise TypeError("terminal callbacks are not driven here")
        table = parser.parse_table
        self.start = table.start_states[start]
        self.end = table.end_states[start]
        # Per state, what each terminal or rule name leads to: a state to shift to, or a
        # reduction (the callback that builds the node, how many values it takes, the rule's name).
        self.actions: dict[Any, dict[str, Any]] = {}
        for state, row in table.states.items():
            self.actions[state] = {
                name: (arg if action is Shift else (parser.callbacks[arg], len(arg.expansion), arg.origin.name))
                for name, (action, arg) in row.items()
            }
        # Terminals that no rule keeps in its tree (punctuation, keywords, line breaks): the
        # loop puts a placeholder on the stack for them, which the tree builders never read.
        kept, seen = set(), set()
        for rule in parser.callbacks:
            for symbol in rule.expansion:
                if symbol.is_term:
                    seen.add(symbol.name)
                    if rule.options.keep_all_tokens or not symbol.filter_out:
                        kept.add(symbol.name)
        self.dropped = frozenset(seen - kept)
        self.lexers = _Lexers(frontend.lexer.lexers)

    def parse(self, text: str) -> Any:
        """The tree of a well-formed text; `_Refused` at anything else."""
        actions, lexers, dropped, make, last = self.actions, self.lexers, self.dropped, _token_maker(), self.end
        stack = [self.start]
        values: list = []
        pos, line, line_start, end = 0, 1, 0, len(text)
        while True:
            if pos < end:
                patterns, keywords, ignore, newline = lexers[stack[-1]]
                for pattern in patterns:
                    match = pattern.match(text, pos)
                    if match:
                        break
                else:
                    raise _Refused
                value = match.group(0)
                kind = match.lastgroup
                start = pos
                pos += len(value)
                start_line, column = line, start - line_start + 1
                if kind in newline and "\n" in value:
                    line += value.count("\n")
                    line_start = start + value.rindex("\n") + 1
                if kind in ignore:
                    continue
                if kind in keywords:
                    kind = keywords[kind].get(value, kind)
                token = None if kind in dropped else make(kind, value, start, start_line, column, line, pos - line_start + 1, pos)
            else:  # the end of the text: reduce what is left, up to the start rule
                kind, token = "$END", None
            while True:
                action = actions[stack[-1]].get(kind)
                if action is None:
                    raise _Refused
                if type(action) is not tuple:
                    if token is None and kind == "$END":
                        raise _Refused
                    stack.append(action)
                    values.append(token)
                    break
                # a rule is complete: its values make way for the node its callback builds, and
                # the automaton goes where the rule's name leads from the state below
                build, size, name = action
                if size:
                    children = values[-size:]
                    del stack[-size:]
                    del values[-size:]
                else:
                    children = []
                values.append(build(children))
                stack.append(actions[stack[-1]][name])
                if kind == "$END" and stack[-1] == last:
                    return values[-1]


class _Lexers(dict):
    """Per parser state: its patterns, the keywords its word patterns may turn out to be, the
    terminals it ignores and those that may hold a line break. Made when a state is first
    met (states that accept the same terminals share one lexer in Lark, and one entry here),
    as Lark makes its own: a record visits few of the states."""

    def __init__(self, basics: dict):
        super().__init__()
        self.basics = basics
        self.shared: dict[int, tuple] = {}

    def __missing__(self, state: Any) -> tuple:
        from lark.lexer import PatternStr, UnlessCallback

        basic = self.basics[state]
        entry = self.shared.get(id(basic))
        if entry is None:
            patterns = tuple(basic.scanner._mres)
            keywords = {}
            for kind, callback in basic.callback.items():
                if not isinstance(callback, UnlessCallback):
                    raise _Refused  # Lark's own parse handles what is not a plain keyword
                terminals = callback.scanner.terminals
                if not all(isinstance(t.pattern, PatternStr) and not t.pattern.flags for t in terminals):
                    raise _Refused
                keywords[kind] = {t.pattern.value: t.name for t in terminals}
            entry = self.shared[id(basic)] = (patterns, keywords, frozenset(basic.ignore_types), frozenset(basic.newline_types))
        self[state] = entry
        return entry


def _token_maker():
    """Lark's Token constructor without its check for a deprecated keyword, where it has one."""
    return getattr(Token, "_future_new", Token)


@functools.lru_cache(maxsize=None)
def driver_for(lark: Lark) -> Driver | None:
    """The loop's tables for a parser, or None when the parser is of a kind not driven here
    (then Lark parses alone)."""
    try:
        return Driver(lark)
    except (AttributeError, KeyError, TypeError):
        return None


def parse(lark: Lark, text: str) -> Tree:
    """What `lark.parse(text)` returns, and the exception it raises, only sooner."""
    driver = driver_for(lark)
    if driver is not None:
        try:
            return driver.parse(text)
        except _Refused:
            pass
    return lark.parse(text)
