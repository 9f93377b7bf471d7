"""The Speicherstadt's rules: the state of a game and how each move changes it.

Read top to bottom as the rulebook reads: set-up (the deck by season, less the
cards a player count removes), the start of a round, Supply (reveals, ships'
cargo, fires), Demand (workers placed in the worker queues), Purchase (offers,
each at the length of the queue), Loading (contracts, traders, the warehouse,
the market hall, spoilage), the end of a round (income, the start player), the
end of the game (the last fires), then what a checkpoint or `referee show` may
read. A broken rule raises `Violation` with a rule id of `rules.yaml`; every
number comes from `specs/speicherstadt/`. Final scoring's arithmetic is in
scoring.py; the game object (game.py) is reached only through `state.game`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RecordError, Violation
from referee.games.base import Game, Seat, Situation, Standing, State, Trace, require
from referee.games.speicherstadt import scoring
from referee.games.speicherstadt.moves import Load, Offer, Place, Reveal, RoundStart
from referee.i18n import N_, Message, Named, _, localized, ngettext
from referee.notation.colours import colour_named
from referee.notation.parser import Move

# the phases of a round, and the two after the last one, as the state tracks them
SUPPLY, DEMAND, PURCHASE, LOADING, FINAL_FIRES, OVER = "supply", "demand", "purchase", "loading", "final fires", "over"

# the parts of a player's score that are no card's name (State.breakdown)
# the parts of a final score, keys of `breakdown`: English as strings, shown in the language in use
FIRES, CONTRACTS, OFFICES, TRADERS = (Message(part) for part in (N_("fires"), N_("contracts"), N_("counting offices"), N_("traders")))
COINS = Message(N_("coins"))  # the tie-break

# --- the pieces ------------------------------------------------------------------------


@dataclass
class Card:
    """A physical trade card: its type, season, and the face fields the spec knows."""

    type: str
    season: str
    face: dict[str, Any] = field(default_factory=dict)
    id: str | None = None
    source: str | None = None  # the spec address of its face, for the report's provenance


@dataclass
class Slot:
    """A display slot: its card, the cubes on it, and the workers queued for it."""

    card: Card
    cubes: list[str] = field(default_factory=list)
    queue: list[str] = field(default_factory=list)  # colours, lowest worker first
    buyer: str | None = None  # who bought the card in Purchase: it has left the display
    price: int | None = None  # what the buyer paid
    discarded: bool = False  # nobody bought it: discarded at the end of Purchase

    @property
    def on_display(self) -> bool:
        return self.buyer is None and not self.discarded


@dataclass(frozen=True)
class Offered:
    """The card now on offer, the worker's owner who decides, and the price: the queue's length."""

    slot: Slot
    colour: str
    price: int


@dataclass
class Contract:
    """A contract a player holds, and the goods delivered against it so far."""

    goods: list[str]
    covered: list[str] = field(default_factory=list)

    @property
    def open(self) -> list[str]:
        """The goods still wanted, sorted. Asked for every good in a dock at every loading
        choice, so it takes them out of a short list rather than building two multisets."""
        left = list(self.goods)
        for good in self.covered:
            if good in left:
                left.remove(good)
        left.sort()
        return left

    @property
    def complete(self) -> bool:
        return not self.open


@dataclass
class Player:
    """One player's coins, points, cards, contracts and warehouse goods."""

    seat: Seat
    coins: int
    points: int = 0
    fire_points: int = 0
    cards: list[Card] = field(default_factory=list)
    contracts: list[Contract] = field(default_factory=list)
    warehouse: list[str] = field(default_factory=list)
    hall: list[str] = field(default_factory=list)
    dock: list[str] = field(default_factory=list)  # unloaded cubes waiting for a place
    bought: bool = False

    def owns(self, card_type: str) -> int:
        return sum(1 for c in self.cards if c.type == card_type)


def _take(pool: list[str], cubes) -> bool:
    """Remove cubes from a pool if all are there; leave it untouched otherwise."""
    need = Counter(cubes)
    have = Counter(pool)
    if any(have[g] < n for g, n in need.items()):
        return False
    for g in cubes:
        pool.remove(g)
    return True


# --- set-up: the deck, season by season, less the cards removed for the player count -----


def build_deck(game: Game, players: int) -> dict[str, list[Card]]:
    """The draw pile as stacks by season, each card with the face the spec knows of it."""
    deck: dict[str, list[Card]] = {s: [] for s in game.season_order}
    for tid, t in game.types.items():
        field_ = game.face_fields(tid)
        faces = list(t.get("faces") or [])
        for season, n in t["counts"].items():
            known = [f for f in faces if f["season"] == season]
            for i in range(n):
                if i < len(known):
                    f = known[i]
                    # a contract's goods have no order on the card: kept in the order the notation reads them
                    face = {k: (tuple(sorted(f[k])) if isinstance(f.get(k), list) else f.get(k)) for k in field_}
                    source = f"cards:types.{tid}.faces.{faces.index(f)}"
                    deck[season].append(Card(tid, season, face, f.get("id"), source))
                else:
                    source = f"cards:types.{tid}.faces" if field_ else None
                    deck[season].append(Card(tid, season, {k: None for k in field_}, None, source))
    for card in removed_cards(game, players):
        stack = deck[card.season]
        for c in stack:
            if c.type == card.type and (card.id is None or c.id == card.id):
                stack.remove(c)
                break
    return deck


def removed_cards(game: Game, players: int) -> list[Card]:
    """The cards set-up takes out for this many players: a type (from its latest season) or a card id."""
    by_players = game.spec["setup"]["by_players"]
    entry = by_players.get(players) or by_players.get(str(players)) or {"removed": []}
    out = []
    for name in entry["removed"]:
        if name in game.types:
            seasons = [s for s in reversed(game.season_order) if game.types[name]["counts"].get(s)]
            out.append(Card(name, seasons[0]))
        else:
            for tid, t in game.types.items():
                for f in t.get("faces") or []:
                    if f.get("id") == name:
                        face = {k: f.get(k) for k in game.face_fields(tid)}
                        out.append(Card(tid, f["season"], face, name))
    return out


class SpeicherstadtState(State):
    """One game of The Speicherstadt in progress; `game` is the Speicherstadt object (game.py)
    whose tables (card roles, seasons, goods) the rules read."""

    adoptable = {"coins": "coins"}

    def __init__(self, game: Game, seats: list[Seat], start: int, trace: Trace):
        spec = game.spec
        self.game = game
        self.spec = spec
        self.trace = trace
        self.seats = seats
        n = len(seats)
        setup = spec["setup"]["by_players"].get(n) or spec["setup"]["by_players"].get(str(n))
        if setup is None:
            raise RecordError(Message("no setup for {n} players in setup.yaml", n=n))
        self.supply_size: int = setup["supply"]
        self.players = {s.colour: Player(s, spec["components"]["coins"]["start"]) for s in seats}
        trace.use(game.rule("start-money"))
        self.start = start
        self.round = 1
        self.phase = SUPPLY
        self.last_round = False
        self.deck: dict[str, list[Card]] = build_deck(game, n)
        self.removed: list[Card] = removed_cards(game, n)
        trace.use(game.rule("setup-removal"))
        self.bag: Counter = Counter({g: d["cubes"] for g, d in spec["components"]["goods"].items()})
        self.goods_stock: Counter = Counter()
        self.discards: list[Card] = []
        self.slots: list[Slot] = []
        self.placed = 0
        self.purchase_slot = 0
        self.offer_index = 0
        self.fires_resolved = 0

    # --- the draw pile -------------------------------------------------------------

    def current_season(self) -> str | None:
        for season in self.game.season_order:
            if self.deck[season]:
                return season
        return None

    def only_fires_left(self) -> bool:
        """Whether the draw pile holds fires only (or nothing): asked after every reveal, and
        answered at the first card that is not a fire."""
        fire = self.game.fire
        return all(c.type == fire for cards in self.deck.values() for c in cards)

    # --- applying moves --------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Carry out a move; a move the rules refuse leaves the state as it was. Only a reveal
        or a round line during Loading changes the state before its checks (it closes the
        round), so only then is what the close of a round changes kept aside."""
        if self.phase != LOADING or not isinstance(move, (Reveal, RoundStart)):
            self._apply(move)
            return
        saved = self._round_snapshot()
        try:
            self._apply(move)
        except Violation:
            self._restore_round(saved)
            raise

    def _round_snapshot(self) -> tuple:
        players = {c: (p.coins, list(p.dock), p.bought) for c, p in self.players.items()}
        return players, Counter(self.goods_stock), self.start, self.slots, self.phase, self.round

    def _restore_round(self, saved: tuple) -> None:
        players, self.goods_stock, self.start, self.slots, self.phase, self.round = saved
        for colour, (coins, dock, bought) in players.items():
            player = self.players[colour]
            player.coins, player.dock, player.bought = coins, dock, bought

    def _apply(self, move: Move) -> None:
        rule = self.game.rule
        if isinstance(move, RoundStart):
            self._round_start(move)
        elif isinstance(move, Reveal):
            if self.phase == LOADING:
                self._close_round()
            all_out = self.phase == DEMAND and not self.placed
            if self.last_round:
                require(
                    not all_out,
                    rule("supply-size"),
                    lambda: Message("all {n} cards of the last round are out; the fires left in the pile are revealed after this round's Loading", n=len(self.slots)),
                    waivable=False,
                )
            require(not all_out, rule("supply-size"), lambda: Message("all {n} cards of this round are out; no further card is revealed", n=len(self.slots)), waivable=False)
            if self.last_round:
                require(
                    self.phase not in (DEMAND, PURCHASE, LOADING),
                    rule("phase-order"),
                    lambda: Message("cards are revealed in Supply, not during {phase}; this is the last round, and the fires left in the pile come after its Loading", phase=self._phase_named()),
                )
            require(self.phase in (SUPPLY, FINAL_FIRES), rule("phase-order"), lambda: Message("cards are revealed in Supply, not during {phase}", phase=self._phase_named()))
            self._reveal(move)
        elif isinstance(move, Place):
            self._check_player(move.player, move)
            require(
                self.phase == DEMAND,
                rule("phase-order"),
                lambda: self._placing_too_soon(move.player),
            )
            self._place(move)
        elif isinstance(move, Offer):
            self._check_player(move.player, move)
            require(self.phase == PURCHASE, rule("phase-order"), lambda: self._phase_message(Message("offers are answered in Purchase")))
            self._offer(move)
        elif isinstance(move, Load):
            self._check_player(move.player, move)
            require(self.phase == LOADING, rule("phase-order"), lambda: self._phase_message(Message("goods are moved in Loading")))
            self._load(move)
        else:  # pragma: no cover - the builder makes only the moves above
            raise TypeError(move)

    def _goods_named(self, goods) -> Named | Message:
        """Goods as a message shows them, "coffee coffee tea", in the reader's language."""
        return goods_named(self.spec, sorted(goods))

    def _placing_too_soon(self, colour: str) -> Message:
        """Why a worker cannot be placed in this phase."""
        what = Message("workers are placed in Demand")
        return Message("{reason}{placed}", reason=self._phase_message(what), placed=self._all_placed(colour))

    def _counted(self, counts, goods) -> list[Message]:
        """Goods with how many of each there are, for a message: "2 coffee, 1 tea"."""
        return [Message("{n} {good}", n=counts[g], good=self._goods_named([g])) for g in goods]

    def _phase_named(self) -> Named:
        """The phase in play as a message names it: its id in English, the spec's name in the
        reader's language."""
        entry = self.game.phase_entry(self.phase)
        return Named(self.phase, {k: v for k, v in (entry.get("names") or {}).items() if k != "en"})

    def _phase_message(self, what: Message) -> Message:
        if self.phase == SUPPLY:
            return Message("{what}, but Supply is not complete: {n} of {size} cards are out", what=what, n=len(self.slots), size=self.supply_size)
        if self.phase == DEMAND:
            return Message("{what}, but Demand is not complete: {placed} of {total} workers are placed", what=what, placed=self.placed, total=self.demand_total())
        if self.phase == PURCHASE:
            return Message("{what}, but Purchase is not complete: slot {offered} is being offered", what=what, offered=self.purchase_slot + 1)
        return Message("{what}, not during {phase}", what=what, phase=self._phase_named())

    def _check_player(self, colour: str, move: Move) -> None:
        self.seat(colour, move.pos, self.game.rule("seat"))

    # --- the start of a round ----------------------------------------------------------

    def _round_start(self, move: RoundStart) -> None:
        rule = self.game.rule
        if self.phase == LOADING:
            self._close_round()
        if self.phase == SUPPLY and not self.slots and self.round == move.round:
            return
        require(self.phase != FINAL_FIRES, rule("game-end"), lambda: Message("round {round} was the last; only the fires left in the pile are revealed now", round=self.round))
        require(self.phase == SUPPLY and not self.slots, rule("phase-order"), lambda: self._phase_message(Message("round {round} cannot begin yet", round=move.round)))
        require(self.round == move.round, rule("round-number"), lambda: Message("this is round {round}, not round {stated}", round=self.round, stated=move.round), waivable=False)

    # --- Supply: reveals, ships' cargo and fires -----------------------------------------

    def _reveal(self, move: Reveal) -> None:
        game, rule = self.game, self.game.rule
        season = self.current_season()
        if self.phase == FINAL_FIRES:
            require(move.card == game.fire, rule("game-end"), lambda: Message("the last round is over; only the fires left in the pile are resolved now, not a {card}", card=move.card))
        require(season is not None, rule("deck-season"), lambda: Message("the draw pile is empty"))
        card, in_stack = self._draw(season, move)
        self.trace.use(rule("deck-season"), "cards:seasons", f"cards:types.{card.type}.counts")
        if card.type == game.fire:
            self.deck[season].remove(in_stack)
            self._resolve_fire(card, move)
            if self.phase == FINAL_FIRES and not any(self.deck.values()):
                self.phase = OVER
            elif self.phase == SUPPLY and self.only_fires_left() and self.slots:
                self._supply_done()
            return
        slot = Slot(card)
        if game.is_ship(card.type):
            slot.cubes = self._ship_cargo(move)
        else:
            require(not move.cubes, rule("ship-cargo"), lambda: Message("only ships carry cubes; a {type} does not", type=card.type), waivable=False)
        self.deck[season].remove(in_stack)
        self.slots.append(slot)
        if len(self.slots) == self.supply_size or self.only_fires_left():
            self._supply_done()

    def _supply_done(self) -> None:
        self.trace.use(self.game.rule("supply-size"))
        self.last_round = self.only_fires_left()
        self.phase = DEMAND
        self.placed = 0

    def _draw(self, season: str, move: Reveal) -> tuple[Card, Card]:
        """The revealed card, checked against the spec, and the card of the season stack it is
        (which the caller takes out once the whole reveal holds)."""
        game, rule = self.game, self.game.rule
        stack = self.deck[season]
        of_type = [c for c in stack if c.type == move.card]
        if not of_type:
            taken_out = any(c.type == move.card for c in self.removed) and not any(c.type == move.card for cards in self.deck.values() for c in cards)
            require(not taken_out, rule("setup-removal"), lambda: Message("the {card} was taken out at setup for {n} players", card=game.card_named(move.card), n=len(self.seats)), waivable=False)
            # the season's fire is all that is left of its stack: it is the next card
            require(
                not all(c.type == game.fire for c in stack),
                rule("deck-season"),
                lambda: Message(
                    "the {season} fire is still on top of the draw pile, so it comes up first: reveal the fire before the {card}", season=game.season_named(season), card=game.card_named(move.card)
                ),
                waivable=False,
            )
        require(
            of_type,
            rule("deck-season"),
            lambda: Message("no {card} is left in the {season} stack ({left} cards left in it)", card=game.card_named(move.card), season=game.season_named(season), left=len(stack)),
            waivable=False,
        )
        face = face_of(game, move)
        check_face_range(game, move, face)
        matches = [c for c in of_type if all(v is None or c.face.get(k) in (None, v) for k, v in face.items())]
        if not matches:
            removed = [c for c in self.removed if c.type == move.card and all(v is None or c.face.get(k) == v for k, v in face.items())]
            require(
                not removed,
                rule("setup-removal"),
                lambda: Message("the {card} {face} was taken out at setup for {n} players", card=game.card_named(move.card), face=_face_named(game, face), n=len(self.seats)),
                waivable=False,
            )
        require(
            matches,
            rule("card-face"),
            lambda: Message(
                "no {card} {face} is left in the {season} stack; left: {faces}",
                card=game.card_named(move.card),
                face=_face_named(game, face),
                season=game.season_named(season),
                faces=sorted({_face_named(game, c.face) or Message(UNKNOWN_FACE) for c in of_type}),
            ),
            waivable=False,
        )

        if len(matches) > 1:  # prefer a card whose face the spec knows exactly
            matches.sort(key=lambda c: -sum(1 for v in c.face.values() if v is not None))
        card = matches[0]
        drawn = Card(card.type, card.season, dict(card.face), card.id, card.source)
        for key in game.face_fields(card.type):
            stated = face.get(key)
            if drawn.face.get(key) is None:
                require(
                    stated is not None,
                    rule("card-face"),
                    lambda: Message("the record must state the {key} of this {type}; no source gives it", key=Message(FIELD_WORDS.get(key, key)), type=game.card_named(card.type)),
                    waivable=False,
                )
                drawn.face[key] = stated
                self.trace.fact(Message("{card} {key} stated by the record", card=game.card_named(card.type), key=Message(FIELD_WORDS.get(key, key))), move.pos)
        if drawn.source:
            self.trace.use(rule("card-face"), drawn.source)
        return drawn, card

    def _ship_cargo(self, move: Reveal) -> list[str]:
        rule = self.game.rule
        count = self.spec["components"]["ship_cubes"]
        require(len(move.cubes) == count, rule("ship-cargo"), lambda: Message("a ship is loaded with {count} cubes from the bag; the record names {n}", count=count, n=len(move.cubes)))
        need = Counter(move.cubes)
        short = [g for g, n in need.items() if self.bag[g] < n]
        require(not short, rule("ship-cargo"), lambda: Message("the bag holds only {goods}", goods=self._counted(self.bag, short)))
        self.bag -= need
        self.trace.use(rule("ship-cargo"))
        self.trace.fact(Message("ship cargo drawn from the bag"), move.pos)
        return list(move.cubes)

    def _resolve_fire(self, card: Card, move: Reveal) -> None:
        points = card.face["points"]
        totals = {c: sum(x.face.get("value") or 0 for x in p.cards if x.type == self.game.fireman) for c, p in self.players.items()}
        high, low = max(totals.values()), min(totals.values())
        if high != low:
            for colour, total in totals.items():
                delta = points if total == high else -points if total == low else 0
                self.players[colour].points += delta
                self.players[colour].fire_points += delta
                self.trace.note(
                    colour, "points", delta, self.game.rule("fire-resolution"), (_("fire of {points}: most firemen") if delta > 0 else _("fire of {points}: fewest firemen")).format(points=points)
                )
        self.discards.append(card)
        self.fires_resolved += 1
        self.trace.use(self.game.rule("fire-resolution"), card.source or f"cards:types.{card.type}.faces")
        self.trace.use(self.game.rule("negative-score"))

    # --- Demand: workers placed in the worker queues -------------------------------------

    def demand_total(self) -> int:
        return len(self.seats) * self.spec["components"]["workers"]["bidding"]

    def _all_placed(self, colour: str) -> Message | str:
        """`; beige has placed all 3 workers` where that is why a placing is refused, or ''."""
        bidding = self.spec["components"]["workers"]["bidding"]
        placed = sum(slot.queue.count(colour) for slot in self.slots)
        return Message("; {colour} has placed all {bidding} workers this round", colour=colour_named(colour), bidding=bidding) if self.slots and placed >= bidding else ""

    def to_place(self) -> str:
        return self.seats[(self.start + self.placed) % len(self.seats)].colour

    def _place(self, move: Place) -> None:
        rule = self.game.rule
        expected = self.to_place()
        demand_turn, column_full = rule("demand-turn"), rule("column-full")
        # (the messages are put together only for a broken rule: this runs every placing)
        require(
            move.player == expected,
            demand_turn,
            lambda: Message(
                "it is {expected}'s turn to place a worker, not {player}'s{all_placed}", expected=colour_named(expected), player=colour_named(move.player), all_placed=self._all_placed(move.player)
            ),
        )
        # no ruling puts a worker above a card that is not there
        require(
            1 <= move.slot <= len(self.slots),
            rule("demand-slot"),
            lambda: Message("there is no card in slot {slot}; slots 1-{n} hold this round's cards", slot=move.slot, n=len(self.slots)),
            waivable=False,
        )
        slot = self.slots[move.slot - 1]
        spaces = self.spec["components"]["board"]["building_spaces"]
        require(len(slot.queue) < spaces, column_full, lambda: Message("all {spaces} building spaces above slot {slot} are taken", spaces=spaces, slot=move.slot))
        slot.queue.append(move.player)
        self.placed += 1
        self.trace.use(demand_turn)
        if self.placed == self.demand_total():
            self.phase = PURCHASE
            self.purchase_slot = 0
            self.offer_index = 0
            self._skip_empty_slots()

    # --- Purchase: each card offered up its worker queue ---------------------------------

    def _skip_empty_slots(self) -> None:
        while self.purchase_slot < len(self.slots) and self.offer_index >= len(self.slots[self.purchase_slot].queue):
            self._discard(self.slots[self.purchase_slot])
            self.purchase_slot += 1
            self.offer_index = 0
        if self.purchase_slot >= len(self.slots):
            self.phase = LOADING
            self.trace.use(self.game.rule("purchase-discard"))

    def current_offer(self) -> Offered | None:
        if self.phase != PURCHASE:
            return None
        slot = self.slots[self.purchase_slot]
        return Offered(slot, slot.queue[self.offer_index], len(slot.queue) - self.offer_index)

    def _offer(self, move: Offer) -> None:
        rule = self.game.rule
        offer = self.current_offer()
        slot, colour, price = offer.slot, offer.colour, offer.price
        turn = rule("purchase-turn")
        # (the messages are put together only for a broken rule: this runs at every offer)
        offered = move.slot is None or move.slot == self.purchase_slot + 1
        unqueued = not offered and 1 <= move.slot <= len(self.slots) and not self.slots[move.slot - 1].queue
        require(
            not unqueued,
            turn,
            lambda: Message("nobody queued for slot {slot}, so its card is discarded unbought (purchase-discard); slot {offered} is being offered", slot=move.slot, offered=self.purchase_slot + 1),
        )
        require(offered, turn, lambda: Message("slot {offered} is being offered, not slot {slot}", offered=self.purchase_slot + 1, slot=move.slot))
        require(
            move.player == colour,
            turn,
            lambda: Message(
                "slot {offered} is offered to {colour} at {price}, not to {player}", offered=self.purchase_slot + 1, colour=colour_named(colour), price=price, player=colour_named(move.player)
            ),
        )
        player = self.players[colour]
        if move.buy:
            funds = rule("purchase-funds")
            require(
                player.coins >= price,
                funds,
                lambda: Message("{colour} has {coins} coins; slot {offered} costs {price}", colour=colour_named(colour), coins=player.coins, offered=self.purchase_slot + 1, price=price),
            )
            player.coins -= price
            if self.trace.keeps_notes:
                self.trace.note(colour, "coins", -price, funds, _("bought the {card} in slot {n}").format(card=self.game.card_title(slot.card.type), n=self.purchase_slot + 1))
            player.cards.append(slot.card)
            player.bought = True
            if slot.card.type == self.game.contract:
                player.contracts.append(Contract(list(slot.card.face["goods"])))
            player.dock.extend(slot.cubes)
            slot.cubes = []
            slot.buyer, slot.price = colour, price
            self.trace.use(funds)
            self.purchase_slot += 1
            self.offer_index = 0
        else:
            self.offer_index += 1
        self.trace.use(turn)
        self._skip_empty_slots()

    def _discard(self, slot: Slot) -> None:
        slot.discarded = True
        self.discards.append(slot.card)
        self.goods_stock.update(slot.cubes)
        slot.cubes = []

    # --- Loading: unloading ships, contracts, traders, warehouse and market hall ---------

    def loading_order(self) -> list[str]:
        """The players from this round's start player on, clockwise."""
        n = len(self.seats)
        return [self.seats[(self.start + i) % n].colour for i in range(n)]

    def _load(self, move: Load) -> None:
        rule = self.game.rule
        player = self.players[move.player]
        cubes = list(move.goods)
        self.trace.use(rule("loading-cubes"))
        if move.action == "warehouse_out":
            require(player.owns(self.game.warehouse), rule("warehouse-owned"), lambda: Message("{player} owns no warehouse", player=colour_named(move.player)))
            require(
                _take(player.warehouse, cubes),
                rule("loading-cubes"),
                lambda: Message("{player}'s warehouse holds {warehouse}, not {cubes}", player=colour_named(move.player), warehouse=self._goods_named(player.warehouse), cubes=self._goods_named(cubes)),
            )
            player.dock.extend(cubes)
            return
        if move.action == "hall_take":
            require(
                _take(player.hall, cubes),
                rule("loading-cubes"),
                lambda: Message("{player}'s market hall holds {hall}, not {cubes}", player=colour_named(move.player), hall=self._goods_named(player.hall), cubes=self._goods_named(cubes)),
            )
            player.dock.extend(cubes)
            return
        # everything else uses unloaded cubes; check and take them first, keep a copy to restore
        before = list(player.dock)
        require(
            _take(player.dock, cubes),
            rule("loading-cubes"),
            lambda: Message("{player} has {before} unloaded, not {cubes}", player=colour_named(move.player), before=self._goods_named(before), cubes=self._goods_named(cubes)),
        )
        try:
            self._place_cubes(player, move, cubes)
        except Violation:
            player.dock[:] = before
            raise

    def _place_cubes(self, player: Player, move: Load, cubes: list[str]) -> None:
        spec, rule, colour = self.spec, self.game.rule, move.player
        hall = spec["components"]["market_hall"]
        if move.action == "contract":
            n = len(player.contracts)
            # nor covers a contract the player does not have
            require(
                1 <= move.contract <= n,
                rule("contract-owned"),
                lambda: (
                    Message("{colour} owns {n} contract; there is no contract {contract}", colour=colour_named(colour), n=n, contract=move.contract)
                    if n == 1
                    else Message("{colour} owns {n} contracts; there is no contract {contract}", colour=colour_named(colour), n=n, contract=move.contract)
                ),
                waivable=False,
            )

            contract = player.contracts[move.contract - 1]
            open_symbols = Counter(contract.open)
            for g in cubes:
                require(
                    open_symbols[g] > 0,
                    rule("contract-symbol"),
                    lambda: Message(
                        "contract {contract} ({goods}) has no uncovered {g} symbol; open: {open}",
                        contract=move.contract,
                        goods=self._goods_named(contract.goods),
                        g=self._goods_named([g]),
                        open=self._goods_named(contract.open),
                    ),
                )
                open_symbols[g] -= 1
            contract.covered.extend(cubes)
            self.trace.use(rule("contract-symbol"))
        elif move.action == "sell":
            for g in cubes:
                trader = self.game.trader_for(g)
                require(trader and player.owns(trader), rule("trader-owned"), lambda: Message("{colour} owns no trader who buys {g}", colour=colour_named(colour), g=self._goods_named([g])))
                player.coins += spec["cards"]["types"][trader]["trader"]["price"]
                self.trace.note(
                    colour,
                    "coins",
                    spec["cards"]["types"][trader]["trader"]["price"],
                    rule("trader-owned"),
                    _("sold {good} to the {card}").format(good=self.game.good_title(g), card=self.game.card_title(trader)),
                )
            self.goods_stock.update(cubes)
            self.trace.use(rule("trader-owned"))
            self.trace.use(rule("coin-supply"))
        elif move.action == "spoil":
            self.goods_stock.update(cubes)
            self.trace.use(rule("spoilage"))
        elif move.action == "warehouse_in":
            require(player.owns(self.game.warehouse), rule("warehouse-owned"), lambda: Message("{colour} owns no warehouse", colour=colour_named(colour)))
            cap = self.game.warehouse_capacity()
            require(
                len(player.warehouse) + len(cubes) <= cap,
                rule("warehouse-capacity"),
                lambda: Message("the warehouse holds {n} cubes; {more} more would pass its limit of {cap}", n=len(player.warehouse), more=len(cubes), cap=cap),
            )
            player.warehouse.extend(cubes)
            self.trace.use(rule("warehouse-capacity"))
        elif move.action == "hall_keep":
            cap = hall["store"]
            require(
                len(player.hall) + len(cubes) <= cap,
                rule("hall-store"),
                lambda: (
                    Message("the market hall keeps at most {cap} cube; it holds {n}", cap=cap, n=len(player.hall))
                    if cap == 1
                    else Message("the market hall keeps at most {cap} cubes; it holds {n}", cap=cap, n=len(player.hall))
                ),
            )
            player.hall.extend(cubes)
            self.trace.use(rule("hall-store"))
        elif move.action == "hall_sell":
            give, coins = hall["sell"]["give"], hall["sell"]["coins"]
            require(len(cubes) % give == 0, rule("hall-sell"), lambda: Message("the market hall buys cubes {give} at a time; {n} is not a multiple of {give}", give=give, n=len(cubes)))
            player.coins += len(cubes) // give * coins
            self.trace.note(colour, "coins", len(cubes) // give * coins, rule("hall-sell"), _("sold {n} cubes at the market hall").format(n=len(cubes)))
            self.goods_stock.update(cubes)
            self.trace.use(rule("hall-sell"))
        elif move.action == "hall_exchange":
            give, take = hall["exchange"]["give"], hall["exchange"]["take"]
            require(
                len(cubes) % give == 0 and len(cubes) // give * take == len(move.take),
                rule("hall-exchange"),
                lambda: Message("the market hall gives {take} cube for every {give}; {n} returned cannot buy {wanted}", take=take, give=give, n=len(cubes), wanted=len(move.take)),
            )
            stock = self.goods_stock + Counter(cubes)
            short = [g for g, k in Counter(move.take).items() if stock[g] < k]
            require(not short, rule("hall-exchange"), lambda: Message("the goods stock holds no {short} to take (cubes never come from the bag)", short=", ".join(short)))
            self.goods_stock = stock - Counter(move.take)
            player.dock.extend(move.take)
            self.trace.use(rule("hall-exchange"))

    # --- the end of a round: spoilage, income, the start player ---------------------------

    def _close_round(self) -> None:
        """End of Loading: spoil what is left, pay income, pass the start player coin."""
        income = self.spec["scoring"]["income"]
        bank_income = self.spec["cards"]["types"][self.game.bank]["income"]
        for player in self.players.values():
            if player.dock:
                self.goods_stock.update(player.dock)
                player.dock = []
                self.trace.use(self.game.rule("spoilage"))
            player.coins += income["base"] + (0 if player.bought else income["no_purchase"]) + bank_income * player.owns(self.game.bank)
            self._note_income(player, income["base"], 0 if player.bought else income["no_purchase"], bank_income * player.owns(self.game.bank))
            player.bought = False
        self.trace.use(self.game.rule("income"))
        self.trace.use(self.game.rule("coin-supply"))
        self.start = (self.start + 1) % len(self.seats)
        self.slots = []
        if self.last_round:
            self.phase = FINAL_FIRES
            self.trace.use(self.game.rule("game-end"))
            if not any(self.deck.values()):
                self.phase = OVER
        else:
            self.round += 1
            self.phase = SUPPLY

    def _note_income(self, player: Player, base: int, no_purchase: int, bank: int) -> None:
        if not self.trace.keeps_notes:
            return
        rule, colour = self.game.rule("income"), player.seat.colour
        self.trace.note(colour, "coins", base, rule, _("income, round {n}").format(n=self.round))
        self.trace.note(colour, "coins", no_purchase, rule, _("income for buying no card this round"))
        self.trace.note(colour, "coins", bank, rule, _("income from the {card}").format(card=self.game.card_title(self.game.bank)))

    # --- the end of the game: the fires left in the pile ---------------------------------

    def end_of_record(self) -> None:
        if self.phase == LOADING and self.last_round:
            self._close_round()
        if self.phase == FINAL_FIRES:
            # fires whose points the spec knows need not be written down
            for season in self.game.season_order:
                for card in list(self.deck[season]):
                    if card.face.get("points") is None:
                        return
            for season in self.game.season_order:
                for card in list(self.deck[season]):
                    self.deck[season].remove(card)
                    self._resolve_fire(Card(card.type, card.season, dict(card.face), card.id), Reveal(card.type))
            self.phase = OVER

    def is_over(self) -> bool:
        return self.phase == OVER

    # --- where the game stands ---------------------------------------------------------

    def situation(self) -> Situation:
        """The round and phase, and who acts next: in Supply and after the last round the
        table reveals a card (nobody acts); in Loading every player may move goods, in
        loading order, until the next round (or the last fires) begins."""
        game = self.game
        if self.phase == OVER:
            return Situation(self.round, None, [], _("game over"), True)
        if self.phase in (SUPPLY, FINAL_FIRES):
            season = self.current_season()
            card = _("the next card of the {season} stack").format(season=game.season_title(season)) if season else _("the next card")
            if self.phase == FINAL_FIRES:
                return Situation(self.round, None, [], _("reveal the fires left after the last round: {card}").format(card=card), False)
            return Situation(self.round, game.phase_title(SUPPLY), [], _("reveal {card}").format(card=card), False)
        if self.phase == DEMAND:
            colour = self.to_place()
            return Situation(self.round, game.phase_title(DEMAND), [colour], _("{colour} places a worker").format(colour=colour), False)
        if self.phase == PURCHASE:
            offer = self.current_offer()
            pending = ngettext("slot {n} offered to {colour} at {price} coin", "slot {n} offered to {colour} at {price} coins", offer.price)
            return Situation(self.round, game.phase_title(PURCHASE), [offer.colour], pending.format(n=self.purchase_slot + 1, colour=offer.colour, price=offer.price), False)
        if self.last_round:
            pending = _("players move their goods, then the fires left are revealed")
        else:
            pending = _("players move their goods, then round {n} begins").format(n=self.round + 1)
        return Situation(self.round, game.phase_title(LOADING), self.loading_order(), pending, False)

    # --- final scoring (the arithmetic is in scoring.py) -----------------------------------

    def breakdown(self, player: Player, as_if_over: bool = False) -> dict[str, int]:
        """A player's points by part: fires as they come, the rest once the game is over (or,
        `as_if_over`, as final scoring would count them now)."""
        game, types = self.game, self.spec["cards"]["types"]
        parts: dict[str, int] = {FIRES: player.fire_points}
        if not (as_if_over or self.is_over()):
            return parts
        rule = game.rule
        sizes = types[game.contract]["points_by_size"]
        parts[CONTRACTS] = scoring.contracts(sizes, [len(c.goods) for c in player.contracts if c.complete])
        offices = player.owns(game.counting_office)
        parts[OFFICES] = scoring.counting_offices(self.spec["scoring"]["counting_offices"]["points"], offices)
        ships = sum(1 for c in player.cards if game.is_ship(c.type))
        per_card: dict[str, int] = {}
        for card in player.cards:
            t = types[card.type]
            label = TRADERS if scoring.is_trader(t) else game.card_lowered(card.type)
            pts = scoring.card_points(t, coins=player.coins, ships=ships, warehouse_cubes=len(player.warehouse))
            if pts:
                per_card[label] = per_card.get(label, 0) + pts
                self.trace.use(rule("score-cards"), f"cards:types.{card.type}")
        parts.update(per_card)
        for r in ("score-contracts", "score-counting-offices", "tie-break"):
            self.trace.use(rule(r))
        return parts

    def scoring_notes(self) -> list[tuple[str, str, int, str | None, str]]:
        """Final scoring's points, by part, for a ledger (fire points were noted when won)."""
        rule, notes = self.game.rule, []
        for colour, player in self.players.items():
            for part, points in self.breakdown(player).items():
                if part != FIRES:
                    what = {CONTRACTS: "score-contracts", OFFICES: "score-counting-offices"}.get(part, "score-cards")
                    notes.append((colour, "points", points, rule(what), _("final scoring: {part}").format(part=localized(part))))
        return notes

    def pieces(self) -> dict[str, int]:
        return {f"the {good} cubes in the bag": left for good, left in self.bag.items()}

    def floors(self) -> dict[str, int | None]:
        """Coins stop at the data's minimum; points have no floor (negative-score)."""
        return {"coins": self.spec["components"]["coins"]["minimum"], "points": None}

    def standings(self, as_if_over: bool = False) -> list[Standing]:
        out = []
        for _colour, player in self.players.items():
            parts = self.breakdown(player, as_if_over)
            out.append(Standing(player.seat, sum(parts.values()), parts, [(COINS, player.coins, 1)]))
        return out

    def standings_now(self) -> list[Standing]:
        return self.standings(as_if_over=True)

    # --- figures for checkpoints -----------------------------------------------------------

    def figures(self, colour: str, only: Collection[str] | None = None) -> dict[str, Any]:
        return self.game.figure_table.values(self, self.players[colour], only=only)

    def offered_to(self, player: Player) -> int:
        """The price offered to the player right now; 0 when nothing is offered to them."""
        offer = self.current_offer()
        return offer.price if offer and offer.colour == player.seat.colour else 0

    def play_checkpoints(self, next_move: Move) -> list[str]:
        """At the end of each round's loading, state every player's points, coins and storage."""
        if self.phase != LOADING or isinstance(next_move, Load):
            return []
        # the figures read by their readers straight (FIGURE_READERS), not through the figure
        # table, which builds a mapping of them for every player after every round
        points, coins, warehouse, hall = (FIGURE_READERS[key] for key in ("points", "coins", "warehouse", "hall"))
        lines = []
        for colour, player in self.players.items():
            stored = "".join(f", {key} {' '.join(goods)}" for key, goods in (("warehouse", warehouse(self, player)), ("hall", hall(self, player))) if goods)
            lines.append(f"check {colour}: points {points(self, player)}, coins {coins(self, player)}{stored}")
        return lines

    # --- what `referee show` prints ------------------------------------------------------

    def describe(self) -> dict:
        """The state as data. `supply` holds the cards still on display (a bought card has left
        it; an unbought one is discarded when its queue is done); `offer` says which slot is
        offered to whom at what price during Purchase, `bought` what this round's buyers took."""
        offer = self.current_offer()
        return {
            "round": self.round,
            "phase": self.phase,
            "last_round": self.last_round,
            "start_player": self.seats[self.start].colour,
            "draw_pile": {s: len(c) for s, c in self.deck.items()},
            "bag": dict(sorted(self.bag.items())),
            "goods_stock": dict(sorted((+self.goods_stock).items())),
            "supply": [{"slot": i + 1, "card": _card_text(self.game, s.card), "cubes": s.cubes, "queue": s.queue} for i, s in enumerate(self.slots) if s.on_display],
            "offer": {"slot": self.purchase_slot + 1, "to": offer.colour, "price": offer.price} if offer else None,
            "bought": [{"slot": i + 1, "card": _card_text(self.game, s.card), "by": s.buyer, "price": s.price} for i, s in enumerate(self.slots) if s.buyer],
            "players": {
                colour: {
                    "points": p.points,
                    "coins": p.coins,
                    "cards": [_card_text(self.game, c) for c in p.cards],
                    "contracts": [{"goods": c.goods, "covered": sorted(c.covered), "complete": c.complete} for c in p.contracts],
                    "warehouse": sorted(p.warehouse),
                    "market_hall": sorted(p.hall),
                    "unloaded": sorted(p.dock),
                    "bought_this_round": p.bought,
                }
                for colour, p in self.players.items()
            },
        }


# --- card faces as the record states them ------------------------------------------------


def face_of(game: Game, move: Reveal) -> dict[str, Any]:
    """The face a reveal states, by the card type's face field (None where it states none)."""
    fields = game.face_fields(move.card)
    face: dict[str, Any] = {}
    for f in fields:
        value = getattr(move, f)
        face[f] = (tuple(value) or None) if f == "goods" else value
    return face


def check_face_range(game: Game, move: Reveal, face: dict) -> None:
    """A stated face must be one the card type can show: a contract's size, a number's range."""
    spec = game.face_spec(move.card)
    rule = game.rule("card-face")
    for key, value in face.items():
        if value is None:
            continue
        if key == "goods":
            require(len(value) in spec.get("sizes", [len(value)]), rule, lambda: Message("a contract shows {sizes} goods, not {n}", sizes=", ".join(map(str, spec["sizes"])), n=len(value)))
        else:
            low, high = spec.get("min"), spec.get("max")
            require(low is None or value >= low, rule, lambda: Message("a {card} shows at least {low}, not {value}", card=game.card_lowered(move.card), low=low, value=value))
            require(high is None or value <= high, rule, lambda: Message("a {card} shows at most {high}, not {value}", card=game.card_lowered(move.card), high=high, value=value))


# --- text for messages ------------------------------------------------------------------


def _face_text(face: dict) -> str:
    return " ".join(f"{k} {' '.join(v) if isinstance(v, (list, tuple)) else v}" for k, v in face.items() if v is not None)


def goods_named(spec, goods) -> Named | Message:
    """Goods in the order given as a message shows them, "coffee tea", in the reader's language."""
    if not goods:
        return Message("nothing")
    table = spec["components"]["goods"]
    names = {lang: " ".join(str(((table.get(g) or {}).get("names") or {}).get(lang, g)) for g in goods) for lang in ("hu", "de")}
    return Named(" ".join(goods), names)


# a card's face field as a message names it: "value 3", "goods coffee tea"
FACE_WORDS = {"points": N_("points {value}"), "value": N_("value {value}"), "goods": N_("goods {value}")}
FIELD_WORDS = {"points": N_("points"), "value": N_("value"), "goods": N_("goods")}  # the field alone
UNKNOWN_FACE = N_("face unknown")  # a card of the spec whose face no source gives


def _face_named(game: Game, face: dict) -> Message | str:
    """A card's face as a message shows it, in the reader's language (as `_face_text` in English)."""
    named: Message | str = ""
    for key, value in face.items():
        if value is None:
            continue
        part = Message(FACE_WORDS.get(key, key + " {value}"), value=goods_named(game.spec, list(value)) if isinstance(value, (list, tuple)) else value)
        named = Message("{before} {after}", before=named, after=part) if named else part
    return named


def _card_text(game: Game, card: Card) -> str:
    face = _face_text(card.face)
    return f"{card.type} ({face})" if face else card.type


# The checkpoint figures (specs/speicherstadt/figures.yaml says what each counts), read from
# a state and one of its players.
FIGURE_READERS = {
    "points": lambda state, player: sum(state.breakdown(player).values()),
    "coins": lambda state, player: player.coins,
    "warehouse": lambda state, player: sorted(player.warehouse),
    "hall": lambda state, player: sorted(player.hall),
    "unloaded": lambda state, player: sorted(player.dock),
    "firemen": lambda state, player: sum(c.face.get("value") or 0 for c in player.cards if c.type == state.game.fireman),
    "cards": lambda state, player: len(player.cards),
    "ships": lambda state, player: sum(1 for c in player.cards if state.game.is_ship(c.type)),
    "contracts": lambda state, player: sum(1 for c in player.contracts if c.complete),
    "offer": lambda state, player: state.offered_to(player),
}
