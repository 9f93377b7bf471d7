"""What a search of a Canterbury position asks of the rules, and what it keeps while it asks.

The rules (rules.py) say whether one action is legal. A search (play.py: the legal moves,
the next words, the random player; and the rule that a Full Build is taken where one is
possible) asks that of thousands of candidates, so it needs more than the rules give:

- trials: an action worked out for a search and not for the record (`try_action`,
  `allows`, ...), which uses no rule on the record's behalf and is None where a rule
  refuses it;
- candidates: the structures, districts and demolitions worth trying (`single_builds`);
- what one search of a position learns (`searching`): whether each player can make a Full
  Build, each structure's demolition choices in each district and the districts open to
  each set of services, found once while the position stays as it is;
- the outcome of the action a random player tried last, which `apply` commits instead of
  working it out again (`remember`, `worked_out`), and how many candidates a random game
  has worked out, which play.yaml's `max_trials` bounds (`trials_of`).

The state holds none of this: a copy of a state, or a state saved and restored, carries no
search with it.
"""

from __future__ import annotations

import itertools
import random
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from referee.errors import Violation
from referee.games.base import Unrecorded
from referee.games.canterbury.moves import FULL, Action, Build
from referee.games.canterbury.rules import CHOSEN, Board, CanterburyState, Outcome, Structure

# The trace of every trial (`trial`): it keeps nothing, so all of them share one.
_TRIAL = Unrecorded()


# --- trials: the rules asked for a search -------------------------------------------------------


def trial(state: CanterburyState, work: Callable[[], Any]) -> Any:
    """What `work()` gives, asked for a search and not for the record: it uses no rule on the
    record's behalf, and a rule that refuses makes it None."""
    trace, state.trace = state.trace, _TRIAL
    try:
        return work()
    except Violation:
        return None
    finally:
        state.trace = trace


def allows(state: CanterburyState, colour: str, kind: str, count: int) -> bool:
    """Whether the choice of action (the first round, the turn after a Levy) and the number
    of structures let the player take a build action of this kind with `count` structures.
    For a candidate whose structures are affordable, in the supply and placeable where the
    search found them, this is the whole verdict: one question for thousands of candidates
    instead of working each one out."""

    def ask() -> bool:
        state.check_choice(state.players[colour], kind)
        state.check_number(kind, count)
        return True

    return trial(state, ask) is not None


def try_action(state: CanterburyState, move: Action) -> Outcome | None:
    """The outcome of a candidate action, or None when a rule forbids it."""
    search = _SEARCH.get()
    if search is not None:
        search.trials += 1
    outcome = trial(state, lambda: state.execute(move))
    remember(state, move, outcome)
    return outcome


def demolitions_hold(state: CanterburyState, build: Build) -> bool:
    """Whether a structure's demolitions are allowed on the board as it stands, before
    anything else of its action is asked. A search may drop with it a Full Build of two
    structures whose second, in another district than the first, fails here: all
    demolitions come before any placing, the first's take tiles only from its own
    district, and every condition a demolition needs is that some tile stands somewhere,
    which taking tiles away never makes true."""
    return trial(state, lambda: state.demolish(state.board.copy(), (build,))) is not None


def demolition_allowed(state: CanterburyState, build: Build, tile: str, room_needed: bool) -> bool:
    """Whether the demolition rules (`check_demolition`) let `tile` go for the build on the
    board as it stands, `room_needed` saying whether its action lacks room without the tile:
    for a search that judges the rest of an action itself."""
    structures = state.game.structures
    return trial(state, lambda: state.check_demolition(state.board, build, structures[build.structure], structures[tile], room_needed)) is not None


def may_demolish(state: CanterburyState, board: Board, build: Build, backed: Callable[[Structure, str], bool] | None = None) -> bool:
    """A quick test of a build that demolishes, before it is worked out in full: False when
    it fails on this board whatever the rest of its action is. Its district lacks the cubes
    of a service it needs first (demolitions make no cubes), or a tile it takes down is of a
    size never demolished, or needs a structure of its service elsewhere that the board
    lacks (`demolition_backed`, or `backed`: a search's answers for the board as it stands).
    The other demolitions of the action only take tiles away, so a board with a first
    structure placed on it, or the board before the first, still tells: what it lacks, the
    board the demolition meets lacks too."""
    return state.services_ready(board, build.structure, build.district) and tiles_may_go(state, board, build, backed)


def tiles_may_go(state: CanterburyState, board: Board, build: Build, backed: Callable[[Structure, str], bool] | None = None) -> bool:
    """The half of `may_demolish` about the tiles taken down: none is of a size never
    demolished, and each that needs a structure of its service elsewhere finds one on the
    board (or by `backed`, when given, which then answers for the board)."""
    game = state.game
    new = game.structures[build.structure]
    for tile in build.demolish:
        gone = game.structures[tile]
        if game.sizes[gone.size].demolition is None:
            return False
        if state.demolition_needs_backing(new, gone) and not (backed(gone, build.district) if backed else state.demolition_backed(board, gone, build.district)):
            return False
    return True


# --- the action tried last, and the trials of a random game -------------------------------------

# (state, move, outcome) of the last legal candidate tried while the state's trace records
# nothing (a random game): the random player mostly plays the action it has just tried. One
# for all states and threads: an outcome is taken only by its own state and move, so another
# search that replaces it costs only the work of that action done again.
_kept: list[tuple[CanterburyState, Action, Outcome] | None] = [None]


def remember(state: CanterburyState, move: Action, outcome: Outcome | None) -> None:
    """Keep what `execute` worked out for a legal action of this position (None: the action is
    refused, and nothing is kept), for `apply` to commit if that action comes next, while the
    trace records nothing: a trial's (`try_action`), or one a random player worked out for a
    purpose of its own and then plays."""
    _kept[0] = (state, move, outcome) if outcome is not None and not state.trace.records else None


def worked_out(state: CanterburyState, move: Action) -> Outcome | None:
    """The outcome `remember` kept for this very move of this state, or None; asked once per
    action applied, which forgets it."""
    kept = _kept[0]
    if kept is None:
        return None
    _kept[0] = None
    return kept[2] if kept[0] is state and kept[1] is move else None


# candidate actions the random player has worked out in each game, by state
_RANDOM_TRIALS: weakref.WeakKeyDictionary[CanterburyState, int] = weakref.WeakKeyDictionary()


def count_trials(state: CanterburyState, trials: int) -> int:
    """Add a random move's trials to its game's; the game's total so far."""
    total = _RANDOM_TRIALS[state] = _RANDOM_TRIALS.get(state, 0) + trials

    return total


def trials_of(state: CanterburyState) -> int:
    """How many candidate actions the random player has worked out in this game so far."""
    return _RANDOM_TRIALS.get(state, 0)


# --- one search of a position -------------------------------------------------------------------


class Search:
    """What a search learns of one position while it lasts, each answer found once: a Full
    Build of one structure each player can make (None where there is none), each structure's
    demolition choices in each district, and the districts open to each set of services
    first. `trials` counts the candidates it worked out in full."""

    def __init__(self, state: CanterburyState):
        self.state = state
        self.board = state.board
        self.full_builds: dict[str, Action | None] = {}
        self.choices: dict[tuple[str, str], list[tuple[str, ...]]] = {}
        self.open: dict[frozenset[str], list[str]] = {}
        self.trials = 0


_SEARCH: ContextVar[Search | None] = ContextVar("canterbury_search", default=None)


def begin_search(state: CanterburyState) -> Any:
    """Start keeping what a search learns of this position (`searching` without a context
    manager's cost, for a random game's every move): a token for `end_search`, or None within
    a search of the same position already going, which keeps its answers."""
    search = _SEARCH.get()
    if search is not None and search.state is state and search.board is state.board:
        return None
    return _SEARCH.set(Search(state))


def end_search(token: Any) -> None:
    """Forget what the search started by `begin_search` learnt: the position may change."""
    if token is not None:
        _SEARCH.reset(token)


@contextmanager
def searching(state: CanterburyState) -> Iterator[Search]:
    """For a search that works out many candidate moves of this position and changes nothing
    (try_action, allows): whether a player can make a Full Build is found once. Every
    candidate of another action after a Levy asks it (`check_choice`), and each answer tries
    every Full Build: asked again for each candidate, a position where no Full Build is
    possible cost seconds. The demolition choices of each structure and district of this
    board, and the districts open to each set of services, are found once too."""
    token = begin_search(state)
    try:
        yield _SEARCH.get()
    finally:
        end_search(token)


def current_search() -> Search | None:
    """The search going on, if any."""
    return _SEARCH.get()


def _search_of(state: CanterburyState, board: Board) -> Search | None:
    """The search going on of this position, when `board` is its board; None otherwise."""
    search = _SEARCH.get()
    if search is None or search.state is not state or board is not search.board or board is not state.board:
        return None
    return search


# --- whether a Full Build is possible -----------------------------------------------------------


def can_full_build(state: CanterburyState, colour: str) -> bool:
    """Whether the player can make a Full Build of one structure now (see `searching`)."""
    return a_full_build(state, colour) is not None


def a_full_build(state: CanterburyState, colour: str) -> Action | None:
    """`find_full_build`, found once in a search (see `searching`)."""
    search = _search_of(state, state.board)
    if search is None:
        return find_full_build(state, colour)
    known = search.full_builds
    if colour not in known:
        known[colour] = find_full_build(state, colour)
    return known[colour]


def find_full_build(state: CanterburyState, colour: str) -> Action | None:
    """A legal Full Build of one structure for the player (the first the candidate list
    gives), or None when there is none. A candidate that demolishes nothing is legal when a
    Full Build of one structure may be taken at all (`allows`); only those that demolish and
    pass `may_demolish` are worked out in full."""
    player = state.players[colour]
    allowed = None
    for build in single_builds(state, state.board, player.money):
        move = Action(colour, FULL, (build,))
        if build.demolish:
            if may_demolish(state, state.board, build) and try_action(state, move) is not None:
                return move
            continue
        if allowed is None:
            allowed = allows(state, colour, FULL, 1)
        if allowed:
            return move
    return None


# --- candidates ---------------------------------------------------------------------------------


def single_builds(state: CanterburyState, board: Board, money: int, sizes: tuple[str, ...] | None = None, rng: random.Random | None = None, only: str | None = None) -> Iterator[Build]:
    """Candidate single structures (unchecked): affordable, in the supply, placeable or
    placeable after demolitions; of the structure `only` when given. In a random order when
    `rng` is given."""
    game = state.game
    supply = board.supply
    ids = [s for s, cost in game.costs_of(sizes) if supply[s] > 0 and cost <= money and (only is None or s == only)]
    if rng is not None:
        rng.shuffle(ids)
    naming = game.naming  # the structures that name districts for their cubes (`serving`)
    search = _search_of(state, board)
    for structure in ids:
        districts = open_districts(state, board, structure, search)
        if rng is not None:
            districts = list(districts)  # the search's list is kept for the next question
            rng.shuffle(districts)
        for district in districts:
            choices = demolition_choices(state, board, structure, district, search)
            if rng is not None and len(choices) > 1 and rng.random() < game.play["upgrade"]:
                choices = list(choices)  # the search's list is kept for the next question
                rng.shuffle(choices)
            for demolish in choices:  # a tuple, as `demolition_choices` gives them
                yield Build(structure, district, demolish, serving(state, board, structure, district, rng) if structure in naming else ())


def open_districts(state: CanterburyState, board: Board, structure: str, search: Search | None = None) -> list[str]:
    """The districts, in the board's order, where the structure may stand as far as the two
    rules that refuse most candidates tell: the district holds a tile or borders one that
    does (connectivity), and has the cubes of the services before the structure's own
    (services-first; demolitions make none, so no demolition changes it). During a search
    (`search`, or the one going on of this board) it is found once for each set of such
    services. A list not to be changed."""
    game = state.game
    needed = game.services_needed(structure)
    if search is None:
        search = _search_of(state, board)
        if search is None:
            return _open_districts(game, board, needed)
    known = search.open
    found = known.get(needed)
    if found is None:
        found = known[needed] = _open_districts(game, board, needed)
    return found


def _open_districts(game: Any, board: Board, needed: frozenset[str]) -> list[str]:
    linked = board.linked(game)
    if not needed:
        return linked
    cubes = board.cubes
    return [d for d in linked if cubes[d].keys() >= needed]


def demolition_choices(state: CanterburyState, board: Board, structure: str, district: str, search: Search | None = None) -> list[tuple[str, ...]]:
    """Demolitions worth trying with a structure: none, upgrades, or room where it lacks. A
    list, not to be changed (empty at once where placement fails for another reason than
    room, as it does in most districts a search asks about). During a search (`search`, or
    the one going on of this board) each structure and district is found once: the search
    lists every kind of action, and each lists the same candidates."""
    if search is None:
        search = _search_of(state, board)
        if search is None:
            return _demolition_choices(state, board, structure, district)
    known = search.choices
    found = known.get((structure, district))
    if found is None:
        found = known[structure, district] = _demolition_choices(state, board, structure, district)
    return found


def _demolition_choices(state: CanterburyState, board: Board, structure: str, district: str) -> list[tuple[str, ...]]:
    problem = state.placement_rule(board, structure, district)
    if problem is not None and problem != "space":
        return []
    game = state.game
    structures, ranks = game.structures, game.ranks
    info = structures[structure]
    rank = ranks[structure]
    tiles = board.tiles[district]
    if problem is None:
        # the structure has room: only upgrades are worth trying, and each choice of the
        # smaller tiles of its service is one (`_demolition_needed` holds for all of them)
        service = info.service
        same = [t for t in tiles if ranks[t] < rank and structures[t].service == service]
        choices: list[tuple[str, ...]] = [()]
        for size in range(1, len(same) + 1):
            choices.extend(itertools.combinations(same, size))
        return choices
    smaller = [t for t in tiles if ranks[t] < rank]
    free = game.free_spaces(tiles)
    if free + sum([structures[t].spaces for t in smaller]) < info.spaces:
        return []  # all of them together leave too little room
    choices = []
    for size in range(1, len(smaller) + 1):
        choices.extend([combo for combo in itertools.combinations(smaller, size) if _demolition_needed(structures, combo, info, free)])
    return choices


def _demolition_needed(structures: dict[str, Structure], combo: tuple[str, ...], new: Structure, free: int) -> bool:
    """True when demolishing `combo` could make way for `new`: together the tiles leave room
    for it, and a tile of another service goes only when the room is short without it (the
    test `check_demolition` makes; candidates that fail it are not worth trying)."""
    freed = free  # plain loops: a search asks it of every combination
    for tile in combo:
        freed += structures[tile].spaces
    if freed < new.spaces:
        return False
    for tile in combo:
        gone = structures[tile]
        if gone.service != new.service and freed - gone.spaces >= new.spaces:
            return False
    return True


def serving(state: CanterburyState, board: Board, structure: str, district: str, rng: random.Random | None) -> tuple[str, ...]:
    """Districts a large structure names for its cubes: the first free ones, or a random pick."""
    game = state.game
    info = game.structures[structure]
    size = game.sizes[info.size]
    if size.cubes != CHOSEN:
        return ()
    free = [d for d in game.district_ids if d != district and info.service not in board.cubes[d]]
    if rng is None:
        return tuple(free[: size.chosen])
    count = min(size.chosen, len(free))
    if rng.random() >= game.play["serving"]:
        count = rng.randint(0, count)
    return tuple(sorted(rng.sample(free, count)))
