"""Canterbury: the legal next moves, and random legal ones for `referee play`.

The rules (rules.py) decide whether one action is legal; this module only
searches: it lists candidate actions and keeps those the rules accept. Large
structures are listed with one choice of the districts their cubes serve, as the
choices multiply beyond listing. Random games weigh the three actions by
`specs/canterbury/play.yaml` and try a few structures before settling.
"""

from __future__ import annotations

import random

from ...notation import Move
from .moves import FULL, LEVY, TAX, Action, Build, NeutralStep
from .rules import Board, CanterburyState, Player


def legal_moves(state: CanterburyState) -> list[Move]:
    """Every legal next move; a large structure is listed with one choice of cube districts
    (the first free ones), as the choices multiply beyond listing."""
    if state.over:
        return []
    colour = state.to_act()
    if state.neutral_due:
        return neutral_options(state, colour)
    player = state.players[colour]
    moves: list[Move] = []
    for kind in open_kinds(state, player):
        if kind == LEVY:
            candidates = [Action(colour, LEVY)]
        else:
            money = player.money + (state.tax() if kind == TAX else 0)
            candidates = [Action(colour, kind, (b,)) for b in state.single_builds(state.board, money)]
        legal = [m for m in candidates if state.try_action(m) is not None]
        moves.extend(legal)
        if kind == FULL:
            moves.extend(pairs(state, colour, legal))
    return moves


def open_kinds(state: CanterburyState, player: Player) -> tuple[str, ...]:
    """The actions worth trying: when the first round or a Levy calls for one kind and a
    build of it is possible, the others are all refused (`_check_choice`), so they are not
    tried one candidate at a time, each asking again whether that build is possible."""
    setup = state.spec["setup"]
    forced = setup["first_round"] if state.first_round() else setup["after_levy"] if player.must_full_build else None
    if forced is not None and state.find_full_build(player.seat.colour) is not None:
        return (forced,)
    return (LEVY, FULL, TAX)


def pairs(state: CanterburyState, colour: str, singles: list[Action]) -> list[Action]:
    """Full Builds of two small or medium structures, the second chosen after the first."""
    game = state.game
    pair_sizes = game.pair
    out = []
    for single in singles:
        first = single.builds[0]
        if game.structures[first.structure].size not in pair_sizes:
            continue
        outcome = state.execute(single)
        money = state.players[colour].money - outcome.cost
        for second in state.single_builds(outcome.board, money, pair_sizes):
            move = Action(colour, FULL, (first, second))
            if state.try_action(move) is not None:
                out.append(move)
    return out


def neutral_options(state: CanterburyState, colour: str) -> list[Move]:
    player = state.players[colour]
    stack = state.neutral_stack(player)
    tiles = [(stack[0], None)]
    if state.stack_settings(player)["skip"] and len(stack) > 1:
        tiles.append((stack[1], stack[0]))
    moves: list[Move] = []
    for tile, skipped in tiles:
        spots = [d for d in state.game.district_ids if state.placement_problem(state.board, tile, d) is None]
        moves.extend(NeutralStep(colour, tile, d, skipped) for d in spots)
        if not spots:
            moves.append(NeutralStep(colour, tile, None, skipped))
    return moves


def random_move(state: CanterburyState, rng: random.Random) -> Move:
    colour = state.to_act()
    if state.neutral_due:
        return _random_neutral(state, colour, rng)
    player = state.players[colour]
    play = state.game.play
    if state.first_round() or player.must_full_build:
        found = state.find_full_build(colour, rng)
        if found is not None:
            return _random_full(state, colour, rng) or found
    weights = play["action_weights"]
    kinds = [LEVY, FULL, TAX]
    while kinds:
        kind = rng.choices(kinds, [weights[k] for k in kinds]).pop()
        kinds.remove(kind)
        move = _random_full(state, colour, rng) if kind == FULL else _random_tax(state, colour, rng) if kind == TAX else _random_levy(state, colour)
        if move is not None:
            return move
    return Action(colour, LEVY)


def _random_levy(state: CanterburyState, colour: str) -> Action | None:
    move = Action(colour, LEVY)
    return move if state.try_action(move) is not None else None


def _random_single(state: CanterburyState, colour: str, kind: str, money: int, rng: random.Random, sizes=None, board: Board | None = None, first: Build | None = None) -> Action | None:
    """A random legal action of one structure (or a second one after `first`)."""
    game = state.game
    board = board or state.board
    if sizes is None and rng.random() >= game.play["large"]:
        sizes = game.pair
    tried = set()
    for build in state.single_builds(board, money, sizes, rng):
        if build.structure not in tried and len(tried) >= game.play["attempts"]:
            break
        tried.add(build.structure)
        move = Action(colour, kind, (first, build) if first else (build,))
        if state.try_action(move) is not None:
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
