"""The Speicherstadt's notation: a parse tree -> a move, a move -> text, and move hints.

Card and goods names are read in any language the spec names them in (and a
good by its cube's colour); a name nobody knows is a record error with the
closest spelling. Reading a reveal checks only its shape (a ship names cubes,
a contract goods, a fireman or fire one number); whether that face is in the
deck is for the rules. `game` is the Speicherstadt object (game.py), whose
tables say which card type shows which face.
"""

from __future__ import annotations

from lark import Token, Tree

from referee.errors import Pos, RecordError
from referee.games.base import Game
from referee.games.speicherstadt.moves import LOAD_ACTIONS, Load, Offer, Place, Reveal, RoundStart
from referee.notation import names
from referee.notation.parser import Keywords, Move, unknown_name, word_token

# --- names ------------------------------------------------------------------------------


def card_index(types: dict) -> dict[str, str]:
    """Every spelling of a card type (its id and each of its names) -> its id."""
    return names.index(types)


def goods_index(goods: dict) -> dict[str, str]:
    """Every spelling of a good (its id, its cube's colour, each of its names) -> its id."""
    return names.index(goods, {g["colour"]: gid for gid, g in goods.items()})


def keywords(game: Game) -> Keywords:
    """The spec's names of the things three keywords stand for: the contract and warehouse
    cards and the market hall."""
    types, hall = game.types, game.spec["components"]["market_hall"]
    return (
        ("_contract", tuple(names.names_of(types[game.contract]))),
        ("_warehouse", tuple(names.names_of(types[game.warehouse]))),
        ("_hall", tuple(names.names_of(hall))),
    )


def card_type(game: Game, token: Token) -> str:
    key = names.spelling(token)
    if key not in game.card_names:
        raise unknown_name("card", token, sorted(game.types), game.card_names)
    return game.card_names[key]


def good(game: Game, token: Token) -> str:
    key = names.spelling(token)
    if key not in game.goods_names:
        raise unknown_name("good", token, game.goods, game.goods_names)
    return game.goods_names[key]


def figure_words(game: Game, key: str, words: list[str], where: list[Pos]) -> list[str]:
    """The goods a checkpoint lists for a figure of goods (warehouse coffee tea), by id."""
    if game.figure_table.kinds.get(key) != "goods":
        return words
    return [good(game, word_token(w, p)) for w, p in zip(words, where)]


# --- reading a move ---------------------------------------------------------------------


def build_move(game: Game, tree: Tree) -> Move:
    kind = tree.data
    if kind == "round":
        return RoundStart(int(tree.children[0]))
    if kind == "reveal":
        return _build_reveal(game, tree)
    player_tok, action = tree.children
    player = str(player_tok).lower()
    args = action.children
    if action.data == "place":
        return Place(player, int(args[0]))
    if action.data in ("buy", "pass"):
        return Offer(player, action.data == "buy", int(args[0]) if args else None)
    if action.data == "contract":
        return Load(player, "contract", _goods(game, args[1]), contract=int(args[0]))
    if action.data == "hall_exchange":
        return Load(player, "hall_exchange", _goods(game, args[0]), take=_goods(game, args[1]))
    return Load(player, action.data, _goods(game, args[0]))


def _goods(game: Game, tree: Tree) -> tuple[str, ...]:
    return tuple(good(game, t) for t in tree.children)


def _build_reveal(game: Game, tree: Tree) -> Reveal:
    card_tok, *rest = tree.children
    card = card_type(game, card_tok)
    field_ = game.face_fields(card)
    numbers = [t for t in rest if t.type == "INT"]
    words = [t for t in rest if t.type == "WORD"]
    if game.is_ship(card):
        if numbers:
            raise RecordError("a ship is followed by the goods drawn onto it, not a number", Pos.of(numbers[0]))
        return Reveal(card, cubes=tuple(good(game, w) for w in words))
    if field_ == ("goods",):
        if numbers:
            raise RecordError("a contract is followed by its goods, not a number", Pos.of(numbers[0]))
        return Reveal(card, goods=tuple(sorted(good(game, w) for w in words)))
    if words:
        raise RecordError(f"unexpected {str(words[0])!r} after {card}", Pos.of(words[0]))
    if field_ in (("value",), ("points",)):
        if len(numbers) > 1:
            raise RecordError(f"a {card} shows one number", Pos.of(numbers[1]))
        number = int(numbers[0]) if numbers else None
        return Reveal(card, **{field_[0]: number})
    if numbers:
        raise RecordError(f"a {card} shows no number", Pos.of(numbers[0]))
    return Reveal(card)


# --- writing a move ---------------------------------------------------------------------


def format_move(move: Move) -> str:
    if isinstance(move, RoundStart):
        return f"round {move.round}"
    if isinstance(move, Reveal):
        extra = [str(move.value)] if move.value is not None else [str(move.points)] if move.points is not None else []
        extra += list(move.goods) + list(move.cubes)
        return " ".join(["reveal", move.card, *extra])
    if isinstance(move, Place):
        return f"{move.player}: place {move.slot}"
    if isinstance(move, Offer):
        return f"{move.player}: {'buy' if move.buy else 'pass'}" + (f" {move.slot}" if move.slot else "")
    if isinstance(move, Load):
        words = LOAD_ACTIONS[move.action]
        if move.action == "contract":
            words += f" {move.contract}"
        text = f"{move.player}: {words} {' '.join(move.goods)}"
        if move.take:
            text += f" for {' '.join(move.take)}"
        return text
    raise TypeError(move)


GOODS_SHOWN = " goods>"  # how a placeholder of the goods a contract shows ends
CUBES_DRAWN = " cubes from the bag>"  # how a placeholder of the cubes drawn onto a ship ends


def move_hints(game: Game, moves: list[Move]) -> list[str]:
    """Reveals show what the record must add: a face no source gives, or a ship's cubes."""
    hints = []
    for move in moves:
        text = format_move(move)
        if isinstance(move, Reveal):
            face = game.face_spec(move.card)
            if face.get("field") == "goods" and not move.goods:
                text += f" <{'/'.join(map(str, face['sizes']))}{GOODS_SHOWN}"
            elif face.get("field") and getattr(move, face["field"]) is None:
                low, high = face.get("min", ""), face.get("max", "")
                text += f" <{face['field']} {low}-{high}>" if high else f" <{face['field']}>"
            elif game.is_ship(move.card):
                text += f" <{game.spec['components']['ship_cubes']}{CUBES_DRAWN}"
        hints.append(text)
    return hints


def placeholder_words(game: Game, bag: dict[str, int], placeholder: str) -> list[str]:
    """What fills a placeholder of `move_hints`: any good for a contract's goods, and for a
    ship's cubes the goods the bag still holds."""
    if placeholder.endswith(CUBES_DRAWN):
        return [g for g in game.goods if bag.get(g, 0) > 0]
    if placeholder.endswith(GOODS_SHOWN):
        return list(game.goods)
    return []
