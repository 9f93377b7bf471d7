"""Lark's LALR parse of a record, run by one tight loop.

Lark reads a record with a contextual lexer: in each state of the LALR automaton it
matches only the terminals that state accepts, one regular expression per state. Its lexer
and its parser are general (generators, a line counter object, a method call per token);
a record is read in one go, so this module runs the same automaton and the same per-state
patterns, taken from the Lark object, in a single loop. Lark's tree-building callbacks are
read once, when the tables are made, into what each rule does to its children (keep some,
put a `_rule`'s children in its place, let a `?rule`'s single child stand for it), and the
loop does that with the referee's own tree classes (syntax.py): the tree it returns equals
the tree Lark returns.

Only well-formed records take this path. At the first character or token that the
automaton refuses, the record is handed to Lark's own `parse`, so that every syntax error
is Lark's own exception, with its position and its expected terminals, word for word.

The loop's tables are plain data, kept in the user's cache folder (cache.py) by the hash of
the grammar, so that a start reads one small file instead of building Lark's parser and its
lexers. Lark itself is imported only when the tables are made or a record has a syntax error
to report: a check of a well-formed record does without it.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from referee import _cache as cache
from referee.notation.syntax import Token, Tree, from_lark

if TYPE_CHECKING:
    from lark import Lark


class _Refused(Exception):
    """The loop met input the automaton does not accept: Lark's own parse says why."""


class Driver:
    """The tables of one Lark LALR parser, laid out for the loop in `parse`."""

    def __init__(self, start: Any, end: Any, actions: dict, dropped: frozenset, lexers: _Lexers):
        self.start = start
        self.end = end
        # Per state, what each terminal or rule name leads to: a state to shift to, or a
        # reduction: how many values the rule takes, the rule's name, and how its node is built
        # (see `_builder`).
        self.actions = actions
        # Terminals that no rule keeps in its tree (punctuation, keywords, line breaks): the
        # loop puts a placeholder on the stack for them, which the tree builders never read.
        self.dropped = dropped
        self.lexers = lexers

    @classmethod
    def of(cls, lark: Lark, start: str = "start") -> "Driver":
        """The tables of a Lark parser; TypeError for a kind of parser not driven here."""
        from lark.lexer import ContextualLexer
        from lark.parsers.lalr_analysis import Shift

        frontend = lark.parser
        parser = frontend.parser.parser
        if not isinstance(frontend.lexer, ContextualLexer) or lark.options.postlex is not None:
            raise TypeError("only a contextual lexer without a post-lexer is driven here")
        if any(isinstance(key, str) for key in parser.callbacks):
            raise TypeError("terminal callbacks are not driven here")
        table = parser.parse_table
        builders = {rule: (len(rule.expansion), str(rule.origin.name), *_builder(callback)) for rule, callback in parser.callbacks.items()}
        actions = {state: {name: (arg if action is Shift else builders[arg]) for name, (action, arg) in row.items()} for state, row in table.states.items()}
        kept, seen = set(), set()
        for rule in parser.callbacks:
            for symbol in rule.expansion:
                if symbol.is_term:
                    seen.add(symbol.name)
                    if rule.options.keep_all_tokens or not symbol.filter_out:
                        kept.add(symbol.name)
        contextual = frontend.lexer
        root = contextual.root_lexer  # every terminal, in the order every lexer tries its own
        if root.use_bytes:
            raise TypeError("a lexer of bytes is not driven here")
        tried = {t.name for basic in set(contextual.lexers.values()) for t in basic.scanner.terminals}
        every = tuple(t.name for t in root.terminals if t.name in tried)
        regexps = {t.name: t.pattern.to_regexp() for t in root.terminals}
        lexers = _Lexers(every, regexps, root.g_regex_flags, _described(contextual.lexers))
        return cls(table.start_states[start], table.end_states[start], actions, frozenset(seen - kept), lexers)

    def data(self) -> dict | None:
        """The tables as plain data for the cache (patterns by their source), or None when a
        state's lexer is of a kind not driven here."""
        try:
            lexers = {state: self.lexers.data_of(state) for state in self.actions}
        except _Refused:
            return None
        every, regexps, flags = self.lexers.terminals
        return {"start": self.start, "end": self.end, "actions": self.actions, "dropped": self.dropped,
                "every": every, "regexps": regexps, "flags": flags, "lexers": lexers}

    @classmethod
    def from_data(cls, data: dict) -> "Driver":
        lexers = _Lexers(data["every"], data["regexps"], data["flags"], data["lexers"].__getitem__)
        return cls(data["start"], data["end"], data["actions"], data["dropped"], lexers)

    def parse(self, text: str) -> Any:
        """The tree of a well-formed text; `_Refused` at anything else."""
        actions, lexers, dropped, last = self.actions, self.lexers, self.dropped, self.end
        every = lexers.every
        stack = [self.start]
        values: list = []
        pos, line, line_start, end = 0, 1, 0, len(text)
        while True:
            if pos < end:
                tried, keywords, ignore, newline = lexers[stack[-1]]
                match = every.match(text, pos)
                if match is None:
                    raise _Refused
                if match.lastgroup not in tried:  # the first of the state's own after it decides
                    rest = lexers.after(stack[-1], match.lastgroup)
                    match = rest.match(text, pos) if rest else None
                    if match is None:
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
                    kind = keywords[kind](value) or kind
                token = None if kind in dropped else Token(kind, value, start, start_line, column, line, pos - line_start + 1, pos)
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
                # a rule is complete: its values make way for its node, and the automaton goes
                # where the rule's name leads from the state below
                size, name, data, single, kept = action
                if size:
                    children = values[-size:]
                    del stack[-size:]
                    del values[-size:]
                else:
                    children = []
                if kept is not None:  # as Lark's ChildFilterLALR_NoPlaceholders
                    chosen: list = []
                    for index, inline in kept:
                        if not inline:
                            chosen.append(children[index])
                        elif chosen:
                            chosen += children[index].children
                        else:  # a left-recursive list grows in place, never copied
                            chosen = children[index].children
                    children = chosen
                values.append(children[0] if single and len(children) == 1 else Tree(data, children))
                stack.append(actions[stack[-1]][name])
                if kind == "$END" and stack[-1] == last:
                    return values[-1]


class _Lexers(dict):
    """Per parser state: the terminals its lexer tries, what a word they match may turn out
    to be (a keyword, found as Lark finds it), the terminals it ignores and those that may
    hold a line break. `describe` gives a state's lexer as plain data, which is what the
    cache keeps, with each terminal's pattern by its source.

    Each state's lexer in Lark's contextual lexer tries the terminals the state accepts in
    one order, the same for every state (the root lexer's), and the first that matches wins.
    `every` tries all the terminals that any state's lexer tries, in that order, as one
    pattern built as Lark builds a lexer's. When the first of them that matches is one the
    state tries, no terminal the state tries before it matched, so the state's lexer would
    find that terminal and that text. Otherwise (a word where the state takes a keyword, a
    signed number where it takes a plain one) the state's lexer would find the first of its
    terminals after that one that matches: `after` tries those, one terminal's pattern at a
    time, which finds what their alternation would (the first that matches). Compiling a
    pattern costs more than reading a record with it, and a pattern with a word in it costs
    the most: this way a record's lexing compiles one such pattern and a few of one terminal
    each, shared by every state, not a pattern for each of the dozens of states it visits."""

    def __init__(self, every: tuple[str, ...], regexps: dict[str, str], flags: int, describe: Callable[[Any], tuple]):
        super().__init__()
        self.terminals = (every, regexps, flags)
        self.every = self._alternation(every)
        self.rank = {name: i for i, name in enumerate(every)}
        self.describe = describe
        self.known: dict[Any, tuple] = {}
        self.rest: dict[tuple[Any, str], _FirstOf | None] = {}
        self.single: dict[str, re.Pattern] = {}

    def _alternation(self, names: Iterable[str]) -> re.Pattern:
        """One pattern that tries the named terminals in turn, as Lark's `Scanner` makes it."""
        _, regexps, flags = self.terminals
        return re.compile("|".join(f"(?P<{name}>{regexps[name]})" for name in names), flags)

    def data_of(self, state: Any) -> tuple:
        found = self.known.get(state)
        if found is None:
            found = self.known[state] = self.describe(state)
        return found

    def after(self, state: Any, kind: str) -> re.Pattern | None:
        """The state's terminals tried after `kind`, which the state does not try; None when
        there are none."""
        key = (state, kind)
        if key not in self.rest:
            rank = self.rank[kind]
            names = [name for name in self.data_of(state)[0] if self.rank[name] > rank]
            self.rest[key] = _FirstOf(tuple(self._alone(name) for name in names)) if names else None
        return self.rest[key]

    def _alone(self, name: str) -> re.Pattern:
        """One terminal's pattern, compiled once for every state that tries it."""
        found = self.single.get(name)
        if found is None:
            found = self.single[name] = self._alternation((name,))
        return found

    def __missing__(self, state: Any) -> tuple:
        names, keywords, ignore, newline = self.data_of(state)
        finders = {}
        for kind, (how, spec) in keywords.items():
            if how == "plain":  # literal words: looked up
                finders[kind] = spec.get
            else:  # words in any case: matched by Lark's own patterns for them
                finders[kind] = functools.partial(_fullmatch, tuple(re.compile(source, flags) for source, flags in spec))
        entry = self[state] = (frozenset(names), finders, ignore, newline)
        return entry


class _FirstOf:
    """Terminals tried in turn: the first whose pattern matches wins, as in an alternation."""

    def __init__(self, patterns: tuple[re.Pattern, ...]):
        self.patterns = patterns

    def match(self, text: str, pos: int) -> re.Match | None:
        for pattern in self.patterns:
            found = pattern.match(text, pos)
            if found is not None:
                return found
        return None


def _fullmatch(patterns: tuple, value: str) -> str | None:
    """The keyword a word is, as Lark's keyword callback finds it (`Scanner.fullmatch`)."""
    for pattern in patterns:
        match = pattern.fullmatch(value)
        if match:
            return match.lastgroup
    return None


def _described(basics: dict) -> Callable[[Any], tuple]:
    """A state's lexer, from Lark's contextual lexer, as plain data (see `_Lexers`)."""
    from lark.lexer import PatternStr, UnlessCallback

    shared: dict[int, tuple] = {}

    def describe(state: Any) -> tuple:
        basic = basics[state]
        found = shared.get(id(basic))
        if found is None:
            keywords = {}
            for kind, callback in basic.callback.items():
                if not isinstance(callback, UnlessCallback):
                    raise _Refused  # Lark's own parse handles what is not a keyword callback
                terminals = callback.scanner.terminals
                if not basic.g_regex_flags and all(isinstance(t.pattern, PatternStr) and not t.pattern.flags for t in terminals):
                    keywords[kind] = ("plain", {t.pattern.value: t.name for t in terminals})
                else:
                    keywords[kind] = ("patterns", tuple((p.pattern, p.flags) for p in callback.scanner._mres))
            names = tuple(t.name for t in basic.scanner.terminals)  # in the order it tries them
            found = shared[id(basic)] = (names, keywords, frozenset(basic.ignore_types), frozenset(basic.newline_types))
        return found

    return describe


def _builder(callback: Any) -> tuple[str, bool, tuple | None]:
    """What one of Lark's tree-building callbacks does, as plain data: the name of the node it
    builds (the rule's name or alias); whether a single child stands for the node (`?rule`);
    and which children it keeps, each with whether the child's own children are put in its
    place (`_rule`), or None when it keeps them all as they are. TypeError for a callback of a
    kind not driven here (a transformer's, positions propagated, placeholders)."""
    from lark.parse_tree_builder import ChildFilterLALR_NoPlaceholders, ExpandSingleChild
    from lark.tree import Tree as LarkTree

    kept = None
    if type(callback) is ChildFilterLALR_NoPlaceholders:
        kept = tuple((index, bool(inline)) for index, inline in callback.to_include)
        callback = callback.node_builder
    single = type(callback) is ExpandSingleChild
    if single:
        callback = callback.node_builder
    if not (type(callback) is functools.partial and callback.func is LarkTree and len(callback.args) == 1 and not callback.keywords):
        raise TypeError("a tree builder not driven here")
    return str(callback.args[0]), single, kept


# The cached tables are built-in types only (dicts, tuples, strings, numbers): a file that
# holds an object of any class is not one the referee wrote, and it is ignored.
_CACHED_CLASSES: frozenset[tuple[str, str]] = frozenset()
_MISSING = object()
_drivers: dict[str, Driver | None] = {}


def driver(grammar: str, build: Callable[[], Lark]) -> Driver | None:
    """The loop's tables for a grammar (`build` makes its Lark parser): from the cache, or from
    the parser; None when the parser is of a kind not driven here (then Lark parses alone)."""
    found = _drivers.get(grammar, _MISSING)
    if found is _MISSING:
        found = _drivers[grammar] = _load(grammar, build)
    return found


def forget() -> None:
    """Drop the tables made so far (see games.forget_loaded_data)."""
    _drivers.clear()


def _load(grammar: str, build: Callable[[], Lark]) -> Driver | None:
    entry = _cache_entry(grammar)
    if entry is not None:
        data = cache.read(*entry, _CACHED_CLASSES)
        if isinstance(data, dict):
            try:
                return Driver.from_data(data)
            except (KeyError, TypeError):
                pass
    try:
        made = Driver.of(build())
    except (AttributeError, KeyError, TypeError):
        return None
    data = made.data()
    if entry is not None and data is not None:
        cache.write(*entry, data)
        path = entry[0]
        made_by = path.name.split("-")[1]  # tables made by other code (or another Python) are never read again
        cache.sweep(path.parent, path.name, lambda name: name.startswith("parse-") and name.endswith(".pickle") and not name.startswith(f"parse-{made_by}-"))
    return made


def _cache_entry(grammar: str) -> tuple[Path, str] | None:
    """Where the tables of a grammar are kept, and their key: the grammar, Lark's version (its
    `__init__.py`, which names it, read without importing Lark) and this module's code."""
    from importlib.util import find_spec

    directory = cache.cache_dir()
    if directory is None:
        return None
    try:
        lark_init = find_spec("lark")
        if lark_init is None or lark_init.origin is None:
            return None
        code = Path(__file__).read_bytes() + Path(lark_init.origin).read_bytes()
    except (OSError, ImportError, ValueError):
        return None
    made_by = cache.sha256(repr(sys.version_info[:2]).encode("utf-8") + code).hexdigest()[:8]
    digest = cache.sha256(repr(sys.version_info[:2]).encode("utf-8") + code + grammar.encode("utf-8")).hexdigest()
    return directory / f"parse-{made_by}-{digest[:24]}.pickle", digest


class Unreadable(Exception):
    """A syntax error in the text; `error` is Lark's own exception (an UnexpectedInput),
    with its position and expected terminals."""

    def __init__(self, error: Exception):
        super().__init__(error)
        self.error = error


def parse(text: str, grammar: str, build: Callable[[], Lark]) -> Tree:
    """What `build().parse(text)` returns, in the classes of syntax.py, only sooner; at a
    syntax error, `Unreadable` with the exception Lark's parse raises."""
    found = driver(grammar, build)
    if found is not None:
        try:
            return found.parse(text)
        except _Refused:
            pass
    from lark.exceptions import UnexpectedInput  # a syntax error (or a parser not driven here): Lark's own parse

    try:
        return from_lark(build().parse(text))
    except UnexpectedInput as exc:
        raise Unreadable(exc) from None
