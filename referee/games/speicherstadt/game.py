"""The Speicherstadt's game object: the tables built from the spec, and the engine's questions.

The tables name each card's role by what the data says of it (the fire shows
points, the fireman a value, the contract goods; the bank pays income; the
warehouse has a capacity), never by a name written here. The engine asks this
object to read and write moves (notation.py), to start a game (rules.py), to
cross-check the spec (checks.py) and for legal and random moves (play.py).
"""

from __future__ import annotations

from lark import Tree

from referee.errors import Pos
from referee.games.base import Game, Seat, Trace
from referee.games.speicherstadt import checks, notation
from referee.games.speicherstadt.rules import FIGURE_READERS, SpeicherstadtState
from referee.i18n import Named, current
from referee.notation.parser import Header, Move
from referee.spec.figures import FigureTable
from referee.spec.loader import Spec


class Speicherstadt(Game):
    name = "speicherstadt"
    learning_module = f"{__package__}.learning"  # what records teach of printed numbers (box --infer)
    hints_every_move = True
    # how people look at a game: the position in text, as a picture, and moves in sentences
    view_module, picture_module, sentences_module = f"{__package__}.view", f"{__package__}.picture", f"{__package__}.sentences"
    play_module = f"{__package__}.play"  # legal and random moves

    def __init__(self, spec: Spec):
        super().__init__(spec)
        cards = spec["cards"]
        self.season_order = [s["id"] for s in cards["seasons"]]
        self.types = cards["types"]
        self.goods = sorted(spec["components"]["goods"])
        by_role = {}
        for tid, t in self.types.items():
            field_ = (t.get("face") or {}).get("field")
            if field_:
                by_role.setdefault(field_, tid)
            if "income" in t:
                by_role.setdefault("income", tid)
            if "capacity" in t:
                by_role.setdefault("capacity", tid)
        # card roles are found from the data, not from names written here
        self.fire = by_role["points"]
        self.fireman = by_role["value"]
        self.contract = by_role["goods"]
        self.bank = by_role["income"]
        self.warehouse = by_role["capacity"]
        self.counting_office = spec["scoring"]["counting_offices"]["card"]
        self.card_names = notation.card_index(self.types)
        self.goods_names = notation.goods_index(spec["components"]["goods"])
        self.figure_table = FigureTable(spec, FIGURE_READERS)

    @classmethod
    def check_spec(cls, spec: Spec) -> None:
        checks.check_spec(spec)

    # --- the tables -----------------------------------------------------------------------

    def face_spec(self, card_type: str) -> dict:
        return self.types[card_type].get("face") or {}

    def face_fields(self, card_type: str) -> tuple[str, ...]:
        f = self.face_spec(card_type).get("field")
        return (f,) if f else ()

    def is_ship(self, card_type: str) -> bool:
        return bool(self.types[card_type].get("ship"))

    def trader_for(self, good: str) -> str | None:
        for tid, t in self.types.items():
            if t.get("trader", {}).get("good") == good:
                return tid
        return None

    def warehouse_capacity(self) -> int:
        return self.types[self.warehouse]["capacity"]

    def play_points(self, season: str) -> int:
        return self.types[self.fire]["play_points"][season]

    def season_name(self, season: str) -> str:
        for s in self.spec["cards"]["seasons"]:
            if s["id"] == season:
                return f"{s['names']['en']} ({season})"
        return season

    def card_name(self, card_type: str) -> str:
        return self.spec.name(self.types.get(card_type), default=card_type)

    # names in the language in use, for what a person reads now (a view, a picture, a note)

    def good_title(self, good: str) -> str:
        return self.spec.name(self.spec["components"]["goods"].get(good), current(), good)

    def goods_title(self, goods) -> str:
        """Goods by name, one after another: "carpet rubber tea"."""
        return " ".join(self.good_title(g) for g in goods)

    def card_title(self, card_type: str) -> str:
        return self.spec.name(self.types.get(card_type), current(), card_type)

    def season_title(self, season: str) -> str:
        """A season's name with its letter, "Winter (A)", in the language in use."""
        entry = next((s for s in self.spec["cards"]["seasons"] if s["id"] == season), None)
        return f"{self.spec.name(entry, current())} ({season})" if entry else season

    def phase_title(self, phase: str) -> str:
        """A phase of a round, or a step after the last one, in the language in use
        (game.yaml: phases, after_last_round); its id where neither names it."""
        return self.spec.name(self.phase_entry(phase), current(), phase)

    def phase_entry(self, phase: str) -> dict:
        """game.yaml's entry of a phase or of a step after the last round ({} for none)."""
        meta = self.spec.meta
        return next((p for p in [*(meta.get("phases") or ()), *(meta.get("after_last_round") or ())] if p.get("id") == phase), {})

    # names a message shows in the language of its reader (referee.i18n.Named)

    def card_named(self, card_type: str) -> Named:
        return Named(self.card_name(card_type), (self.types.get(card_type) or {}).get("names"))

    def card_lowered(self, card_type: str) -> Named:
        """A card's name inside a sentence: "a fireman" in English, the spec's name otherwise."""
        names = (self.types.get(card_type) or {}).get("names") or {}
        return Named(self.card_name(card_type).lower(), {k: v for k, v in names.items() if k != "en"})

    def season_named(self, season: str) -> Named:
        entry = next((s for s in self.spec["cards"]["seasons"] if s["id"] == season), None)
        if entry is None:
            return Named(season)
        return Named(self.season_name(season), {lang: f"{name} ({season})" for lang, name in entry["names"].items()})

    # --- the engine's questions -------------------------------------------------------------

    def build_move(self, tree: Tree) -> Move:
        return notation.build_move(self, tree)

    def keywords(self):
        return notation.keywords(self)

    def figure_words(self, key: str, words: list[str], where: list[Pos]) -> list[str]:
        return notation.figure_words(self, key, words, where)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def new_state(self, seats: list[Seat], start: int, header: Header, trace: Trace) -> SpeicherstadtState:
        return SpeicherstadtState(self, seats, start, trace)

    def move_hints(self, state: SpeicherstadtState) -> list[str]:
        """The legal next moves as a person writes them, with what a reveal must add."""
        return notation.move_hints(self, self.legal_moves(state))

    def placeholder_words(self, state: SpeicherstadtState, placeholder: str) -> list[str]:
        return notation.placeholder_words(self, state.bag, placeholder)
