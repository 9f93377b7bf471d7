"""The Canterbury game object: the tables built once from the spec, and what the engine asks
of a game (moves read and written, a new state, the spec's cross-checks, the search for moves).

The rules themselves are in rules.py; this module only puts the parts together, so it is
the one module of the package that imports all the others; only the package's
`__init__.py` imports it.
"""

from __future__ import annotations

from lark import Tree

from referee.errors import Pos, RecordError
from referee.games.base import Game, Seat, Trace
from referee.games.canterbury import _search
from referee.games.canterbury.checks import check_board, check_keyed, check_neutral, check_scoring, check_structures, check_treasury
from referee.games.canterbury.moves import Action
from referee.games.canterbury.notation import Notation, format_move
from referee.games.canterbury.rules import CHOSEN, FIGURE_READERS, Build, BuildNames, CanterburyState, District, Outcome, Size, Structure
from referee.games.canterbury.scoring import keyed
from referee.i18n import Message, Named, current
from referee.notation.parser import Header, Move
from referee.spec.figures import FigureTable
from referee.spec.loader import Spec, load_spec


class Canterbury(Game):
    name = "canterbury"
    lists_quickly = False  # a Full Build position holds thousands of moves
    printed_module = f"{__package__}.printed"  # what moves change by printed numbers (box --infer)
    # how people look at a game: the position in text, as a picture, and moves in sentences
    view_module, picture_module, sentences_module = f"{__package__}.view", f"{__package__}.picture", f"{__package__}.sentences"
    play_module = f"{__package__}.play"  # legal and random moves

    def __init__(self, spec: Spec):
        super().__init__(spec)
        self.services = [s["id"] for s in spec["services"]["services"]]
        self._before = {s: tuple(self.services[:i]) for i, s in enumerate(self.services)}  # placement asks often
        self.building_spaces = spec["board"]["building_spaces"]
        self.sizes = {name: Size(name, rank, s["spaces"], s["cubes"], s.get("chosen_districts", 0), s["demolition"]) for rank, (name, s) in enumerate(spec["structures"]["sizes"].items())}
        self.structures = {sid: self._structure(sid, s) for sid, s in spec["structures"]["structures"].items()}
        # the spaces each structure fills, and the services a structure's cubes need before them,
        # by structure id: a search for moves asks them of thousands of candidate placings
        self._spaces = {sid: s.spaces for sid, s in self.structures.items()}
        self._scored = {sid: 0 if s.scores_as_empty else s.spaces for sid, s in self.structures.items()}  # (scored_spaces)
        self.ranks = {sid: self.sizes[s.size].rank for sid, s in self.structures.items()}  # of each one's size
        self._needs = {sid: frozenset(self._before[s.service]) for sid, s in self.structures.items()}
        self.buildable = [sid for sid, s in self.structures.items() if not s.set_out]
        self.naming = frozenset(sid for sid, s in self.structures.items() if self.sizes[s.size].cubes == CHOSEN)  # cubes to named districts
        self._costs_by_sizes: dict[tuple[str, ...] | None, list[tuple[str, int]]] = {}  # (costs_of)
        self.districts = {d: District(d, v["ring"], tuple(v["neighbours"])) for d, v in spec["board"]["districts"].items()}
        self.district_ids = list(self.districts)
        self.district_order = {d: i for i, d in enumerate(self.district_ids)}
        # each district with those that list it as a neighbour: where its first tile gives connectivity
        self.links = {d: frozenset({d, *(o for o, other in self.districts.items() if d in other.neighbours)}) for d in self.districts}
        # each district with those adjacent to it either way: the districts in which a structure
        # placed there can change what may stand and what a demolition finds beside it
        self.around = {d: frozenset({d, *info.neighbours, *(o for o, other in self.districts.items() if d in other.neighbours)}) for d, info in self.districts.items()}
        self.neutral = spec["setup"]["neutral"]
        # the sizes that may share a Full Build: those not built alone
        alone = spec["setup"]["full_build"].get("alone", [])
        self.pair = tuple(s for s in self.sizes if s not in alone)
        self.play = spec["play"]
        self._names: dict[tuple, BuildNames] = {}  # (names_of)
        self.notation = Notation(spec)
        self.figure_table = FigureTable(spec, FIGURE_READERS)

    def _structure(self, sid: str, s: dict) -> Structure:
        printed = s["printed"]
        return Structure(
            id=sid,
            name=s["names"]["en"],
            service=s["service"],
            size=s["size"],
            spaces=self.sizes[s["size"]].spaces,
            tiles=printed["tiles"],
            cost=printed.get("cost", 0),
            city=printed.get("city", 0),
            player=printed.get("player", 0),
            kind=s.get("counts_as", sid),
            scores_as_empty=bool(s.get("scores_as_empty")),
            set_out=bool(s.get("set_out")),
        )

    @classmethod
    def required_variants(cls, players: int) -> list[str]:
        required = load_spec(cls.name)["setup"].get("required_variants") or {}
        return list(keyed(required, players) or [])

    # --- spec checks -----------------------------------------------------------------------

    @classmethod
    def check_spec(cls, spec: Spec) -> None:
        check_keyed(spec)  # first: the other checks look entries up by these keys
        check_board(spec)
        check_structures(spec)
        check_treasury(spec)
        check_scoring(spec)
        check_neutral(spec)

    # --- helpers the rules share: look-ups in the tables -----------------------------------

    def structure_name(self, sid: str) -> str:
        return self.structures[sid].name

    def ring_name(self, ring: str) -> str:
        return self.spec["board"]["rings"][ring]["names"]["en"]

    def action_title(self, kind: str) -> str:
        """An action of the player board (setup.yaml: actions) in the language in use."""
        return self.spec.name(self.spec["setup"]["actions"].get(kind), current(), kind)

    # names a message shows in the language of its reader (referee.i18n.Named)

    def structure_named(self, sid: str) -> Named:
        return Named(self.structures[sid].name, self.spec["structures"]["structures"][sid]["names"])

    def ring_named(self, ring: str) -> Named:
        names = self.spec["board"]["rings"][ring]["names"]
        return Named(names["en"], names)

    def size_named(self, size: str) -> Named:
        return Named(size, (self.spec["structures"]["sizes"].get(size) or {}).get("names"))

    def service_named(self, service: str) -> Named:
        entry = next((s for s in self.spec["services"]["services"] if s["id"] == service), {})
        return Named(service, entry.get("names"))

    def services_before(self, service: str) -> tuple[str, ...]:
        return self._before[service]

    def free_spaces(self, tiles: list[str]) -> int:
        return self.building_spaces - sum(map(self._spaces.__getitem__, tiles))

    def costs_of(self, sizes: tuple[str, ...] | None) -> list[tuple[str, int]]:
        """The structures that may be built, of these sizes (None: of any), each with its cost:
        a search filters them by supply and money for every structure it thinks of."""
        found = self._costs_by_sizes.get(sizes)
        if found is None:
            structures = self.structures
            found = self._costs_by_sizes[sizes] = [(sid, structures[sid].cost) for sid in self.buildable if sizes is None or structures[sid].size in sizes]
        return found

    def names_of(self, build: Build) -> BuildNames:
        """The spec values a build action names for this structure of it as its checks pass:
        after the supply, its tiles; after the payment, its cost; once placed, its district's
        neighbours (connectivity), the points it prints for the district's ring (whether it
        may stand there, and what it scores), its and its demolitions' names and the names of
        its districts."""
        key = (build.structure, build.district, build.demolish, build.serving)
        found = self._names.get(key)
        if found is None:
            info, rule = self.structures[build.structure], self.rule
            player = info.printed("player", self.districts[build.district].ring)
            placing = (
                (rule("connectivity"), (f"board:districts.{build.district}.neighbours",)),
                (rule("centre-forbidden"), (player,)),
                (rule("player-marker"), (player,)),
                (rule("structure-names"), tuple(f"structures:structures.{sid}.names" for sid in (build.structure, *build.demolish))),
                (rule("district-names"), ("board:aliases", *(f"board:districts.{d}" for d in (build.district, *build.serving)))),
            )
            found = self._names[key] = BuildNames(
                ((rule("supply"),), (info.printed("tiles"),)),
                ((rule("payment"),), (info.printed("cost"),)),
                (tuple(dict.fromkeys(r for r, _ in placing)), tuple(v for _, values in placing for v in values)),
                info.printed("city"),
            )

        return found

    def services_needed(self, structure: str) -> frozenset[str]:
        """The services whose cubes a district needs before this structure may stand in it."""
        return self._needs[structure]

    def scored_spaces(self, tiles: list[str]) -> int:
        """Occupied building spaces for district scoring; the Roman well's counts as empty."""
        return sum(map(self._scored.__getitem__, tiles))

    # --- notation --------------------------------------------------------------------------

    def keywords(self):
        return self.notation.keywords

    def build_move(self, tree: Tree) -> Move:
        return self.notation.build_move(tree)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    # --- a game in progress, and the search for its moves ----------------------------------

    def new_state(self, seats: list[Seat], start: int, header: Header, trace: Trace) -> CanterburyState:
        count = len(seats)
        where = header.pos("players") or Pos(1, 1)
        required = self.required_variants(count)
        if required and not self.neutral:
            raise RecordError(
                Message(
                    '{count} players play Canterbury with the {variants} variant (a neutral player); add [Variant "{tag}"] to the header or pass --variant {first}',
                    count=count,
                    variants=" and ".join(required),
                    tag=", ".join(required),
                    first=required[0],
                ),
                where,
            )
        if self.neutral and count not in self.neutral["players"]:
            counts = " or ".join(map(str, self.neutral["players"]))
            raise RecordError(Message("the neutral player's variant is for {counts} players, not {count}", counts=counts, count=count), where)
        seated = {s.colour for s in seats}
        neutral_colour = next((c for c in self.spec.meta["colours"] if c not in seated), None) if self.neutral else None
        return CanterburyState(self, seats, start, trace, neutral_colour)

    # --- what the rules ask of the search (_search.py), which they never import -----------------

    def can_full_build(self, state: CanterburyState, colour: str) -> bool:
        """Whether the player can make a Full Build of one structure now: the first round and
        the turn after a Levy call for one where one is possible (rules.py, `check_choice`)."""
        return _search.can_full_build(state, colour)

    def worked_out(self, state: CanterburyState, move: Move) -> Outcome | None:
        """What a random player worked out for this very action of this state just before it
        is applied, or None: `apply` commits it instead of working the action out again."""
        return _search.worked_out(state, move) if isinstance(move, Action) else None

    def next_words(self, state: CanterburyState, words: list[str]) -> list[str]:
        return self._looks("play").next_words(state, words)
