"""Canterbury: the legal next moves, and random legal ones for `referee play`.

The rules (rules.py) decide whether one action is legal; this module only
searches: it lists candidate actions and keeps those the rules accept. Large
structures are listed with one choice of the districts their cubes serve, as the
choices multiply beyond listing. Random games weigh the three actions by
`specs/canterbury/play.yaml` and try a few structures before settling.
"""

from __future__ import annotations

import functools
import gc
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from referee.errors import SpecError
from referee.games.canterbury._search import (
    a_full_build,
    allows,
    begin_search,
    can_full_build,
    count_trials,
    current_search,
    demolition_allowed,
    demolition_choices,
    demolitions_hold,
    end_search,
    may_demolish,
    open_districts,
    remember,
    single_builds,
    tiles_may_go,
    try_action,
)
from referee.games.canterbury.moves import FULL, LEVY, TAX, Action, Build, NeutralStep
from referee.games.canterbury.rules import CHOSEN, Board, CanterburyState, Outcome, Player, Structure
from referee.notation.parser import Move

F = TypeVar("F", bound=Callable)


def _search(find: F) -> F:
    """A search of one position: it works out candidates without changing the state, so what
    every candidate asks about the position is found once (_search.py, `searching`). It
    makes thousands of short-lived boards and moves, none of them in a cycle, so the cyclic
    garbage collector, which would look through everything loaded each time enough of them
    pile up (a tenth of the largest searches), waits until it is done."""

    @functools.wraps(find)
    def searched(state: CanterburyState, *args):
        collecting = gc.isenabled()
        gc.disable()
        token = begin_search(state)  # as `with searching(state)`, for a little less
        try:
            return find(state, *args)
        finally:
            end_search(token)
            if collecting:
                gc.enable()

    return searched  # type: ignore[return-value]


@_search
def legal_moves(state: CanterburyState) -> list[Move]:
    """Every legal next move; a large structure is listed with one choice of cube districts
    (the first free ones), as the choices multiply beyond listing."""
    if state.over:
        return []
    colour = state.to_act()
    if state.neutral_due:
        return neutral_options(state, colour)
    found = Singles(state)
    moves: list[Move] = []
    for kind, legal in found.by_kind.items():
        moves.extend(legal)
        if kind == FULL:
            moves.extend(pairs(state, colour, legal, found.known, found.worked_out))
    return moves


class Singles:
    """The legal actions of one structure (and the Levy) of the player to act, by kind, with
    what the search for Full Builds of two structures takes from them.

    A Tax Build of one structure that demolishes is legal exactly when the Full Build of the
    same structure, district and demolitions is: both meet the same board, and each kind's
    candidates are listed only where its purse pays. (That a Tax Build may be chosen at all
    is `open_kinds`' to say, for every Tax Build alike.)"""

    def __init__(self, state: CanterburyState):
        colour = state.to_act()
        player = state.players[colour]
        self.by_kind: dict[str, list[Action]] = {}
        self.known = _Known(state, alone={})  # Full Builds of one structure: whether each is legal
        self.worked_out: dict[int, Outcome] = {}  # and what those worked out in full do, by id
        alone = self.known.alone
        for kind in open_kinds(state, player):
            if kind == LEVY:
                legal = [m for m in [Action(colour, LEVY)] if try_action(state, m) is not None]
            elif not allows(state, colour, kind, 1):
                legal = []
            else:
                money = player.money + (state.tax() if kind == TAX else 0)
                legal = []
                for build in single_builds(state, state.board, money):
                    move = Action(colour, kind, (build,))
                    ok = True
                    key = (build.structure, build.district, build.demolish)
                    if not build.demolish:
                        pass
                    elif kind != FULL and key in alone:
                        ok = alone[key]  # the same structure, demolitions and board; more money only
                    elif not may_demolish(state, state.board, build, self.known.is_backed):
                        ok = False
                    else:
                        outcome = try_action(state, move)
                        ok = outcome is not None
                        if ok:
                            self.worked_out[id(move)] = outcome
                    if kind == FULL:
                        alone[key] = ok
                    if ok:
                        legal.append(move)
            self.by_kind[kind] = legal


@_search
def next_words(state: CanterburyState, words: list[str]) -> list[str]:
    """The words that may follow `words` in a legal move as `move_hints` writes it ("" where
    they are a whole move), found without listing the moves: a candidate is worked out only
    when it agrees with the words so far and would add a word not found yet, and the Full
    Builds of two structures are looked at only after the first structure the words name
    (a comma after its last word), or to see whether a comma may follow it. Once the words
    name a structure, only the candidates of that structure are listed."""
    if state.over or state.neutral_due:
        return _next_of([state.game.format_move(m) for m in legal_moves(state)], words)
    game = state.game
    colour = state.to_act()
    player = state.players[colour]
    n = len(words)
    out: set[str] = set()
    for kind in open_kinds(state, player):
        if kind == LEVY:
            move = Action(colour, LEVY)
            news = _next_of([game.format_move(move)], words) - out
            if news and try_action(state, move) is not None:
                out.update(news)
            continue
        if not allows(state, colour, kind, 1):
            continue  # no single structure, so no second either
        money = player.money + (state.tax() if kind == TAX else 0)
        head = game.format_move(Action(colour, kind)).split()  # "blue: full build"
        if words[: len(head)] != head[:n]:
            continue
        named = None
        if n > len(head):
            named = _structure_words(state, colour, kind, len(head)).get(words[len(head)])
            if named is None:
                continue
        for build in single_builds(state, state.board, money, only=named):
            move = Action(colour, kind, (build,))
            parts = game.format_move(move).split()
            last = len(parts) - 1  # the first structure's last word: a comma after it for a second
            pairable = kind == FULL and game.structures[build.structure].size in game.pair
            news: set[str] = set()
            comma = onward = False
            if n <= len(parts) and parts[:n] == words:
                news = {parts[n] if n < len(parts) else ""} - out
                comma = pairable and n == last and parts[last] + "," not in out
            elif pairable and n > last and words[:last] == parts[:last] and words[last] == parts[last] + ",":
                onward = True  # the words name this structure first and go on to a second
            if not (news or comma or onward):
                continue
            if build.demolish and try_action(state, move) is None:
                continue
            out.update(news)
            if comma and pairs(state, colour, [move], first_only=True):
                out.add(parts[last] + ",")
            if onward:
                out.update(_next_of([game.format_move(m) for m in pairs(state, colour, [move])], words))
    return sorted(out)


def _structure_words(state: CanterburyState, colour: str, kind: str, at: int) -> dict[str, str]:
    """The word an action of this kind writes at `at` (the first word of its build) -> the
    structure that build is of, read from the move text as the notation writes it."""
    game = state.game
    district = game.district_ids[0]
    return {game.format_move(Action(colour, kind, (Build(s, district),))).split()[at]: s for s in game.buildable}


def _next_of(texts: list[str], words: list[str]) -> set[str]:
    """The word after `words` in each text that starts with them ("" for a text that is them)."""
    n = len(words)
    out = set()
    for text in texts:
        parts = text.split()
        if parts[:n] == words:
            out.add(parts[n] if len(parts) > n else "")
    return out


def open_kinds(state: CanterburyState, player: Player) -> tuple[str, ...]:
    """The actions worth trying: when the first round or a Levy calls for one kind and a
    build of it is possible, the others are all refused (`check_choice`), so they are not
    tried one candidate at a time, each asking again whether that build is possible."""
    setup = state.spec["setup"]
    forced = setup["first_round"] if state.first_round() else setup["after_levy"] if player.must_full_build else None
    if forced is not None and can_full_build(state, player.seat.colour):
        return (forced,)
    return (LEVY, FULL, TAX)


def pairs(state: CanterburyState, colour: str, singles: list[Action], known: _Known | None = None, worked_out: dict[int, Outcome] | None = None, first_only: bool = False) -> list[Action]:
    """Full Builds of two small or medium structures, the second chosen after the first.

    Candidates are built so that only their demolitions are in question: the first structure
    is legal alone, the second is affordable, in the supply and placeable once the first
    stands. A second structure that demolishes nothing is then legal whenever two structures
    may be built at all (`allows`); one that demolishes is judged by `_second_stands`. With
    `first_only`, the list stops at the first pair found."""
    game = state.game
    pair_sizes = game.pair
    out: list[Action] = []
    if not any(game.structures[s.builds[0].structure].size in pair_sizes for s in singles) or not allows(state, colour, FULL, 2):
        return out
    if known is None:
        known = _Known(state)
    elif known.alone is not None and not allows(state, colour, FULL, 1):
        known = _Known(state, backed=known.backed)
    seconds = Seconds(state, pair_sizes) if len(singles) > 1 else None
    alone = known.alone
    for single in singles:
        first = single.builds[0]
        if game.structures[first.structure].size not in pair_sizes:
            continue
        outcome = (worked_out or {}).get(id(single)) or try_action(state, single)
        money = state.players[colour].money - outcome.cost
        found = seconds.after(outcome.board, first.district, money) if seconds else single_builds(state, outcome.board, money, pair_sizes)
        near, touched = game.around[first.district], known.services(first.demolish)
        for second in found:
            if not second.demolish:
                ok = True
            elif alone is not None and second.district not in near and touched.isdisjoint(known.services(second.demolish)):
                ok = bool(alone.get((second.structure, second.district, second.demolish)))  # out of the first's reach
            else:
                ok = _second_stands(state, colour, first, second, outcome, known)
            if ok:
                out.append(Action(colour, FULL, (first, second)))
                if first_only:
                    return out
    return out


@dataclass(eq=False)
class _Known:
    """What a search of one position learns once and asks again: whether each structure is
    legal built alone (when Full Builds of one structure are allowed; None otherwise),
    whether its demolitions hold alone (in full, and as far as the tiles they take down
    go), and whether a tile's demolition in a district is backed, on the board as it stands
    and after a first structure's demolitions."""

    state: CanterburyState
    alone: dict[tuple, bool] | None = None
    backed: dict[tuple[str, str], bool] = field(default_factory=dict)
    holding: dict[tuple, bool] = field(default_factory=dict)
    first: Build | None = None  # the first structure `backed_after_first` is about
    board_after_first: Board | None = None
    backed_after_first: dict[tuple[str, str], bool] = field(default_factory=dict)
    services_of: dict[tuple[str, ...], frozenset[str]] = field(default_factory=dict)
    going: dict[tuple, bool] = field(default_factory=dict)

    def services(self, tiles: tuple[str, ...]) -> frozenset[str]:
        """The services of these tiles, asked once per demolition: every pair asks it of both."""
        found = self.services_of.get(tiles)
        if found is None:
            structures = self.state.game.structures
            found = self.services_of[tiles] = frozenset(structures[t].service for t in tiles)
        return found

    def is_backed(self, gone: Structure, district: str) -> bool:
        """`demolition_backed` on the board as it stands, asked once per tile and district:
        for `may_demolish` of a build alone or after a first structure, whose demolitions only
        take tiles away."""
        key = (gone.id, district)
        found = self.backed.get(key)
        if found is None:
            found = self.backed[key] = self.state.demolition_backed(self.state.board, gone, district)
        return found

    def tiles_may_go(self, build: Build) -> bool:
        """`tiles_may_go` of the board as it stands, asked once per structure, district and
        demolitions: it reads the board only through `is_backed`, so a second structure asks
        it once for every first structure it may follow."""
        key = (build.structure, build.district, build.demolish)
        found = self.going.get(key)
        if found is None:
            found = self.going[key] = tiles_may_go(self.state, self.state.board, build, self.is_backed)
        return found

    def holds(self, build: Build) -> bool:
        """`demolitions_hold`, asked once per structure, district and demolitions."""
        key = (build.structure, build.district, build.demolish)
        found = self.holding.get(key)
        if found is None:
            found = self.holding[key] = demolitions_hold(self.state, build)
        return found

    def backed_after(self, first: Build, gone: Structure, district: str, earlier: tuple[str, ...] = ()) -> bool:
        """Whether the demolition of `gone` in `district` is backed once the first
        structure's demolitions are done, and the `earlier` tiles of the same district that
        the second structure demolishes before it."""
        if first is not self.first:
            self.first, self.board_after_first, self.backed_after_first = first, None, {}
        key = (gone.id, district, earlier)
        found = self.backed_after_first.get(key)
        if found is None:
            if self.board_after_first is None:
                board = self.board_after_first = self.state.board.copy()
                for tile in first.demolish:
                    board.remove(first.district, tile)
            board = self.board_after_first
            if earlier:
                board = board.copy()
                for tile in earlier:
                    board.remove(district, tile)
            found = self.backed_after_first[key] = self.state.demolition_backed(board, gone, district)
        return found


def _second_stands(state: CanterburyState, colour: str, first: Build, second: Build, outcome: Outcome, known: _Known) -> bool:
    """Whether a Full Build of two structures whose second demolishes is legal, the first
    being legal alone (with this outcome). The demolitions of both come before either is
    placed, so in general the pair is worked out in full; these short cuts give the same
    verdict sooner:

    - the first stands out of the second's reach (another district, not adjacent either way)
      and demolishes no tile of a service the second's demolitions are about (a condition may
      look for one anywhere in the city): the pair stands or falls with the second built
      alone (`alone`, when Full Builds of one structure are allowed). Most second structures
      are of this kind, so `pairs` asks this itself before it calls here;
    - the first, in another district, demolishes no tile of those services either, and the
      second is legal alone, leaves a tile in its district and chooses no cube districts: its
      demolitions find what they find alone, the first's tile and cubes only add to what it
      is placed beside, and the first keeps the neighbour it may have needed: legal;
    - the same, but the first demolishes a tile of such a service: the one thing that may
      differ is whether each of the second's demolitions is still backed once the first's
      demolitions are done (and the second's own before it, as alone), asked of that board
      (`_Known.backed_after`);
    - the second's demolitions made room, but its district lacks the service cubes it needs
      (demolitions make no cubes), or a demolition needs a structure of its service elsewhere
      that the board lacks (`may_demolish`): illegal;
    - in another district than the first, the second's demolitions fail alone: the first's
      demolitions only take tiles away, so they fail with it (`demolitions_hold`);
    - in the first's district, the first demolishing nothing and the second one tile: the
      few things that may differ from what the list and the tests before found are asked
      (`_one_demolition_beside`)."""
    game = state.game
    alone = known.alone
    apart = second.district != first.district
    if alone is not None and apart:
        legal_alone = alone.get((second.structure, second.district, second.demolish))
        if legal_alone and len(second.demolish) < len(state.board.tiles[second.district]) and game.sizes[game.structures[second.structure].size].cubes != CHOSEN:
            if known.services(first.demolish).isdisjoint(known.services(second.demolish)):
                return True
            new = game.structures[second.structure]
            for index, tile in enumerate(second.demolish):
                gone = game.structures[tile]
                if state.demolition_needs_backing(new, gone) and not known.backed_after(first, gone, second.district, second.demolish[:index]):
                    return False
            return True
    # `may_demolish` of the board the first leaves: its cubes may have made the second's
    # district ready, and the tiles' part reads the board only through `is_backed`
    if not (state.services_ready(outcome.board, second.structure, second.district) and known.tiles_may_go(second)):
        return False
    if apart and not known.holds(second):
        return False
    if not apart and not first.demolish and len(second.demolish) == 1:
        return _one_demolition_beside(state, first, second)
    return try_action(state, Action(colour, FULL, (first, second))) is not None


def _one_demolition_beside(state: CanterburyState, first: Build, second: Build) -> bool:
    """A Full Build of two structures in one district, the first demolishing nothing and
    the second one tile, that has passed the tests before it in `_second_stands`. The one
    demolition comes before either is placed, on the board as it stands, and is asked of the
    demolition rules there, with the room both structures need (`demolition_allowed`); the
    first, legal alone, then meets the district less that tile, and the second the board the
    candidate list saw for it (the first placed), less the tile. What is left to ask is what
    may differ from those: the tile stood there before the first (the list may offer the
    first itself), the second then has its room, and the first still has a neighbour once the
    tile is gone (the other placing rules only gain from a tile less)."""
    game = state.game
    tiles = state.board.tiles[second.district]
    tile = second.demolish[0]
    if tile not in tiles:
        return False
    new, gone, placed = game.structures[second.structure], game.structures[tile], game.structures[first.structure]
    free = game.free_spaces(tiles)
    if not demolition_allowed(state, second, tile, free < placed.spaces + new.spaces):  # the room as `demolish` counts it
        return False
    if free + gone.spaces - placed.spaces < new.spaces:
        return False
    return len(tiles) > 1 or any(state.board.tiles[d] for d in game.districts[second.district].neighbours)


class Seconds:
    """The candidates for the second structure of a Full Build, as `single_builds` lists them
    on the board after the first, in the same order, found without looking at every structure
    in every district again for every first structure.

    Where a structure may go in a district, and with which demolitions, depends only on that
    district: its tiles, the services its cubes give, whether it or a neighbour holds a tile.
    A first structure changes that for its district and the districts around it, so the
    search starts from the answers for the board as it stands and asks again only there,
    keeping each answer by what the district looks like.
    """

    def __init__(self, state: CanterburyState, sizes: tuple[str, ...]):
        self.state = state
        self.game = game = state.game
        self.sizes = sizes
        self.board = state.board
        self.order = {d: i for i, d in enumerate(game.district_ids)}
        self.structures = [s for s in game.buildable if game.structures[s].size in sizes]
        # a structure that names districts for its cubes reads the whole board: not kept here
        self.plain = all(game.sizes[game.structures[s].size].cubes != CHOSEN for s in self.structures)
        self.answers: dict[tuple, tuple] = {}
        # each second structure made once, shared by the pairs that take it, as a first one is
        self.builds: dict[tuple, Build] = {}
        self.looks = {d: self.look(self.board, d) for d in game.district_ids}
        self.rows = {s: [(d, c) for d in game.district_ids if (c := self.choices(self.board, s, d, self.looks[d]))] for s in self.structures}

    def look(self, board: Board, district: str) -> tuple:
        tiles = board.tiles
        own = tiles[district]
        return (tuple(own), frozenset(board.cubes[district]), bool(own) or any(tiles[n] for n in self.game.districts[district].neighbours))

    def choices(self, board: Board, structure: str, district: str, look: tuple) -> tuple:
        """The structure's demolition choices in the district, kept by what they depend on: the
        district's tiles, whether it is connected, and whether its cubes are the ones this
        structure needs first. A first structure's medium cubes in a neighbour change the
        district's look for every structure but the answer only for those that need them."""
        tiles, services, connected = look
        key = (structure, district, tiles, connected, services >= self.game.services_needed(structure))
        found = self.answers.get(key)
        if found is None:
            found = self.answers[key] = tuple(demolition_choices(self.state, board, structure, district))
        return found

    def after(self, board: Board, first: str, money: int) -> Iterator[Build]:
        """What `single_builds(state, board, money, sizes)` yields, `board` being this board
        with a first structure placed in `first`."""
        if not self.plain:
            yield from single_builds(self.state, board, money, self.sizes)
            return
        game = self.game
        changed = {d: look for d in game.around[first] if (look := self.look(board, d)) != self.looks[d]}
        for structure in self.structures:
            if board.supply[structure] <= 0 or game.structures[structure].cost > money:
                continue
            row = self.rows[structure]
            if changed:
                row = [(d, c) for d, c in row if d not in changed]
                row += [(d, c) for d, look in changed.items() if (c := self.choices(board, structure, d, look))]
                row.sort(key=lambda entry: self.order[entry[0]])
            for district, choices in row:
                for demolish in choices:
                    key = (structure, district, demolish)
                    build = self.builds.get(key)
                    if build is None:
                        build = self.builds[key] = Build(structure, district, demolish)
                    yield build


def neutral_options(state: CanterburyState, colour: str) -> list[Move]:
    player = state.players[colour]
    stack = state.neutral_stack(player)
    tiles = [(stack[0], None)]
    if state.stack_settings(player)["skip"] and len(stack) > 1:
        tiles.append((stack[1], stack[0]))
    moves: list[Move] = []
    for tile, skipped in tiles:
        spots = [d for d in open_districts(state, state.board, tile) if state.placement_rule(state.board, tile, d) is None]
        moves.extend(NeutralStep(colour, tile, d, skipped) for d in spots)
        if not spots:
            moves.append(NeutralStep(colour, tile, None, skipped))
    return moves


@_search
def random_move(state: CanterburyState, rng: random.Random) -> Move:
    """A random legal move. Data that leaves every build a demolition (districts with room for
    little) can make each move try thousands of candidates: a game that has worked out more
    than play.yaml's `max_trials` is given up, as one that outlasts `max_moves` is."""
    search = current_search()
    before = search.trials
    move = _random_move(state, rng)
    limit = state.game.play["max_trials"]
    trials = search.trials - before  # most random moves work out no candidate in full
    if trials and count_trials(state, trials) > limit:
        raise SpecError(state.spec.path_of("play"), "max_trials", f"a random game worked out more than {limit} candidate moves; the data may make every move search for ever")
    return move


def _random_move(state: CanterburyState, rng: random.Random) -> Move:
    colour = state.to_act()
    if state.neutral_due:
        return _random_neutral(state, colour, rng)
    player = state.players[colour]
    play = state.game.play
    if state.first_round() or player.must_full_build:
        # a Full Build is called for: drawn as any other, and when the draw finds none (it
        # left the large structures out, or gave up), the first one the rules allow, if any
        move = _random_full(state, colour, rng) or a_full_build(state, colour)
        if move is not None:
            return move
    weights = play["action_weights"]
    kinds = [LEVY, FULL, TAX]
    while kinds:  # a kind that does nothing is left out of the next draw
        kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
        kinds.remove(kind)
        move = _random_full(state, colour, rng) if kind == FULL else _random_tax(state, colour, rng) if kind == TAX else _random_levy(state, colour)
        if move is not None:
            return move
    return Action(colour, LEVY)


def _random_levy(state: CanterburyState, colour: str) -> Action | None:
    move = Action(colour, LEVY)
    return move if try_action(state, move) is not None else None


def _random_single(state: CanterburyState, colour: str, kind: str, money: int, rng: random.Random, sizes=None, board: Board | None = None, first: Build | None = None) -> Action | None:
    """A random legal action of one structure (or a second one after `first`)."""
    game = state.game
    board = board or state.board
    if sizes is None and rng.random() >= game.play["large"]:
        sizes = game.pair
    tried = set()
    allowed = None
    for build in single_builds(state, board, money, sizes, rng):
        if build.structure not in tried and len(tried) >= game.play["attempts"]:
            break
        tried.add(build.structure)
        move = Action(colour, kind, (first, build) if first else (build,))
        if build.demolish:  # only demolitions are in question (see `pairs`): worked out in full
            if may_demolish(state, board, build) and try_action(state, move) is not None:
                return move
            continue
        if allowed is None:
            allowed = allows(state, colour, kind, len(move.builds))
        if allowed:
            return move
    return None


def _random_full(state: CanterburyState, colour: str, rng: random.Random) -> Action | None:
    game = state.game
    player = state.players[colour]
    move = _random_single(state, colour, FULL, player.money, rng)
    if move is None or rng.random() >= game.play["second_structure"]:
        return move
    first = move.builds[0]
    if game.structures[first.structure].size not in game.pair:
        return move
    outcome = state.execute(move)
    second = _random_single(state, colour, FULL, player.money - outcome.cost, rng, game.pair, outcome.board, first)
    if second is None:
        remember(state, move, outcome)  # what the rules would work out again to apply it
    return second or move


def _random_tax(state: CanterburyState, colour: str, rng: random.Random) -> Action | None:
    return _random_single(state, colour, TAX, state.players[colour].money + state.tax(), rng)


def _random_neutral(state: CanterburyState, colour: str, rng: random.Random) -> NeutralStep:
    options = neutral_options(state, colour)
    skips = [m for m in options if m.skipped is not None]
    plain = [m for m in options if m.skipped is None]
    if skips and rng.random() < state.game.play["neutral_skip"]:
        return rng.choice(skips)
    return rng.choice(plain)
