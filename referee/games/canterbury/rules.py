"""Canterbury's rules: the state of a game and how each move changes it.

The city is a graph of districts read from `specs/canterbury/board.yaml`; structures, the
treasury track, the bonuses and every other number come from the other spec files, so
typing in the numbers printed in a particular box changes the referee, not this module.
The state reads as the rulebook does: set-up, a turn's choice of action, the Levy, Full
Build and Tax & Build, placement, demolition, district scoring and the final scoring, the
neutral player of the two-player variant, then the figures a checkpoint may state.

An action is worked out on a copy of the board and committed only when every rule
holds. A rejected move therefore leaves the state as it was, and the random player
(play.py) tries its candidate moves with the very code that checks records.

The game object (game.py) is reached only through the state's `game` attribute: it holds
the tables built from the spec and is never imported here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from referee.errors import Pos, RecordError, Violation
from referee.games.base import Game, Seat, Situation, Standing, State, Trace, require
from referee.games.canterbury.moves import FULL, LEVY, TAX, Action, Build, NeutralStep
from referee.games.canterbury.scoring import FIRST, SECOND, district_awards, divide, favour_awards, favour_cells, keyed
from referee.i18n import N_, Message, _, localized
from referee.notation.colours import Named, colour_named
from referee.notation.names import nearest
from referee.notation.parser import Move
from referee.terminal import odd_letters

# How a structure of a size spreads its service cubes (structures.yaml, sizes).
OWN, NEIGHBOURS, CHOSEN = "own", "neighbours", "chosen"
# Where a player's prosperity comes from; also the checkpoint keys for each part.
# the sources of prosperity, keys of a player's points: English as strings, shown in the language in use
START, STRUCTURES, UPGRADE, OPENING, DISTRICTS, FAVOUR, SHILLINGS = (
    Message(source) for source in (N_("start"), N_("structures"), N_("upgrade"), N_("opening"), N_("districts"), N_("favour"), N_("shillings"))
)
MONEY = Message(N_("money"))  # the tie-break
SOURCES = (START, STRUCTURES, UPGRADE, OPENING, DISTRICTS, FAVOUR, SHILLINGS)
# Placement problems that a different order of two structures may cure.
ORDER_SENSITIVE = ("connectivity", "services-first")
# Placement problems that are facts of the pieces, which no ruling of the table sets aside: a
# district with too few empty building spaces cannot hold the tile, and a tile that prints no
# points for a ring has nothing to score there.
FACTS_OF_THE_PIECES = ("space", "centre-forbidden")


# --- static data ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Size:
    """A structure size (small, medium, large) as structures.yaml describes it: the spaces it
    fills, where its cubes go, what it may demolish."""

    name: str
    rank: int  # 0 for the smallest
    spaces: int
    cubes: str
    chosen: int
    demolition: dict | None


@dataclass(frozen=True)
class Structure:
    """One structure tile as printed, read from structures.yaml once per game."""

    id: str
    name: str
    service: str
    size: str
    spaces: int
    tiles: int
    cost: int
    city: int
    player: Any  # points, or points by ring (None: not in that ring)
    kind: str  # what the rule against duplicates compares: the Roman well is a well
    scores_as_empty: bool
    set_out: bool

    def points_in(self, ring: str) -> int | None:
        return self.player.get(ring) if isinstance(self.player, dict) else self.player

    def printed(self, key: str, ring: str | None = None) -> str:
        """The spec address of a number printed on the tile; a large tile's player points by ring."""
        address = f"structures:structures.{self.id}.printed.{key}"
        return f"{address}.{ring}" if ring is not None and isinstance(self.player, dict) else address


@dataclass(frozen=True)
class District:
    """A district of the board: its ring and the districts it borders."""

    id: str
    ring: str
    neighbours: tuple[str, ...]


@dataclass(frozen=True)
class BuildNames:
    """What each check of a build action reads for one of its structures, named when the
    check passes (see `CanterburyState.use`): the rules applied and the spec values they
    read, as (rules, values). Put together once per structure, district, demolitions and
    served districts (`Canterbury.names_of`): a replay names them for every action it checks."""

    supply: tuple[tuple[str, ...], tuple[str, ...]]  # the tiles on the sideboard
    payment: tuple[tuple[str, ...], tuple[str, ...]]  # the cost
    placing: tuple[tuple[str, ...], tuple[str, ...]]  # where it stands, what it scores, the names
    city: str  # the city points printed on the tile, named as the city marker moves


def _stands(structures: dict[str, Structure], tile_lists: Iterable[list[str]], service: str, sizes: list[str]) -> bool:
    """Whether a structure of the service, of one of the sizes, stands among these tiles
    (a search asks it of the whole city for thousands of candidate demolitions)."""
    if not sizes:
        return False
    for tiles in tile_lists:
        for tile in tiles:
            info = structures[tile]
            if info.service == service and info.size in sizes:
                return True
    return False


# --- state --------------------------------------------------------------------------------------


@dataclass
class Board:
    """The tiles in every district, the cubes on every service slot, and the sideboard.

    Every action is worked out on a copy, and an action changes two or three districts of
    twenty-five, so a copy shares each district's tiles and cubes with its original until it
    changes them (`place`, `remove`, `put_cube`): only then does it take a copy of its own.
    """

    tiles: dict[str, list[str]]
    cubes: dict[str, dict[str, str]]  # district -> service -> owner
    supply: dict[str, int]
    used: Counter  # owner -> service cubes on the board
    # (service, owner) -> districts where the owner has that service's cube: the rows of the
    # King's favour board, kept as cubes are placed because every checkpoint states them all
    rows: Counter | None = None  # counted from `cubes` when not given
    owned: set[str] = field(default_factory=set, repr=False, compare=False)  # districts not shared
    # The districts, in the board's order, that hold a tile or border one that does (`linked`):
    # None until asked. Only a district's first tile or the loss of its last changes them, a
    # few times a game, while every search asks where a structure may stand. A first tile
    # only adds districts: those are added when next asked (`linked_pending`), the rest kept.
    linked_districts: list[str] | None = field(default=None, repr=False, compare=False)
    linked_pending: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rows is None:
            self.rows = Counter((service, owner) for slots in self.cubes.values() for service, owner in slots.items())

    def copy(self) -> Board:
        used, rows = Counter(self.used), Counter(self.rows)
        self.owned = set()  # from now on both share every district: each copies before it writes
        return Board(dict(self.tiles), dict(self.cubes), dict(self.supply), used, rows, linked_districts=self.linked_districts, linked_pending=self.linked_pending)

    def linked(self, game: Game) -> list[str]:
        """The districts that connectivity lets a structure stand in (a list not to be changed)."""
        found = self.linked_districts
        if found is None:
            tiles = self.tiles
            found = [d for d, info in game.districts.items() if tiles[d] or any(map(tiles.__getitem__, info.neighbours))]
        elif self.linked_pending:
            known = set(found)
            fresh = {d for opened in self.linked_pending for d in game.links[opened] if d not in known}
            if fresh:
                found = sorted([*found, *fresh], key=game.district_order.__getitem__)
        self.linked_districts, self.linked_pending = found, ()
        return found

    def _own(self, district: str) -> None:
        if district not in self.owned:
            self.tiles[district] = list(self.tiles[district])
            self.cubes[district] = dict(self.cubes[district])
            self.owned.add(district)

    def place(self, district: str, structure: str) -> None:
        self._own(district)
        tiles = self.tiles[district]
        if not tiles and self.linked_districts is not None:
            self.linked_pending += (district,)
        tiles.append(structure)

    def remove(self, district: str, structure: str) -> None:
        self._own(district)
        tiles = self.tiles[district]
        tiles.remove(structure)
        if not tiles:
            self.linked_districts, self.linked_pending = None, ()

    def put_cube(self, district: str, service: str, owner: str) -> None:
        self._own(district)
        self.cubes[district][service] = owner
        self.used[owner] += 1
        self.rows[service, owner] += 1


@dataclass
class Player:
    """One player's seat, money, points by source and what their next turn owes the rules."""

    seat: Seat
    rank: int
    money: int
    points: dict[str, int]
    must_full_build: bool = False
    favour: dict[str, int] = field(default_factory=dict)  # King's favour points by service
    marker_build: bool = False  # the variant marker shows Build
    stacks: list[list[str]] = field(default_factory=list)  # the neutral's tiles, top first

    @property
    def prosperity(self) -> int:
        return sum(self.points.values())


@dataclass
class City:
    """The city marker on the prosperity track, and the discs it has passed space 0 with."""

    prosperity: int
    discs: int = 0


@dataclass
class Outcome:
    """What an action does, worked out on a copy of the board before it is committed."""

    board: Board
    income: int = 0
    cost: int = 0
    points: Counter = field(default_factory=Counter)
    city_points: int = 0
    opened: list[str] = field(default_factory=list)


# --- the state -----------------------------------------------------------------------------------


class CanterburyState(State):
    """One game in progress: the board, the players, the city's prosperity and whose turn it is."""

    score_figure = "prosperity"
    adoptable = {"money": "money"}
    # --- set-up ------------------------------------------------------------------------------

    def __init__(self, game: Game, seats: list[Seat], start: int, trace: Trace, neutral_colour: str | None):
        """`game` is the Canterbury object of game.py (which imports this module, so it is typed
        by its base class here)."""
        spec = game.spec
        setup = spec["setup"]
        self.game = game
        self.spec = spec
        self.trace = trace
        self.seats = seats
        self.neutral = game.neutral  # the variant's settings, None without it
        self.neutral_colour = neutral_colour
        self._cube_stocks: dict[str, int] = {}  # by colour (cube_stock)
        count = len(seats)
        self.order = [seats[(start + i) % count].colour for i in range(count)]  # rank order
        self.players: dict[str, Player] = {}
        for rank, colour in enumerate(self.order, 1):
            seat = next(s for s in seats if s.colour == colour)
            points = {source: 0 for source in SOURCES}
            points[START] = setup["prosperity_start"]
            self.players[colour] = Player(seat, rank, setup["money"], points)
        trace.use(game.rule("start-money"))
        self.board = self._initial_board()
        treasury = spec["treasury"]
        start_at = treasury["city"]["start"]
        self.city = City(start_at, min(start_at // treasury["track_length"], treasury["city"]["discs"]))
        trace.use(game.rule("city-start"))
        if self.neutral:
            self._deal_stacks()
        self.turns = 0  # completed turns
        self.scorings = 0
        self.pending_scorings = 0
        self.end_triggered = False
        self.final_turns: int | None = None  # turns left after the one that triggered the end
        self.over = False
        self.neutral_due = False
        self.moves_this_turn = 0
        self.opened: list[str] = []
        self._begin_turn()

    def _initial_board(self) -> Board:
        """The board before the first turn: the Roman well, the city's cube, the full sideboard."""
        game = self.game
        board_spec = self.spec["board"]
        tiles: dict[str, list[str]] = {d: [] for d in game.districts}
        cubes: dict[str, dict[str, str]] = {d: {} for d in game.districts}
        well = board_spec["roman_well"]
        tiles[well["district"]].append(well["structure"])
        cube = board_spec["city_cube"]
        cubes[cube["district"]][cube["service"]] = cube["owner"]
        supply = {sid: s.tiles for sid, s in game.structures.items() if not s.set_out}
        return Board(tiles, cubes, supply, Counter())

    def _deal_stacks(self) -> None:
        """Each player's neutral stacks are taken from the supply (rules.yaml, neutral-setup)."""
        start_build = self.neutral["marker_start"] == "build"
        for player in self.players.values():
            player.marker_build = start_build
            player.stacks = [list(stack["tiles"]) for stack in self.neutral["stacks"]]
            for stack in player.stacks:
                for tile in stack:
                    self.board.supply[tile] -= 1
        self.use("neutral-setup", "setup:neutral.marker_start", "setup:neutral.stacks")

    # --- whose turn --------------------------------------------------------------------------

    def to_act(self) -> str:
        return self.order[self.turns % len(self.order)]

    def first_round(self) -> bool:
        return self.turns < len(self.order)

    def _begin_turn(self) -> None:
        """Flip the active player's variant marker: on Build the neutral places a tile first."""
        self.opened = []
        self.moves_this_turn = 0
        if not self.neutral:
            return
        player = self.players[self.to_act()]
        player.marker_build = not player.marker_build
        self.neutral_due = player.marker_build and any(player.stacks)
        self.use("variant-marker", "setup:neutral.marker_start", "setup:neutral.stacks")

    # --- the treasury ------------------------------------------------------------------------

    def city_position(self) -> int:
        return self.city.prosperity - self.city.discs * self.spec["treasury"]["track_length"]

    def levy(self) -> int:
        treasury = self.spec["treasury"]
        return treasury["levy"][self.city_position()] + treasury["disc_bonus"] * self.city.discs

    def tax(self) -> int:
        tax = self.spec["treasury"]["tax"]
        return divide(self.levy(), tax["divisor"], tax["rounding"])

    def levy_values(self) -> list[str]:
        """The spec values the Levy is read from: the track at the city marker's space, and the discs."""
        return [f"treasury:levy.{self.city_position()}", "treasury:track_length", "treasury:disc_bonus"]

    def use(self, short: str, value: str, *more: str) -> None:
        """A rule was applied using only the spec values at these addresses (`file:key`), so the
        report lists only the uncertain values among them (see Trace.use)."""
        self.trace.use(self.game.rule(short), value, *more)

    # --- applying moves ----------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        # the outcome of this very action, when a random player has just worked it out (its
        # trace records nothing): committed as it was worked out (_search.py, `remember`)
        worked_out = self.game.worked_out(self, move)
        rule = self.game.rule
        if move.player not in self.players:  # the city and the neutral player make no moves
            State.seat(self, move.player, move.pos, rule("seat"))
        actor = self.to_act()
        turn_order = rule("turn-order")
        # (the message is put together only for a broken rule: this runs every move)
        require(move.player == actor, turn_order, lambda: Message("it is {actor}'s turn, not {player}'s", actor=colour_named(actor), player=colour_named(move.player)))
        self.trace.use(turn_order)
        if isinstance(move, NeutralStep):
            self._neutral_step(move)
            self.moves_this_turn += 1
            return
        require(
            not self.neutral_due,
            rule("variant-marker"),
            lambda: Message(
                "{actor}'s variant marker shows Build: first the neutral places the top tile of {actor}'s stack (the {tile})",
                actor=colour_named(actor),
                tile=self.game.structure_named(self.neutral_stack(self.players[actor])[0]),
            ),
            waivable=False,
        )
        outcome = worked_out if worked_out is not None else self.execute(move)
        self._commit(move, outcome)
        self.moves_this_turn += 1
        self._end_turn()

    def execute(self, move: Action) -> Outcome:
        """Check an action against every rule and work out what it does, without committing
        it: the choice of action; for the Levy, its income; for a build, how many structures,
        the sideboard, the payment, the demolitions and the placing of each structure, and
        then what it scores. Each check names the spec values it read once it passes."""
        player = self.players[move.player]
        self.check_choice(player, move.kind)
        if move.kind == LEVY:
            return self._levy()
        income = self.tax() if move.kind == TAX else 0
        self._check_count(move)
        board = self.board.copy()
        cost = self._take_from_sideboard(board, move.builds)
        self._check_payment(move, player.money + income, income, cost)
        upgrades = self.demolish(board, move.builds)
        opened = self._place_all(board, move.builds, move.player)
        self._read(move.builds, "placing")
        return Outcome(board, income, cost, self._built_points(move.builds, upgrades), self._city_points(move.builds), opened)

    def _levy(self) -> Outcome:
        """The Levy: the treasury pays the city marker's amount."""
        if self.trace.records:  # a trial's trace names no spec values: they are not put together
            self.use("levy", *self.levy_values())
        self.trace.use(self.game.rule("coin-supply"))
        return Outcome(self.board, income=self.levy())

    def _take_from_sideboard(self, board: Board, builds: tuple[Build, ...]) -> int:
        """Each structure comes from the structure sideboard; what they cost together."""
        game, supply = self.game, self.game.rule("supply")
        cost = 0
        for build in builds:
            info = game.structures[build.structure]
            require(not info.set_out, supply, lambda: Message("the {name} is set out before play and is never built", name=game.structure_named(build.structure)), build.pos)
            left = board.supply[build.structure]
            require(left > 0, supply, lambda: Message("no {name} is left on the structure sideboard", name=game.structure_named(build.structure)), build.pos)
            board.supply[build.structure] = left - 1
            cost += info.cost
        self._read(builds, "supply")
        return cost

    def _check_payment(self, move: Action, funds: int, income: int, cost: int) -> None:
        """The player pays for the structures, with the tax of a Tax Build."""
        require(cost <= funds, self.game.rule("payment"), lambda: self._unpaid(move.player, funds, income, move.builds, cost))
        self._read(move.builds, "payment")

    def _read(self, builds: tuple[Build, ...], check: str) -> None:
        """Name what a check of the builds read (`BuildNames`), once it has passed; a trace
        that records nothing (a trial's, a random game's) skips them."""
        if self.trace.records:
            for build in builds:
                self.trace.use_each(*getattr(self.game.names_of(build), check))

    def _built_points(self, builds: tuple[Build, ...], upgrades: set[int]) -> Counter:
        """The prosperity the structures print for their districts' rings, and the upgrade bonus."""
        game = self.game
        built = 0
        for build in builds:
            built += game.structures[build.structure].points_in(game.districts[build.district].ring)
        points = Counter()  # each set once (a Counter finds a missing key in Python code)
        points[STRUCTURES] = built
        points[UPGRADE] = len(upgrades) * self.spec["scoring"]["upgrade"]["points"] if upgrades else 0
        if upgrades:
            self.trace.use(game.rule("upgrade-bonus"))
        return points

    def _city_points(self, builds: tuple[Build, ...]) -> int:
        """The city points printed on the structures, which move the city marker."""
        structures = self.game.structures
        city = 0
        for build in builds:
            city += structures[build.structure].city
        return city

    def check_choice(self, player: Player, kind: str) -> None:
        """The first round and the turn after a Levy call for a Full Build, when one is possible."""
        if not player.must_full_build and not self.first_round():
            return  # most turns: any action (every action asks, and so does every trial)
        rule, setup = self.game.rule, self.spec["setup"]
        colour = player.seat.colour
        if self.first_round():
            self.trace.use(rule("first-round"))
            if kind != setup["first_round"]:
                require(
                    not self.game.can_full_build(self, colour),
                    rule("first-round"),
                    Message("the first round is {action} only, and {colour} can build", action=self._action_name(setup["first_round"]), colour=colour_named(colour)),
                )
        elif player.must_full_build:
            self.trace.use(rule("after-levy"))
            if kind != setup["after_levy"]:
                require(
                    not self.game.can_full_build(self, colour),
                    rule("after-levy"),
                    Message("{colour} took a Levy last turn, so this turn is a {action}, and {colour} can build", action=self._action_name(setup["after_levy"]), colour=colour_named(colour)),
                )

    def _unpaid(self, colour: str, funds: int, income: int, builds: tuple[Build, ...], cost: int) -> Message:
        """Why the player cannot pay for the structures."""
        values = {"colour": colour_named(colour), "funds": funds, "priced": self._priced(builds), "cost": cost}
        if income:
            return Message("{colour} has {funds} shillings after the tax; {priced} cost {cost}", **values)
        return Message("{colour} has {funds} shillings; {priced} cost {cost}", **values)

    def _priced(self, builds: tuple[Build, ...]) -> Message:
        """The structures of an action with their prices, for a message: "the Well (2) and the Shop (4)"."""
        game = self.game
        priced = [Message("the {structure} ({cost})", structure=game.structure_named(b.structure), cost=game.structures[b.structure].cost) for b in builds]
        return _chained(N_("{first} and {second}"), priced)

    def _count_message(self, kind: str, low: int, high: int, count: int) -> Message:
        """Why an action builds too few or too many structures."""
        values = {"action": self._action_name(kind), "low": low, "high": high, "count": count}
        if low == high:
            if high == 1:
                return Message("a {action} builds {low} structure, not {count}", **values)
            return Message("a {action} builds {low} structures, not {count}", **values)
        if high == 1:
            return Message("a {action} builds {low} to {high} structure, not {count}", **values)
        return Message("a {action} builds {low} to {high} structures, not {count}", **values)

    def _action_name(self, kind: str) -> Named:

        names = self.spec["setup"]["actions"][kind]["names"]
        return Named(names["en"], names)

    def _check_count(self, move: Action) -> None:
        """How many structures, and of which sizes, one action builds."""
        game = self.game
        key = "full_build" if move.kind == FULL else "tax_build"
        limits = self.spec["setup"][key]
        count = len(move.builds)
        self.check_number(move.kind, count, limits)
        alone = [game.structures[b.structure] for b in move.builds if game.structures[b.structure].size in limits.get("alone", ())] if count > 1 else []
        require(
            not alone,
            game.rule(move.kind),
            lambda: Message(
                "a {size} structure ({name}) is the only structure of its {kind}", size=self._size_named(alone[0].size), name=game.structure_named(alone[0].id), kind=self._action_name(move.kind)
            ),
            move.builds[-1].pos,
            waivable=False,
        )
        if self.trace.records:  # a search checks thousands of counts and names no value
            taxed = ["treasury:tax", *self.levy_values()] if move.kind == TAX else []
            self.use(move.kind, f"setup:{key}", *taxed)

    def check_number(self, kind: str, count: int, limits: dict | None = None) -> None:
        """How many structures an action of a kind builds (`limits`: setup's entry for the
        kind, when the caller has read it)."""
        if limits is None:
            limits = self.spec["setup"]["full_build" if kind == FULL else "tax_build"]
        low, high = limits["structures"]["min"], limits["structures"]["max"]
        require(low <= count <= high, self.game.rule(kind), lambda: self._count_message(kind, low, high, count))

    # --- placement ---------------------------------------------------------------------------

    def placement_rule(self, board: Board, structure: str, district: str, passed: Collection[str] = ()) -> str | None:
        """The rule that keeps a structure out of a district now, or None when it may stand
        there; rules `passed` (set aside by a ruling of the table) are not asked. A search asks
        it of thousands of candidates, most of them refused; the reason is worded only for a
        verdict (`_check_placing`)."""
        game = self.game
        structures = game.structures
        info = structures[structure]
        where = game.districts[district]
        tiles = board.tiles[district]
        if not tiles and not any(map(board.tiles.__getitem__, where.neighbours)) and "connectivity" not in passed:
            return "connectivity"
        if info.points_in(where.ring) is None:
            return "centre-forbidden"
        kind = info.kind
        for twin in tiles:
            if structures[twin].kind == kind and "no-duplicate" not in passed:
                return "no-duplicate"
        if game.free_spaces(tiles) < info.spaces:
            return "space"
        if not self.services_ready(board, structure, district) and "services-first" not in passed:
            return "services-first"
        return None

    def _check_placing(self, board: Board, build: Build, owner: str, builds: tuple[Build, ...] = (), whose: str = "") -> None:
        """Refuse a structure's placing for the first rule it breaks, and when the table's
        ruling sets that rule aside, for the next, until none is left: then it may be placed.
        A rule that is a fact of the pieces is never set aside. `builds` is the action the
        structure is placed in (its order may be the problem), `whose` words whose tile it is."""
        rule = self.game.rule
        passed: list[str] = []
        while (broken := self.placement_rule(board, build.structure, build.district, passed)) is not None:
            reason = self._placement_reason(broken, board, build.structure, build.district)
            if whose:
                reason = Message("{whose}{reason}", whose=whose, reason=reason)
            require(broken not in FACTS_OF_THE_PIECES, rule(broken), reason, build.pos, waivable=False)
            order_wrong = broken in ORDER_SENSITIVE and self._other_order_works(self._board_before_placing(builds), builds, owner)
            require(
                not order_wrong, rule("build-order"), Message("{reason}; placed in the other order both structures would be legal, and the record gives the order of placing", reason=reason), build.pos
            )
            require(False, rule(broken), reason, build.pos)  # broken, unless a ruling of the table sets it aside
            passed.append(broken)

    def _placement_reason(self, rule: str, board: Board, structure: str, district: str) -> str:
        """The reason `placement_rule` keeps a structure out of a district, in words."""
        game = self.game
        info = game.structures[structure]
        tiles = board.tiles[district]
        if rule == "connectivity":
            return Message("{district} holds no structure and borders no district that does", district=district)
        if rule == "centre-forbidden":
            return Message(
                "the {structure} may not be built in the {ring} ({district})", structure=game.structure_named(structure), ring=game.ring_named(game.districts[district].ring), district=district
            )
        if rule == "no-duplicate":
            twin = next(t for t in tiles if game.structures[t].kind == info.kind)
            return Message("{district} already holds the {structure}", district=district, structure=game.structure_named(twin))
        if rule == "space":
            free = game.free_spaces(tiles)
            if info.spaces == 1:
                spaces = Message("{n} empty building space", n=info.spaces)
            else:
                spaces = Message("{n} empty building spaces", n=info.spaces)
            empty = Message("{n} is empty", n=free) if free == 1 else Message("{n} are empty", n=free)
            return Message("the {structure} needs {spaces} in {district}; {empty}", structure=game.structure_named(structure), spaces=spaces, district=district, empty=empty)
        missing = [s for s in game.services_before(info.service) if s not in board.cubes[district]]
        return Message(
            "the {structure} ({service}) needs {missing} in {district} first",
            structure=game.structure_named(structure),
            service=game.service_named(info.service),
            missing=[game.service_named(s) for s in missing],
            district=district,
        )

    def services_ready(self, board: Board, structure: str, district: str) -> bool:
        """Whether the district has the cubes of every service the structure's service comes
        after (rule services-first; the search's quick test, see `placement_rule`)."""
        return board.cubes[district].keys() >= self.game.services_needed(structure)

    def _place_all(self, board: Board, builds: tuple[Build, ...], owner: str) -> list[str]:
        """Place the structures in the order written; return the districts they open."""
        rule = self.game.rule
        noting = self.trace.records
        opened: list[str] = []
        compared: list[str] = []  # the structures the rule against duplicates looked at
        for build in builds:
            if noting:
                compared.extend(f"structures:structures.{t}.counts_as" for t in (build.structure, *board.tiles[build.district]))
            self._check_placing(board, build, owner, builds)
            if not self.board.tiles[build.district] and not board.tiles[build.district]:
                opened.append(build.district)
            board.place(build.district, build.structure)
            self._place_cubes(board, build, owner)
        if not noting:
            return opened
        for rid in ("space", "services-first"):
            self.trace.use(rule(rid))
        # (connectivity and centre-forbidden name their values with the action's, see BuildNames)
        self.use("no-duplicate", *compared)
        if len(builds) > 1:
            self.trace.use(rule("build-order"))
        return opened

    def _board_before_placing(self, builds: tuple[Build, ...]) -> Board:
        """The board of an action between its demolitions and its first placing, made again
        for the order check that a refused placing asks for: copying it before every placing
        of two structures cost a search more than the rare refusal that reads it."""
        board = self.board.copy()
        for build in builds:
            for tile in build.demolish:
                board.remove(build.district, tile)
        return board

    def _other_order_works(self, board: Board, builds: tuple[Build, ...], owner: str) -> bool:
        """True when two structures could be placed in the reverse of the order written."""
        if len(builds) <= 1:
            return False
        scratch = board.copy()
        for build in reversed(builds):
            if self.placement_rule(scratch, build.structure, build.district) is not None:
                return False
            scratch.place(build.district, build.structure)
            try:
                self._place_cubes(scratch, build, owner)
            except Violation:
                return False
        return True

    def cube_stock(self, owner: str) -> int:
        """Service cubes a colour has for the districts (rules.yaml, cube-supply), counted once
        per colour: every structure placed asks it."""
        found = self._cube_stocks.get(owner)
        if found is None:
            found = self._cube_stocks[owner] = self._count_cube_stock(owner)
        return found

    def _count_cube_stock(self, owner: str) -> int:
        cubes = self.spec["setup"]["cubes"]
        set_aside = cubes["set_aside"]
        keys = self.neutral["set_aside"] if self.neutral and owner == self.neutral["name"] else set_aside
        return cubes["per_colour"] - sum(set_aside[k] for k in keys)

    def _place_cubes(self, board: Board, build: Build, owner: str) -> None:
        """Cubes on the structure's service slot: own district, neighbours or named districts."""
        game, rule = self.game, self.game.rule
        info = game.structures[build.structure]
        size = game.sizes[info.size]
        targets = [build.district]
        if size.cubes == NEIGHBOURS:
            targets.extend(game.districts[build.district].neighbours)
            if self.trace.records:
                self.use("medium-cubes", f"structures:sizes.{info.size}.cubes", f"board:districts.{build.district}.neighbours")
        elif size.cubes == OWN:
            self.trace.use(rule("small-cubes"))
        large = rule("large-cubes")
        require(
            not build.serving or size.cubes == CHOSEN,
            large,
            lambda: Message("only a large structure names districts for its cubes; the {name} is {size}", name=game.structure_named(build.structure), size=self._size_named(info.size)),
            build.pos,
        )
        if size.cubes == CHOSEN:
            serving = build.serving
            require(len(serving) <= size.chosen, large, lambda: Message("a large structure serves at most {chosen} other districts; {n} are named", chosen=size.chosen, n=len(serving)), build.pos)
            require(len(set(serving)) == len(serving), large, lambda: Message("a district is named twice for the cubes"), build.pos)
            require(build.district not in serving, large, lambda: Message("{district} is the structure's own district; it gets its cube anyway", district=build.district), build.pos)
            for district in serving:
                holder = board.cubes[district].get(info.service)
                require(
                    holder is None,
                    large,
                    lambda: Message(
                        "{district} already has a {service} cube ({holder}); a cube never replaces another", district=district, service=game.service_named(info.service), holder=colour_named(holder)
                    ),
                    build.pos,
                )
            targets.extend(serving)
            self.trace.use(large)
        stock = self.cube_stock(owner)
        for district in targets:
            if info.service in board.cubes[district]:
                continue
            if board.used[owner] >= stock:
                self.trace.use(rule("cube-supply"))
                break
            board.put_cube(district, info.service, owner)

    # --- demolition --------------------------------------------------------------------------

    def demolish(self, board: Board, builds: tuple[Build, ...]) -> set[int]:
        """Carry out the demolitions that open a build action; return the builds that upgrade."""
        if not any([build.demolish for build in builds]):  # most actions demolish nothing
            return set()
        game, rule = self.game, self.game.rule
        need: dict[str, int] = {}
        freed: dict[str, int] = {}
        for build in builds:
            need[build.district] = need.get(build.district, 0) + game.structures[build.structure].spaces
            freed[build.district] = freed.get(build.district, 0) + sum(game.structures[t].spaces for t in build.demolish)
        free_at_start = {d: game.free_spaces(board.tiles[d]) for d in need}
        upgrades: set[int] = set()
        for index, build in enumerate(builds):
            new = game.structures[build.structure]
            for gone_id in build.demolish:
                gone = game.structures[gone_id]
                require(
                    gone_id in board.tiles[build.district],
                    rule("demolition"),
                    lambda: Message(
                        "there is no {name} in {district} to demolish for the {new}", name=game.structure_named(gone_id), district=build.district, new=game.structure_named(build.structure)
                    ),
                    build.pos,
                )
                spare = free_at_start[build.district] + freed[build.district] - gone.spaces
                used = self.check_demolition(board, build, new, gone, spare < need[build.district])
                board.remove(build.district, gone_id)
                if gone.service == new.service:
                    upgrades.add(index)
                if not self.trace.records:
                    continue
                for rid in ("demolition", "demolish-purpose", "demolished-tiles"):
                    self.trace.use(rule(rid))
                self.use(f"demolish-{gone.size}", *used)
                if gone.set_out:
                    self.use("roman-well", "board:roman_well", f"structures:structures.{gone.id}.size")
        return upgrades

    def check_demolition(self, board: Board, build: Build, new: Structure, gone: Structure, room_needed: bool) -> list[str]:
        """Whether a structure may go: its size allows it, it makes way for a larger structure
        that needs the room or serves the same service, and a condition of its size holds.
        Returns the spec values the condition was read from."""
        game, rule = self.game, self.game.rule
        rid = rule(f"demolish-{gone.size}")
        purpose = rule("demolish-purpose")
        conditions = game.sizes[gone.size].demolition
        require(
            conditions is not None,
            rid,
            lambda: Message("the {name} is {size}; a {size} structure is never demolished", name=game.structure_named(gone.id), size=self._size_named(gone.size)),
            build.pos,
        )
        require(
            game.sizes[gone.size].rank < game.sizes[new.size].rank,
            purpose,
            lambda: Message(
                "the {name} makes way only for a larger structure; the {new} is {size}", name=game.structure_named(gone.id), new=game.structure_named(new.id), size=self._size_named(new.size)
            ),
            build.pos,
        )
        same = gone.service == new.service
        require(
            same or room_needed,
            purpose,
            lambda: Message(
                "{district} has room without demolishing the {name}, which serves {service}, not {wanted}",
                district=build.district,
                name=game.structure_named(gone.id),
                service=game.service_named(gone.service),
                wanted=game.service_named(new.service),
            ),
            build.pos,
        )
        used = [f"structures:sizes.{gone.size}.demolition"]
        if not self.demolition_needs_backing(new, gone):
            return used
        used.append(f"board:districts.{build.district}.neighbours")
        require(
            self.demolition_backed(board, gone, build.district),
            rid,
            lambda: Message(
                "the {name} may go only for a larger {service} structure in its place, {help}",
                name=game.structure_named(gone.id),
                service=game.service_named(gone.service),
                help=self._demolition_help(gone),
            ),
            build.pos,
            waivable=False,
        )
        return used

    def demolition_needs_backing(self, new: Structure, gone: Structure) -> bool:
        """Whether taking `gone` down for `new` needs a structure of its service elsewhere (an
        adjacent district, or anywhere in the city): it does unless `new` replaces it, serving
        the same, and is of a size that may."""
        conditions = self.game.sizes[gone.size].demolition
        return not (gone.service == new.service and new.size in conditions["replaced_by"])

    def demolition_backed(self, board: Board, gone: Structure, district: str) -> bool:
        """Whether a structure of `gone`'s service stands where its size's condition looks. A
        search may ask it once of the board as it stands: a demolition of the same action
        only takes tiles away, which never makes it true."""
        game = self.game
        conditions = game.sizes[gone.size].demolition
        if _stands(game.structures, (board.tiles[d] for d in game.districts[district].neighbours), gone.service, conditions["neighbour"]):
            return True
        return _stands(game.structures, board.tiles.values(), gone.service, conditions["anywhere"])

    def _size_named(self, size: str) -> Named:
        """A structure size as a message shows it, in the reader's language."""
        return self.game.size_named(size)

    def _demolition_help(self, gone: Structure) -> Message:
        """The other conditions under which a structure of this size may go, for a message."""
        conditions = self.game.sizes[gone.size].demolition
        service = self.game.service_named(gone.service)
        parts = []
        if conditions["neighbour"]:
            parts.append(Message("a {sizes} {service} structure in an adjacent district", sizes=_either([self._size_named(z) for z in conditions["neighbour"]]), service=service))
        if conditions["anywhere"]:
            parts.append(Message("a {sizes} {service} structure anywhere in the city", sizes=_either([self._size_named(z) for z in conditions["anywhere"]]), service=service))
        return Message("or {ways}", ways=_either(parts)) if parts else Message("and nothing else allows it")

    # --- committing a turn -------------------------------------------------------------------

    def _commit(self, move: Action, outcome: Outcome) -> None:
        player = self.players[move.player]
        self.board = outcome.board
        player.money += outcome.income - outcome.cost
        for source, points in outcome.points.items():
            player.points[source] += points
        self._note_action(move, outcome)
        self.opened.extend(outcome.opened)
        printed = [self.game.names_of(b).city for b in move.builds] if self.trace.records else []
        self._advance_city(outcome.city_points, printed)
        player.must_full_build = move.kind == LEVY

    def _note_action(self, move: Action, outcome: Outcome) -> None:
        """What an action paid and scored, for a ledger."""
        if not self.trace.keeps_notes:
            return
        rule, colour = self.game.rule, move.player
        built = _(" and ").join(_("the {structure} in {district}").format(structure=localized(self.game.structure_named(b.structure)), district=b.district) for b in move.builds)
        self.trace.note(colour, "money", outcome.income, rule(LEVY if move.kind == LEVY else TAX), _("the Levy") if move.kind == LEVY else _("the tax"))
        self.trace.note(colour, "money", -outcome.cost, rule("payment"), _("paid for {built}").format(built=built))
        self.trace.note(colour, STRUCTURES, outcome.points[STRUCTURES], rule("player-marker"), _("built {built}").format(built=built))
        self.trace.note(colour, UPGRADE, outcome.points[UPGRADE], rule("upgrade-bonus"), _("upgraded with {built}").format(built=built))

    def figure_totals(self) -> dict[str, tuple[str, ...]]:
        return {"prosperity": SOURCES}

    def floors(self) -> dict[str, int | None]:
        return {"money": self.spec["setup"]["money_minimum"]}

    def pieces(self) -> dict[str, int]:
        structures = self.game.structures
        return {f"the {structures[sid].name} tiles left on the structure sideboard": left for sid, left in self.board.supply.items()}

    def _advance_city(self, points: int, printed: list[str]) -> None:
        """Move the city marker by the city points printed at these addresses; every pass of
        space 0 adds a disc and a district scoring."""
        treasury = self.spec["treasury"]
        length, most = treasury["track_length"], treasury["city"]["discs"]
        if self.city.discs >= most:
            self.use("city-marker", "treasury:city.discs")
            return
        if self.trace.records:  # a random game's trace names nothing: this runs every action
            self.use("city-marker", "treasury:city", "treasury:track_length", *printed)
        was = self.city.prosperity
        self.city.prosperity += points
        while self.city.discs < most and self.city.prosperity >= (self.city.discs + 1) * length:
            self.city.discs += 1
            self.pending_scorings += 1
        if self.city.discs >= most:
            self.city.prosperity = most * length + treasury["city"]["final_position"]
            self.end_triggered = True
        if self.trace.keeps_notes:
            city = self.spec["board"]["city_cube"]["owner"]
            self.trace.note(city, "prosperity", self.city.prosperity - was, self.game.rule("city-marker"), _("city points of the structures built"))

    def _end_turn(self) -> None:
        """Opening bonuses, then any district scoring, then the next turn (or the end)."""
        rule = self.game.rule
        if self.opened:  # most actions open no district
            player = self.players[self.to_act()]
            per_cube = self.spec["scoring"]["opening"]["points_per_cube"]
            for district in dict.fromkeys(self.opened):
                player.points[OPENING] += per_cube * len(self.board.cubes[district])
                self.trace.note(player.seat.colour, OPENING, per_cube * len(self.board.cubes[district]), rule("opening-bonus"), _("opened {district}").format(district=district))
                self.trace.use(rule("opening-bonus"))
        while self.pending_scorings:
            self.pending_scorings -= 1
            self._score_districts()
        count = len(self.order)
        if self.end_triggered and self.final_turns is None:
            self.final_turns = count - 1 - self.turns % count + count
            self.trace.use(rule("game-end"))
        elif self.final_turns is not None:
            self.final_turns -= 1
        self.turns += 1
        if self.final_turns == 0:
            self._final_scoring()
            return
        self._begin_turn()

    # --- scoring ----------------------------------------------------------------------------

    def _score_districts(self) -> None:
        """One district scoring, then the rank markers' shillings for that scoring."""
        game, rule = self.game, self.game.rule
        district = self.spec["scoring"]["district"]
        secondary, split = district["secondary"], district["split_rounding"]
        city = self.spec["board"]["city_cube"]["owner"]  # read once for the twenty-five districts
        self.scorings += 1
        noting = self.trace.keeps_notes
        for d, tiles in self.board.tiles.items():
            primary = game.scored_spaces(tiles) if tiles else 0
            if not primary:
                continue
            for owner, points in district_awards(self._cube_counts(d, city), primary, secondary, split).items():
                if owner in self.players:
                    self.players[owner].points[DISTRICTS] += points
                    if noting:
                        self.trace.note(owner, DISTRICTS, points, rule("district-scoring"), _("district scoring {n}: {district}").format(n=self.scorings, district=d))
        records = self.trace.records  # a random game's trace names no spec value
        if records:
            # a structure whose space counts as empty (the Roman well) matters while it stands
            empty = sorted({t for tiles in self.board.tiles.values() for t in tiles if game.structures[t].scores_as_empty})
            flags = [f"structures:structures.{t}.scores_as_empty" for t in empty]
            self.use("district-scoring", "scoring:district", *flags)
            if empty:
                self.use("roman-well", "board:roman_well", *flags)
            if self.neutral:
                self.use("neutral-city", "setup:neutral.city_points")
        markers = self.spec["scoring"]["rank_markers"]
        for player in self.players.values():
            amounts = keyed(markers, player.rank) or []
            if self.scorings <= len(amounts):
                player.money += amounts[self.scorings - 1]
                if noting:
                    self.trace.note(
                        player.seat.colour, "money", amounts[self.scorings - 1], rule("rank-markers"), _("rank {rank} after district scoring {n}").format(rank=player.rank, n=self.scorings)
                    )
                if records:
                    self.use("rank-markers", f"scoring:rank_markers.{player.rank}.{self.scorings - 1}")
                self.trace.use(rule("coin-supply"))

    def _cube_counts(self, district: str, city: str | None = None) -> dict[str, int]:
        """Cubes per competitor in a district: players and the neutral, never the city cube
        (`city`: its owner's name, when the caller has read it for every district)."""
        if city is None:
            city = self.spec["board"]["city_cube"]["owner"]
        counts: dict[str, int] = {}
        for owner in self.board.cubes[district].values():
            if owner != city:
                counts[owner] = counts.get(owner, 0) + 1
        return counts

    def favour_positions(self, service: str) -> dict[str, int]:
        """The King's favour board: districts each competitor serves with a service, read
        from the rows the board keeps as cubes are placed."""
        city = self.spec["board"]["city_cube"]["owner"]
        return {owner: n for (row, owner), n in self.board.rows.items() if row == service and n and owner != city}

    def _final_scoring(self) -> None:
        """The fourth district scoring, the King's favour from water to culture, then money."""
        rule, scoring = self.game.rule, self.spec["scoring"]
        self._score_districts()
        read: list[str] = []  # the printed numbers of the favour board that scored
        for service in self.game.services:
            table = scoring["kings_favour"][service]
            positions = self.favour_positions(service)
            awards = favour_awards(positions, table[FIRST], table[SECOND], scoring["district"]["split_rounding"])
            if self.trace.records:  # a random game's trace names no spec value
                read.extend(f"scoring:kings_favour.{service}.{place}.{position}" for place, position in favour_cells(positions))
            for owner, points in awards.items():
                if owner in self.players:
                    self.players[owner].points[FAVOUR] += points
                    self.players[owner].favour[service] = points
                    if self.trace.keeps_notes:
                        why = _("King's favour: {service}").format(service=localized(self.game.service_named(service)))
                        self.trace.note(owner, FAVOUR, points, rule("kings-favour"), why)
                        self.trace.note(owner, f"{FAVOUR}-{service}", points, rule("kings-favour"), why)
        money = scoring["money"]
        for player in self.players.values():
            player.points[SHILLINGS] = divide(player.money, money["shillings_per_point"], money["rounding"])
            self.trace.note(player.seat.colour, SHILLINGS, player.points[SHILLINGS], rule("money-points"), _("{n} shillings at the end").format(n=player.money))
        for rid in ("final-scoring", "money-points", "tie-break"):
            self.trace.use(rule(rid))
        self.use("kings-favour", "scoring:district.split_rounding", *read)
        self.over = True

    # --- the neutral player ------------------------------------------------------------------

    def neutral_stack(self, player: Player) -> list[str]:
        return next((stack for stack in player.stacks if stack), [])

    def stack_index(self, player: Player) -> int:
        return next(i for i, stack in enumerate(player.stacks) if stack)

    def stack_settings(self, player: Player) -> dict:
        return self.neutral["stacks"][self.stack_index(player)]

    def _neutral_step(self, move: NeutralStep) -> None:
        game, rule = self.game, self.game.rule
        marker = rule("variant-marker")
        # without a neutral player, or with the player's stacks empty, there is no tile to place:
        # facts of the pieces, which no ruling of the table sets aside (raised, not required)
        require(self.neutral is not None, marker, lambda: Message("there is no neutral player: the two-player variant is not in play"), waivable=False)
        # (the other messages are put together only for a broken rule: a two-player game places a tile every other turn)
        require(self.moves_this_turn == 0, marker, lambda: Message("{player} has already placed the neutral's tile this turn", player=colour_named(move.player)))
        player = self.players[move.player]
        require(any(player.stacks), marker, lambda: Message("{player}'s stacks are empty; the neutral no longer builds on {player}'s turns", player=colour_named(move.player)), waivable=False)
        require(self.neutral_due, marker, lambda: Message("{player}'s variant marker shows No Build this turn", player=colour_named(move.player)))
        stack = self.neutral_stack(player)
        index = self.stack_index(player)
        settings = self.neutral["stacks"][index]
        tiles = f"setup:neutral.stacks.{index}.tiles"
        top = stack[0]
        stack_rule = rule("neutral-stack")
        if move.skipped is not None:
            skip = rule("neutral-skip")
            require(settings["skip"], skip, lambda: Message("the top tile of the {size} stack cannot be skipped; only a stack marked for skipping allows it", size=self._size_named(settings["size"])))
            require(
                move.skipped == top,
                stack_rule,
                lambda: Message(
                    "the top tile of {player}'s {size} stack is the {top}, not the {skipped}",
                    player=colour_named(move.player),
                    size=self._size_named(settings["size"]),
                    top=game.structure_named(top),
                    skipped=game.structure_named(move.skipped),
                ),
            )
            require(len(stack) > 1, skip, lambda: Message("the {top} is the last tile of the stack; there is none below it to build", top=game.structure_named(top)))
            self.use("neutral-skip", f"setup:neutral.stacks.{index}.skip")
        tile = stack[1] if move.skipped is not None else top
        require(
            move.structure == tile,
            stack_rule,
            lambda: Message(
                "the neutral builds the {tile} from {player}'s {size} stack, not the {structure}",
                tile=game.structure_named(tile),
                player=colour_named(move.player),
                size=self._size_named(settings["size"]),
                structure=game.structure_named(move.structure),
            ),
        )
        board = self.board.copy()
        owner = self.neutral["name"]
        if move.district is None:
            spots = [d for d in game.district_ids if self.placement_rule(board, tile, d) is None]
            discard = rule("neutral-discard")
            require(not spots, discard, lambda: Message("the {tile} has a legal place ({spots}); it leaves the game only when it has none", tile=game.structure_named(tile), spots=", ".join(spots)))

            self.use("neutral-discard", tiles)
        else:
            self._check_placing(board, Build(tile, move.district), owner, whose=Message("the neutral's {structure}: ", structure=game.structure_named(tile)))
            board.place(move.district, tile)
            self._place_cubes(board, Build(tile, move.district), owner)
        if move.skipped is not None:
            stack.remove(move.skipped)
        stack.remove(tile)
        self.board = board
        self.neutral_due = False
        self.use("neutral-stack", tiles)
        if move.district is not None:
            printed = [game.structures[tile].printed("city")] if self.neutral["city_points"] else []
            if printed:
                self._advance_city(game.structures[tile].city, printed)
            self.use("neutral-city", "setup:neutral.city_points", *printed)

    # --- where the game stands -----------------------------------------------------------------

    def situation(self) -> Situation:
        """The round and the active player's choice of action. The first round and the turn
        after a Levy call for one action where it is possible (`check_choice`); the search for
        a possible build is left to the moves it would check, so the phase names that action.
        In the variant, a turn whose marker shows Build opens with the neutral's tile."""
        count = len(self.order)
        if self.over:
            return Situation((self.turns - 1) // count + 1, None, [], _("game over"), True)
        colour = self.to_act()
        player = self.players[colour]
        setup = self.spec["setup"]
        action = self.game.action_title
        if self.first_round():
            phase = action(setup["first_round"])
            pending = _("{colour}: {action} where one is possible (first round)").format(colour=colour, action=phase)
        elif player.must_full_build:
            phase = action(setup["after_levy"])
            pending = _("{colour}: {action} where one is possible (after a {levy})").format(colour=colour, action=phase, levy=action(LEVY))
        else:
            phase = _("{choices} or {last}").format(choices=", ".join(action(kind) for kind in (LEVY, FULL)), last=action(TAX))
            pending = f"{colour}: {phase}"
        if self.neutral_due:
            pending = _("{colour} places the {structure} for the neutral player").format(colour=colour, structure=localized(self.game.structure_named(self.neutral_stack(player)[0])))
        return Situation(self.turns // count + 1, phase, [colour], pending, False)

    # --- figures and reports -----------------------------------------------------------------

    def seat(self, colour: str, pos: Pos | None = None, rule: str | None = None) -> Seat:
        """Checkpoints may also name the city and, in the variant, the neutral player."""
        if colour in self._extra_names():
            return Seat(colour)
        if colour not in self.players and rule == self.game.rule("checkpoint"):
            known = [*self.order, *self._extra_names()]
            close = [repr(c) for c in nearest(colour, known)]
            if len(close) == 2:
                hint = Message(" (did you mean {first} or {second}?)", first=close[0], second=close[1])
            else:
                hint = Message(" (did you mean {first}?)", first=close[0]) if close else ""
            unknown = Message("no player {name}{odd}{hint}", name=repr(colour), odd=odd_letters(colour), hint="")
            raise RecordError(Message("{unknown} in this game{hint}; a checkpoint names one of: {known}", unknown=unknown, hint=hint, known=", ".join(known)), pos)
        return super().seat(colour, pos, rule)

    def figure_owners(self) -> list[str]:
        return [*self.order, *self._extra_names()]

    def _extra_names(self) -> list[str]:
        names = [self.spec["board"]["city_cube"]["owner"]]
        if self.neutral:
            names.append(self.neutral["name"])
        return names

    def figures(self, colour: str, only: Collection[str] | None = None) -> dict[str, Any]:
        table = self.game.figure_table
        if colour == self.spec["board"]["city_cube"]["owner"]:
            return table.values(self, self.city, "city", only)
        if colour not in self.players:
            return table.values(self, colour, "neutral", only)
        return table.values(self, self.players[colour], only=only)

    def is_over(self) -> bool:
        return self.over

    def standings(self) -> list[Standing]:
        fewer_money = "fewer-money" in self.spec["scoring"]["tie_break"]
        out = []
        for colour in self.order:
            player = self.players[colour]
            tiebreak = [(MONEY, player.money, -1)] if fewer_money else []
            out.append(Standing(player.seat, player.prosperity, {k: v for k, v in player.points.items() if v}, tiebreak))
        return out

    def play_checkpoints(self, next_move: Move) -> list[str]:
        """At the start of every round after the first: money and prosperity, and the city."""
        if self.moves_this_turn or not self.turns or self.turns % len(self.order):
            return []
        lines = [f"check {c}: money {p.money}, prosperity {p.prosperity}" for c, p in self.players.items()]
        # the city's figures as its readers read them (FIGURE_READERS), at once: every round asks
        lines.append(f"check {self.spec['board']['city_cube']['owner']}: prosperity {self.city.prosperity}, position {self.city_position()}, discs {self.city.discs}")
        return lines

    def describe(self) -> dict:
        count = len(self.order)
        out: dict[str, Any] = {
            "round": self.turns // count + 1,
            "to_act": None if self.over else self.to_act(),
            "neutral_builds_first": self.neutral_due,
            "city": {"prosperity": self.city.prosperity, "position": self.city_position(), "discs": self.city.discs, "levy": self.levy(), "tax": self.tax()},
            "district_scorings": self.scorings,
            "turns_left_after_this": self.final_turns,
            "over": self.over,
            "players": {
                colour: {
                    "rank": p.rank,
                    "money": p.money,
                    "prosperity": p.prosperity,
                    "breakdown": {k: v for k, v in p.points.items() if v},
                    "must_full_build": p.must_full_build,
                    "kings_favour": {s: self.favour_positions(s).get(colour, 0) for s in self.game.services},
                    "cubes_left": self.cube_stock(colour) - self.board.used[colour],
                    **({"variant_marker": "build" if p.marker_build else "no-build", "stacks": p.stacks} if self.neutral else {}),
                }
                for colour, p in self.players.items()
            },
            "districts": {d: {"structures": tiles, "cubes": dict(self.board.cubes[d])} for d, tiles in self.board.tiles.items() if tiles or self.board.cubes[d]},
            "supply": {s: n for s, n in self.board.supply.items()},
        }
        if self.neutral:
            name = self.neutral["name"]
            out["neutral"] = {
                "colour": self.neutral_colour,
                "kings_favour": {s: self.favour_positions(s).get(name, 0) for s in self.game.services},
                "cubes_left": self.cube_stock(name) - self.board.used[name],
            }
        return out


def _favour_position(state: CanterburyState, who: Player | str, service: str) -> int:
    """A competitor's position on a row of the King's favour board: districts with its cube."""
    return state.board.rows[service, who if isinstance(who, str) else who.seat.colour]


def _cubes(state: CanterburyState, who: Player | str) -> int:
    return state.board.used[who if isinstance(who, str) else who.seat.colour]


# The checkpoint figures (specs/canterbury/figures.yaml says what each counts): a player's,
# the city's (`city:`) and the neutral player's (`neutral:`), read from the state.
FIGURE_READERS = {
    "money": lambda state, player: player.money,
    "prosperity": lambda state, player: player.prosperity,
    **{source: (lambda state, player, source=source: player.points.get(source, 0)) for source in SOURCES},
    "{}": _favour_position,
    f"{FAVOUR}-{{}}": lambda state, player, service: player.favour.get(service, 0),
    "cubes": _cubes,
    "city": lambda state, player: state.city_position(),
    "discs": lambda state, player: state.city.discs,
    "city:prosperity": lambda state, city: city.prosperity,
    "city:position": lambda state, city: state.city_position(),
    "city:discs": lambda state, city: city.discs,
    "city:levy": lambda state, city: state.levy(),
    "city:tax": lambda state, city: state.tax(),
    "neutral:{}": _favour_position,
    "neutral:cubes": _cubes,
}


def _chained(template: str, items: list) -> Message | str:
    """Items joined two by two by a message that says how ("{first} and {second}")."""
    text = items[0] if items else ""
    for more in items[1:]:
        text = Message(template, first=text, second=more)
    return text


def _either(items: list) -> Message | str:
    """Items as alternatives: "small or medium"."""
    return _chained(N_("{first} or {second}"), items)
