"""Civitas Hamburgum moves: what a record line says, and how it is written.

A turn names the acting player and the rondel action; the rest of the line is
what the player does there. Words are resolved to spec ids while the record
is read, so an unknown church, good or house stops the reading with its
position (a malformed record), while whether the move is allowed is left to
the rules in `hamburgum.py`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lark import Token, Tree

from ..notation import Move, Pos, RecordError

if TYPE_CHECKING:  # pragma: no cover
    from .hamburgum import Hamburgum

Amounts = tuple[tuple[str, int], ...]


@dataclass(frozen=True, order=True)
class Site:
    """A house site: its parish and its number there."""

    parish: str
    number: int

    @property
    def name(self) -> str:
        return f"{self.parish}-{self.number}"


@dataclass
class Turn(Move):
    """A player's turn: the marker moves to a space of `action` and the action is taken."""

    player: str = ""
    action: str = ""
    side: str | None = None  # which of two spaces with the same action, when written


@dataclass
class Produce(Turn):
    amount: int | None = None  # the yield, when the record states it


@dataclass
class Trade(Turn):
    sell: Amounts = ()  # goods shipped abroad
    bank: Amounts = ()  # goods sold to the bank
    buy: Amounts = ()  # building materials bought


@dataclass
class Dockyard(Turn):
    ships: int = 1


@dataclass(frozen=True)
class Donation:
    church: str
    tokens: tuple[str, ...]  # one token per donation, in donation order


@dataclass
class ChurchTurn(Turn):
    donations: tuple[Donation, ...] = ()
    scores: tuple[tuple[str, str], ...] = ()  # (church, token kind)


@dataclass
class House:
    kind: str  # house type
    site: Site
    office: str | None = None  # the office named, when the house is an office
    donation: Donation | None = None  # the canon's donation
    pos: Pos | None = field(default=None, compare=False)


@dataclass
class Guildhall(Turn):
    houses: tuple[House, ...] = ()


@dataclass
class Reveal(Move):
    """Advanced game II: the office turned face up on the shuffled stack."""

    office: str = ""


# --- reading --------------------------------------------------------------------------


def _merge(amounts: list[tuple[str, int]]) -> Amounts:
    total: Counter = Counter()
    for what, n in amounts:
        total[what] += n
    return tuple(sorted((k, v) for k, v in total.items() if v))


class MoveBuilder:
    """Turns a parsed `move` subtree into a move, resolving every name through the game."""

    def __init__(self, game: "Hamburgum"):
        self.game = game

    def build(self, tree: Tree) -> Move:
        if tree.data == "reveal":
            return Reveal(office=self.game.resolve("office", tree.children[0]))
        player_tok, action = tree.children
        player = str(player_tok).lower()
        build = getattr(self, f"_{action.data}")
        return build(player, action.children)

    def _produce(self, player: str, args: list) -> Produce:
        action = self.game.resolve("production", args[0])
        amount = int(args[-1]) if len(args) > 1 else None
        return Produce(player=player, action=action, amount=amount)

    def _trade(self, player: str, args: list) -> Trade:
        side = None
        parts = list(args)
        if parts and isinstance(parts[0], Token):
            side = self.game.resolve("side", parts.pop(0))
        found: dict[str, list[tuple[str, int]]] = {"sell": [], "bank": [], "buy": []}
        for part in parts:
            category = "material" if part.data == "buy" else "good"
            found[part.data].extend(self._amount(category, a) for a in part.children)
        return Trade(player=player, action="trade", side=side, sell=_merge(found["sell"]), bank=_merge(found["bank"]), buy=_merge(found["buy"]))

    def _amount(self, category: str, tree: Tree) -> tuple[str, int]:
        *count, word = tree.children
        return self.game.resolve(category, word), int(count[0]) if count else 1

    def _dockyard(self, player: str, args: list) -> Dockyard:
        return Dockyard(player=player, action="dockyard", ships=int(args[0]) if args else 1)

    def _church(self, player: str, args: list) -> ChurchTurn:
        donations, scores = [], []
        for part in args:
            church, *rest = part.children
            church_id = self.game.resolve("church", church)
            tokens = tuple(self.game.resolve("token", t) for t in rest)
            if part.data == "donation":
                donations.append(Donation(church_id, tokens))
            else:
                scores.append((church_id, tokens[0]))
        return ChurchTurn(player=player, action="church", donations=tuple(donations), scores=tuple(scores))

    def _guildhall(self, player: str, args: list) -> Guildhall:
        return Guildhall(player=player, action="guildhall", houses=tuple(self._house(h) for h in args))

    def _house(self, tree: Tree) -> House:
        word, site_tree, *canon = tree.children
        kind, office = self.game.house_word(word)
        donation = None
        if canon:
            church, token = canon[0].children
            donation = Donation(self.game.resolve("church", church), (self.game.resolve("token", token),))
        return House(kind, self._site(site_tree), office, donation, Pos.of(tree))

    def _site(self, tree: Tree) -> Site:
        parts = tree.children
        first = parts[0]
        if first.type == "INT":
            return self.game.site_by_number(first)
        if len(parts) > 1:
            parish, number = first, str(parts[-1])
        else:
            stem, _, number = str(first).rpartition("-")
            parish = Token("WORD", stem, line=first.line, column=first.column, end_line=first.end_line, end_column=first.end_column)
        if not parish or not number.isdigit() or int(number) < 1:
            raise RecordError(f"a site is a parish and a number from 1, e.g. 'petri 2' or 'petri-2', not {' '.join(map(str, parts))!r}", Pos.of(tree))
        return Site(self.game.resolve("parish", parish), int(number))


# --- writing --------------------------------------------------------------------------


def _amounts(words: str, amounts: Amounts) -> str:
    return " ".join([words, *(f"{n} {what}" for what, n in amounts)])


def _house_text(h: House) -> str:
    text = f"{h.office or h.kind} at {h.site.parish} {h.site.number}"
    if h.donation:
        text += f" donate {h.donation.church} {h.donation.tokens[0]}"
    return text


def format_move(move: Move) -> str:
    if isinstance(move, Reveal):
        return f"reveal {move.office}"
    head = f"{move.player}: " + (f"{move.side} " if move.side else "") + move.action
    if isinstance(move, Produce):
        return head + (f" {move.amount}" if move.amount is not None else "")
    if isinstance(move, Trade):
        parts = [_amounts(w, a) for w, a in (("sell", move.sell), ("bank", move.bank), ("buy", move.buy)) if a]
        return head + (" " + ", ".join(parts) if parts else "")
    if isinstance(move, Dockyard):
        return f"{head} {move.ships}"
    if isinstance(move, ChurchTurn):
        parts = [f"{d.church} donate {' '.join(d.tokens)}" for d in move.donations]
        parts += [("score " if i == 0 else "") + f"{c} {k}" for i, (c, k) in enumerate(move.scores)]
        return head + (" " + ", ".join(parts) if parts else "")
    if isinstance(move, Guildhall):
        return head + (" " + ", ".join(_house_text(h) for h in move.houses) if move.houses else "")
    raise TypeError(move)
