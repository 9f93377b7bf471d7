"""Civitas Hamburgum: the legal next moves and their words, and random but purposeful ones for
`referee play`.

A random game has to end: the sixth church is finished only after thirty
donations, each paid in bricks, wood, money and bells. So the generator does
not pick uniformly among every legal move; it first picks a kind of turn that
can do something useful (weights in `specs/hamburgum/play.yaml`), then plans a
move of that kind from the state: ship what fits, buy what the next donation
needs, donate as often as the stock allows, build on sites the player may use.
Every move it writes is one the rules accept.
"""

from __future__ import annotations

import functools
import random
import weakref
from bisect import bisect
from collections import Counter
from collections.abc import Callable
from itertools import accumulate

from referee.games.hamburgum._search import words_of
from referee.games.hamburgum.moves import ChurchTurn, Dockyard, Donation, Guildhall, House, Produce, Reveal, Site, Trade
from referee.games.hamburgum.rules import MONEY, HamburgumState, Player, enter_harbour, one_more, production_yield, ship_loading_fits
from referee.notation.parser import Move

# --- the rondel ---------------------------------------------------------------------------


def reachable(state: HamburgumState, player: Player) -> list[tuple[str, int]]:
    """Every space the player can move to this turn, with its prestige cost."""
    game = state.game
    if player.space is None:
        return [(s, 0) for s in game.spaces]
    floor = state.game.prestige_floor
    return [(space, cost) for space, cost in game.moves_from(player.space) if player.prestige - cost >= floor]


def _turn(state: HamburgumState, player: Player, space: str) -> tuple[str, str, str | None]:
    """The fields of a turn to `space`, in the order of Turn's: the player, the action and the
    side, written only when it is needed. Every move asks, so the action and side are kept by
    where the marker stands and goes; a tuple, as a move is made from it faster than from
    keywords."""
    game = state.game
    return player.colour, game.space_action(space), game.side_to_write(player.space, space)


def _chance(state: HamburgumState, rng: random.Random, decision: str) -> bool:
    """Yes or no, drawn by the weights of doing and skipping that play.yaml gives the decision."""
    weights = state.spec["play"]["choices"][decision]
    return rng.choices((True, False), (weights["do"], weights["skip"]))[0]


# --- planning one kind of turn -----------------------------------------------------------


def plan_produce(state, player, space, rng) -> Move | None:
    move = Produce(*_turn(state, player, space))
    if _chance(state, rng, "state_yield"):
        move.amount = production_yield(state.game, player, state.game.produces[move.action])
    return move


def plan_sell(state, player, space, rng) -> Move | None:
    stock = player.stock
    left: dict[str, int] = {}  # plain counts, asked many times a sale, of the goods held
    for good in state.game.goods:
        n = stock.get(good, 0)  # a good never held is not in the stock: no Counter default asked
        if n > 0:
            left[good] = n
    if not left:
        return None
    shipped: dict[str, int] = {}
    prices = {g: state.price(g) for g in left}
    capacities = state.own_capacities(player.colour)
    for capacity in sorted(capacities, reverse=True):
        best = max(left, key=lambda g: (left[g], prices[g]))
        if left[best] == 0:
            break
        n = min(capacity, left[best])
        shipped[best] = shipped.get(best, 0) + n
        left[best] -= n
    bank: dict[str, int] = {}
    if _chance(state, rng, "bank_rest") or not shipped:
        for good, n in left.items():
            if n > 0 and not ship_loading_fits(capacities, one_more(shipped, good)):
                bank[good] = n
    if not shipped and not bank:
        return None
    return Trade(*_turn(state, player, space), sell=_sorted(shipped), bank=_sorted(bank))


def _needs_bell(state, player) -> bool:
    if player.stock[state.game.bell] >= state.game.bell_limit:
        return False
    last = len(state.game.token_kinds) - 1
    for church, c in state.churches.items():  # a loop, not `any` over a generator: asked every purchase
        if not c.complete and state.donations_made(church) >= last - 1:
            return True
    return False


@functools.cache
def _depot(game) -> tuple[list[int], list[int]]:
    """The depot's totals by price, and the most items each price or less pays for: what a
    purse buys is looked up there."""
    by_price = sorted([(price, k) for k, price in game.materials_totals.items()])
    return [price for price, _ in by_price], list(accumulate([k for _, k in by_price], max))


@functools.cache
def _donation_prices(game) -> list[tuple[int, int, tuple[tuple[str, int], ...]]]:
    """Each donation's price by its number at a church: money, money per own citizen, and the
    materials."""
    return [(e.get(MONEY, 0), e.get("money_per_own_citizen", 0), tuple((k, v) for k, v in e.items() if k in game.materials)) for e in game.donations]


@functools.cache
def _donation_floor(game) -> tuple[tuple[str, int], ...]:
    """The materials every donation takes, at the least: a player without them can pay for none."""
    least = {m: min([dict(cost).get(m, 0) for _, _, cost in _donation_prices(game)], default=0) for m in game.materials}
    return tuple((m, n) for m, n in least.items() if n > 0)


def plan_buy(state, player, space, rng) -> Move | None:
    game = state.game
    priced = bisect(_depot(game)[0], player.money)  # how many of the depot's totals the purse pays
    if not priced:
        return None
    most = _depot(game)[1][priced - 1]  # the most items the purse pays for
    want: list[str] = []
    for material, n in state.spec["play"]["wishes"]["stock"].items():
        if material == game.bell:
            if _needs_bell(state, player):
                want.append(material)
            continue
        want.extend([material] * max(0, n - player.stock[material]))
    if not want:
        want = [rng.choice([m for m in game.materials if m != game.bell])]
    rng.shuffle(want)
    count = min(len(want), most)
    bought: dict[str, int] = {}
    for material in want[:count]:
        bought[material] = bought.get(material, 0) + 1
    return Trade(*_turn(state, player, space), buy=_sorted(bought))


def _ship_room(state, player) -> int:
    """How many ships the player could build now, counting ships that come back in the action."""
    harbour = {b: list(v) for b, v in state.harbour.items()}
    cost = state.spec["harbour"]["ship_cost"]
    built = 0
    while all(player.stock[m] >= n * (built + 1) for m, n in cost.items()):
        if sum([v.count(player.colour) for v in harbour.values()]) >= state.game.limit("ships"):
            break
        enter_harbour(harbour, state.game.berth_order, state.berth_capacity, player.colour)
        built += 1
    return built


def plan_dockyard(state, player, space, rng) -> Move | None:
    room = _ship_room(state, player)
    if room == 0:
        return None
    return Dockyard(*_turn(state, player, space), ships=rng.randint(1, room))


def _affordable_donations(state, player, church: str, discs: int | None = None) -> int:
    """How many donations in a row the player can pay for at a church right now (`discs`:
    the player's discs not yet placed, when the caller has counted them)."""
    if state.churches[church].complete:
        return 0
    return _donations_paid(state, player, state.donations_made(church), state.discs_free(player) if discs is None else discs)


def _donations_paid(state, player, made: int, discs: int) -> int:
    """How many donations in a row the player can pay for, with `discs` discs free, at a
    church that has had `made`: what `_affordable_donations` counts, for a caller that has
    read both (a Church turn weighs every church)."""
    stock, money = player.stock, player.money
    spent: dict[str, int] = {}  # materials the donations counted so far take
    citizens = len(player.citizens)
    count = 0
    for fixed, per_citizen, cost in _donation_prices(state.game)[made:]:
        price = fixed + per_citizen * citizens
        if discs <= count or money < price or not _covers(stock, spent, cost):
            break
        for k, v in cost:
            spent[k] = spent.get(k, 0) + v
        money -= price
        count += 1
    return count


def _covers(stock: Counter, spent: dict[str, int], cost: tuple[tuple[str, int], ...]) -> bool:
    """Whether the stock holds a donation's materials besides those `spent` already: a plain
    loop, as `any` over a generator takes twice as long, and every Church turn asks."""
    for material, n in cost:
        if stock[material] - spent.get(material, 0) < n:
            return False
    return True


def _take_tokens(state, church: str, count: int, rng) -> tuple[str, ...]:
    left = list(state.churches[church].tokens_left)
    made = state.donations_made(church)
    taken = []
    for _ in range(count):
        kind = state.game.first_token if made + len(taken) == 0 else rng.choice(left)
        left.remove(kind)
        taken.append(kind)
    return tuple(taken)


def _scores(state, player, taken: list[tuple[str, str]], rng, ends_game: bool) -> tuple[tuple[str, str], ...]:
    """Tokens to score: enough to keep one unscored of each kind, and some more by chance."""
    unscored = [(t.church, t.kind) for t in player.unscored()] + taken
    by_kind: dict[str, list[tuple[str, str]]] = {}
    for token in unscored:
        by_kind.setdefault(token[1], []).append(token)
    scores = []
    for _kind, tokens in by_kind.items():
        if len(tokens) > 1:  # a shuffle of one draws nothing
            rng.shuffle(tokens)  # the standard method: `_NoChance`, which lists moves, keeps the order
        keep = 0 if ends_game else 1
        for i, token in enumerate(tokens):
            if i >= keep or _chance(state, rng, "score_extra_token"):
                scores.append(token)
    return tuple(scores)


def plan_church(state, player, space, rng) -> Move | None:
    discs = state.discs_free(player)
    # what a church lets the player pay for depends only on how many donations it has had
    # (and on the player), so churches with as many donations share one answer
    by_made: dict[int, int] = {}
    options: dict[str, tuple[int, int]] = {}  # by church: the donations it has had, and those the player can pay for
    # a player with no disc free, or without what every donation takes, can pay for none (so
    # end most Church turns that donate nothing)
    if discs > 0 and _covers(player.stock, {}, _donation_floor(state.game)):
        for c, church in state.churches.items():
            if church.complete:
                continue
            made = state.donations_made(c)
            count = by_made.get(made)
            if count is None:
                count = by_made[made] = _donations_paid(state, player, made, discs)
            if count > 0:
                options[c] = (made, count)
    donations: tuple[Donation, ...] = ()
    taken: list[tuple[str, str]] = []
    ends_game = False
    if options:
        churches = list(options)
        weights = [made + 1 for made, _ in options.values()]
        church = rng.choices(churches, weights)[0]
        made, most = options[church]
        count = most if _chance(state, rng, "all_donations") else rng.randint(1, most)
        tokens = _take_tokens(state, church, count, rng)
        donations = (Donation(church, tokens),)
        taken = [(church, k) for k in tokens]
        finishes = made + count == len(state.game.token_kinds)
        ends_game = finishes and len(state.completed) + 1 >= state.spec["scoring"]["end_after_churches"]
    scores = _scores(state, player, taken, rng, ends_game)
    if not donations and not scores:
        return None
    return ChurchTurn(*_turn(state, player, space), donations=donations, scores=scores)


def _kinds_left(state, chosen: list[House], office: bool = True) -> list[str]:
    """The kinds of house with a tile left for one more house besides those chosen, in the
    order of the spec's types (an office only where one is left and none is chosen, as one
    action builds at most one; and only where `office` allows one). Worked out for every
    kind at once: a Guildhall turn asks for every house it plans."""
    game = state.game
    planned: dict[str, int] = {}  # the tiles the houses chosen take, by kind
    for house in chosen:
        planned[house.kind] = planned.get(house.kind, 0) + 1
    kinds = []
    for kind, entry in game.house_types.items():
        if kind == game.office_type:
            if office and state.office_stack and not planned.get(kind):
                kinds.append(kind)
        elif entry["count"] - state.built.get(kind, 0) - planned.get(kind, 0) > 0:
            kinds.append(kind)
    return kinds


def _free_sites(state, player, chosen: list[House], rng) -> list[Site]:
    """Sites the player may build on next; without board data, a fresh site in some parish."""
    game = state.game
    if game.board_sites is None:
        # a list, not a set: a site chosen is a fresh one (numbered past every site of its parish)
        taken = [*state.sites, *[h.site for h in chosen]]
        if len(taken) >= state.spec["board"]["site_count"]:
            return []
        parish = rng.choice(game.church_ids)
        number = 1 + max([s.number for s in taken if s.parish == parish], default=0)
        return [Site(parish, number)]
    taken = set(state.sites) | {h.site for h in chosen}
    own = {s.name for s in player.citizens} | {h.site.name for h in chosen}
    churches = {t.church for t in player.tokens}
    out = []
    for site in game.board_sites:
        if site in taken:
            continue
        if player.builder or any(n in churches or n in own for n in game.links.get(site.name, ())):
            out.append(site)
    return out


def _office_word(state, rng) -> str | None:
    mode = state.game.office_mode
    if mode == "numbered":
        return None
    if mode == "choice":
        return rng.choice(state.office_stack)
    return state.face_up


def plan_guildhall(state, player, space, rng) -> Move | None:
    game = state.game
    if not (player.builder or player.tokens):
        return None
    cost = game.house_cost
    room = min([player.stock[m] // n for m, n in cost.items() if n] + [game.limit("citizens") - len(player.citizens)])  # a free material limits nothing
    if room <= 0:
        return None
    count = room if _chance(state, rng, "all_houses") else rng.randint(1, room)
    want_office = _chance(state, rng, "office")
    chosen: list[House] = []
    for _ in range(count):
        sites = _free_sites(state, player, chosen, rng)
        rng.shuffle(sites)
        open_kinds = _kinds_left(state, chosen, want_office)  # they depend on the houses chosen, not on the site
        pick = None
        for site in sites:
            if game.board_sites is None:
                kinds = open_kinds
            else:  # the one kind the site shows
                kinds = [game.board_sites[site]] if game.board_sites[site] in open_kinds else []
            if kinds:
                pick = (site, rng.choice(kinds))
                break
        if pick is None:
            break
        site, kind = pick
        office = _office_word(state, rng) if kind == game.office_type else None
        chosen.append(House(kind, site, office))
    if not chosen:
        return None
    _add_canon_donation(state, player, chosen, rng)
    return Guildhall(*_turn(state, player, space), houses=tuple(chosen))


def _add_canon_donation(state, player, chosen: list[House], rng) -> None:
    """The canon's donation, if the canon is built; its house goes last, as it may end the game."""
    game = state.game
    office = next((h for h in chosen if h.kind == game.office_type), None)
    top = office and (office.office or (state.office_stack[0] if state.office_stack else None))
    if top != game.canon or not _chance(state, rng, "canon_donation"):
        return
    cost = game.house_cost
    bricks = Counter(game.offices[game.canon]["donation"])
    after = Counter({m: player.stock[m] - n * len(chosen) for m, n in cost.items()})
    churches = [c for c, s in state.churches.items() if not s.complete]
    if not churches or state.discs_free(player) <= 0 or any(after[m] < n for m, n in bricks.items() if m != MONEY):
        return
    church = rng.choice(churches)
    office.donation = Donation(church, _take_tokens(state, church, 1, rng))
    chosen.remove(office)
    chosen.append(office)


PLANNERS: dict[str, tuple[str, Callable]] = {
    "production": ("production", plan_produce),
    "sell": ("trade", plan_sell),
    "buy": ("trade", plan_buy),
    "dockyard": ("dockyard", plan_dockyard),
    "church": ("church", plan_church),
    "guildhall": ("guildhall", plan_guildhall),
}


# --- choosing ----------------------------------------------------------------------------


def random_move(state: HamburgumState, rng: random.Random) -> Move:
    if state.game.office_mode == "shuffled" and state.face_up is None and state.office_stack:
        return Reveal(office=rng.choice(sorted(state.office_stack)))
    player = state.players[state.current()]
    spaces, options = _turn_options(state, player)
    while options:  # drawn by weight; a kind whose plan does nothing is left out of the next draw
        index = rng.choices(range(len(options)), [w for w, _, _ in options])[0]
        _, kind, where = options[index]
        move = PLANNERS[kind][1](state, player, rng.choice(where), rng)
        if move is not None:
            return move
        options = options[:index] + options[index + 1 :]
    # nothing useful: the cheapest action that may do nothing (production, or a Church action
    # that neither donates nor scores)
    idle = [sc for sc in spaces if state.game.space_action(sc[0]) in state.game.produces or state.game.space_action(sc[0]) == "church"] or spaces
    space = min(idle, key=lambda sc: sc[1])[0]
    return _idle(state, player, space)


# The spaces a player can reach with the prestige each costs, and the kinds of turn they allow:
# (weight, kind, the cheapest spaces to take it on).
Reach = tuple[tuple[str, int], ...]
TurnOptions = tuple[tuple[int, str, tuple[str, ...]], ...]


# The random player's memo: the kinds of turn by game, marker space and prestige to spend.
_TURN_OPTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _turn_options(state: HamburgumState, player: Player) -> tuple[Reach, TurnOptions]:
    """`_kinds_of_turn` of the spaces the player can reach. They depend only on where the
    marker stands and how much prestige the player may spend, so the search keeps them per
    game: play made 151 games a second of Civitas Hamburgum without it, 211 with it
    (benchmarks/bench.py --only play)."""
    floor = state.game.prestige_floor
    key = (None, 0) if player.space is None else (player.space, player.prestige - floor)  # a first turn reaches every space, free
    known = _TURN_OPTIONS.setdefault(state.game, {})
    found = known.get(key)
    if found is None:
        found = known[key] = _kinds_of_turn(state, reachable(state, player))
    return found


def _kinds_of_turn(state: HamburgumState, spaces: list[tuple[str, int]]) -> tuple[Reach, TurnOptions]:
    """The reachable spaces, and each kind of turn they allow: its weight, its name, and the
    cheapest spaces to take it on."""
    play = state.spec["play"]
    options: list[tuple[int, str, tuple[str, ...]]] = []
    found = {s: state.game.space_action(s) for s, _ in spaces}  # each space's action, looked up once
    produces = state.game.produces
    by_action: dict[str, list[tuple[str, int]]] = {}
    for space in spaces:
        by_action.setdefault(found[space[0]], []).append(space)
    for kind, (action, _) in PLANNERS.items():
        here = [sc for sc in spaces if found[sc[0]] in produces] if action == "production" else by_action.get(action)
        if not here:
            continue
        cheapest = min(c for _, c in here)
        step = play["free_step_weight"] if cheapest == 0 else play["paid_step_weight"]
        options.append((play["action_weights"][kind] * step, kind, tuple(s for s, c in here if c == cheapest)))
    return tuple(spaces), tuple(options)


def _idle(state, player, space: str) -> Move:
    fields = _turn(state, player, space)
    action = fields[1]
    kinds = {"trade": Trade, "dockyard": Dockyard, "church": ChurchTurn, "guildhall": Guildhall}
    if action in state.game.produces:
        return Produce(*fields)
    if action == "church":
        return ChurchTurn(*fields, scores=_scores(state, player, [], _NoChance(), False))
    return kinds[action](*fields)


def legal_moves(state: HamburgumState) -> list[Move]:
    """The legal next moves, one step each: single items, single donations, single houses."""
    if state.over:
        return []
    if state.game.office_mode == "shuffled" and state.face_up is None and state.office_stack:
        return [Reveal(office=o) for o in sorted(state.office_stack)]
    player = state.players[state.current()]
    game = state.game
    rng = random.Random(0)
    moves: list[Move] = []
    forced = _scores(state, player, [], _NoChance(), False)
    for space, _ in reachable(state, player):
        fields = _turn(state, player, space)
        action = fields[1]
        if action in game.produces:
            moves.append(Produce(*fields))
        elif action == "trade":
            sell = plan_sell(state, player, space, _NoChance())
            if sell:
                moves.append(sell)
            bell_room = player.stock[game.bell] < game.bell_limit
            if game.materials_totals[1] <= player.money:
                moves.extend(Trade(*fields, buy=((m, 1),)) for m in game.materials if m != game.bell or bell_room)
        elif action == "dockyard":
            moves.extend(Dockyard(*fields, ships=n) for n in range(1, _ship_room(state, player) + 1))
        elif action == "church":
            moves.append(ChurchTurn(*fields, scores=forced))
            for church in game.church_ids:
                if _affordable_donations(state, player, church):
                    left = state.churches[church].tokens_left
                    kinds = [game.first_token] if state.donations_made(church) == 0 else left
                    for kind in kinds:
                        scores = _scores(state, player, [(church, kind)], _NoChance(), False)
                        moves.append(ChurchTurn(*fields, donations=(Donation(church, (kind,)),), scores=scores))
            moves.extend(ChurchTurn(*fields, scores=tuple(dict.fromkeys(forced + ((t.church, t.kind),)))) for t in player.unscored() if (t.church, t.kind) not in forced)
        elif action == "guildhall":
            if (player.builder or player.tokens) and all(player.stock[m] >= n for m, n in game.house_cost.items()) and len(player.citizens) < game.limit("citizens"):
                for kind in _kinds_left(state, []):
                    sites = [s for s in _free_sites(state, player, [], rng) if game.board_sites is None or game.board_sites[s] == kind]
                    if sites:
                        moves.append(Guildhall(*fields, houses=(House(kind, sites[0], _office_word(state, rng) if kind == game.office_type else None),)))
    return moves


def next_words(state: HamburgumState, words: list[str]) -> list[str]:
    """The words that may follow `words` in a legal turn ("" where they are a whole one): the
    turn's own words, beyond the one step of each kind `legal_moves` lists (_search.py)."""
    return words_of(state, lambda: [state.game.format_move(m) for m in legal_moves(state)])(words)


class _NoChance(random.Random):
    """A chooser that always says no and keeps the first option, for listing moves. Its
    `random` answers the top of the range, which no weighted chance passes."""

    def random(self):
        return 1.0

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        return [list(population)[-1]] * k

    def shuffle(self, x, random=None):
        return None


def _sorted(amounts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """The amounts above zero, in order, as a move holds them: a plain loop over the few, as
    every sale and purchase planned makes one or two."""
    kept = []
    for item in amounts.items():
        if item[1] > 0:
            kept.append(item)
    return tuple(sorted(kept))
