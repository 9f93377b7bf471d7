"""Civitas Hamburgum, the game object: its tables, read once from the spec.

The engine holds one `Hamburgum` per spec and variant set. It turns the spec's
tables into the lookups the rules ask for (rondel steps, berths, the office
stack, names), starts a game (`new_state`), and hands every other question to
the module whose job it is: reading and writing moves to the notation module,
the spec's cross-checks to the checks module, the search for moves to the play
module. The rules themselves are in the rules module.
"""

from __future__ import annotations

from collections import Counter

from lark import Tree

from referee.errors import Pos
from referee.games.base import Game, Seat, Trace
from referee.games.hamburgum.checks import check_spec
from referee.games.hamburgum.moves import Site
from referee.games.hamburgum.notation import MoveBuilder, format_move, keywords
from referee.games.hamburgum.rules import FIGURE_READERS, MONEY, HamburgumState
from referee.notation.parser import Header, Move, word_token
from referee.spec.figures import FigureTable
from referee.spec.loader import Spec


class Hamburgum(Game):
    """Civitas Hamburgum with its spec: the tables the rules read, and how moves are written."""

    name = "hamburgum"
    learning_module = f"{__package__}.learning"  # what records teach of printed numbers (box --infer)
    # how people look at a game: the position in text, as a picture, and moves in sentences
    view_module, picture_module, sentences_module = f"{__package__}.view", f"{__package__}.picture", f"{__package__}.sentences"
    play_module = f"{__package__}.play"  # legal and random moves

    def __init__(self, spec: Spec):
        super().__init__(spec)
        self.goods = list(spec["components"]["goods"])
        self.materials = list(spec["components"]["materials"])
        self.house_cost = spec["houses"]["cost"]  # the materials of one house, read for every house built or planned
        self.bell = next(m for m in self.materials if m not in self.house_cost)
        self.bell_limit = spec["components"]["bell_limit"]  # read for every purchase
        self.rondel = spec["rondel"]
        self.spaces = [s["id"] for s in self.rondel["spaces"]]
        self._space = {s["id"]: s for s in self.rondel["spaces"]}
        # a space's place on the rondel and each action's spaces, looked up several times a turn
        self._place: dict[str, int] = {}
        for i, space in enumerate(self.spaces):
            self._place.setdefault(space, i)
        self._spaces_of: dict[str, list[str]] = {}
        for space in self.spaces:
            self._spaces_of.setdefault(self._space[space]["action"], []).append(space)
        self._moves_from: dict[str, tuple[tuple[str, int], ...]] = {}  # see moves_from
        self._nearest: dict[tuple[str, str, str | None], str] = {}  # see nearest
        self._routes: dict[tuple[str, str, str | None], tuple[str, int, int]] = {}  # see route
        self._sides: dict[tuple[str | None, str], str | None] = {}  # see side_to_write
        self.prestige_floor = spec["components"]["prestige"]["minimum"]
        self.limits = {piece: entry["count"] for piece, entry in spec["components"]["per_player"].items()}
        self.produces = {a: e["produces"] for a, e in self.rondel["actions"].items() if "produces" in e}
        self.house_types = spec["houses"]["types"]
        self.producer_of = {e["produces"]: h for h, e in self.house_types.items() if "produces" in e}
        self.producers: dict[str, list[str]] = {}  # every house type that produces each good, for a production's yield
        for h, e in self.house_types.items():
            if "produces" in e:
                self.producers.setdefault(e["produces"], []).append(h)
        self.office_type = next(h for h, e in self.house_types.items() if e.get("office"))
        self.offices = spec["offices"]["offices"]
        self.office_mode = spec["offices"]["mode"]  # how the blue offices are taken: numbered, by choice or shuffled
        self.canon = next((o for o, e in self.offices.items() if "donation" in e), None)
        churches = spec["churches"]
        self.church_ids = list(churches["churches"])
        self.token_kinds = list(churches["tokens"])
        self.first_token = next(k for k, e in churches["tokens"].items() if e.get("first"))
        self.donations = churches["donations"]
        # each donation's cost by its number at a church, as the rules charge it: the materials
        # and fixed money the table prints (every donation reads them), and the money per own citizen
        self.donation_costs = [({k: v for k, v in e.items() if k in self.materials or k == MONEY}, e.get("money_per_own_citizen", 0)) for e in self.donations]
        self._token_specs: dict[tuple[str, str], dict] = {}  # see token_spec
        self.completion_bonus = churches["completion_bonus"]
        harbour = spec["harbour"]
        self.berth_order = [b["number"] for b in harbour["berths"]]
        self.goods_per_ship = {b["number"]: b["goods_per_ship"] for b in harbour["berths"]}
        self.ships_per_berth = harbour["ships_per_berth"]
        self.goods_price = spec["market"]["goods_price"]  # a good's price is read a few times a sale
        self.materials_totals = {int(k): v for k, v in spec["market"]["materials_price"]["totals"].items()}
        board = spec["board"]
        self.board_list = board["sites"]
        self.board_sites = None if board["sites"] is None else {Site(s["parish"], s["number"]): s["type"] for s in board["sites"]}
        self.site_index = {Site(s["parish"], s["number"]): i for i, s in enumerate(board["sites"] or ())}
        self.site_of_name = {s.name: s for s in (self.board_sites or {})}
        self.links = None
        if board["links"] is not None:
            self.links = {}
            for a, b in board["links"]:
                self.links.setdefault(a, set()).add(b)
                self.links.setdefault(b, set()).add(a)
        self._builder = MoveBuilder(self)
        self.figure_table = FigureTable(spec, FIGURE_READERS)

    # --- spec helpers -----------------------------------------------------------------------

    @classmethod
    def check_spec(cls, spec: Spec) -> None:
        check_spec(spec)

    def houses_cost(self, houses: int) -> Counter:
        """What a Guildhall turn of this many houses costs: each house's cost, paid as a whole
        before the first is built."""
        return Counter({k: v * houses for k, v in self.house_cost.items()})

    def limit(self, piece: str) -> int:
        return self.limits[piece]

    def spaces_of(self, action: str, side: str | None = None) -> list[str]:
        """The spaces of an action in rondel order; with `side`, those on that side only."""
        return [s for s in self._spaces_of.get(action, ()) if side is None or self.space_side(s) == side]

    def space_action(self, space: str) -> str:
        return self._space[space]["action"]

    def space_side(self, space: str) -> str | None:
        return self._space[space].get("side")

    def steps(self, start: str, target: str) -> int:
        """Clockwise steps from one space to another; the same space is a full circle."""
        n = len(self.spaces)
        return (self._place[target] - self._place[start]) % n or n

    def step_cost(self, steps: int) -> int:
        return max(0, steps - self.rondel["free_steps"]) * self.rondel["prestige_per_step"]

    def moves_from(self, start: str) -> tuple[tuple[str, int], ...]:
        """Every space in rondel order, with the prestige that moving there from `start` costs
        (worked out once per space: a random player asks every turn)."""
        found = self._moves_from.get(start)
        if found is None:
            found = self._moves_from[start] = tuple((space, self.step_cost(self.steps(start, space))) for space in self.spaces)
        return found

    def nearest(self, start: str, action: str, side: str | None = None) -> str:
        """The space of `action` (on `side`, when one is named) that a marker on `start` reaches
        first going clockwise: where a turn takes it. Worked out once for each start, as every
        turn asks; the action must have such a space."""
        key = (start, action, side)
        found = self._nearest.get(key)
        if found is None:
            found = self._nearest[key] = min(self.spaces_of(action, side), key=lambda s: self.steps(start, s))
        return found

    def route(self, start: str, action: str, side: str | None = None) -> tuple[str, int, int]:
        """Where a turn from `start` to `action` (on `side`, when one is named) takes the
        marker, in how many steps, and the prestige they cost: `nearest`, `steps` and
        `step_cost` together, worked out once for each start, as every turn asks."""
        key = (start, action, side)
        found = self._routes.get(key)
        if found is None:
            target = self.nearest(start, action, side)
            steps = self.steps(start, target)
            found = self._routes[key] = (target, steps, self.step_cost(steps))
        return found

    def side_to_write(self, start: str | None, space: str) -> str | None:
        """The side a record names for a turn from `start` (None: off the rondel) to `space`:
        none where the action has one space, or where `space` is the nearest of its spaces,
        as the marker goes to the nearest when no side is named. A first turn onto an action
        of two spaces always names one, as no space is nearer."""
        key = (start, space)
        if key not in self._sides:
            action = self.space_action(space)
            side = None
            if len(self._spaces_of[action]) > 1 and (start is None or self.nearest(start, action) != space):
                side = self.space_side(space)
            self._sides[key] = side
        return self._sides[key]

    def token_spec(self, church: str, kind: str) -> dict:
        """A token's entry, completed by its church's own (the points, what it counts): put
        together once for each church and kind, as every token scored asks. Read, never changed."""
        key = (church, kind)
        found = self._token_specs.get(key)
        if found is None:
            found = dict(self.spec["churches"]["tokens"][kind])
            found.update(self.spec["churches"]["churches"][church].get(kind) or {})
            self._token_specs[key] = found
        return found

    def token_rule(self, kind: str) -> str:
        return f"token-{kind}" if f"{self.name}/token-{kind}" in self.spec.rules else "token-values"

    def office_stack(self) -> list[str]:
        offices = self.spec["offices"]
        if offices["mode"] == "numbered":
            return [e["office"] for e in offices["numbered"]]
        return list(offices["blue"])

    def space_name(self, space: str, lang: str = "en") -> str:
        """A rondel space as the board names it: its action, with its side where two share one."""
        action = self.spec.name(self.rondel["actions"].get(self.space_action(space)), lang, space)
        side = self.space_side(space)
        return f"{self.spec.name(self.rondel['sides'].get(side), lang, side)} {action}" if side else action

    def church_name(self, church: str) -> str:
        return self.spec.name(self.spec["churches"]["churches"].get(church), default=church)

    def house_name(self, kind: str) -> str:
        return self.spec.name(self.house_types.get(kind), default=kind)

    def office_name(self, office: str | None) -> str:
        return self.spec.name(self.offices.get(office or ""), default=office or "office")

    # --- notation ---------------------------------------------------------------------------

    def build_move(self, tree: Tree) -> Move:
        return self._builder.build(tree)

    def keywords(self):
        return keywords(self)

    def figure_words(self, key: str, words: list[str], where: list[Pos]) -> list[str]:
        """The rondel space a checkpoint names (`space lower-trade`, or `space lower trade`)."""
        if self.figure_table.kinds.get(key) != "spaces" or not words:
            return words
        written = "-".join(words)
        token = word_token(written, Pos(where[0].line, where[0].column, where[-1].end_column))
        return [self._builder.names.space(token)]

    # the notation module's, called without a method around it: a random game writes every move
    format_move = staticmethod(format_move)

    # --- a game in progress -----------------------------------------------------------------

    def new_state(self, seats: list[Seat], start: int, header: Header, trace: Trace) -> HamburgumState:
        return HamburgumState(self, seats, start, trace)

    # --- the search ---------------------------------------------------------------------------

    def next_words(self, state: HamburgumState, words: list[str]) -> list[str]:
        """A whole turn word by word (the list of moves holds one step of each kind)."""
        return self._looks("play").next_words(state, words)
