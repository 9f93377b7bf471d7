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

from referee.errors import Pos, RecordError
from referee.games.base import Game
from referee.games.hamburgum.moves import Amounts, ChurchTurn, Dockyard, Donation, Guildhall, House, Produce, Reveal, Site, Trade
from referee.i18n import Message
from referee.notation import names
from referee.notation.parser import Keywords, Move, unknown_name

# --- names --------------------------------------------------------------------------


class NameIndex:
    """Every word a record may use for a spec id, by category, and the lookups that read them."""

    def __init__(self, game: Game):
        self.game = game
        self._words = self._word_index()

    def _word_index(self) -> dict[str, dict[str, str]]:
        spec = self.game.spec
        churches = spec["churches"]["churches"]
        goods = names.index(spec["components"]["goods"])
        production = names.index({a: e for a, e in self.game.rondel["actions"].items() if "produces" in e})
        production.update({w: a for w, g in goods.items() for a, p in self.game.produces.items() if p == g})
        parishes = names.index(churches)
        for church, entry in spec["board"]["parishes"].items():
            for word in (entry.get("colour"), *(entry.get("aliases") or ())):
                if word:
                    parishes.setdefault(names.spelling(word), church)
        return {
            "production": production,
            "side": names.index(self.game.rondel["sides"]),
            "good": goods,
            "material": names.index(spec["components"]["materials"]),
            "house": names.index(self.game.house_types),
            "office": names.index(self.game.offices),
            "church": names.index(churches),
            "parish": parishes,
            "token": names.index(spec["churches"]["tokens"]),
            "space": names.index({s: {} for s in self.game.spaces}),
        }

    def space(self, token: Token) -> str:
        """A rondel space by its id (upper-trade), as a checkpoint names it."""
        return self.resolve("space", token)

    def resolve(self, category: str, token: Token) -> str:
        key = names.spelling(token)
        words = self._words[category]
        if key not in words:
            raise unknown_name(category, token, sorted(set(words.values())), words)
        return words[key]

    def house_word(self, token: Token) -> tuple[str, str | None]:
        """A house type, or an office by name (which is a house of the office type)."""
        key = names.spelling(token)
        if key in self._words["office"]:
            return self.game.office_type, self._words["office"][key]
        return self.resolve("house", token), None

    def site_by_number(self, token: Token) -> Site:
        number = int(token)
        if self.game.board_list is None:
            raise RecordError(
                Message("site {number} is named by its place on the board, which needs board data (board:sites); name it by parish and number, e.g. petri 2", number=number), Pos.of(token)
            )
        if not 1 <= number <= len(self.game.board_list):
            raise RecordError(Message("no site {number}; the board data lists {count} sites", number=number, count=len(self.game.board_list)), Pos.of(token))
        entry = self.game.board_list[number - 1]
        return Site(entry["parish"], entry["number"])


def keywords(game: Game) -> Keywords:
    """The spec's names of the rondel's non-production spaces and of the bank, which the
    grammar's action words (`_trade`, `_dockyard`, `_church`, `_guildhall`, `_bank`) accept."""
    actions = {a: e for a, e in game.rondel["actions"].items() if "produces" not in e}
    found = [(f"_{a.replace('-', '_')}", tuple(names.names_of(e))) for a, e in actions.items()]
    return (*found, ("_bank", tuple(names.names_of(game.spec["market"]["bank_sale"]))))


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
            raise RecordError(Message("a site is a parish and a number from 1, e.g. 'petri 2' or 'petri-2', not {written}", written=repr(" ".join(map(str, parts)))), Pos.of(tree))
        return Site(self.names.resolve("parish", parish), int(number))


# --- writing --------------------------------------------------------------------------


def _amounts(words: str, amounts: Amounts) -> str:
    text = words  # added to item by item: a move has one to three, and a random game writes every move
    for what, n in amounts:
        text += f" {n} {what}"
    return text


def _house_text(h: House) -> str:
    text = f"{h.office or h.kind} at {h.site.parish} {h.site.number}"
    if h.donation:
        text += f" donate {h.donation.church} {h.donation.tokens[0]}"
    return text


def format_move(move: Move) -> str:
    if isinstance(move, Reveal):
        return f"reveal {move.office}"
    head = f"{move.player}: {move.side} {move.action}" if move.side else f"{move.player}: {move.action}"
    if isinstance(move, Produce):
        return head if move.amount is None else f"{head} {move.amount}"
    if isinstance(move, Trade):  # a random game writes one a turn in three: its parts one by one
        parts = []
        if move.sell:
            parts.append(_amounts("sell", move.sell))
        if move.bank:
            parts.append(_amounts("bank", move.bank))
        if move.buy:
            parts.append(_amounts("buy", move.buy))
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
