"""What every game module provides to the shared engine.

A game is split the way OpenSpiel splits one: a `Game` holds the spec (the
numbers), reads and writes its moves in the notation, and answers the search for
legal and random moves (from its play module); a `State` is one game in progress
and knows the rules. The engine replays a record by calling `State.apply` move by
move; every rule is stated with `require`, which raises `Violation` with a rule id
from the game's `rules.yaml`. The move search reads the state and keeps its memos
itself; the state never imports it, and a rule that needs a search (Canterbury's
Full Build "where one is possible") asks the game object.

Here too is what every game's views, pictures and sentences share that reads a state
(`quietly`, `situation_line`, `rests_on`, `Illustration`), and `Players`, which finds a
seat by colour or name.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from lark import Tree

from referee.errors import Pos, RecordError, SpecError, Violation
from referee.i18n import Message, Named, _
from referee.notation.colours import colour_named, colour_names
from referee.notation.names import did_you_mean, spelling
from referee.notation.parser import Header, Keywords, Move
from referee.spec.figures import FigureTable
from referee.spec.loader import Spec
from referee.terminal import odd_letters

if TYPE_CHECKING:
    from referee.drawing.svg import Drawing


@dataclass
class Seat:
    """A player at the table: their colour and, when the record names them, their name."""

    colour: str
    name: str = ""

    @property
    def label(self) -> str:
        return f"{self.colour} ({self.name})" if self.name else self.colour

    @property
    def shown(self) -> str:
        """The seat as a person reads it: its colour in the language in use (`label` keeps
        the record's colour id), with its player's name."""
        colour = colour_named(self.colour).translated()
        return f"{colour} ({self.name})" if self.name else colour


class Players:
    """The seats of a game, found by colour or by name."""

    def __init__(self, seats: Iterable[Any]):
        self.seats = list(seats)  # each with .colour and .name
        self._colours = colour_names([s.colour for s in self.seats])
        self._named: dict[str, list[str]] = {}
        for seat in self.seats:
            if seat.name:
                self._named.setdefault(spelling(seat.name), []).append(seat.colour)

    def colour_of(self, word: str) -> str | None:
        """The colour a word names, or None when it names no seat or more than one."""
        key = spelling(word)
        if key in self._colours:
            return self._colours[key]
        colours = self._named.get(key, [])
        return colours[0] if len(colours) == 1 else None

    def unknown(self, word: str) -> str:
        """Why a word names no seat, in a few words: `no player 'oragne' (did you mean
        'orange'?)`, or the seats a shared name could mean."""
        colours = self._named.get(spelling(word), [])
        if len(colours) > 1:
            return Message("{name} is the name of {n} players ({colours}); write the colour", name=repr(word), n=len(colours), colours=", ".join(colours))
        words = [s.colour for s in self.seats] + [s.name for s in self.seats if s.name]
        return Message("no player {name}{odd}{hint}", name=repr(word), odd=odd_letters(word), hint=did_you_mean(word, words))


@dataclass(eq=False)  # a trace is never compared with another
class Trace:
    """What a replay learned besides legality: rules used, warnings, facts taken from the record."""

    rules_used: set[str] = field(default_factory=set)  # applied, relying on all they read
    rules_applied: set[str] = field(default_factory=set)  # applied, relying on values_used only
    values_used: set[str] = field(default_factory=set)
    warnings: list[tuple[str, str, Pos | None]] = field(default_factory=list)
    record_facts: list[tuple[str, Pos | None]] = field(default_factory=list)
    _warned: set[tuple[str, str]] = field(default_factory=set)
    keeps_notes: ClassVar[bool] = False  # True for a ledger's trace: rules may skip wording a note otherwise
    records: ClassVar[bool] = True  # False for a trial's trace: rules may skip naming what they read

    def use(self, rule: str, *values: str) -> None:
        """A rule was applied. Naming the spec values it used (`file:key`) narrows what the
        report lists to those values; without them, everything the rule reads counts."""
        if values:
            self.values_used.update(values)
            self.rules_applied.add(rule)
        else:
            self.rules_used.add(rule)

    def use_each(self, rules: Iterable[str], values: Iterable[str]) -> None:
        """Several rules were applied, naming these values between them: as `use` of each
        rule with its values, in one step where a move names the same few together."""
        self.values_used.update(values)
        self.rules_applied.update(rules)

    def not_checked(self, rule: str, needs: str, pos: Pos | None = None) -> None:
        """A rule that needs a value no source gives; warn once per rule and key."""
        if (rule, needs) in self._warned:
            return
        self._warned.add((rule, needs))
        self.warnings.append((rule, Message("not checked: needs {needs}", needs=needs), pos))

    def fact(self, text: str, pos: Pos | None = None) -> None:
        self.record_facts.append((text, pos))

    def note(self, owner: str, figure: str, amount: int, rule: str | None, reason: str) -> None:
        """A figure of `owner` (a key of `State.figures`) changed by `amount` under a rule, for a
        reason in words ("bought slot 2"). Only a ledger (`referee explain`, ledger.py) keeps
        notes; a plain replay passes them by, so a rule may note every payment it makes. Where
        the words cost time to put together, ask `keeps_notes` first."""


class Unrecorded(Trace):
    """The trace of work whose rules nobody reads: a candidate move tried for a search, or
    a random game being written. It keeps nothing (no rule, warning or fact), so one
    serves any number of trials, and a rule whose spec addresses cost time to put
    together may ask `records` first and skip them."""

    records = False

    def use(self, rule: str, *values: str) -> None:
        pass

    def use_each(self, rules: Iterable[str], values: Iterable[str]) -> None:
        pass

    def not_checked(self, rule: str, needs: str, pos: Pos | None = None) -> None:
        pass

    def fact(self, text: str, pos: Pos | None = None) -> None:
        pass


@dataclass
class Standing:
    """A player's final score, how it is made up, and their rank."""

    seat: Seat
    total: int
    breakdown: dict[str, int]
    tiebreak: dict[str, int]
    rank: int = 0


@dataclass
class Situation:
    """Where a game stands between two moves, for a prompt or a summary a person reads.

    `round` is the round (or turn) counter the rulebook speaks of, None where a game has
    none; `phase` is the phase or step in the game's own words (game.yaml's phase names
    where it has them), None where a game has no phases; `to_act` holds the colours whose
    move may come next, empty when the next entry is a chance outcome the table reports
    (a revealed card) or when the game is over; `pending` says in one short phrase what the
    game waits for; `over` is True once the game has ended.
    """

    round: int | None
    phase: str | None
    to_act: list[str]
    pending: str
    over: bool


# --- what a person sees of a position: shared by the games' views, pictures and sentences, and by
# --- `show`, `draw` and `replay` ------------------------------------------------------------------


@contextmanager
def quietly(state: State) -> Iterator[State]:
    """Read a state for a picture or a summary without touching the replay's trace: reading a
    standing or a figure may record rules and values as used, and a report lists those."""
    trace = state.trace
    state.trace = Trace(rules_used=set(trace.rules_used), rules_applied=set(trace.rules_applied), values_used=set(trace.values_used))
    try:
        yield state
    finally:
        state.trace = trace


def situation_line(situation: Situation) -> str:
    """Where the game stands in one line: "Round 3 · Purchase · to act: orange · slot 2 offered ..."."""
    if situation.over:
        return _("The game is over")
    parts = [_("Round {n}").format(n=situation.round)] if situation.round is not None else []
    if situation.phase:
        parts.append(situation.phase)
    parts.append(_("to act: {players}").format(players=", ".join(situation.to_act)) if situation.to_act else _("the table reveals"))
    parts.append(situation.pending)
    return " · ".join(parts)


def provisional_stems(state: State) -> set[str]:
    """The spec files whose provisional values the replay has relied on so far: a figure made
    from one of them rests on a stand-in, and pictures and summaries mark it."""
    spec, trace = state.game.spec, state.trace
    return {p.file for p in spec.relied_on(trace.rules_used, trace.values_used) if p.status == "provisional"}


def rests_on(state: State, *stems: str) -> bool:
    """True when a figure read from these spec files rests on a provisional value so far."""
    return bool(provisional_stems(state) & set(stems))


@dataclass(frozen=True)
class Illustration:
    """A picture on the rulebook site's rules page, under the rule it explains: the first
    position of one of the game's example records where `when` holds, drawn."""

    rule: str  # the rule id it stands under
    record: str  # a file of the game's examples folder (a path inside it)
    when: Callable[[State], bool]
    caption: str
    variants: tuple[str, ...] = ()  # overlays of the examples folder the record is checked with


def one_of(words: list[str]) -> str:
    """Choices as a sentence says them: "Levy, Full Build or Tax & Build"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def missing_rule(spec: Spec, rid: str) -> SpecError:
    """The spec error for a rule the code checks but rules.yaml does not have (exit 4)."""
    return SpecError(spec.path_of("rules"), "rules", f"no rule {rid}: the {spec.game} rules module checks it, so rules.yaml must keep it")


# The rules that a ruling of the table sets aside while its move is applied (rulings.py).
_WAIVED: ContextVar[frozenset] = ContextVar("waived", default=frozenset())


@contextmanager
def waiving(rules):
    """Apply a move with these rules set aside: `require` lets them pass (`ruling accept`)."""
    token = _WAIVED.set(frozenset(rules))
    try:
        yield
    finally:
        _WAIVED.reset(token)


def require(condition: Any, rule: str, message: str | Callable[[], str], pos: Pos | None = None, *, waivable: bool = True) -> None:
    """A rule of play: raise Violation, naming the rule, unless the condition holds.

    `message` says why in words, or is a function that says it (`lambda: f"..."`): one that
    costs something to put together is called only when the rule is broken, for checks that
    a search makes thousands of times.

    A table may let a move stand that breaks a rule (`ruling accept`), so a rule the table has
    set aside passes. What no ruling can change, because the state could not show it (a slot
    that is not there, a card that is not in the stack), is required with `waivable=False`.
    """
    if condition or (waivable and rule in _WAIVED.get()):
        return
    raise Violation(rule, message() if callable(message) else message, pos)


class State:
    """One game in progress. Subclasses keep their data in plain fields."""

    game: Game
    trace: Trace
    seats: list[Seat]
    score_figure = "points"  # the figure of `figures` that adds up to a player's final score
    # A refused move leaves the state as it was, so that a replay can go on past it. A random
    # game stops at the first refused move, so it turns this off and a rule module may skip
    # copying what a move could change.
    rolls_back = True

    def apply(self, move: Move) -> None:
        raise NotImplementedError

    def end_of_record(self) -> None:
        """The record has no more moves: close a phase the record need not spell out."""

    def is_over(self) -> bool:
        raise NotImplementedError

    def situation(self) -> Situation:
        """Where the game stands now: round, phase, who acts next and what the game waits for."""
        raise NotImplementedError

    def figures(self, colour: str, only: Collection[str] | None = None) -> dict[str, Any]:
        """What a checkpoint may state about a player, by checkpoint key: the figures of the
        game's figures.yaml (`game.figure_table`), read through the rules' readers; with
        `only`, just those of these keys."""
        raise NotImplementedError

    def standings(self) -> list[Standing]:
        raise NotImplementedError

    def standings_now(self) -> list[Standing]:
        """The standings as final scoring would make them if the game ended now: what a
        one-ply search weighs its candidate moves by. A game that scores as it goes (its
        `standings` already are that) keeps this default; one whose final scoring waits for
        the end applies it to the position as it is."""
        return self.standings()

    def describe(self) -> dict:
        raise NotImplementedError

    def play_checkpoints(self, next_move: Move) -> list[str]:
        """Checkpoint lines that `play` writes before `next_move` (e.g. at the end of a round)."""
        return []

    # --- what rulings and ledgers ask of a state (rulings.py, ledger.py) ---------------------

    # the checkpoint figures a `ruling adopt` may set, each the name of the player's attribute
    # that holds it: a plain count the table pays and is paid in (coins, money)
    adoptable: dict[str, str] = {}

    def adopt(self, colour: str, key: str, value: Any) -> None:
        """Set a player's figure to the value the table wrote (`ruling adopt` after a
        checkpoint). Raises ValueError for a figure the rules work out rather than hold."""
        attribute = self.adoptable.get(key)
        players = getattr(self, "players", {})
        if attribute is None or colour not in players or not isinstance(value, int):
            can = ", ".join(sorted(self.adoptable)) or "none"
            raise ValueError(f"the rules work {key} out from the pieces; a ruling adopts only {can}")
        setattr(players[colour], attribute, value)

    def figure_owners(self) -> list[str]:
        """Everyone a checkpoint may name: the seated colours, and in some games more (a city)."""
        return [s.colour for s in self.seats]

    def floors(self) -> dict[str, int | None]:
        """The least value a figure may hold where that is not 0, read from the data (None: no
        floor, such as points that fires may take below zero). Counts of pieces stop at 0."""
        return {}

    def pieces(self) -> dict[str, int]:
        """The pieces left where the game keeps a count of them (a supply, a stock, a bag, a
        deck), by what a message calls them: none of them can fall below zero."""
        return {}

    def cannot_hold(self) -> str | None:
        """Why the state cannot be as it now is, or None: a figure below its floor, or fewer
        than no pieces left somewhere. Asked after a move that the table let stand with a
        rule set aside (`ruling accept`)."""
        for what, left in self.pieces().items():
            if left < 0:
                return f"{what} would be {left}, and there are never fewer than none"
        floors = self.floors()
        for owner in self.figure_owners():
            for key, value in self.figures(owner).items():
                floor = floors.get(key, 0)
                if isinstance(value, int) and not isinstance(value, bool) and floor is not None and value < floor:
                    return f"{owner} would hold {value} {key}, and the data allows no fewer than {floor}"
        return None

    def figure_totals(self) -> dict[str, tuple[str, ...]]:
        """Figures that are the sum of other figures (Canterbury's prosperity, by source): a
        ledger explains such a total by the notes on its parts."""
        return {}

    def scoring_notes(self) -> list[tuple[str, str, int, str | None, str]]:
        """What the end of the game adds to figures that `figures` works out rather than holds
        (final scoring read from the state), as notes (owner, figure, amount, rule, reason)."""
        return []

    def seat(self, colour: str, pos: Pos | None = None, rule: str | None = None) -> Seat:
        for seat in self.seats:  # a plain loop: every move asks
            if seat.colour == colour:
                return seat
        require(
            False,  # no seat has that colour: a fact of the record, which no ruling changes
            rule or f"{self.game.name}/seat",
            Message("{why}; seats: {seats}", why=Players(self.seats).unknown(colour), seats=", ".join(s.label for s in self.seats)),
            pos,
            waivable=False,
        )


class Game:
    """Static side of a game: its spec and how its moves are written."""

    name: ClassVar[str]
    figure_table: FigureTable  # the checkpoint figures, from figures.yaml and the rules' readers
    # the module that says what a move changes by a printed number (`terms`, `addresses`,
    # `settled`), for `referee box --infer`; None: the game's records teach no printed numbers
    printed_module: ClassVar[str | None] = None
    # the module that says what the records teach by replaying them with each printed number
    # nudged (`FIGURES`, `AFTER_END`; `stated`, `start`, `options`, `companions` where the game
    # has them), for `referee box --infer` (referee/box/learn.py); None: not this way
    learning_module: ClassVar[str | None] = None
    # whether its legal moves list in a millisecond or two (Canterbury's positions hold
    # thousands and do not): a front end may then list them even where it completes a line
    # word by word, to number a short list or find the checkpoint that comes before a move
    lists_quickly: ClassVar[bool] = True
    # whether `move_hints` writes every kind of move there is in full (not a short list)
    hints_every_move: ClassVar[bool] = False

    def __init__(self, spec: Spec):
        self.spec = spec
        self._rule_ids: dict[str, str] = {}

    @classmethod
    def required_variants(cls, players: int) -> list[str]:
        """Variants a player count cannot do without (e.g. a neutral player for two)."""
        return []

    @classmethod
    def check_spec(cls, spec: Spec) -> None:
        """Cross-checks of the data that a schema cannot say (totals, references)."""

    def build_move(self, tree: Tree) -> Move:
        """The move a `move` subtree of the record's parse tree (syntax.py) stands for."""
        raise NotImplementedError

    def figure_words(self, key: str, words: list[str], where: list[Pos]) -> list[str]:
        """The ids that a checkpoint's list of words for a figure names (goods by any of their
        names, say); `where` holds each word's place. A word the game does not know is a
        RecordError pointing at it."""
        return words

    def keywords(self) -> Keywords:
        """The spec's other names for the grammar's keyword rules (German and Hungarian action
        words), which the parser accepts as well; see `notation.keyword_rules`."""
        return ()

    def format_move(self, move: Move) -> str:
        raise NotImplementedError

    def new_state(self, seats: list[Seat], start: int, header: Header, trace: Trace) -> State:
        raise NotImplementedError

    # --- the search for moves: each game's play module, asked by the game, never by the rules ---
    # A game names its play module (legal and random moves) as it names the modules below:
    # imported when first asked for, as checking a record needs none of it.
    play_module: ClassVar[Any] = None

    def legal_moves(self, state: State) -> list[Move]:
        return self._looks("play").legal_moves(state)

    def move_hints(self, state: State) -> list[str]:
        """The legal next moves as a person would write them (for `referee moves`)."""
        return [self.format_move(m) for m in self.legal_moves(state)]

    def placeholder_words(self, state: State, placeholder: str) -> list[str]:
        """The words that may fill a placeholder of `move_hints` that lists things (such as the
        goods drawn onto a ship), offered when a line is completed; none by default."""
        return []

    def next_words(self, state: State, words: list[str]) -> list[str]:
        """The words that may follow `words`, the start of a move as `move_hints` writes it
        split at its spaces, in some legal move: sorted, with "" where `words` already are a
        whole legal move. A move is completed word by word with it; a game whose positions
        have thousands of moves answers it without listing them all."""
        n = len(words)
        found = set()
        for text in self.move_hints(state):
            parts = text.split()
            if parts[:n] == words:
                found.add(parts[n] if len(parts) > n else "")
        return sorted(found)

    def random_move(self, state: State, rng: random.Random) -> Move:
        """A legal move, or a chance outcome drawn as the physical game would draw it."""
        return self.random_player()(state, rng)

    def table_move(self, state: State, rng: random.Random) -> Move:
        """A move that no player chooses: a chance outcome drawn as the physical game draws
        it (a card revealed, an office turned up), or the step that closes a phase in which
        every player may act once all of them are done (a round's heading). The play
        module's own `table_move` where it has one, else `random_move`, which draws chance
        outcomes as the table would."""
        own = getattr(self._looks("play", needed=False), "table_move", None)
        return own(state, rng) if own is not None else self.random_move(state, rng)

    def chosen(self, state: State, move: Move) -> list[str] | None:
        """What a move chose, in the game's words (the card bought, the structure built), for
        the lab's tally of choices, read before the move is made; None where the play module
        has no `chosen`, and the lab reads the move's own fields."""
        own = getattr(self._looks("play", needed=False), "chosen", None)
        return own(state, move) if own is not None else None

    def choice_name(self, choice: str) -> str:
        """A choice the lab tallies (`chosen`, or a move's words) in the reader's language:
        the play module's own `choice_name` where it has one, else each word by the name
        the spec gives the thing it names (a structure, a card, an action, a church)."""
        own = getattr(self._looks("play", needed=False), "choice_name", None)
        if own is not None:
            return own(self, choice)
        return " ".join(self.word_name(word) for word in choice.split())

    def word_name(self, word: str) -> str:
        """A word of the notation in the reader's language: the name the spec gives the
        thing it names, or the word as it is where the spec names no such thing."""
        names = self.spec_names.get(word)
        return Named(names.get("en", word), names).translated() if names else word

    @cached_property
    def spec_names(self) -> dict[str, dict]:
        """The names the spec gives, by the id each names (`names_by_id`), read once."""
        return names_by_id(self.spec)

    def random_player(self) -> Callable[[State, random.Random], Move]:
        """What draws `random_move`: the play module's own, or a pick among the legal moves.
        A random game asks for it once and calls it for every move."""
        play = self._looks("play", needed=False)
        if play is not None:
            return play.random_move
        return lambda state, rng: rng.choice(self.legal_moves(state))

    # --- what a person sees: `show`, `draw` and `replay` ------------------------------------
    # Each game's modules for people to look at a game: view.py (the position in text),
    # picture.py (the position as an SVG picture, and the rules page's pictures) and
    # sentences.py (a move told in a sentence). A game names them (a module, or its dotted
    # name, imported when first asked for: `check` never needs the pictures, whose imports
    # would cost every start); the methods below ask them.
    view_module: ClassVar[Any] = None
    picture_module: ClassVar[Any] = None
    sentences_module: ClassVar[Any] = None

    def _looks(self, kind: str, needed: bool = True) -> Any:
        module = getattr(self, f"{kind}_module")
        if isinstance(module, str):
            import importlib

            module = importlib.import_module(module)
        if module is None and needed:
            raise NotImplementedError(f"{self.name} has no {kind} module")
        return module

    def player_table(self, state: State) -> tuple[list[str], list[list[Any]]]:
        """Each player's figures for `referee show`: the column names, and a row per player."""
        return self._looks("view").player_table(state)

    def board_text(self, state: State) -> list[str]:
        """The board in text, where text reads naturally, for `referee show`."""
        return self._looks("view").board_text(state)

    def chart_figures(self, state: State) -> dict[str, dict[str, int]]:
        """What the replay's chart follows round by round, by figure and colour: the score
        first, then money."""
        return self._looks("view").chart_figures(state)

    def draw(self, state: State, caption: str) -> Drawing:
        """A picture of the position (see referee.drawing.svg), drawn from the spec and the state."""
        return self._looks("picture").draw(state, caption)

    def illustrations(self) -> tuple:
        """Pictures of positions that explain a rule, for the rulebook site (view.Illustration)."""
        return getattr(self._looks("picture", needed=False), "ILLUSTRATIONS", ())

    def describe_move(self, before: State, move: Move, after: State) -> str:
        """A move told in one plain sentence, from the states before and after it."""
        sentences = self._looks("sentences", needed=False)
        if sentences is None:
            return self.format_move(move)
        return sentences.describe_move(before, move, after)

    def rule(self, short: str) -> str:
        """Full rule id. An id missing from rules.yaml (say, a rule deleted from the shipped
        data) is invalid spec data, not a crash: every verdict names a rule of rules.yaml.
        Looked up once per id: a replay asks for rule ids many times a move."""
        try:
            return self._rule_ids[short]
        except KeyError:
            rid = f"{self.name}/{short}"
            if rid not in self.spec.rules:
                raise missing_rule(self.spec, rid) from None
            self._rule_ids[short] = rid
            return rid

    # --- seats from the header -------------------------------------------------

    def seats_from_header(self, header: Header) -> tuple[list[Seat], int]:
        """Seats in clockwise order and the index of the start player. A mistake in the
        [Players] or [Start] tag is pointed at where it is written in the tag's value."""
        tag = header.tags.get("players")
        if tag is None or not tag.value:
            raise RecordError(Message('missing [Players] tag, e.g. [Players "red Anna, blue Ben"]'), tag.pos if tag else Pos(1, 1))
        colours = self.spec.meta["colours"]
        known = colour_names(colours)  # kék, Blau and blue are one seat
        seats: list[Seat] = []
        for part in re.finditer(r"[^;,]+", tag.text):
            word = re.search(r"\S+", part.group())
            if not word:
                continue
            colour = known.get(spelling(word.group()), word.group().lower())
            where = tag.pos_in_value(part.start() + word.start(), len(word.group()))
            if colour not in colours:
                raise RecordError(
                    Message(
                        "unknown colour {word}{odd} in [Players]{hint}; colours: {colours}",
                        word=repr(word.group()),
                        odd=odd_letters(word.group()),
                        hint=did_you_mean(colour, colours),
                        colours=list(colours),
                    ),
                    where,
                )
            if any(s.colour == colour for s in seats):
                raise RecordError(Message("colour {colour} is seated twice", colour=repr(colour)), where)
            seats.append(Seat(colour, " ".join(part.group()[word.end() :].split())))
        low, high = self.spec.meta["players"]["min"], self.spec.meta["players"]["max"]
        if not low <= len(seats) <= high:
            raise RecordError(
                Message("{n} players; {game} is for {low} to {high}", n=len(seats), game=Named(self.spec.meta["names"]["en"], self.spec.meta["names"]), low=low, high=high),
                tag.pos_in_value(0, len(tag.text)),
            )
        start = header.tags.get("start")
        if start is None:
            return seats, 0
        players = Players(seats)
        colour = players.colour_of(start.value)
        if colour is None:
            raise RecordError(Message("[Start]: {problem}", problem=players.unknown(start.value)), start.pos_in_value(len(start.text) - len(start.text.lstrip()), len(start.value)))
        return seats, next(i for i, s in enumerate(seats) if s.colour == colour)


__all__ = ["Game", "State", "Situation", "Seat", "Standing", "Trace", "Violation", "require", "waiving", "Move", "Pos", "RecordError", "SpecError", "Header"]


def names_by_id(spec: Spec) -> dict[str, dict]:
    """Every name a spec gives, by the id it names (`watchtower`, `coffee-roaster`): each
    entry of the spec's files that has `names`, under its key or its `id`; the first of an
    id met is kept."""
    names: dict[str, dict] = {}

    def walk(node, key=None) -> None:
        if isinstance(node, dict):
            own = node.get("names")
            ident = node.get("id", key)
            if isinstance(own, dict) and isinstance(ident, str):
                names.setdefault(ident, own)
            for k, v in node.items():
                if k != "names":
                    walk(v, k)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(spec.files)
    return names
