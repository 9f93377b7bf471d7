"""Civitas Hamburgum rules: the state of a game and every move's effect on it.

Each turn a player moves their marker clockwise round the rondel and takes the
action of the space it reaches: production, trade, dockyard, church or
guildhall. Donations to the six churches earn tokens that turn into prestige;
the game ends when the sixth church is finished. Every number, table and name
comes from `specs/hamburgum/`, the city map included: while the board data
lacks the house sites or the brown lines, the rules that need them are
reported as not checked and everything else is still enforced.

The module reads as the rulebook does: the pieces and the harbour, set-up,
the rondel and its cost, each action space in turn, offices, and the end.
Final scoring is the scoring module's; which moves to try is the play module's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from referee.errors import Pos, RecordError, Violation
from referee.games.base import Game, Seat, Situation, Standing, State, Trace, require
from referee.games.hamburgum.moves import ChurchTurn, Dockyard, Guildhall, House, Produce, Reveal, Site, Trade, Turn
from referee.games.hamburgum.scoring import final, standings_of
from referee.i18n import Message, Named, localized
from referee.notation.colours import colour_named
from referee.notation.parser import Move

DUTCHMAN = "dutchman"  # a Flying Dutchman in the harbour, where player ships show their colour
MONEY = "money"


# --- the pieces and the harbour ---------------------------------------------------------


@dataclass
class DonationToken:
    """A donation token in a player's hands; scored tokens lie face down for good."""

    church: str
    kind: str
    scored: bool = False


@dataclass
class Player:
    """One player's pieces and holdings during a game."""

    seat: Seat
    money: int
    prestige: int
    stock: Counter = field(default_factory=Counter)  # goods and building materials
    space: str | None = None  # rondel space; None while in the centre
    houses: list[str] = field(default_factory=list)  # house types in build order
    offices: list[str] = field(default_factory=list)
    citizens: list[Site] = field(default_factory=list)
    tokens: list[DonationToken] = field(default_factory=list)
    churches_built: int = 0  # church-builder discs on the church table

    @property
    def colour(self) -> str:
        return self.seat.colour

    @property
    def builder(self) -> bool:
        return self.churches_built > 0

    def unscored(self, kind: str | None = None) -> list[DonationToken]:
        return [t for t in self.tokens if not t.scored and (kind is None or t.kind == kind)]


@dataclass
class Church:
    """A church on the church table: donation tokens not yet taken, donors' discs, whether it is complete."""

    tokens_left: list[str]
    discs: list[str] = field(default_factory=list)  # donors' colours, one per donation
    complete: bool = False


def ship_loading_fits(capacities: list[int], demand: list[int]) -> bool:
    """Can goods be loaded, one kind per ship, within these ship capacities?

    `demand` holds the cubes wanted of each kind. Each kind needs a set of ships
    of its own whose capacities add up to its cubes; tried kind by kind, largest
    first, over every set of the remaining ships (a player has at most five).
    The answer depends on neither order, and a sale asks it once and once more for
    each good sent to the bank: each question is worked out once (`_FITS`), and kept as
    it is asked, as a player's ships and goods come in the same order sale after sale.
    """
    key = (tuple(capacities), tuple(demand))
    found = _FITS.get(key)
    if found is None:
        found = _FITS[key] = _loading_fits(capacities, sorted([d for d in demand if d > 0], reverse=True))
    return found


def production_yield(game: Game, player: Player, good: str) -> int:
    """What a production action of `good` yields the player: 1, and 1 more for each of their
    houses that produce it, counted by house type (a player's houses are kept by type): a
    plain loop over the good's one or few producers, as every production asks."""
    amount = 1
    for kind in game.producers.get(good, ()):
        amount += player.houses.count(kind)
    return amount


def one_more(shipped: Mapping[str, int], good: str) -> list[int]:
    """The cubes of each good wanted on the ships were one more `good` sold with `shipped`:
    whether the ships could carry it is what decides that a good may go to the bank."""
    demand = dict(shipped)
    demand[good] = demand.get(good, 0) + 1
    return list(demand.values())


# The answers by ship capacities and demand, as asked. They stay few: a player has a few
# ships of the berths' few sizes, and a few kinds of goods in counts a stock can hold.
_FITS: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}


def _loading_fits(capacities: list[int], wanted: list[int]) -> bool:
    """`ship_loading_fits` worked out, `wanted` holding the positive demands, largest first."""
    if not wanted:
        return True
    need, rest = wanted[0], wanted[1:]
    indices = range(len(capacities))
    for size in range(len(capacities) + 1):
        for chosen in combinations(indices, size):
            if sum(capacities[i] for i in chosen) >= need:
                left = [c for i, c in enumerate(capacities) if i not in chosen]
                if _loading_fits(left, rest):
                    return True
    return False


def enter_harbour(harbour: dict[int, list[str]], order: list[int], capacity: int, owner: str) -> None:
    """A new ship enters the entry berth (the last in `order`); a full one shifts the harbour first.

    The ships of the first berth leave (players' ships go back to their supply,
    Flying Dutchmen leave the game) and every other berth's ships move one on.
    """
    if len(harbour[order[-1]]) >= capacity:
        for here, there in zip(order, order[1:]):
            harbour[here] = harbour[there]
        harbour[order[-1]] = []
    harbour[order[-1]].append(owner)


@dataclass(eq=False)  # read for a checkpoint and dropped, never compared
class Holdings:
    """What a checkpoint reads of a player: their pieces, and their money, prestige and stock
    as final scoring leaves them once the game is over."""

    player: Player
    money: int
    prestige: int
    stock: Counter

    @classmethod
    def of(cls, state: HamburgumState, player: Player) -> Holdings:
        if not state.over:
            return cls(player, player.money, player.prestige, player.stock)
        f = final(state, player)
        return cls(player, f["money"], f["prestige"] + f["tokens"] + f["bought"], Counter())


class HamburgumState(State):
    """One game in progress: set up as the rulebook sets it up, then changed move by move by `apply`."""

    score_figure = "prestige"
    adoptable = {"money": "money", "prestige": "prestige"}

    def __init__(self, game: Game, seats: list[Seat], start: int, trace: Trace):
        self.game = game
        self.spec = game.spec
        self.trace = trace
        self.seats = seats
        n = len(seats)
        self.order = [seats[(start + i) % n].colour for i in range(n)]
        setup = self.spec["setup"]
        self.players: dict[str, Player] = {}
        for seat_number, colour in enumerate(self.order, 1):
            seat = next(s for s in seats if s.colour == colour)
            self.players[colour] = Player(seat, setup["per_seat"]["money"] * seat_number, setup["per_seat"]["prestige"] * seat_number, Counter(setup["stock"]))
        self.turn = 0
        self.berth_capacity = n if game.ships_per_berth == "players" else game.ships_per_berth
        self.harbour: dict[int, list[str]] = {b: [] for b in game.berth_order}
        for colour in self.order:
            for _ in range(setup["ships_in_harbour"]):
                self._enter_harbour(colour)
        self.dutchmen = self.spec["components"]["flying_dutchmen"]["count"]
        self.built: Counter = Counter()  # house tiles built, by type
        self.sites: dict[Site, str] = {}  # occupied sites and their citizens' colours
        self.churches = {c: Church(list(game.token_kinds)) for c in game.church_ids}
        self.completed: list[str] = []
        self.office_stack = list(game.office_stack())  # top first
        self.face_up: str | None = None  # advanced game II: the office lying face up
        self.over = False
        self._last_pos: Pos | None = None
        trace.use(game.rule("setup-seat"))

    # --- small facts ------------------------------------------------------------------

    def current(self) -> str:
        return self.order[self.turn % len(self.order)]

    def price(self, good: str) -> int:
        """The start price less the drop for each production house of the good built so far,
        but never below the floor."""
        table = self.game.goods_price
        built = self.built.get(self.game.producer_of[good], 0)  # no Counter default asked for a house never built
        return max(table["floor"], table["start"] - table["drop_per_house"] * built)

    def price_values(self, good: str) -> list[str]:
        """The spec values a good's current price is read from; the floor once it is reached."""
        used = ["market:goods_price.start", "market:goods_price.drop_per_house"]
        if self.price(good) <= self.spec["market"]["goods_price"]["floor"]:  # the drops reach the floor
            used.append("market:goods_price.floor")
        return used

    def use(self, short: str, value: str, *more: str) -> None:
        """A rule was applied using only the spec values at these addresses (`file:key`), so the
        report lists only the uncertain values among them (see Trace.use)."""
        rid = self.game.rule(short)
        self.trace.use(rid, value, *more)

    def ships_in_harbour(self, colour: str) -> int:
        return sum([ships.count(colour) for ships in self.harbour.values()])

    def ships_in_supply(self, colour: str) -> int:
        return self.game.limit("ships") - self.ships_in_harbour(colour)

    def own_capacities(self, colour: str) -> list[int]:
        """What each of the player's ships in the harbour carries, berth by berth (a sale asks
        twice: the ships are counted by berth, not looked at one by one)."""
        per_ship = self.game.goods_per_ship
        capacities: list[int] = []
        for berth, ships in self.harbour.items():
            if colour in ships:
                capacities += [per_ship[berth]] * ships.count(colour)
        return capacities

    def discs_free(self, player: Player) -> int:
        colour = player.colour
        on_table = 0  # a plain loop over the few churches: every Church turn asks, and each donation
        for church in self.churches.values():
            on_table += church.discs.count(colour)
        return self.game.limit("discs") - on_table - player.churches_built

    def donations_made(self, church: str) -> int:
        return len(self.game.token_kinds) - len(self.churches[church].tokens_left)

    def donation_cost(self, player: Player, church: str) -> Counter:
        """What the next donation at a church costs this player (materials and money)."""
        fixed, per_citizen = self.game.donation_costs[self.donations_made(church)]
        cost = dict(fixed)
        cost[MONEY] = cost.get(MONEY, 0) + per_citizen * len(player.citizens)
        return Counter({k: v for k, v in cost.items() if v > 0})

    def can_pay(self, player: Player, cost: Counter) -> list[str]:
        """The parts of a cost the player cannot pay (empty when they can)."""
        short = []  # a plain loop over the few parts: every donation, house and ship asks
        stock = player.stock
        for k, v in cost.items():
            if k != MONEY and stock.get(k, 0) < v:  # no Counter default asked for a material never held
                short.append(k)
        if player.money < cost[MONEY]:
            short.append(MONEY)
        return short

    def pay(self, player: Player, cost: Counter, rule: str | None = None, reason: Message | str = "") -> None:
        """Pay a cost; the money part is noted for a ledger under `rule`, for `reason`."""
        for k, v in cost.items():
            if k == MONEY:
                player.money -= v
                if self.trace.keeps_notes:  # only a ledger keeps notes: every donation and house pays
                    self._note(player.colour, MONEY, -v, rule, reason)
            else:
                player.stock[k] -= v

    def measure(self, name: str, player: Player, church: str | None = None, house: str | None = None) -> int:
        return MEASURES[name](self, player, church, house)

    def token_values(self, token: DonationToken) -> list[str]:
        """Where a token's points and what it counts are printed: the kind, and the church's own."""
        return [f"churches:tokens.{token.kind}", f"churches:churches.{token.church}.{token.kind}"]

    def token_value(self, player: Player, token: DonationToken) -> int:
        spec = self.game.token_spec(token.church, token.kind)
        per = spec.get("per")
        if per is None:
            return spec["points"]
        return spec["points"] * self.measure(per, player, token.church, spec.get("house"))

    # --- applying moves -----------------------------------------------------------------

    def apply(self, move: Move) -> None:
        if isinstance(move, Reveal):
            self._reveal(move)
            return
        rule = self.game.rule
        seat_rule = rule("seat")  # looked up every turn: a rule missing from rules.yaml shows at once
        if move.player not in self.players:
            self.seat(move.player, move.pos, seat_rule)
        expected = self.current()
        turn_order = rule("turn-order")  # looked up every turn: a rule missing from rules.yaml shows at once
        # (the message is put together only for a broken rule: this runs every turn)
        require(move.player == expected, turn_order, lambda: Message("it is {actor}'s turn, not {player}'s", actor=colour_named(expected), player=colour_named(move.player)))
        player = self.players[move.player]
        snapshot = self._snapshot(move.player, board=not isinstance(move, PLAYER_ONLY)) if self.rolls_back else None
        try:
            self._move_marker(player, move)
            getattr(self, ACTIONS[type(move)])(player, move)
        except Violation:
            if snapshot is not None:
                self._restore(snapshot)
            raise
        self.turn += 1

    def _snapshot(self, actor: str, board: bool = True) -> dict:
        """Everything a turn may change, copied, so that a rejected turn leaves no trace. A turn
        changes the pieces of the player whose turn it is and the common board, never another
        player's pieces, so only the acting player is copied: a snapshot is taken before every
        turn, and copying every player made it a tenth of a replay. Without `board`, for a turn
        that changes the acting player's pieces alone (`PLAYER_ONLY`), the board is not copied."""
        players = {c: _player_copy(p) if c == actor else p for c, p in self.players.items()}
        if not board:
            return {"players": players}
        return {
            "players": players,
            "harbour": {b: list(ships) for b, ships in self.harbour.items()},
            "dutchmen": self.dutchmen,
            "built": Counter(self.built),
            "sites": dict(self.sites),
            "churches": {c: Church(list(s.tokens_left), list(s.discs), s.complete) for c, s in self.churches.items()},
            "completed": list(self.completed),
            "office_stack": list(self.office_stack),
            "face_up": self.face_up,
            "over": self.over,
        }

    def _restore(self, snapshot: dict) -> None:
        for k, v in snapshot.items():
            setattr(self, k, v)

    # --- the rondel ----------------------------------------------------------------------

    def _thing_named(self, key: str) -> Named:
        """A good or building material as a message shows it, in the reader's language."""
        components = self.spec["components"]
        entry = components["goods"].get(key) or components["materials"].get(key) or {}
        return Named(key, entry.get("names"))

    def _amounts_named(self, amounts) -> list[Message] | Message:
        """Amounts for a message, "2 beer, 10 thalers"."""
        items = [(k, n) for k, n in dict(amounts).items() if n]
        return [Message("{n} thalers", n=n) if k == MONEY else Message("{n} {good}", n=n, good=self._thing_named(k)) for k, n in items] or Message("nothing")

    def _stock_named(self, stock: Counter, keys) -> list[Message] | Message:
        """What a player holds of these goods or materials, for a message."""
        return [Message("{n} {good}", n=stock[k], good=self._thing_named(k)) for k in keys if k != MONEY] or Message("nothing")

    def _note(self, colour: str, figure: str, amount: int, rule: str | None, reason: Message | str) -> None:
        """Note a change of a figure for a ledger, its reason in the reader's language: only
        `referee explain` and a contradicted checkpoint keep notes, and they show them at once."""
        self.trace.note(colour, figure, amount, rule, localized(reason))

    def _move_marker(self, player: Player, move: Turn) -> None:
        """Move the rondel marker to a space of the move's action, paying for extra steps."""
        game, rule = self.game, self.game.rule
        if move.side is not None or player.space is None:  # the spaces are listed only where they are asked about
            candidates = game.spaces_of(move.action, move.side)
            if move.side is not None:
                require(candidates, rule("rondel-steps"), lambda: Message("the {action} action has no {side} space", action=_action_named(game, move.action), side=_side_named(game, move.side)))
        if player.space is None:
            if len(candidates) > 1:
                # which space the marker stands on is missing from the record, not a broken rule
                written = [f"'{game.space_side(s)} {move.action}'" for s in candidates]
                sides = written[0]
                for more in written[1:]:
                    sides = Message("{first} or {second}", first=sides, second=more)
                raise RecordError(
                    Message(
                        "{colour} places the marker for the first time, and the record does not say on which {action} space: write {sides}",
                        colour=colour_named(player.colour),
                        action=_action_named(game, move.action),
                        sides=sides,
                    ),
                    move.pos,
                )
            player.space = candidates[0]
            self.trace.use(rule("rondel-first"))
            return
        target, steps, cost = game.route(player.space, move.action, move.side)
        floor = game.prestige_floor
        require(
            player.prestige - cost >= floor,
            rule("rondel-steps"),
            lambda: Message(
                "{colour} moves {steps} rondel spaces from {start} to {target}; {free} are free and the other {paid} cost {cost} prestige, but {colour} holds {prestige}",
                colour=colour_named(player.colour),
                steps=steps,
                start=_space_named(game, player.space),
                target=_space_named(game, target),
                free=game.rondel["free_steps"],
                paid=steps - game.rondel["free_steps"],
                cost=cost,
                prestige=player.prestige,
            ),
        )
        player.prestige -= cost
        if cost and self.trace.keeps_notes:
            self._note(player.colour, "prestige", -cost, rule("rondel-steps"), Message("{steps} rondel spaces to {target}", steps=steps, target=_space_named(game, target)))
        player.space = target
        if self.trace.records:  # a random game's trace names nothing: this runs every turn
            self.trace.use(rule("rondel-steps"))

    # --- production ----------------------------------------------------------------------

    def _produce(self, player: Player, move: Produce) -> None:
        good = self.game.produces[move.action]
        amount = production_yield(self.game, player, good)
        require(
            move.amount in (None, amount),
            self.game.rule("production"),
            lambda: Message(
                "{colour} produces {amount} {good} (1 and 1 more per own production house), not {stated}",
                colour=colour_named(player.colour),
                amount=amount,
                good=self._thing_named(good),
                stated=move.amount,
            ),
        )
        player.stock[good] += amount
        if self.trace.records:
            self.trace.use(self.game.rule("production"))

    # --- trade ---------------------------------------------------------------------------

    def _trade(self, player: Player, move: Trade) -> None:
        rule = self.game.rule
        either, something = rule("trade-either"), rule("trade-something")  # looked up every turn, as require would
        selling = move.sell or move.bank
        # (the messages of a turn are put together only for a broken rule: this runs every turn)
        require(not (selling and move.buy), either, lambda: Message("{colour} may either sell goods or buy materials in one Trade action, not both", colour=colour_named(player.colour)))
        require(selling or move.buy, something, lambda: Message("{colour}'s Trade action neither sells goods nor buys materials; a Trade does one of the two", colour=colour_named(player.colour)))
        if selling:
            self._sell(player, move)
        elif move.buy:
            self._buy(player, move)

    def _sell(self, player: Player, move: Trade) -> None:
        rule, colour = self.game.rule, player.colour
        shipped = dict(move.sell)
        total = dict(shipped)  # as `Counter(sell) + Counter(bank)` adds them: counts above zero only
        for good, n in dict(move.bank).items():
            total[good] = total.get(good, 0) + n
        total = {g: n for g, n in total.items() if n > 0}
        # (the messages of a sale are put together only for a broken rule)
        held = all(player.stock[good] >= n for good, n in total.items())
        require(
            held,
            rule("sell-goods"),
            lambda: Message("{colour} sells {total} but holds {stock}", colour=colour_named(colour), total=self._amounts_named(total), stock=self._stock_named(player.stock, self.game.goods)),
        )
        capacities = self.own_capacities(colour)
        require(
            ship_loading_fits(capacities, list(shipped.values())),
            rule("sell-ships"),
            lambda: Message(
                "{colour}'s ships (capacities {capacities}, one good each) cannot carry {shipped}",
                colour=colour_named(colour),
                capacities=_capacities(capacities),
                shipped=self._amounts_named(shipped),
            ),
        )
        for good, _ in move.bank:
            require(
                not ship_loading_fits(capacities, one_more(shipped, good)),
                rule("bank-sale"),
                lambda: Message("{colour}'s ships could still carry another {good}; only goods that do not fit go to the bank", colour=colour_named(colour), good=self._thing_named(good)),
            )
        bank_price = self.spec["market"]["bank_sale"]["price"]
        shipped_income, bank_income = sum([n * self.price(g) for g, n in move.sell]), sum([n * bank_price for _, n in move.bank])
        player.money += shipped_income + bank_income
        if self.trace.keeps_notes:
            self._note(colour, MONEY, shipped_income, rule("sell-goods"), Message("sold {goods} on ships", goods=self._amounts_named(shipped)))
            self._note(colour, MONEY, bank_income, rule("bank-sale"), Message("sold {goods} to the bank", goods=self._amounts_named(dict(move.bank))))
        stock = player.stock  # counted down as `subtract` counts, not `-=`, which would hide a count below zero that a ruling made
        for good, n in total.items():
            stock[good] = stock.get(good, 0) - n
        if self.trace.records:  # a random game's trace names nothing: this runs every sale
            for r in ("sell-goods", "bank-sale", "supply-unlimited"):
                self.trace.use(rule(r))
            self.use("sell-ships", "harbour:berths", *(v for g in shipped for v in self.price_values(g)))

    def _buy(self, player: Player, move: Trade) -> None:
        rule, colour = self.game.rule, player.colour
        count = sum([n for _, n in move.buy])
        totals = self.game.materials_totals
        # (the messages of a purchase are put together only for a broken rule)
        require(count in totals, rule("buy-price"), lambda: Message("the depot sells at most {max} items in one action, not {count}", max=max(totals), count=count))
        bells = dict(move.buy).get(self.game.bell, 0) + player.stock[self.game.bell]
        limit = self.game.bell_limit
        require(bells <= limit, rule("bell-limit"), lambda: Message("{colour} would hold {bells} bells; nobody may hold more than {limit}", colour=colour_named(colour), bells=bells, limit=limit))
        price = totals[count]
        require(
            player.money >= price,
            rule("buy-price"),
            lambda: Message("{count} items cost {price} thalers; {colour} has {money}", count=count, price=price, colour=colour_named(colour), money=player.money),
        )
        player.money -= price
        if self.trace.keeps_notes:
            self._note(colour, MONEY, -price, rule("buy-price"), Message("bought {goods} at the depot", goods=self._amounts_named(dict(move.buy))))
        stock = player.stock  # counted up as `update` counts, without its question whether the argument is a mapping
        for material, n in dict(move.buy).items():
            stock[material] = stock.get(material, 0) + n
        if self.trace.records:
            for r in ("bell-limit", "supply-unlimited"):
                self.trace.use(rule(r))
            self.use("buy-price", f"market:materials_price.totals.{count}")

    # --- dockyard ------------------------------------------------------------------------

    def _dockyard(self, player: Player, move: Dockyard) -> None:
        rule, colour = self.game.rule, player.colour
        # (the messages of a Dockyard action are put together only for a broken rule)
        require(move.ships > 0, rule("dockyard-ships"), lambda: Message("{colour}'s Dockyard action builds no ship; the Dockyard is taken to build at least one", colour=colour_named(colour)))
        cost = Counter({k: v * move.ships for k, v in self.spec["harbour"]["ship_cost"].items()})
        short = self.can_pay(player, cost)
        require(
            not short,
            rule("dockyard-cost"),
            lambda: Message(
                "{ships} ships cost {cost}; {colour} holds {stock}", ships=move.ships, cost=self._amounts_named(cost), colour=colour_named(colour), stock=self._stock_named(player.stock, short)
            ),
        )
        self.pay(player, cost, rule("dockyard-cost"), Message("built {n} ships", n=move.ships) if self.trace.keeps_notes else "")
        for built in range(move.ships):
            limit = rule("ship-limit")  # looked up for every ship, as require would
            require(
                self.ships_in_supply(colour) > 0,
                limit,
                lambda: Message(
                    "all {limit} of {colour}'s ships are in the harbour after {built} new; ships are built only from the supply",
                    limit=self.game.limit("ships"),
                    colour=colour_named(colour),
                    built=built,
                ),
            )
            self._enter_harbour(colour)
        if self.trace.records:
            for r in ("dockyard-cost", "ship-limit", "harbour-shift"):
                self.trace.use(rule(r))

    def _enter_harbour(self, owner: str) -> None:
        enter_harbour(self.harbour, self.game.berth_order, self.berth_capacity, owner)

    # --- church -------------------------------------------------------------------------

    def _church(self, player: Player, move: ChurchTurn) -> None:
        game, rule = self.game, self.game.rule
        one_church = rule("church-one")  # looked up every turn, as require would
        named = list(dict.fromkeys([d.church for d in move.donations]))
        # (the messages of a Church action are put together only for a broken rule)
        require(
            len(named) <= 1,
            one_church,
            lambda: Message("one Church action supports one church, not {n} ({named})", n=len(named), named=[_named(c, game.spec["churches"]["churches"].get(c)) for c in named]),
        )
        for donation in move.donations:
            for token in donation.tokens:
                self._donate(player, donation.church, token, None, rule("donation-cost"))
        for church, kind in move.scores:
            self._score(player, church, kind)
        if not self.over:
            unscored: dict[str, int] = {}
            for token in player.tokens:
                if not token.scored:
                    unscored[token.kind] = unscored.get(token.kind, 0) + 1
            doubled = [k for k in game.token_kinds if unscored.get(k, 0) > 1]

            def kept() -> Message:
                counted = [Message("{n} {token}", n=unscored[k], token=_token_named(game, k)) for k in doubled]
                return Message("{colour} ends the Church action with {doubled} tokens unscored; at most one of each kind may stay unscored", colour=colour_named(player.colour), doubled=counted)

            require(not doubled, rule("token-limit"), kept)
        if self.trace.records:  # a random game's trace names nothing: this runs every Church turn
            self.trace.use(rule("token-limit"))

    def _donate(self, player: Player, church: str, kind: str, fixed_cost: Counter | None, cost_rule: str) -> None:
        """One donation: pay, place a disc, take a token; the last one finishes the church."""
        game, rule, colour = self.game, self.game.rule, player.colour
        state = self.churches[church]
        # (the messages of a donation, and the church's name in them, are put together only for a broken rule)
        require(not state.complete, rule("donation-limit"), lambda: Message("{church} is finished; it takes no more donations", church=_church_named(game, church)))
        ordinal = self.donations_made(church) + 1
        cost = fixed_cost if fixed_cost is not None else self.donation_cost(player, church)
        short = self.can_pay(player, cost)

        def unpaid() -> Message:
            values = {"ordinal": ordinal, "church": _church_named(game, church), "cost": self._amounts_named(cost), "colour": colour_named(colour), "stock": self._stock_named(player.stock, short)}
            if MONEY in short:
                return Message("donation {ordinal} at {church} costs {cost}; {colour} holds {stock} and {money} thalers", money=player.money, **values)
            return Message("donation {ordinal} at {church} costs {cost}; {colour} holds {stock}", **values)

        require(not short, cost_rule, unpaid)
        require(
            self.discs_free(player) > 0,
            rule("discs"),
            lambda: Message(
                "{colour} has no free disc for donation {ordinal} at {church}; all {limit} are on church sites or the church table",
                colour=colour_named(colour),
                ordinal=ordinal,
                church=_church_named(game, church),
                limit=game.limit("discs"),
            ),
        )
        if ordinal == 1:
            require(
                kind == game.first_token,
                rule("donation-token"),
                lambda: Message(
                    "the first donation at {church} takes the {first_token} token, not the {kind} token",
                    church=_church_named(game, church),
                    first_token=_token_named(game, game.first_token),
                    kind=_token_named(game, kind),
                ),
            )
        else:
            require(
                kind in state.tokens_left,
                rule("donation-token"),
                lambda: Message(
                    "{church} has no {kind} token left; left: {tokens_left}",
                    church=_church_named(game, church),
                    kind=_token_named(game, kind),
                    tokens_left=[_token_named(game, k) for k in state.tokens_left],
                ),
            )
        self.pay(player, cost, cost_rule, Message("donation {ordinal} at {church}", ordinal=ordinal, church=_church_named(game, church)) if self.trace.keeps_notes else "")
        state.discs.append(colour)
        state.tokens_left.remove(kind)
        player.tokens.append(DonationToken(church, kind))
        if self.trace.records:  # a random game's trace names nothing: this runs every donation
            for r in ("donation-limit", "donation-token", "discs", "supply-unlimited"):
                self.trace.use(rule(r))
            self.trace.use(cost_rule)
        if not state.tokens_left:
            self._complete(player, church)

    def _complete(self, player: Player, church: str) -> None:
        state = self.churches[church]
        state.discs = []
        state.complete = True
        finished = len(self.completed)
        player.prestige += self.game.completion_bonus[finished]
        if self.trace.keeps_notes:
            self._note(player.colour, "prestige", self.game.completion_bonus[finished], self.game.rule("church-completion"), Message("finished {church}", church=_church_named(self.game, church)))
        player.churches_built += 1
        self.completed.append(church)
        self.use("church-completion", f"churches:completion_bonus.{finished}")
        if len(self.completed) >= self.spec["scoring"]["end_after_churches"]:
            self.over = True
            self.trace.use(self.game.rule("game-end"))

    def _score(self, player: Player, church: str, kind: str) -> None:
        game = self.game
        scoring = game.rule("token-score")
        held = [t for t in player.tokens if t.church == church and t.kind == kind]
        # (the messages name the church: put together only for a broken rule)
        require(held, scoring, lambda: Message("{colour} holds no {kind} token of {church}", colour=colour_named(player.colour), kind=_token_named(game, kind), church=_church_named(game, church)))
        token = held[0]
        require(
            not token.scored,
            scoring,
            lambda: Message("{colour}'s {kind} token of {church} is already scored", colour=colour_named(player.colour), kind=_token_named(game, kind), church=_church_named(game, church)),
        )
        value = self.token_value(player, token)
        player.prestige += value
        if self.trace.keeps_notes:
            self._note(player.colour, "prestige", value, scoring, Message("scored the {kind} token of {church}", kind=_token_named(game, kind), church=_church_named(game, church)))
        token.scored = True
        if self.trace.records:
            self.trace.use(scoring)
            self.use(self.game.token_rule(kind), *self.token_values(token))

    # --- guildhall ----------------------------------------------------------------------

    def _guildhall(self, player: Player, move: Guildhall) -> None:
        game, rule, colour = self.game, self.game.rule, player.colour
        houses_rule, one_office = rule("guildhall-houses"), rule("office-one")  # looked up every turn, as require would
        # (the messages of a Guildhall action are put together only for a broken rule)
        require(move.houses, houses_rule, lambda: Message("{colour}'s Guildhall action builds no house; the Guildhall is taken to build at least one", colour=colour_named(colour)))
        offices = [h for h in move.houses if h.kind == game.office_type]
        require(len(offices) <= 1, one_office, lambda: Message("one Guildhall action builds at most one office, not {n}", n=len(offices)))
        cost = self.game.houses_cost(len(move.houses))
        short = self.can_pay(player, cost)
        require(
            not short,
            rule("house-cost"),
            lambda: Message(
                "{n} houses cost {cost}; {colour} holds {stock}", n=len(move.houses), cost=self._amounts_named(cost), colour=colour_named(colour), stock=self._stock_named(player.stock, short)
            ),
        )
        for house in move.houses:
            self._build(player, house)
        if self.trace.records:
            self.trace.use(rule("house-cost"))

    def _build(self, player: Player, house: House) -> None:
        game, rule, colour = self.game, self.game.rule, player.colour
        pos = house.pos
        site = house.site
        require(not self.over, rule("game-over"), lambda: Message("the sixth church is finished, so the game is over; no house follows"), pos)
        self._check_site(site, house.kind, pos)
        office = None
        if house.kind == game.office_type:
            office = self._take_office(house)
        else:
            supply = rule("house-supply")  # looked up every house, as require would
            left = game.house_types[house.kind]["count"] - self.built[house.kind]
            # (the messages of a house are put together only for a broken rule)
            require(left > 0, supply, lambda: Message("no {kind} tile is left; the game has {count}", kind=_house_named(game, house.kind), count=game.house_types[house.kind]["count"]), pos)
        canon, citizens, donor = rule("canon"), rule("citizens"), rule("guildhall-donor")
        require(house.donation is None or office == game.canon, canon, lambda: Message("only the canon gives a donation; a {kind} does not", kind=_house_named(game, house.kind)), pos)
        require(
            len(player.citizens) < game.limit("citizens"),
            citizens,
            lambda: Message("{colour} has no citizen left for the site; all {limit} are on the board", colour=colour_named(colour), limit=game.limit("citizens")),
            pos,
        )
        require(player.builder or player.tokens, donor, lambda: Message("{colour} has not donated to any church, so no site is next to one of theirs", colour=colour_named(colour)), pos)
        self._check_adjacency(player, site, pos)
        reason = Message("built the {house} at {site}", house=_house_named(game, house.kind), site=site.name) if self.trace.keeps_notes else ""
        self.pay(player, Counter(game.house_cost), rule("house-cost"), reason)
        self.sites[site] = colour
        player.citizens.append(site)
        player.houses.append(house.kind)
        self.built[house.kind] += 1
        if self.trace.records:
            for r in ("citizens", "site", "guildhall-donor"):
                self.trace.use(rule(r))
            self.use("house-supply", f"houses:types.{house.kind}.count")
        self._house_effect(player, house, office)

    def _check_site(self, site: Site, kind: str, pos: Pos | None) -> None:
        game, rule = self.game, self.game.rule
        site_rule = rule("site")  # the messages of a site are written only for a broken rule
        if game.board_sites is not None:
            require(site in game.board_sites, site_rule, lambda: Message("the board has no site {number} in {parish}'s parish", number=site.number, parish=_church_named(game, site.parish)), pos)
        else:
            require(len(self.sites) < self.spec["board"]["site_count"], site_rule, lambda: Message("all {count} house sites are built on", count=self.spec["board"]["site_count"]), pos)
        require(site not in self.sites, site_rule, lambda: Message("site {name} already holds a {holder} citizen", name=site.name, holder=colour_named(self.sites.get(site))), pos)
        if game.board_sites is None:
            if self.trace.records:  # a random game's trace keeps nothing: this runs every house
                self.trace.not_checked(rule("site-type"), Message("{key} (board data: the house type printed on each site)", key="board:sites"), pos)
            return
        shown = game.board_sites[site]
        site_type = rule("site-type")
        require(shown == kind, site_type, lambda: Message("site {name} shows a {shown}, not a {kind}", name=site.name, shown=_house_named(game, shown), kind=_house_named(game, kind)), pos)
        if self.trace.records:
            self.use("site-type", f"board:sites.{game.site_index[site]}.type")

    def _check_adjacency(self, player: Player, site: Site, pos: Pos | None) -> None:
        rule = self.game.rule("guildhall-adjacency")
        links = self.game.links
        if player.builder:  # church builders build anywhere; no line needs to be known
            return
        if links is None:
            if self.trace.records:
                self.trace.not_checked(rule, Message("{key} (board data: the brown lines of the city map)", key="board:links"), pos)
            return
        churches = {t.church for t in player.tokens}
        neighbours = links.get(site.name, set())
        ok = any(n in churches or self.sites.get(self.game.site_of_name.get(n)) == player.colour for n in neighbours)
        require(ok, rule, lambda: Message("site {name} is linked to no church {colour} has donated to and to no site with a {colour} citizen", name=site.name, colour=colour_named(player.colour)), pos)
        self.trace.use(rule)

    def _house_effect(self, player: Player, house: House, office: str | None) -> None:
        """A house acts when built: price drop, money, ships, or its office's payout."""
        game, rule = self.game, self.game.rule
        spec = game.house_types[house.kind]
        if "produces" in spec:
            if self.trace.records:
                self.use("price-drop", f"houses:types.{house.kind}.count", *self.price_values(spec["produces"]))
        if "income" in spec:
            player.money += spec["income"]
            if self.trace.keeps_notes:  # a ledger's line is worded only for a ledger
                self._note(player.colour, MONEY, spec["income"], rule("merchant"), Message("the {house}'s income", house=_house_named(game, house.kind)))
            if self.trace.records:
                self.trace.use(rule("merchant"))
        if "ships" in spec:
            for _ in range(spec["ships"].get("dutchman", 0)):
                if self.dutchmen > 0:
                    self.dutchmen -= 1
                    self._enter_harbour(DUTCHMAN)
            for _ in range(spec["ships"].get("own", 0)):
                if self.ships_in_supply(player.colour) > 0:
                    self._enter_harbour(player.colour)
            if self.trace.records:
                self.trace.use(rule("captain"))
                self.trace.use(rule("harbour-shift"))
        if office is None:
            return
        player.offices.append(office)
        entry = game.offices[office]
        if "per" in entry:
            payout = entry["amount"] * self.measure(entry["per"], player)
            player.money += payout
            if self.trace.keeps_notes:
                self._note(player.colour, MONEY, payout, rule("office-payout"), Message("the {office}'s payout", office=_office_named(game, office)))
            if self.trace.records:
                self.trace.use(rule("office-payout"))
        if "donation" in entry and house.donation is not None:
            self._donate(player, house.donation.church, house.donation.tokens[0], Counter(entry["donation"]), rule("canon"))

    # --- offices -------------------------------------------------------------------------

    def _take_office(self, house: House) -> str:
        """The office this house is, by the game's mode; it leaves the stack or the display."""
        game, rule = self.game, self.game.rule
        mode = self.game.office_mode
        named = house.office
        require(self.office_stack, rule("house-supply"), lambda: Message("every office is built"), house.pos)
        if mode == "numbered":
            top = self.office_stack[0]
            stack_rule = rule("office-stack")
            require(
                named in (None, top),
                stack_rule,
                lambda: Message("only the top office of the stack may be built: the {top}, not the {named}", top=_office_named(game, top), named=_office_named(game, named)),
                house.pos,
            )

        elif mode == "choice":
            require(named is not None, rule("office-stack"), lambda: Message("name the blue office built (left: {office_stack})", office_stack=self._offices_named()), house.pos)
            require(
                named in self.office_stack,
                rule("office-stack"),
                lambda: Message("the {named} is not among the blue offices left ({office_stack})", named=_office_named(game, named), office_stack=self._offices_named()),
                house.pos,
            )
            top = named
        else:
            if self.face_up is None:
                require(named is not None, rule("office-stack"), lambda: Message("no office lies face up; name the office turned up"), house.pos)
                require(
                    named in self.office_stack,
                    rule("office-reveal"),
                    lambda: Message("the {named} is not in the stack (left: {office_stack})", named=_office_named(game, named), office_stack=self._offices_named()),
                    house.pos,
                )
                self.trace.fact(Message("office turned up on the shuffled stack, stated by the record"), house.pos)
                self.face_up = named
            require(
                named in (None, self.face_up),
                rule("office-stack"),
                lambda: Message("only the face-up {face_up} may be built, not the {named}", face_up=_office_named(game, self.face_up), named=_office_named(game, named)),
                house.pos,
            )
            top = self.face_up
            self.face_up = None
        self.office_stack.remove(top)
        if self.trace.records:
            self.trace.use(rule("office-stack"))
            self.trace.use(rule("office-one"))
        return top

    def _offices_named(self) -> list[Named]:
        """The offices left in the stack, for a message: as the record writes them in English."""
        return [_named(o, self.game.offices.get(o)) for o in self.office_stack]

    def _reveal(self, move: Reveal) -> None:
        game, rule = self.game, self.game.rule
        require(self.game.office_mode == "shuffled", rule("office-reveal"), lambda: Message("only advanced game II turns offices up from a shuffled stack"))
        require(self.face_up is None, rule("office-reveal"), lambda: Message("the {face_up} already lies face up", face_up=_office_named(game, self.face_up)))
        require(
            move.office in self.office_stack,
            rule("office-reveal"),
            lambda: Message("the {office} is not in the stack (left: {left})", office=_office_named(game, move.office), left=self._offices_named() or Message("none")),
        )
        self.face_up = move.office
        self.trace.use(rule("office-reveal"))
        self.trace.fact(Message("office turned up on the shuffled stack, stated by the record"), move.pos)

    # --- the end --------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def standings(self) -> list[Standing]:
        return standings_of(self)

    def standings_now(self) -> list[Standing]:
        return standings_of(self, as_if_over=True)

    def situation(self) -> Situation:
        """The round and the player to move on the rondel; a round has no phases, the move
        chooses the action. In advanced game II the table turns up an office first whenever
        none lies face up and the stack is not empty."""
        count = len(self.order)
        if self.over:
            return Situation((self.turn - 1) // count + 1, None, [], localized(Message("game over")), True)
        round_ = self.turn // count + 1
        if self.game.office_mode == "shuffled" and self.face_up is None and self.office_stack:
            return Situation(round_, None, [], localized(Message("turn up the next office of the shuffled stack")), False)
        colour = self.current()
        rondel = Named(self.spec.name(self.spec["rondel"], default="rondel"), self.spec["rondel"].get("names"))
        return Situation(round_, None, [colour], localized(Message("{colour} moves on the {rondel}", colour=colour_named(colour), rondel=rondel)), False)

    def pieces(self) -> dict[str, int]:
        return {"the Flying Dutchmen left": self.dutchmen}

    def floors(self) -> dict[str, int | None]:
        components = self.spec["components"]
        return {MONEY: components["money"]["minimum"], "prestige": components["prestige"]["minimum"]}

    def scoring_notes(self) -> list[tuple[str, str, int, str | None, str]]:
        """What final scoring turns into prestige: unscored tokens, and money (with the end
        sale of goods and materials) spent on prestige."""
        rule, notes = self.game.rule("final-scoring"), []
        price = self.spec["scoring"]["prestige_price"]
        for colour, player in self.players.items():
            f = final(self, player)
            sale = f["money"] + f["bought"] * price - player.money
            notes.append((colour, "prestige", f["tokens"], rule, localized(Message("final scoring: unscored tokens"))))
            notes.append((colour, "prestige", f["bought"], rule, localized(Message("final scoring: prestige bought with money"))))
            notes.append((colour, MONEY, sale, rule, localized(Message("final scoring: goods and materials sold"))))
            notes.append((colour, MONEY, -f["bought"] * price, rule, localized(Message("final scoring: money spent on prestige"))))
            sold = localized(Message("final scoring: sold"))
            for kind in (*self.game.goods, *self.game.materials):
                notes.append((colour, kind, -player.stock[kind], rule, sold))
        return notes

    def figures(self, colour: str, only: Collection[str] | None = None) -> dict[str, Any]:
        return self.game.figure_table.values(self, Holdings.of(self, self.players[colour]), only=only)

    def play_checkpoints(self, next_move: Move) -> list[str]:
        """After every round, each player's money and prestige, as a table would note them.
        A move still follows, so the game is not over: the figures are the players' own
        (`Holdings.of`), read at once."""
        if self.turn % len(self.order) or self.turn == 0 or not isinstance(next_move, Turn):
            return []
        return [f"check {colour}: money {p.money}, prestige {p.prestige}" for colour, p in self.players.items()]  # kept in seat order

    def describe(self) -> dict:
        game = self.game
        return {
            "turn": self.turn + 1,
            "to_move": None if self.over else self.current(),
            "over": self.over,
            "prices": {g: self.price(g) for g in game.goods},
            "harbour": {f"berth {b}": list(ships) for b, ships in self.harbour.items()},
            "flying_dutchmen_left": self.dutchmen,
            "churches": {c: {"donations": self.donations_made(c), "discs": list(s.discs), "tokens_left": list(s.tokens_left), "complete": s.complete} for c, s in self.churches.items()},
            "completed": list(self.completed),
            "houses_built": dict(self.built),
            "office_stack": list(self.office_stack) if self.game.office_mode != "shuffled" else len(self.office_stack),
            "office_face_up": self.face_up,
            "players": {
                colour: {
                    "space": p.space,
                    "money": p.money,
                    "prestige": p.prestige,
                    "stock": {k: v for k, v in p.stock.items() if v},
                    "ships_in_harbour": self.ships_in_harbour(colour),
                    "houses": list(p.houses),
                    "offices": list(p.offices),
                    "citizens": [s.name for s in p.citizens],
                    "tokens": [f"{t.church} {t.kind}" + (" (scored)" if t.scored else "") for t in p.tokens],
                    "discs_free": self.discs_free(p),
                    "churches_built": p.churches_built,
                }
                for colour, p in self.players.items()
            },
        }


# Turns that change the acting player's pieces and nothing else (money, prestige, stock and
# the rondel marker): a refused one has only those to put back.
PLAYER_ONLY = (Produce, Trade)

# The method that carries out each kind of turn.
ACTIONS: dict[type, str] = {Produce: "_produce", Trade: "_trade", Dockyard: "_dockyard", ChurchTurn: "_church", Guildhall: "_guildhall"}


def _player_copy(p: Player) -> Player:
    return Player(
        p.seat, p.money, p.prestige, Counter(p.stock), p.space, list(p.houses), list(p.offices), list(p.citizens), [DonationToken(t.church, t.kind, t.scored) for t in p.tokens], p.churches_built
    )


# What an office pays for and what a token scores: counts on the board, by name.
MEASURES: dict[str, Callable[[HamburgumState, Player, str | None, str | None], int]] = {
    "all-citizens": lambda s, p, c, h: sum(len(q.citizens) for q in s.players.values()),
    "all-donations": lambda s, p, c, h: sum(len(q.tokens) for q in s.players.values()),
    "completed-churches": lambda s, p, c, h: len(s.completed),
    "own-goods": lambda s, p, c, h: sum(p.stock[g] for g in s.game.goods),
    "own-ships-in-harbour": lambda s, p, c, h: s.ships_in_harbour(p.colour),
    "own-tokens": lambda s, p, c, h: len(p.tokens),
    "churches-donated": lambda s, p, c, h: len({t.church for t in p.tokens}),
    "own-citizens": lambda s, p, c, h: len(p.citizens),
    "own-parishes": lambda s, p, c, h: len({site.parish for site in p.citizens}),
    "own-houses-of-type": lambda s, p, c, h: p.houses.count(h),
    "own-citizens-in-parish": lambda s, p, c, h: sum(1 for site in p.citizens if site.parish == c),
}


def _capacities(values) -> str | Message:
    """The capacities of a player's ships in the harbour, for a message."""
    return ", ".join(map(str, values)) or Message("none in the harbour")


# The checkpoint figures (specs/hamburgum/figures.yaml says what each counts), read from a
# state and a player's holdings.
FIGURE_READERS = {
    "money": lambda state, h: h.money,
    "prestige": lambda state, h: h.prestige,
    "{}": lambda state, h, item: h.stock[item],
    "{}-price": lambda state, h, good: state.price(good),
    "ships": lambda state, h: state.ships_in_harbour(h.player.colour),
    "citizens": lambda state, h: len(h.player.citizens),
    "houses": lambda state, h: len(h.player.houses),
    "discs": lambda state, h: state.discs_free(h.player),
    "tokens": lambda state, h: len(h.player.tokens),
    "unscored": lambda state, h: 0 if state.over else len(h.player.unscored()),  # final scoring scores them all
    "builder": lambda state, h: h.player.churches_built,
    "space": lambda state, h: [h.player.space] if h.player.space else [],
}


# The names of the city's things as a message shows them, in the reader's language
# (referee.i18n.Named), from the spec's `names`.


def _church_named(game, church: str) -> Named:
    return Named(game.church_name(church), (game.spec["churches"]["churches"].get(church) or {}).get("names"))


def _house_named(game, kind: str) -> Named:
    return Named(game.house_name(kind), (game.house_types.get(kind) or {}).get("names"))


def _office_named(game, office: str | None) -> Named:
    return Named(game.office_name(office), (game.offices.get(office or "") or {}).get("names"))


def _named(english: str, entry: dict | None) -> Named:
    """A thing of the spec by the word a record writes for it (its id) in English, by its
    `names` in Hungarian and German."""
    return Named(english, {**((entry or {}).get("names") or {}), "en": english})


def _action_named(game, action: str) -> Named:
    return _named(action, game.rondel["actions"].get(action))


def _side_named(game, side: str) -> Named:
    return _named(side, game.rondel["sides"].get(side))


def _token_named(game, kind: str) -> Named:
    return _named(kind, game.spec["churches"]["tokens"].get(kind))


def _space_named(game, space: str) -> Named:
    """A rondel space by its id in English, as the board names it in Hungarian and German."""
    return Named(space, {"en": space, **{lang: game.space_name(space, lang) for lang in ("hu", "de")}})
