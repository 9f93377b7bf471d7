"""What may follow the text typed so far: completion from the legal next moves of one position.

`referee record` completes a line word by word. The legal next moves (`Game.move_hints`,
written as a record writes them) are put into a tree of words, built once per position;
the words typed so far are walked down the tree, and the next words of every branch still
open are offered. Where few moves remain, the whole rest of each is offered too, so a
position with thousands of moves (Canterbury's builds) offers a handful of words at each
step rather than every move.

A typed word matches a word of the tree when it is the same word, or another spelling the
specs give for the same thing (a German or Hungarian name, an alias): completion offers
those spellings as well. A chance outcome that the table reports is a placeholder in the
hints (`<value 1-5>`, `<2/3/4 goods>`, `<3 cubes from the bag>`); a number range is filled
with its numbers and a list of goods with the words the game offers for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .spec import Spec

TOKEN = re.compile(r"<[^>]*>|\S+")
MOVE_NUMBER = re.compile(r"[0-9]+\.")
RANGE = re.compile(r"<[^>]*?([0-9]+)-([0-9]+)>")
COUNTS = re.compile(r"<([0-9]+(?:/[0-9]+)*)\s+([^>]*)>")
PUNCTUATION = ",:"
WHOLE_MOVES = 12  # at most this many moves left: offer each whole, besides the next words
COMMANDS = ("undo", "show", "moves", "help", "quit")


@dataclass
class Choice:
    """One completion: `text` replaces the last `replace` characters typed."""

    text: str
    replace: int
    display: str
    meta: str = ""


@dataclass
class Node:
    children: dict[str, "Node"] = field(default_factory=dict)
    end: bool = False  # a move ends here
    count: int = 0  # moves that pass through here


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
        if stem != "rules":
            walk(data)
    return out


def _split(word: str) -> tuple[str, str]:
    """A word and the punctuation written on to it (`red:` -> `red`, `:`)."""
    base = word.rstrip(PUNCTUATION)
    return base, word[len(base):]


class Continuations:
    """The legal next moves of one position as a tree of words, and what may follow a text.

    `fill(placeholder)` gives the words a placeholder that lists things may be filled with
    (the goods a contract shows, the cubes drawn onto a ship); `checkpoints` maps each colour
    to the figures a `check` line may state for it.
    """

    def __init__(self, hints: Iterable[str], spellings: dict[str, set[str]] | None = None,
                 fill: Callable[[str], list[str]] | None = None, checkpoints: dict[str, list[str]] | None = None,
                 commands: Iterable[str] = COMMANDS):
        self.root = Node()
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
        for hint in hints:
            node = self.root
            node.count += 1
            for word in TOKEN.findall(hint):
                node = node.children.setdefault(word, Node())
                node.count += 1
            node.end = True

    # --- walking the typed words down the tree ---

    def _fillers_of(self, placeholder: str) -> list[str]:
        if placeholder not in self._fillers:
            self._fillers[placeholder] = list(self.fill(placeholder))
        return self._fillers[placeholder]

    def _same(self, typed: str, word: str) -> bool:
        if typed.lower() == word.lower():
            return True
        base, mark = _split(typed)
        wbase, wmark = _split(word)
        return mark == wmark and wbase in self.spellings.get(spelling(base), ())

    def _fits(self, typed: str, placeholder: str) -> bool:
        """Whether a typed word may stand for a placeholder that takes one word."""
        bounds = RANGE.fullmatch(placeholder)
        if bounds:
            return typed.isdigit() and int(bounds.group(1)) <= int(typed) <= int(bounds.group(2))
        return True

    def _is_filler(self, typed: str, placeholder: str) -> bool:
        key = spelling(typed)
        return any(key == w or key in self._spelled(w) for w in self._fillers_of(placeholder))

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

    def open_moves(self, text: str) -> int | None:
        """How many legal moves the text so far may still become (None for a command or a
        `check` line, which this tree does not hold)."""
        words = TOKEN.findall(text)
        if words and MOVE_NUMBER.fullmatch(words[0]):
            words = words[1:]
        if not words:
            return self.root.count
        if words[0].lower() in ("check",) or (len(words) == 1 and any(c.startswith(words[0].lower()) for c in self.commands)):
            return None
        complete, partial = (words, "") if text[-1:].isspace() else (words[:-1], words[-1])
        total = 0
        for node, filling, _ in self._walk(complete):
            if filling is not None:
                total += 1
                continue
            for word, child in node.children.items():
                if not partial or word.lower().startswith(partial.lower()) or word.startswith("<") or self._alias_starts(partial, word):
                    total += child.count
            if not partial and node.end:
                total += 1
        return total

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
        whole, covered = self._whole_moves(states, partial)
        for choice in whole + self._next_words(states, partial, covered):
            if choice.text.rstrip() not in seen:
                seen.add(choice.text.rstrip())
                choices.append(choice)
        if not complete:
            if "check".startswith(partial.lower()) and self.checkpoints:
                choices.append(Choice("check ", len(partial), "check", "a checkpoint line"))
            choices += [Choice(c, len(partial), c, "command") for c in self.commands if partial and c.startswith(partial.lower())]
        return choices

    def _alias_starts(self, partial: str, word: str) -> bool:
        base, _ = _split(word)
        return any(s.startswith(spelling(partial)) for s in self._spelled(base))

    def _next_words(self, states, partial: str, covered: set[int] = frozenset()) -> list[Choice]:
        out: list[Choice] = []
        low = partial.lower()
        for node, filling, used in states:
            if filling is not None:
                if used < max(_counts(filling)):
                    out += self._filler_choices(filling, partial)
                continue
            for word, child in node.children.items():
                if id(child) in covered:
                    continue
                space = " " if child.children else ""
                if word.startswith("<"):
                    bounds = RANGE.fullmatch(word)
                    if bounds:
                        out += [Choice(str(n), len(partial), str(n), word) for n in range(int(bounds.group(1)), int(bounds.group(2)) + 1) if str(n).startswith(partial)]
                    elif COUNTS.fullmatch(word):
                        out += self._filler_choices(word, partial)
                    continue
                meta = f"{child.count} moves" if child.count > 1 else "1 move"
                if word.lower().startswith(low):
                    out.append(Choice(word + space, len(partial), word, meta))
                base, mark = _split(word)
                for other in self._spelled(base):
                    if other != base and partial and other.startswith(spelling(partial)):
                        out.append(Choice(other + mark + space, len(partial), other + mark, f"= {word}"))
        return out

    def _filler_choices(self, placeholder: str, partial: str) -> list[Choice]:
        out = []
        key = spelling(partial)
        for word in self._fillers_of(placeholder):
            if word.startswith(key):
                out.append(Choice(word + " ", len(partial), word, placeholder))
            elif partial:
                for other in self._spelled(word):
                    if other.startswith(key) and other != word:
                        out.append(Choice(other + " ", len(partial), other, f"= {word}"))
        return out

    def _whole_moves(self, states, partial: str) -> tuple[list[Choice], set[int]]:
        """The rest of every move still open, when there are few, and the nodes whose moves
        are all offered so (their next word need not be offered too). A move that ends in a
        placeholder is left to the words, which fill it."""
        if sum(node.count for node, filling, _ in states if filling is None) > WHOLE_MOVES:
            return [], set()
        out, covered = [], set()
        for node, filling, _ in states:
            if filling is not None:
                continue
            for word, child in node.children.items():
                if word.lower().startswith(partial.lower()) and not word.startswith("<"):
                    below = _moves_below(child, word)
                    out += [Choice(rest, len(partial), rest, "move") for rest in below if "<" not in rest]
                    if all("<" not in rest for rest in below):
                        covered.add(id(child))
        return out, covered

    def _checkpoint(self, complete: list[str], partial: str) -> list[Choice]:
        """`check red: coins 5, points 12`: a colour, then the figures the game keeps."""
        if len(complete) == 1:
            return [Choice(c + ": ", len(partial), c + ":", "player") for c in self.checkpoints if c.startswith(partial.lower())]
        colour = _split(complete[1])[0].lower()
        figures = self.checkpoints.get(colour, [])
        last = complete[-1]
        if len(complete) == 2 or last.endswith(","):
            given = {w.lower() for w in complete[2:]}
            return [Choice(f + " ", len(partial), f, "figure") for f in figures if f.startswith(partial.lower()) and f not in given]
        return []


def _counts(placeholder: str) -> list[int]:
    match = COUNTS.fullmatch(placeholder)
    return [int(n) for n in match.group(1).split("/")] if match else [1]


def _moves_below(node: Node, prefix: str) -> list[str]:
    out = []
    if node.end:
        out.append(prefix)
    for word, child in node.children.items():
        out.extend(_moves_below(child, f"{prefix} {word}"))
    return out
