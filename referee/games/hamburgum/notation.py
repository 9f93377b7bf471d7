"""Civitas Hamburgum notation: reading moves from a record's parse tree, and writing them back.

Words are resolved to spec ids while the record is read, so an unknown church,
good or house stops the reading with its position (a malformed record), while
whether the move is allowed is left to the rules. Every name a record may use
(ids, names in each language, aliases, parish colours) comes from the spec,
through the name index the game builds once.
"""

from __future__ import annotations

from collections import Counter

from lark import Token, Tree

from ...errors import Pos, RecordError
from ...notation import Move, unknown_name
from ..base import Game
from .moves import Amounts, ChurchTurn, Dockyard, Donation, Guildhall, House, Produce, Reveal, Site, Trade


# --- names --------------------------------------------------------------------------


def word_of(text: str) -> str:
    """The form a name takes in a record: lower case, words joined by hyphens, no dots."""
    return "-".join(str(text).lower().replace(".", " ").split())


class NameIndex:
    """Every word a record may use for a spec id, by category, and the lookups that read them."""

    def __init__(self, game: Game):
        self.game = game
        self._words = self._word_index()

    def _word_index(self) -> dict[str, dict[str, str]]:
        spec = self.game.spec
        churches = spec["churches"]["churches"]

        def index(entries: dict) -> dict[str, str]:
            out: dict[str, str] = {}
            for eid, entry in entries.items():
                entry = entry or {}
                for word in (eid, *(entry.get("names") or {}).values(), *(entry.get("aliases") or ())):
                    key = word_of(word)
                    if key:
                        out.setdefault(key, eid)
            return out

        goods = index(spec["components"]["goods"])
        production = index({a: e for a, e in self.game.rondel["actions"].items() if "produces" in e})
        production.update({w: a for w, g in goods.items() for a, p in self.game.produces.items() if p == g})
        parishes = index(churches)
        for church, entry in spec["board"]["parishes"].items():
            for word in (entry.get("colour"), *(entry.get("aliases") or ())):
                if word:
                    parishes.setdefault(word_of(word), church)
        return {
            "production": production,
            "side": index(self.game.rondel["sides"]),
            "good": goods,
            "material": index(spec["components"]["materials"]),
            "house": index(self.game.house_types),
            "office": index(self.game.offices),
            "church": index(churches),
            "parish": parishes,
            "token": index(spec["churches"]["tokens"]),
        }

    def resolve(self, category: str, token: Token) -> str:
        key = word_of(str(token))
        words = self._words[category]
        if key not in words:
            raise unknown_name(category, token, sorted(set(words.values())), words)
        return words[key]

    def house_word(self, token: Token) -> tuple[str, str | None]:
        """A house type, or an office by name (which is a house of the office type)."""
        key = word_of(str(token))
        if key in self._words["office"]:
            return self.game.office_type, self._words["office"][key]
        return self.resolve("house", token), None

    def site_by_number(self, token: Token) -> Site:
        number = int(token)
        if self.game.board_list is None:
            raise RecordError(f"site {number} is named by its place on the board, which needs board data (board:sites); name it by parish and number, e.g. petri 2", Pos.of(token))
        if not 1 <= number <= len(self.game.board_list):
            raise RecordError(f"no site {number}; the board data lists {len(self.game.board_list)} sites", Pos.of(token))
        entry = self.game.board_list[number - 1]
        return Site(entry["parish"], entry["number"])


# --- reading --------------------------------------------------------------------------


def _merge(amounts: list[tuple[str, int]]) -> Amounts:
    total: Counter = Counter()
    for what, n in amounts:
        total[what] += n
    return tuple(sorted((k, v) for k, v in total.items() if v))


class MoveBuilder:
    """Turns a parsed `move` subtree into a move, resolving every name through the game's spec."""

    def __init__(self, game: Game):
        self.names = NameIndex(game)

    def build(self, tree: Tree) -> Move:
        if tree.data == "reveal":
            return Reveal(office=self.names.resolve("office", tree.children[0]))
        player_tok, action = tree.children
        player = str(player_tok).lower()
        build = getattr(self, f"_{action.data}")
        return build(player, action.children)

    def _produce(self, player: str, args: list) -> Produce:
        action = self.names.resolve("production", args[0])
        amount = int(args[-1]) if len(args) > 1 else None
        return Produce(player=player, action=action, amount=amount)

    def _trade(self, player: str, args: list) -> Trade:
        side = None
        parts = list(args)
        if parts and isinstance(parts[0], Token):
            side = self.names.resolve("side", parts.pop(0))
        found: dict[str, list[tuple[str, int]]] = {"sell": [], "bank": [], "buy": []}
        for part in parts:
            category = "material" if part.data == "buy" else "good"
            found[part.data].extend(self._amount(category, a) for a in part.children)
        return Trade(player=player, action="trade", side=side, sell=_merge(found["sell"]), bank=_merge(found["bank"]), buy=_merge(found["buy"]))

    def _amount(self, category: str, tree: Tree) -> tuple[str, int]:
        *count, word = tree.children
        return self.names.resolve(category, word), int(count[0]) if count else 1

    def _dockyard(self, player: str, args: list) -> Dockyard:
        return Dockyard(player=player, action="dockyard", ships=int(args[0]) if args else 1)

    def _church(self, player: str, args: list) -> ChurchTurn:
        donations, scores = [], []
        for part in args:
            church, *rest = part.children
            church_id = self.names.resolve("church", church)
            tokens = tuple(self.names.resolve("token", t) for t in rest)
            if part.data == "donation":
                donations.append(Donation(church_id, tokens))
            else:
                scores.append((church_id, tokens[0]))
        return ChurchTurn(player=player, action="church", donations=tuple(donations), scores=tuple(scores))

    def _guildhall(self, player: str, args: list) -> Guildhall:
        return Guildhall(player=player, action="guildhall", houses=tuple(self._house(h) for h in args))

    def _house(self, tree: Tree) -> House:
        word, site_tree, *canon = tree.children
        kind, office = self.names.house_word(word)
        donation = None
        if canon:
            church, token = canon[0].children
            donation = Donation(self.names.resolve("church", church), (self.names.resolve("token", token),))
        return House(kind, self._site(site_tree), office, donation, Pos.of(tree))

    def _site(self, tree: Tree) -> Site:
        parts = tree.children
        first = parts[0]
        if first.type == "INT":
            return self.names.site_by_number(first)
        if len(parts) > 1:
            parish, number = first, str(parts[-1])
        else:
            stem, _, number = str(first).rpartition("-")
            parish = Token("WORD", stem, line=first.line, column=first.column, end_line=first.end_line, end_column=first.end_column)
        if not parish or not number.isdigit() or int(number) < 1:
            raise RecordError(f"a site is a parish and a number from 1, e.g. 'petri 2' or 'petri-2', not {' '.join(map(str, parts))!r}", Pos.of(tree))
        return Site(self.names.resolve("parish", parish), int(number))


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
