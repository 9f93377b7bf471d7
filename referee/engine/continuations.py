"""What may follow the text typed so far: completion from the legal next moves of one position.

`referee record` completes a line word by word. The legal next moves (`Game.move_hints`,
written as a record writes them) are put into a tree of words, built once per position;
the words typed so far are walked down the tree, and the next words of every branch still
open are offered. Where few moves remain, the whole rest of each is offered too, so a
position with thousands of moves (Canterbury's builds) offers a handful of words at each
step rather than every move.

Where listing every move of a position would be slow, the tree grows as it is walked
instead: a branch asks the game for its next words (`Game.next_words`) the first time it
is looked at, so a word typed costs a question or two rather than the whole list. The
moves below are then counted only where they are few (`WHOLE_MOVES`) and counting them
asks few questions (`QUESTIONS` for a completion, `KEY_QUESTIONS` more at each key for
the status bar, which so counts more as more is asked); otherwise the count is told as
"more than", and a word offered gets its space only where it is known to lead on. What a
completion offers depends on the text alone, never on what was asked before.

A typed word matches a word of the tree when it is the same word, or another spelling the
specs give for the same thing (a German or Hungarian name, an alias): completion offers
those spellings as well. A chance outcome that the table reports is a placeholder in the
hints (`<value 1-5>`, `<2/3/4 goods>`, `<3 cubes from the bag>`); a number range is filled
with its numbers and a list of goods with the words the game offers for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from referee.i18n import Message
from referee.notation.names import folded, folded_forms
from referee.spec.loader import Spec

TOKEN = re.compile(r"<[^>]*>|\S+")
MOVE_NUMBER = re.compile(r"[0-9]+\.")
RANGE = re.compile(r"<[^>]*?([0-9]+)-([0-9]+)>")
COUNTS = re.compile(r"<([0-9]+(?:/[0-9]+)*)\s+([^>]*)>")
PUNCTUATION = ",:"
WHOLE_MOVES = 12  # at most this many moves left: offer each whole, besides the next words
QUESTIONS = 8  # a tree that grows as walked asks for at most this many branches to count moves
KEY_QUESTIONS = 2  # and, to say how many moves a line may still become as it is typed, this many
COMMANDS = ("undo", "show", "moves", "help", "quit")


def moves_meta(count: int) -> str:
    """How many legal moves a word leads to, beside it in a completion menu: a `Message`, equal
    to its English (what a program compares), shown in the language in use."""
    return Message("{n} moves", n=count) if count > 1 else Message("1 move")


@dataclass
class Choice:
    """One completion: `text` replaces the last `replace` characters typed."""

    text: str
    replace: int
    display: str
    meta: str = ""


@dataclass
class Node:
    """A node of the tree of words that the listed moves are written with."""

    children: dict[str, Node] = field(default_factory=dict)
    end: bool = False  # a move ends here
    count: int = 0  # moves that pass through here


NextWords = Callable[[list[str]], list[str]]  # the words of a move so far -> the words that may follow ("" ends it)


class Branch:
    """A node of a tree that grows as it is walked: its next words are asked for
    (`next_words`, with the words that lead here) the first time they are looked at.

    A placeholder that holds spaces (`<3 cubes from the bag>`) comes from `next_words` one
    piece at a time; it is put together into one word of the tree, as in a tree built from
    the whole list. `count`, the moves below, is known once every branch below is known.
    """

    __slots__ = ("_ask", "_path", "_children", "_end", "count", "asked")

    def __init__(self, ask: NextWords, path: tuple[str, ...] = ()):
        self._ask = ask
        self._path = path
        self._children: dict[str, Branch] | None = None
        self._end = False
        self.count: int | None = None
        self.asked = 0  # the branches counting `count` asked for, this one among them

    @property
    def grown(self) -> bool:
        return self._children is not None

    @property
    def children(self) -> dict[str, Branch]:
        if self._children is None:
            self._grow()
        return self._children  # type: ignore[return-value]

    @property
    def end(self) -> bool:
        if self._children is None:
            self._grow()
        return self._end

    def _grow(self) -> None:
        children: dict[str, Branch] = {}
        for word in self._ask(list(self._path)):
            if not word:
                self._end = True
            elif word.startswith("<") and not word.endswith(">"):
                for token, pieces in self._placeholders((word,)):
                    children.setdefault(token, Branch(self._ask, self._path + pieces))
            else:
                children.setdefault(word, Branch(self._ask, self._path + (word,)))
        self._children = children

    def _placeholders(self, pieces: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
        """The whole placeholders that start with `pieces`, each with the pieces it is made of."""
        out = []
        for word in self._ask(list(self._path + pieces)):
            if word.endswith(">"):
                out.append((" ".join(pieces + (word,)), pieces + (word,)))
            elif word:
                out += self._placeholders(pieces + (word,))
        return out


@dataclass(frozen=True)
class MoreThan:
    """A count of moves not worked out in full: there are more than `moves` (None: the
    count would take more questions to the game than a completion asks)."""

    moves: int | None


OVER = -1  # a count found to be over its limit


def spelling(text: str) -> str:
    """A name as a record writes it: lower case, words joined by hyphens, no dots."""
    return "-".join(str(text).lower().replace(".", " ").split())


def spec_spellings(spec: Spec, is_word: Callable[[str], bool] = lambda text: True) -> dict[str, set[str]]:
    """Every spelling the specs give a thing (names in each language, aliases, a cube's
    colour) that the notation reads as one word (`is_word`) -> the ids it may stand for.
    Completion offers a spelling only where one of its ids may come next."""
    out: dict[str, set[str]] = {}

    def add(word, target) -> None:
        if isinstance(word, str) and isinstance(target, str) and spelling(word) and is_word(spelling(word)):
            out.setdefault(spelling(word), set()).add(target)

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, dict) and isinstance(value.get("names"), dict):
                    for name in value["names"].values():
                        add(name, key)
                    for alias in value.get("aliases") or ():
                        add(alias, key)
                    add(value.get("colour"), key)
                if key == "aliases" and isinstance(value, dict):
                    for alias, target in value.items():
                        add(alias, target)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for stem, data in spec.files.items():
        if stem != "rules" and not stem.startswith("rules."):
            walk(data)
    return out


def _starts(word: str, typed: str) -> bool:
    """Whether a spelling begins with what is typed, with or without accents (kav: kávé)."""
    return word.startswith(typed) or any(form.startswith(folded(typed)) for form in folded_forms(word))


def _split(word: str) -> tuple[str, str]:
    """A word and the punctuation written on to it (`red:` -> `red`, `:`)."""
    base = word.rstrip(PUNCTUATION)
    return base, word[len(base) :]


class Continuations:
    """The legal next moves of one position as a tree of words, and what may follow a text.

    The tree is built from `hints`, every legal move, or, given `next_words` (the words that
    may follow the words of a move so far, as `Game.next_words` answers), grows as it is
    walked. `fill(placeholder)` gives the words a placeholder that lists things may be filled
    with (the goods a contract shows, the cubes drawn onto a ship); `checkpoints` maps each
    colour to the figures a `check` line may state for it (and `filled` to the referee's own
    values of the first of them, offered whole for the table to confirm); `players` are the
    seated players' names, which a line may begin with instead of the colour.
    """

    def __init__(
        self,
        hints: Iterable[str],
        spellings: dict[str, set[str]] | None = None,
        fill: Callable[[str], list[str]] | None = None,
        checkpoints: dict[str, list[str]] | None = None,
        commands: Iterable[str] = COMMANDS,
        next_words: NextWords | None = None,
        players: Iterable[str] = (),
        filled: dict[str, str] | None = None,
    ):
        self.filled = filled or {}  # each owner's figures as the referee has them, for `check X: `
        self.players = tuple(players)  # the seated players' names, which stand for their colours
        self.grows = next_words is not None
        self.root: Node | Branch = Branch(next_words) if next_words is not None else Node()
        self.spellings = spellings or {}
        self.fill = fill or (lambda placeholder: [])
        self.checkpoints = checkpoints or {}
        self.commands = tuple(commands)
        self._fillers: dict[str, list[str]] = {}
        self._by_id: dict[str, list[str]] = {}
        for word, ids in self.spellings.items():
            for target in ids:
                self._by_id.setdefault(target, []).append(word)
        for words in self._by_id.values():
            words.sort()
        self._folded: dict[str, set[str]] = {}  # a spelling typed without its accents -> ids
        for word, ids in self.spellings.items():
            for form in folded_forms(word):
                self._folded.setdefault(form, set()).update(ids)
        for hint in hints if not self.grows else ():
            node = self.root
            node.count += 1
            for word in TOKEN.findall(hint):
                node = node.children.setdefault(word, Node())
                node.count += 1
            node.end = True

    # --- walking the typed words down the tree, and counting the moves below ---

    def _moves(self, nodes: list, limit: int = WHOLE_MOVES, budget: int = QUESTIONS, afresh: bool = True) -> int | None:
        """How many moves pass through `nodes`: exact where the tree was built from every
        move; where it grows as walked, exact while at most `limit` and countable asking for
        at most `budget` branches (see `_count_all` for `afresh`), else `OVER` (more than
        `limit`) or None (not counted)."""
        if not self.grows:
            return sum(node.count for node in nodes)
        return _count_all(nodes, limit, budget, afresh)[0]

    def _fillers_of(self, placeholder: str) -> list[str]:
        if placeholder not in self._fillers:
            self._fillers[placeholder] = list(self.fill(placeholder))
        return self._fillers[placeholder]

    def _same(self, typed: str, word: str) -> bool:
        if typed.lower() == word.lower():
            return True
        base, mark = _split(typed)
        wbase, wmark = _split(word)
        return mark == wmark and (wbase in self.spellings.get(spelling(base), ()) or wbase in self._folded.get(folded(base), ()))

    def _fits(self, typed: str, placeholder: str) -> bool:
        """Whether a typed word may stand for a placeholder that takes one word."""
        bounds = RANGE.fullmatch(placeholder)
        if bounds:
            return typed.isdigit() and int(bounds.group(1)) <= int(typed) <= int(bounds.group(2))
        return True

    def _is_filler(self, typed: str, placeholder: str) -> bool:
        key = spelling(typed)
        return any(key == w or key in self._spelled(w) or w in self._folded.get(folded(key), ()) for w in self._fillers_of(placeholder))

    def _spelled(self, word: str) -> list[str]:
        """The other spellings of a word of the tree."""
        return self._by_id.get(word, [])

    def _walk(self, words: list[str]) -> list[tuple[Node, str | None, int]]:
        """Where the typed words lead: (node, the list placeholder being filled, words in it)."""
        states: list[tuple[Node, str | None, int]] = [(self.root, None, 0)]
        for typed in words:
            following: list[tuple[Node, str | None, int]] = []
            for node, filling, used in states:
                if filling is not None and used < max(_counts(filling)) and self._is_filler(typed, filling):
                    following.append((node, filling, used + 1))
                    continue
                for word, child in node.children.items():
                    if word.startswith("<"):
                        if COUNTS.fullmatch(word):
                            if self._is_filler(typed, word):
                                following.append((child, word, 1))
                        elif self._fits(typed, word):
                            following.append((child, None, 0))
                    elif self._same(typed, word):
                        following.append((child, None, 0))
            states = following
            if not states:
                break
        return states

    # --- what may come next ---

    def open_moves(self, text: str, budget: int = KEY_QUESTIONS) -> int | MoreThan | None:
        """How many legal moves the text so far may still become (None for a command or a
        `check` line, which this tree does not hold). Where the tree grows as walked, a
        count over `WHOLE_MOVES`, or one that asks for more than `budget` branches not
        counted before, is a `MoreThan`: the count appears as the branches below are asked
        for (by a completion, say)."""
        words = TOKEN.findall(text)
        if words and MOVE_NUMBER.fullmatch(words[0]):
            words = words[1:]
        if not words:
            return self._tally([self.root], 0, budget)
        if words[0].lower() in ("check",) or (len(words) == 1 and any(c.startswith(words[0].lower()) for c in self.commands)):
            return None
        complete, partial = (words, "") if text[-1:].isspace() else (words[:-1], words[-1])
        ends, below = 0, []
        for node, filling, _ in self._walk(complete):
            if filling is not None:
                ends += 1
                continue
            for word, child in node.children.items():
                if not partial or word.lower().startswith(partial.lower()) or word.startswith("<") or self._alias_starts(partial, word):
                    below.append(child)
            if not partial and node.end:
                ends += 1
        return self._tally(below, ends, budget)

    def _tally(self, nodes: list, ends: int, budget: int) -> int | MoreThan:
        """`ends` moves and those through `nodes`, or a `MoreThan` (see `open_moves`)."""
        found = self._moves(nodes, WHOLE_MOVES - ends, budget, afresh=False) if ends <= WHOLE_MOVES or not self.grows else OVER
        if found is None:
            return MoreThan(None)
        return MoreThan(WHOLE_MOVES) if found == OVER else ends + found

    def complete(self, text: str) -> list[Choice]:
        """The completions of the last word of `text` (the text before the cursor)."""
        words = TOKEN.findall(text)
        at_word_end = not text or text[-1:].isspace()
        complete, partial = (words, "") if at_word_end else (words[:-1], words[-1])
        if complete and MOVE_NUMBER.fullmatch(complete[0]):
            complete = complete[1:]
        if complete and complete[0].lower() == "check":
            return self._checkpoint(complete, partial)
        states = self._walk(complete)
        choices: list[Choice] = []
        seen: set[str] = set()
        whole, covered, counted = self._whole_moves(states, partial)
        for choice in whole + self._next_words(states, partial, covered, counted):
            if choice.text.rstrip() not in seen:
                seen.add(choice.text.rstrip())
                choices.append(choice)
        if not complete:
            if "check".startswith(partial.lower()) and self.checkpoints:
                choices.append(Choice("check ", len(partial), "check", Message("a checkpoint line")))
            choices += [Choice(c, len(partial), c, Message("command")) for c in self.commands if partial and c.startswith(partial.lower())]
            if not choices:  # a name completes where no colour or move word starts so
                choices += [Choice(name + ": ", len(partial), name, Message("player")) for name in self.players if partial and name.lower().startswith(partial.lower())]
        return choices

    def _alias_starts(self, partial: str, word: str) -> bool:
        base, _ = _split(word)
        return any(_starts(s, spelling(partial)) for s in self._spelled(base))

    def _next_words(self, states, partial: str, covered: set[int] = frozenset(), counted: bool = True) -> list[Choice]:
        """The next words of every state (and their other spellings), each with how many
        moves it leads to where that is counted (`counted`: every move below the states is)."""
        low, key = partial.lower(), spelling(partial)
        found: list[list[Choice] | tuple] = []  # choices, or a word whose space and count are to be seen
        for node, filling, used in states:
            if filling is not None:
                if used < max(_counts(filling)):
                    found.append(self._filler_choices(filling, partial))
                continue
            for word, child in node.children.items():
                if id(child) in covered:
                    continue
                if word.startswith("<"):
                    bounds = RANGE.fullmatch(word)
                    if bounds:
                        found.append([Choice(str(n), len(partial), str(n), word) for n in range(int(bounds.group(1)), int(bounds.group(2)) + 1) if str(n).startswith(partial)])
                    elif COUNTS.fullmatch(word):
                        found.append(self._filler_choices(word, partial))
                    continue
                base, mark = _split(word)
                others = [other + mark for other in self._spelled(base) if other != base and partial and _starts(other, key)]
                if word.lower().startswith(low) or others:
                    found.append((word, child, word.lower().startswith(low), others))
        # what follows each word offered is known where every move below is counted; else
        # a tree that grows as walked asks for it only where one word is offered
        look = not self.grows or counted or sum(isinstance(item, tuple) for item in found) == 1
        out: list[Choice] = []
        for item in found:
            if isinstance(item, list):
                out += item
                continue
            word, child, own, others = item
            space = self._space(word, child, look)
            if own:
                out.append(Choice(word + space, len(partial), word, self._meta(child, counted, look)))
            out += [Choice(other + space, len(partial), other, f"= {word}") for other in others]
        return out

    @staticmethod
    def _space(word: str, child, look: bool) -> str:
        """A space after a word that leads on. Where the word's branch is not asked, a word
        that ends in punctuation (`red:`, `b1,`) leads on and another is left without one,
        so that the line never holds more than a legal move."""
        if look:
            return " " if child.children else ""
        return " " if word.endswith(tuple(PUNCTUATION)) else ""

    def _meta(self, child, counted: bool, look: bool) -> str:
        if not self.grows or (counted and child.count is not None):
            return moves_meta(child.count)
        if look and not child.children:
            return moves_meta(1)
        return ""

    def _filler_choices(self, placeholder: str, partial: str) -> list[Choice]:
        out = []
        key = spelling(partial)
        for word in self._fillers_of(placeholder):
            if word.startswith(key):
                out.append(Choice(word + " ", len(partial), word, placeholder))
            elif partial:
                for other in self._spelled(word):
                    if _starts(other, key) and other != word:
                        out.append(Choice(other + " ", len(partial), other, f"= {word}"))
        return out

    def _whole_moves(self, states, partial: str) -> tuple[list[Choice], set[int], bool]:
        """The rest of every move still open, when there are few, the nodes whose moves are
        all offered so (their next word need not be offered too), and whether the moves
        below the states are counted. A move that ends in a placeholder is left to the
        words, which fill it."""
        total = self._moves([node for node, filling, _ in states if filling is None])
        if total is None or total == OVER or total > WHOLE_MOVES:
            return [], set(), not self.grows
        out, covered = [], set()
        for node, filling, _ in states:
            if filling is not None:
                continue
            for word, child in node.children.items():
                if word.lower().startswith(partial.lower()) and not word.startswith("<"):
                    below = _moves_below(child, word)
                    out += [Choice(rest, len(partial), rest, Message("move")) for rest in below if "<" not in rest]
                    if all("<" not in rest for rest in below):
                        covered.add(id(child))
        return out, covered, True

    def _checkpoint(self, complete: list[str], partial: str) -> list[Choice]:
        """`check red: coins 5, points 12`: a colour, then the figures the game keeps."""
        if len(complete) == 1:
            return [Choice(c + ": ", len(partial), c + ":", Message("player")) for c in self.checkpoints if c.startswith(partial.lower())]
        colour = _split(complete[1])[0].lower()
        figures = self.checkpoints.get(colour, [])
        last = complete[-1]
        if len(complete) == 2 and not partial and self.filled.get(colour):
            return [Choice(self.filled[colour], 0, self.filled[colour], Message("the referee's figures"))]
        if len(complete) == 2 or last.endswith(","):
            given = {w.lower() for w in complete[2:]}
            return [Choice(f + " ", len(partial), f, Message("figure")) for f in figures if f.startswith(partial.lower()) and f not in given]
        return []


def _counts(placeholder: str) -> list[int]:
    match = COUNTS.fullmatch(placeholder)
    return [int(n) for n in match.group(1).split("/")] if match else [1]


def _count_all(nodes: list[Branch], limit: int, budget: int, afresh: bool) -> tuple[int | None, int]:
    """The moves below branches of a tree that grows as walked, if at most `limit` (`OVER`
    if more) and countable asking for at most `budget` branches (None if not), and how many
    branches the count asks for. Every branch holds a move at least, so the count stops as
    soon as the branches still to count make the limit impossible.

    `afresh`: the branches asked for are reckoned as if none had been asked before (a
    branch counted before costs what counting it cost then), so that the answer depends on
    the branches alone, never on what was typed before; only the time it takes does.
    Otherwise only the branches asked for now are reckoned."""
    total = spent = 0
    for i, node in enumerate(nodes):
        found, used = _count(node, limit - total - (len(nodes) - i - 1), budget - spent, afresh)  # each later one holds a move at least
        spent += used
        if found is None or found == OVER:
            return found, spent
        total += found
    return total, spent


def _count(node: Branch, limit: int, budget: int, afresh: bool) -> tuple[int | None, int]:
    if node.count is not None:
        if node.count > limit:
            return OVER, 0
        cost = node.asked if afresh else 0
        return (node.count, cost) if cost <= budget else (None, budget)
    if limit < 1:
        return OVER, 0
    cost = 1 if afresh or not node.grown else 0
    if cost > budget:
        return None, budget
    children = list(node.children.values())
    if int(node.end) + len(children) > limit:
        return OVER, cost
    found, spent = _count_all(children, limit - int(node.end), budget - cost, afresh)
    if found is None or found == OVER:
        return found, spent + cost
    node.count = int(node.end) + found
    node.asked = 1 + sum(child.asked for child in children)  # each branch below is counted, so asked for once
    return node.count, spent + cost


def _moves_below(node: Node, prefix: str) -> list[str]:
    out = []
    if node.end:
        out.append(prefix)
    for word, child in node.children.items():
        out.extend(_moves_below(child, f"{prefix} {word}"))
    return out
