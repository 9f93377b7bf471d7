"""Game records: text in the notation -> header, moves, checkpoints, result.

A record is parsed in two steps. The `[Game "..."]` tag is found first, which
selects the game; then the whole text is parsed with `grammar/common.lark`
followed by that game's grammar (Lark, LALR). The shared grammar owns the
header, move numbers, checkpoints and the result line; the game grammar owns
the rule `move`, which the game module turns into its own move objects.
Every object keeps its line and column so that diagnostics can point at it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lark import Token, Tree

from referee.errors import Pos, RecordError, SpecError, edge_token
from referee.i18n import N_, Message
from referee.notation.keywords import Keywords, keyword_rules
from referee.notation.names import Names, spelling
from referee.spec.loader import grammar_root, looks_like_path, read_spec_text
from referee.terminal import odd_letters, visible

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

# A record is a few kilobytes (the longest random game is 13 KB). The limit keeps the
# worst case, a file packed with the shortest tokens, well within two seconds.
MAX_RECORD_BYTES = 128 * 1024
MAX_LINE_CHARS = 10_000
MAX_NUMBER_DIGITS = 9  # no count, score or move number in a game comes near a billion


def unknown_name(what: str, token: Token, known: Iterable[str], spellings: dict[str, str] | None = None) -> RecordError:
    """A name the record uses that the game does not have, with the nearest names it accepts.

    A typing slip is the usual cause, so the closest accepted spellings (`spellings` maps each
    to what it names) are offered first, one per thing named; the full list follows.
    """
    import difflib

    known = list(known)
    spellings = spellings or {k: k for k in known}
    one, many = _CATEGORIES.get(what) or (what, f"{what}es" if what.endswith(("s", "x", "ch", "sh")) else f"{what}s")
    name, odd = repr(str(token)), odd_letters(str(token))
    candidates = spellings.ambiguous(spelling(str(token))) if isinstance(spellings, Names) else []
    if candidates:
        return RecordError(
            Message(
                "{name}{odd} may name {n} {things}: {candidates}; write it with its accents",
                name=name,
                odd=odd,
                n=len(candidates),
                things=Message(many),
                candidates=", ".join(repr(c) for c in candidates),
            ),
            Pos.of(token),
        )
    close = difflib.get_close_matches(spelling(str(token)), list(spellings), n=6, cutoff=0.7)
    offered: list[str] = []
    for written in close:  # best first; one spelling per thing named
        if all(spellings[o] != spellings[written] for o in offered):
            offered.append(written)
    offered = [repr(c) for c in offered[:2]]
    if len(offered) == 2:
        hint = Message(" (did you mean {first} or {second}?)", first=offered[0], second=offered[1])
    else:
        hint = Message(" (did you mean {first}?)", first=offered[0]) if offered else ""
    return RecordError(Message("unknown {thing} {name}{odd}{hint}; {things}: {known}", thing=Message(one), name=name, odd=odd, hint=hint, things=Message(many), known=", ".join(known)), Pos.of(token))


# The kinds of name a record writes, as messages call one and many of them.
_CATEGORIES = {
    "card": (N_("card"), N_("cards")),
    "good": (N_("good"), N_("goods")),
    "structure": (N_("structure"), N_("structures")),
    "district": (N_("district"), N_("districts")),
    "church": (N_("church"), N_("churches")),
    "house": (N_("house"), N_("houses")),
    "office": (N_("office"), N_("offices")),
    "parish": (N_("parish"), N_("parishes")),
    "production": (N_("production"), N_("productions")),
    "side": (N_("side"), N_("sides")),
    "space": (N_("space"), N_("spaces")),
    "token": (N_("token"), N_("tokens")),
    "material": (N_("material"), N_("materials")),
}


def word_token(word: str, pos: Pos) -> Token:
    """A word read earlier, as a token at its place, for `unknown_name` to point at."""
    return Token("WORD", word, line=pos.line, column=pos.column, end_line=pos.line, end_column=pos.end_column)


@dataclass(kw_only=True)
class Move:
    """Base of every game's move classes: where the move stands in the record."""

    pos: Pos | None = field(default=None, compare=False)
    number: int | None = field(default=None, compare=False)


@dataclass
class Tag:
    """A header tag: its name, its value (trimmed) and where both are written."""

    name: str
    value: str
    pos: Pos
    value_pos: Pos | None = None  # where the value's text starts, just inside the quotes
    text: str = ""  # the value as written between the quotes (escapes read), before trimming

    def pos_in_value(self, offset: int, length: int) -> Pos:
        """The place of `length` characters at `offset` in `text`, for a diagnostic that
        points inside the value (an escape before it makes the column approximate)."""
        if self.value_pos is None:
            return self.pos
        column = self.value_pos.column + offset
        return Pos(self.value_pos.line, column, column + max(1, length))


@dataclass
class Header:
    """The record's tags, by their name in lower case."""

    tags: dict[str, Tag] = field(default_factory=dict)

    def get(self, name: str, default: str | None = None) -> str | None:
        tag = self.tags.get(name.lower())
        return tag.value if tag else default

    def pos(self, name: str) -> Pos | None:
        tag = self.tags.get(name.lower())
        return tag.pos if tag else None


@dataclass
class Figure:
    """One figure of a checkpoint line: its name and the value the record states."""

    key: str
    value: Any  # int, list of words, or None (a bare word)
    pos: Pos
    where: list[Pos] = field(default_factory=list)  # of each word of a list of words


@dataclass
class Checkpoint:
    """A checkpoint line: figures of one player that the replay compares with its own."""

    player: str
    figures: list[Figure]
    pos: Pos


@dataclass
class Result:
    """The result line: each colour's final score as the record states it."""

    scores: list[tuple[str, int, Pos]]
    pos: Pos


@dataclass
class Ruling:
    """What the table decided about the move on the line before: `accept` (the move stands,
    though it breaks a rule) or `void` (the move was taken back), with the table's own words."""

    verdict: str  # accept | void
    text: str | None
    pos: Pos


@dataclass(eq=False)  # a record is never compared with another
class Record:
    """A record as read: its header and its entries (moves, checkpoints, rulings, the result) in order."""

    name: str  # the file name as the user gave it
    text: str
    header: Header
    entries: list  # Move | Checkpoint | Result | Ruling, in order
    unreadable: list = field(default_factory=list)  # lines not read, when read with keep_going

    @functools.cached_property
    def lines(self) -> list[str]:
        """Split once: every diagnostic quotes a line, and a record may have thousands of each."""
        return self.text.split("\n")

    def line(self, number: int) -> str:
        lines = self.lines
        return lines[number - 1] if 0 < number <= len(lines) else ""


# --- writing a header ------------------------------------------------------------


def tag_line(name: str, value: str) -> str:
    """A header tag as a record writes it; a backslash or quote in the value is escaped."""
    escaped = visible(value.replace("\\", "\\\\").replace('"', '\\"'))  # a line break stays on the tag's line
    return f'[{name} "{escaped}"]'


def header_lines(game: str, players: str, start: str, date: str, event: str | None = None, variants: Iterable[str] = ()) -> list[str]:
    """The header of a new record (`referee play`, `referee record`): game, players in seat
    order, start player, date, event and variants. A record names variants by name only, so
    an overlay file of one's own is noted in a comment: `check` needs it given again."""
    variants = list(variants)
    lines = [tag_line("Game", game), tag_line("Players", players), tag_line("Start", start), tag_line("Date", date)]
    if event is not None:
        lines.append(tag_line("Event", event))
    named = [v for v in variants if not looks_like_path(v)]
    if named:
        lines.append(tag_line("Variant", ", ".join(named)))
    # a file name may hold any character, a line break too: shown escaped, it stays one comment
    return lines + [visible(f"# variant file {v}: check this record with --variant {v}") for v in variants if looks_like_path(v)]


# --- reading -------------------------------------------------------------------


def _tag_pattern(name: str) -> re.Pattern:
    # Blanks, not \s: \s also matches line breaks, and `^\s*` at the start of every line of a
    # long run of blank lines makes the search take time quadratic in the run's length.
    return re.compile(r"^[ \t\f]*\[[ \t\f]*" + name + r'[ \t\f]+"([^"\n]*)"[ \t\f]*\]', re.IGNORECASE | re.MULTILINE)


GAME_TAG = _tag_pattern("Game")
VARIANT_TAG = _tag_pattern("Variant")


def decode(data: bytes) -> str:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(Message("the record is longer than {n} bytes, the most a record may hold", n=MAX_RECORD_BYTES))
    if b"\x00" in data:
        offset = data.index(b"\x00")
        raise RecordError(Message("binary data: a NUL byte in the record"), _pos_of_offset(data, offset))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(Message("not UTF-8 text: byte {byte} cannot be decoded", byte="0x" + format(data[exc.start], "02x")), _pos_of_offset(data, exc.start)) from None
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)  # an accent typed as a combining mark is one letter
    for i, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            raise RecordError(Message("line is {n} characters long; the limit is {limit}", n=len(line), limit=MAX_LINE_CHARS), Pos(i, MAX_LINE_CHARS + 1))
    return text


def _pos_of_offset(data: bytes, offset: int) -> Pos:
    before = data[:offset]
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    return Pos(line, column)


def game_of(text: str) -> tuple[str, Pos] | None:
    """The game a record names in its header, found before the full parse."""
    match = GAME_TAG.search(text)
    if not match:
        return None
    line = text.count("\n", 0, match.start(1)) + 1
    column = match.start(1) - (text.rfind("\n", 0, match.start(1)) + 1) + 1
    return match.group(1).strip().lower(), Pos(line, column)


def grammar_of(game: str, root: str | None = None, keywords: Keywords = ()) -> str:
    """The grammar of a game's records: the shared grammar, the game's own, and the rules
    that add the spec's other spellings of the game's keywords."""
    return _grammar(game, root, keywords)[0]


@functools.cache
def _grammar(game: str, root: str | None, keywords: Keywords) -> tuple[str, frozenset[str], Path, bool]:
    """The grammar, the words only the spec adds to it, the game's grammar file (blamed when
    the grammar does not build) and whether the spec added rules to it.

    A grammar folder may come from anyone (REFEREE_DATA): its files are read as regular files
    of bounded size, and a missing or empty game grammar is a SpecError here, where both the
    Lark parser gets its grammar."""
    base = Path(root) if root else grammar_root()
    common = read_spec_text(base / "common.lark")  # a regular UTF-8 file of bounded size
    own_path = base / f"{game}.lark"
    own = read_spec_text(own_path)
    if not own.strip():
        raise SpecError(own_path, "", Message("the grammar is empty: it must define the rule `move` of {game}'s records", game=game))
    grammar = common + "\n" + own
    extension, added = keyword_rules(grammar, keywords)
    return grammar + extension, added, own_path, bool(extension)


@functools.cache
def parser_for(game: str, root: str | None = None, keywords: Keywords = ()) -> Lark:
    """The LALR parser of a game's records, built once per process.

    Building the LALR tables takes longer than checking a whole record, so
    Lark keeps them in a cache file named by the grammar's hash: a changed
    grammar gets a new file, and an unusable cache is simply rebuilt.
    `keywords` adds the spec's other spellings of the game's keyword rules.
    """
    from lark import Lark
    from lark.exceptions import GrammarError, LarkError

    grammar, added, own_path, extended = _grammar(game, root, keywords)
    try:
        parser = Lark(grammar, parser="lalr", maybe_placeholders=False, cache=_grammar_cache_file(game, grammar))
    except GrammarError as exc:
        if not extended:  # the grammar files alone do not build
            raise SpecError(own_path, "", Message(_UNBUILT, file=own_path.name, problem=" ".join(str(exc).split())[:300]), 1, 1) from None
        raise SpecError(game, "names", Message("the names the spec gives to the record's keywords clash: {problem}", problem=str(exc))) from None
    except (LarkError, RecursionError, ValueError, KeyError, AssertionError) as exc:
        message = " ".join(str(exc).split())[:300] or type(exc).__name__
        raise SpecError(own_path, "", Message(_UNBUILT, file=own_path.name, problem=message), 1, 1) from None
    parser.spec_spellings = added  # words that only the spec adds: kept out of "expected ..." lists
    return parser


def forget_grammars() -> None:
    """Drop the grammars and parsers built so far (see games.forget_loaded_data)."""
    parser_for.cache_clear()
    _grammar.cache_clear()


def _grammar_cache_file(game: str, grammar: str) -> str | bool:
    """A cache file in the user's private cache folder (cache.py), or False for no cache:
    Lark unpickles the cache, so it is never kept where others may write."""
    from hashlib import sha256

    from referee._cache import cache_dir

    directory = cache_dir()
    if directory is None:
        return False
    digest = sha256(grammar.encode("utf-8")).hexdigest()[:20]
    name = f"grammar-{game}-{digest}.lark"
    if not (directory / name).exists():  # a new grammar: the files of the old ones go
        from referee._cache import sweep

        # and the parse tables of an older referee, which read records with a loop of its own
        sweep(directory, name, lambda other: (other.startswith(f"grammar-{game}-") and other.endswith(".lark")) or (other.startswith("parse-") and other.endswith(".pickle")))
    return str(directory / name)


_UNBUILT = N_("the grammar (common.lark, then {file}) cannot be built: {problem}")

# With `problems` (check --keep-going), at most this many unreadable lines are reported.
MAX_SKIPPED_LINES = 100


def parse(text: str, name: str, game: str, build_move: Callable[[Tree], Move], problems: list[RecordError] | None = None, keywords: Keywords = ()) -> Record:
    """Parse a record; `build_move` turns a `move` subtree into the game's Move, and
    `keywords` gives the spec's spellings of the game's keywords (`Game.keywords`).

    Without `problems` the first unreadable line raises RecordError. With a list, every
    unreadable line (a syntax error, an unknown name, a tag given twice) is added to it
    and skipped, and the record holds the rest: `check --keep-going` reports them all.
    """
    if not text.strip():
        raise RecordError(Message("empty record: it needs at least a [Game] tag"))
    if problems is None:
        trees = [_parse_text(game, text, keywords)]
        if _LONG_NUMBER.search(text):  # the parse tree is searched only when the text has one
            _check_numbers(trees[0])
    else:
        trees = _parse_lines(game, text.split("\n"), 0, len(text.split("\n")), problems, keywords)

    header = Header()
    entries: list = []
    record = Record(name, text, header, entries)
    for tree in trees:
        for part in tree.children:
            for child in part.children:
                try:
                    if problems is not None:
                        _check_numbers(child)
                    if part.data == "header":
                        _add_tag(header, child, bool(entries))
                    elif part.data == "body":
                        entries.append(_entry(child, build_move, _line_pos(child, record.lines)))
                except RecordError as exc:
                    if problems is None:
                        raise
                    problems.append(exc)
    if problems is not None:
        problems.sort(key=lambda p: (p.pos.line, p.pos.column) if p.pos else (0, 0))
    return record


def _parse_text(game: str, text: str, keywords: Keywords = ()) -> Tree:
    from lark.exceptions import UnexpectedInput

    root = str(grammar_root())  # per data root: REFEREE_DATA may change
    parser = parser_for(game, root, keywords)
    try:
        return parser.parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, parser.spec_spellings) from None
    except RecursionError:
        raise RecordError(Message("record nested too deeply to read")) from None


def _parse_lines(game: str, lines: list[str], start: int, end: int, problems: list[RecordError], keywords: Keywords = ()) -> list[Tree]:
    """The parse trees of lines[start:end], each unreadable line reported and left out.

    Every entry of the notation fills one line, so a syntax error belongs to the line it is
    found on: the lines before it are read as one piece, the lines after it as the next. The
    blank lines put in front keep every line's number.
    """
    trees: list[Tree] = []
    while start < end and len(problems) < MAX_SKIPPED_LINES:
        piece = "\n" * start + "\n".join(lines[start:end])
        if not piece.strip():
            break
        try:
            trees.append(_parse_text(game, piece, keywords))
            break
        except RecordError as exc:
            bad = exc.pos.line - 1 if exc.pos else end - 1  # the unreadable line, counted from 0
            if not start <= bad < end:  # a reading error outside the piece cannot be split off
                problems.append(exc)
                break
            problems.append(exc)
            if bad > start:
                trees.extend(_parse_lines(game, lines, start, bad, problems, keywords))
            start = bad + 1
    if start < end and len(problems) >= MAX_SKIPPED_LINES and not any(p.message.startswith("more than") for p in problems):
        problems.append(RecordError(Message("more than {n} unreadable lines; the rest of the record is not read", n=MAX_SKIPPED_LINES), Pos(start + 1, 1)))
    return trees


def _add_tag(header: Header, tag: Tree, after_moves: bool) -> None:
    name_tok, value_tok = tag.children
    if after_moves:
        raise RecordError(Message("tag [{tag}] after the moves; the header comes first", tag=str(name_tok)), Pos.of(name_tok))
    value = _unescape(value_tok[1:-1])
    key = str(name_tok).lower()
    if key in header.tags:
        raise RecordError(Message("tag [{tag}] appears twice", tag=str(name_tok)), Pos.of(name_tok))
    inside = Pos(value_tok.line, value_tok.column + 1)
    header.tags[key] = Tag(str(name_tok), value.strip(), Pos.of(name_tok), inside, value)


_NUMBER = re.compile(r"[+-]?([0-9]+)\.?")
_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_NUMBER_DIGITS + 1}}}")


def _check_numbers(tree: Tree) -> None:
    """Refuse overlong numbers before anything converts them: Python will not read an int of
    more than 4300 digits, and no figure of a game needs more than a few."""
    for token in tree.scan_values(lambda v: isinstance(v, Token) and len(v) > MAX_NUMBER_DIGITS):
        match = _NUMBER.fullmatch(token)
        if match and len(match.group(1)) > MAX_NUMBER_DIGITS:
            raise RecordError(Message("a number of {n} digits; numbers in a record have at most {most}", n=len(match.group(1)), most=MAX_NUMBER_DIGITS), Pos.of(token))


_ESCAPE = re.compile(r"\\(.)")


def _unescape(value: str) -> str:
    """A tag value as written, with PGN's escapes: a backslash takes the next character as it is."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


def _line_pos(entry: Tree, lines: list[str]) -> Pos:
    """An entry fills its line: it starts at the line's first character that is not a blank
    (a keyword such as `check` leaves no token in the tree) and ends with its last token."""
    first = edge_token(entry, last=False)
    last = edge_token(entry, last=True)
    if first is None:
        return Pos(1, 1)
    line = lines[first.line - 1] if first.line <= len(lines) else ""
    column = len(line) - len(line.lstrip(" \t\f\r")) + 1
    return Pos(first.line, column, last.end_column if last.end_line == first.line else None)


def _entry(entry: Tree, build_move: Callable[[Tree], Move], pos: Pos):
    if entry.data == "entry":
        entry = entry.children[0]
    if entry.data == "numbered_move":
        number = None
        children = entry.children
        if isinstance(children[0], Token) and children[0].type == "MOVE_NUMBER":
            number = int(children[0][:-1])
            children = children[1:]
        move = build_move(children[0])
        move.pos = pos
        move.number = number
        return move
    if entry.data == "checkpoint":
        player, *figures = entry.children
        if isinstance(player, Token) and player.type == "WORD":
            figs = []
            for fig in figures:
                key, *rest = fig.children
                value, where = None, []
                if rest:
                    v = rest[0]
                    value = int(v.children[0]) if v.data == "number" else [str(w).lower() for w in v.children]
                    where = [] if v.data == "number" else [Pos.of(w) for w in v.children]
                figs.append(Figure(str(key).lower(), value, Pos.of(key), where))
            return Checkpoint(str(player).lower(), figs, pos)
    if entry.data == "ruling":
        verdict, *text = entry.children
        words = str(text[0])[1:].strip() if text else ""
        return Ruling(str(verdict), words or None, pos)
    if entry.data == "result":
        scores = [(str(s.children[0]).lower(), int(s.children[1]), Pos.of(s)) for s in entry.children]
        return Result(scores, pos)
    raise RecordError(Message("cannot read this line ({kind})", kind=str(entry.data)), pos)


def _expected_names(expected, hidden: frozenset[str] = frozenset()) -> list[str]:
    """What the grammar would have accepted, in words: keywords as written, terminals by kind.
    `hidden` keywords (the spec's other spellings of a keyword) are left out."""
    names = []
    for term in sorted(expected or ()):
        if term.lower() in hidden:
            continue
        if term.startswith("_NL"):
            names.append(Message("end of line"))
        elif term == "WORD":
            names.append(Message("a word"))
        elif term in ("INT", "SIGNED_INT"):
            names.append(Message("a number"))
        elif term == "MOVE_NUMBER":
            continue
        elif term == "STRING":
            names.append(Message('a "quoted value"'))
        elif term == "TAG_NAME":
            names.append(Message("a tag name"))
        elif term.startswith("__ANON") or term.isupper():
            names.append(_TERMINAL_NAMES.get(term, term.lower()))
        else:
            names.append(repr(term))
    return sorted(set(names))


def _describe_expected(names: list[str]) -> list[str]:
    """What was expected, at most twelve of them, for a message to list (joined with commas)."""
    if len(names) > 12:
        names = names[:12] + ["..."]
    return names


_TERMINAL_NAMES = {
    "COLON": "':'",
    "COMMA": "','",
    "LSQB": "'['",
    "RSQB": "']'",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "AT": "'@'",
    "SLASH": "'/'",
    "LPAR": "'('",
    "RPAR": "')'",
    "DOT": "'.'",
    "EQUAL": "'='",
}


def _syntax_error(exc: UnexpectedInput, text: str, hidden: frozenset[str] = frozenset()) -> RecordError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken  # only a syntax error is told in words

    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    end = None
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.rstrip("\n").split("\n")
        line = len(lines)
        column = len(lines[-1]) + 1
        return RecordError(Message("the record ends in the middle of a line"), Pos(line, column))
    got: str
    names = _expected_names(getattr(exc, "expected", None) or getattr(exc, "allowed", None), hidden)
    expected = _describe_expected(names)
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char if exc.char.isprintable() else repr(exc.char)
        got = Message("unexpected character {char}{odd}", char=repr(char) if exc.char.isprintable() else char, odd=odd_letters(exc.char) if exc.char.isprintable() else "")
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "_NL":
            got = Message("unexpected end of line{hint}", hint=_did_you_mean(str(tok), names))
        else:
            got = Message("unexpected {word}{hint}", word=repr(str(tok)), hint=_did_you_mean(str(tok), names))
        if tok.type != "_NL" and tok.end_line == tok.line:
            end = tok.end_column
    else:
        got = Message("cannot read this")
    message = Message("{got}; expected {expected}", got=got, expected=expected) if expected else got
    return RecordError(message, Pos(line, column, end))


def _did_you_mean(word: str, names: list[str]) -> str:
    """A keyword the grammar expected that the word is a slip of, such as `biuld` for `build`."""
    import difflib

    keywords = [n for n in names if n.replace("-", "").isalpha()]
    if len(names) < 2:
        return ""  # "expected build" already says it
    close = difflib.get_close_matches(word.lower(), keywords, n=1, cutoff=0.7)
    return Message(" (did you mean {first}?)", first=repr(close[0])) if close else ""
