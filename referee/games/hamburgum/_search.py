"""Civitas Hamburgum's turns word by word: the game's next words (`Game.next_words`).

The game lists its legal moves one step each (play.py's `legal_moves`: one good sold, one
donation, one house), stand-ins for the many turns a player may take (three goods sold and
the rest to the bank; two donations and the tokens scored; three houses in a row). Here a
turn is completed word by word instead, as Canterbury's are: the words that may follow are
the turn's own (`sell 2 beer 1 cloth, bank 1 sugar`; `nikolai donate five ship, score
nikolai five`; `brewery at petri 2, captain at petri 3`), in the order the notation writes
them, and a word is offered only where some whole line with it is legal: the rules
themselves judge each candidate line (`State.apply` on a copy of the position), so no rule
is written twice. The first word after the action is taken from the list of moves, which
holds a move of each kind that leads on (a sale or a purchase, a donation to each church the
player can pay, a house of each type that has a site). A part of a turn that is legal alone
is taken as leading on (a sale of fewer goods, fewer houses); a Church turn whose donations
must be followed by tokens scored (at most one token of a kind stays unscored) is tried with
the player's tokens scored after it.

A house's site is one of the board's free sites of its parish where the game has the
board's data; without it (which site shows which house is not known), a parish's free
numbers up to the one after the highest taken there are offered, and a site numbered
further is typed. An amount of goods or materials is offered up to the most the player
holds of one good (a sale, the bank) or the depot's largest lot (a purchase).

What one position's search has judged is kept while the position stays as it is
(`words_of`): a line is completed by asking for the words after each word of it, and each
question judges lines the next one asks again. The state holds none of it.

A phone asks for a menu as each word is tapped, and a Guildhall menu asks about every
parish's sites, so three things keep the judging short. A line is tried on a structural copy
of the position (referee/copying.py), not a deep one. A Guildhall turn one house longer than a
line read before is that line's turn with the house added, not read by the parser again.
Whether another house may follow is answered no at once where the player cannot pay for one
more (the rules ask for every house's cost before the first is built), before any house is
tried on any site. The words offered are the same as without these
(tests/hamburgum/test_search_words.py).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections.abc import Callable
from dataclasses import replace

from referee.copying import structural_copy
from referee.errors import Violation
from referee.games.base import Unrecorded
from referee.games.hamburgum.moves import Guildhall, House, Site
from referee.games.hamburgum.rules import HamburgumState
from referee.notation.parser import Move, parse

# The trace of every trial: it keeps nothing, so all of them share one.
_TRIAL = Unrecorded()

# Each position's search, by state, with the fingerprint of the state it was made for.
_SEARCHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def fingerprint(state: HamburgumState) -> tuple:
    """What changes when a state changes in place: a move played moves the turn on (a
    revealed office turns one face up), and a ruling that adopts a checkpoint's figures sets
    money or prestige; a refused move leaves the state as it was."""
    return state.turn, state.face_up, state.over, tuple((p.money, p.prestige) for p in state.players.values())


def words_of(state: HamburgumState, hints) -> Words:
    """The search of this position: the one kept for it while it stays as it is, or a new
    one (`hints()`: the legal moves as the record writes them)."""
    mark = fingerprint(state)
    kept = _SEARCHES.get(state)
    if kept is None or kept[0] != mark:
        kept = _SEARCHES[state] = (mark, Words(state, hints()))
    return kept[1]


class Words:
    """The next words of one position's turns (see the module's text)."""

    def __init__(self, state: HamburgumState, hints: list[str]):
        self.game = state.game
        # asked about, never changed (every line is tried on a copy), and held weakly: the
        # searches kept by state would otherwise keep every state alive
        self._state = weakref.ref(state)
        self.hints = hints
        self._trial: HamburgumState | None = None  # a copy no legal line has changed yet
        self._lock = threading.Lock()
        self._judged: dict[str, bool] = {}
        self._refusals: dict[str, set[str]] = {}  # the rules that refused a line judged
        self._turns: dict[str, Guildhall] = {}  # the Guildhall turns read or built, by line
        self._token_limit, self._canon = self.game.rule("token-limit"), self.game.rule("canon")
        self._asked: dict[tuple[str, ...], list[str]] = {}
        self._sides = {self.game.space_side(space) for space in self.game.spaces} - {None}  # upper, lower

    @property
    def state(self) -> HamburgumState:
        return self._state()

    # --- the judge ---

    def legal(self, words: list[str], built: Callable[[], Move | None] | None = None) -> bool:
        """Whether the line the words write is the next move; `built` makes the move it writes
        where the search knows it without reading the line (`_house_on`)."""
        line = " ".join(words)
        with self._lock:  # the server's threads may ask about one position at once
            if line not in self._judged:
                self._judged[line] = self._judge(line, self._read(line) if built is None else built())
            return self._judged[line]

    def _judge(self, line: str, move: Move | None) -> bool:
        """Whether the rules take `move`, which `line` writes, as the next move. A refused
        move leaves the copy as it was, so the next line is tried on it too; a legal one
        changes it, and the next line gets a fresh copy."""
        if move is None:
            return False
        trial = self._trial if self._trial is not None else self._copy()
        self._trial = None
        try:
            trial.apply(move)
        except Violation as v:
            self._refusals[line] = {v.rule}
            self._trial = trial
            return False
        except Exception:
            return False
        return True

    def _read(self, line: str) -> Move | None:
        """The move a line writes, as the notation reads it; None where it writes none. A
        Guildhall turn is kept: a turn one house longer is built on it (`_house_on`)."""
        if line in self._turns:
            return self._turns[line]
        game = self.game
        try:
            entries = parse(line + "\n", "<line>", game.name, game.build_move, keywords=game.keywords()).entries
        except Exception:
            return None
        if len(entries) != 1 or not isinstance(entries[0], Move):
            return None
        if isinstance(entries[0], Guildhall):
            self._turns[line] = entries[0]
        return entries[0]

    def _copy(self) -> HamburgumState:
        state = self.state
        shared = {id(state.game): state.game, id(state.game.spec): state.game.spec, id(state.trace): _TRIAL}
        trial = structural_copy(state, shared)  # as copy.deepcopy, for less (referee/copying.py)
        trial.rolls_back = True  # a refused line must leave the copy as it was
        return trial

    # --- the words ---

    def __call__(self, words: list[str]) -> list[str]:
        key = tuple(words)
        if key not in self._asked:
            self._asked[key] = sorted(set(self._next(list(words))))
        return self._asked[key]

    def _from_hints(self, words: list[str]) -> list[str]:
        n = len(words)
        return [h.split()[n] if len(h.split()) > n else "" for h in self.hints if h.split()[:n] == words]

    def _next(self, words: list[str]) -> list[str]:
        head = self._head(words)
        if head is None:
            return self._from_hints(words)
        action, size = head
        rest = words[size:]
        if not rest:  # a turn's first word after its action: the game's list has a move of each that leads on
            return self._from_hints(words)
        if action == "trade":
            return self._trade(words[:size], rest)
        if action == "church":
            return self._church(words[:size], rest)
        if action == "guildhall":
            return self._guildhall(words[:size], rest)
        return self._from_hints(words)

    def _head(self, words: list[str]) -> tuple[str, int] | None:
        """The action a turn's words name and how many words name it (the colour, a side,
        the action), once they do; None before."""
        for hint in self.hints:
            parts = hint.split()
            if len(parts) <= 1 or not parts[0].endswith(":"):
                continue
            size = next((i for i, part in enumerate(parts) if i and part not in self._sides), len(parts) - 1) + 1  # up to the action
            if len(words) >= size and words[:size] == parts[:size]:
                return parts[size - 1], size
        return None

    # --- trade: sell and bank, or buy ---

    def _trade(self, head: list[str], rest: list[str]) -> list[str]:
        kinds = ("sell", "bank", "buy")
        done, kind, last_good, number, after_comma = [], None, None, None, not rest
        for word in rest:
            if kind is None or after_comma:
                if word not in kinds or (done and kinds.index(word) <= kinds.index(done[-1])):
                    return []
                kind, last_good, number, after_comma = word, None, None, False
                done.append(word)
            elif number is None:
                if not word.isdigit() or not 0 < int(word) <= self._most(kind):
                    return []
                number = int(word)
            else:
                good = word.rstrip(",")
                if good not in self._items(kind) or (last_good is not None and good <= last_good):
                    return []
                last_good, number, after_comma = good, None, word.endswith(",")
        out: list[str] = []
        words = head + rest
        if kind is None or after_comma:  # a part's first word
            for k in kinds:
                if (not done or kinds.index(k) > kinds.index(done[-1])) and self._amount_leads(words + [k], k, None):
                    out.append(k)
            if kind is None and self.legal(words):
                out.append("")
            return out
        if number is None:  # a number of a good, or the end
            for n in range(1, self._most(kind) + 1):
                if not any(self.legal(words + [str(n), g]) for g in self._items(kind) if last_good is None or g > last_good):
                    break
                out.append(str(n))
            if last_good is not None and self.legal(words):
                out.append("")
            return out
        for good in self._items(kind):  # the good of a number
            if (last_good is None or good > last_good) and self.legal(words + [good]):
                out.append(good)
                if any(self._amount_leads(words + [good + ",", k], k, None) for k in kinds[kinds.index(kind) + 1 :]):
                    out.append(good + ",")
        return out

    def _most(self, kind: str) -> int:
        """The largest amount of one good or material a part of this kind may name."""
        if kind == "buy":
            return max(self.game.materials_totals)
        stock = self.state.players[self.state.current()].stock
        return max([stock.get(g, 0) for g in self.game.goods], default=0)

    def _items(self, kind: str) -> list[str]:
        return sorted(self.game.materials if kind == "buy" else self.game.goods)

    def _amount_leads(self, words: list[str], kind: str, last: str | None) -> bool:
        """Whether a part that `words` begins (with its keyword) has a first amount that is legal."""
        return any(self.legal(words + ["1", g]) for g in self._items(kind) if last is None or g > last)

    # --- church: donations to one church, then tokens scored ---

    def _church(self, head: list[str], rest: list[str]) -> list[str]:
        churches, kinds = self.game.church_ids, self.game.token_kinds
        words = head + rest
        donated: list[tuple[str, str]] = []
        scored: list[tuple[str, str]] = []
        stage = "start"  # start, church, donate, tokens, score, score-church, score-kind
        church = None
        for word in rest:
            bare = word.rstrip(",")
            comma = word.endswith(",")
            if stage == "start" and word in churches:
                church, stage = word, "church"
            elif stage == "start" and word == "score":
                stage = "score"
            elif stage == "church" and word == "donate":
                stage = "donate"
            elif stage in ("donate", "tokens") and bare in kinds:
                donated.append((church, bare))
                stage = "after-donations" if comma else "tokens"
            elif stage == "after-donations" and word == "score":
                stage = "score"
            elif stage in ("score", "score-next") and word in churches:
                church, stage = word, "score-church"
            elif stage == "score-church" and bare in kinds:
                scored.append((church, bare))
                stage = "score-next" if comma else "scored"
            else:
                return []
        tokens = self._tokens(donated, scored)
        out: list[str] = []
        if stage == "start":
            out += [c for c in churches if any(self._church_leads(words + [c, "donate", k], donated + [(c, k)], scored) for k in kinds)]
            if any(self._church_leads(words + ["score", c, k], donated, scored + [(c, k)]) for c, k in tokens):
                out.append("score")
            if self.legal(words):
                out.append("")
        elif stage == "church":
            out.append("donate")
        elif stage in ("donate", "tokens"):
            for k in kinds:
                if self._church_leads(words + [k], donated + [(church, k)], scored):
                    out.append(k)
                    if self._tokens(donated + [(church, k)], scored) and any(
                        self._church_leads(words + [k + ",", "score", c2, k2], donated + [(church, k)], scored + [(c2, k2)]) for c2, k2 in self._tokens(donated + [(church, k)], scored)
                    ):
                        out.append(k + ",")
            if stage == "tokens" and self.legal(words):
                out.append("")
        elif stage in ("after-donations",):
            out.append("score")
        elif stage in ("score", "score-next"):
            out += sorted({c for c, k in tokens if self._church_leads(words + [c, k], donated, scored + [(c, k)])})
        elif stage == "score-church":
            for c, k in tokens:
                if c == church and self._church_leads(words + [k], donated, scored + [(c, k)]):
                    out.append(k)
                    if any(self._church_leads(words + [k + ",", c2, k2], donated, scored + [(c, k), (c2, k2)]) for c2, k2 in self._tokens(donated, scored + [(c, k)])):
                        out.append(k + ",")
        elif stage == "scored" and self.legal(words):
            out.append("")
        return out

    def _tokens(self, donated: list[tuple[str, str]], scored: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The tokens the player may still score: those held unscored and those just taken."""
        player = self.state.players[self.state.current()]
        held = [(t.church, t.kind) for t in player.unscored()] + donated
        for pair in scored:
            if pair in held:
                held.remove(pair)
        return list(dict.fromkeys(held))

    def _church_leads(self, words: list[str], donated, scored) -> bool:
        """Whether a Church turn that begins with `words` can be made legal: as it is, or with
        one or two of the player's tokens scored after it (at most one token of a kind may
        stay unscored)."""
        if self.legal(words):
            return True
        last = words[-1]
        if last.endswith(",") or last in ("score", "donate") or last in self.game.church_ids:
            return self._completes(words, donated, scored)
        if self._refusals.get(" ".join(words)) != {self._token_limit}:
            return False  # refused for another reason than tokens left unscored: no score mends it
        tokens = self._tokens(donated, scored)
        joint = ", score " if "score" not in words else ", "
        for size in range(1, len(tokens) + 1):
            for pick in itertools.combinations(tokens, size):
                tail = (joint + ", ".join(f"{c} {k}" for c, k in pick)).split()
                if self.legal(_joined(words, tail)):
                    return True
        return False

    def _completes(self, words, donated, scored) -> bool:
        """A turn that ends mid-part (after a comma or a keyword): whether a token finishes it."""
        for c, k in self._tokens(donated, scored) if words[-1] != "donate" else [(None, k) for k in self.game.token_kinds]:
            tail = [k] if c is None or words[-1] in self.game.church_ids else [c, k]
            if self._church_leads(words + tail, donated, scored):
                return True
        return False

    # --- guildhall: houses built in order ---

    def _guildhall(self, head: list[str], rest: list[str]) -> list[str]:
        words = head + rest
        stage, kind, parish = "house", None, None
        named: set[Site] = set()  # the sites the words have built on so far
        base = head  # the words before the house the last words name: the action, or a house and its comma
        for i, word in enumerate(rest):
            bare = word.rstrip(",")
            if stage == "house" and word in self._house_words():
                kind, stage = word, "at"
            elif stage == "at" and word == "at":
                stage = "parish"
            elif stage == "parish" and word in self.game.church_ids:
                parish, stage = word, "number"
            elif stage == "number" and bare.isdigit():
                named.add(Site(parish, int(bare)))
                stage = "house" if word.endswith(",") else "built"
            elif stage == "built" and word == "donate":
                stage = "canon-church"
            elif stage == "canon-church" and word in self.game.church_ids:
                stage = "canon-kind"
            elif stage == "canon-kind" and bare in self.game.token_kinds:
                stage = "house" if word.endswith(",") else "done"
            else:
                return []
            if stage == "house":
                base = words[: len(head) + i + 1]
        out: list[str] = []
        if stage == "house":
            out = [w for w in self._house_words() if any(self._house_on(words, w, p, n) for p, n in self._sites_for(w, named))]
            if not rest and self.legal(words):
                out.append("")
        elif stage == "at":
            out = ["at"]
        elif stage == "parish":
            out = [p for p in self.game.church_ids if any(self._house_on(base, kind, p, n) for n in self._free_numbers(p, named))]
        elif stage == "number":
            more = None  # whether another house may follow: judged after the first site that takes this one
            for n in self._free_numbers(parish, named):
                if self._house_on(base, kind, parish, n):
                    out.append(str(n))
                    if more is None:
                        sites = named | {Site(parish, n)}  # the houses so far with this one: one more must be paid for too
                        more = self._affords(len(sites) + 1) and any(self._house_on(words + [f"{n},"], w, p, m) for w in self._house_words() for p, m in self._sites_for(w, sites))
                    if more:
                        out.append(f"{n},")
                elif self._refusals.get(" ".join(words + [str(n)])) == {self._canon} and any(self.legal(words + [str(n), "donate", c, k]) for c in self.game.church_ids for k in self.game.token_kinds):
                    out.append(str(n))  # a canon donates as it is built
        elif stage == "built":
            if self.legal(words):
                out.append("")
            elif self._refusals.get(" ".join(words)) == {self._canon} and any(self.legal(words + ["donate", c, k]) for c in self.game.church_ids for k in self.game.token_kinds):
                out.append("donate")  # a canon is built with its donation
        elif stage == "canon-church":
            out = [c for c in self.game.church_ids if any(self.legal(words + [c, k]) for k in self.game.token_kinds)]
        elif stage == "canon-kind":
            for k in self.game.token_kinds:
                if self.legal(words + [k]):
                    out.append(k)
        elif stage == "done" and self.legal(words):
            out.append("")
        return out

    def _house_on(self, base: list[str], word: str, parish: str, number: int) -> bool:
        """Whether the Guildhall turn `base` begins (its action, or houses and a comma) is
        legal with one more house, `word` at a site of `parish`. The turn is the one `base`
        writes with the house added, as the notation reads it (the search's words are the
        spec's ids, each read as itself), so the line is not read again."""
        words = [*base, word, "at", parish, str(number)]

        def built() -> Move | None:
            before = self._read(" ".join(base).removesuffix(","))
            if not isinstance(before, Guildhall) or (before.houses and not base[-1].endswith(",")):
                return None  # the words before are no Guildhall turn, or one a house cannot follow
            site = Site(parish, number)
            house = House(self.game.office_type, site, word) if word in self.game.offices else House(word, site)
            turn = self._turns[" ".join(words)] = replace(before, houses=(*before.houses, house))
            return turn

        return self.legal(words, built)

    def _affords(self, houses: int) -> bool:
        """Whether the player can pay for this many houses, as the Guildhall reckons their cost
        (each house's cost, the whole paid before the first is built): where not, no line that
        builds as many is legal, and none needs to be tried."""
        state = self.state
        return not state.can_pay(state.players[state.current()], self.game.houses_cost(houses))

    def _house_words(self) -> list[str]:
        """The words a house is built with: its type, or an office by its name."""
        offices = [o for o in (*self.state.office_stack, self.state.face_up) if o]
        return sorted({*self.game.house_types, *offices})

    def _free_numbers(self, parish: str, named: set[Site]) -> list[int]:
        """The site numbers of a parish that no citizen holds yet, nor a house the words name
        (`named`), as far as they are tried."""
        taken = {s.number for s in (*self.state.sites, *named) if s.parish == parish}
        if self.game.board_sites is not None:
            return sorted(s.number for s in self.game.board_sites if s.parish == parish and s.number not in taken)
        fresh = max(taken, default=0) + 1  # the number after the highest taken
        return [n for n in range(1, fresh + 1) if n not in taken]

    def _sites_for(self, word: str, named: set[Site]) -> list[tuple[str, int]]:
        """The free sites to try a house on, to judge whether it may be built at all: those
        the board shows its type on, or without the board's data a free site in each parish."""
        board = self.game.board_sites
        if board is None:
            return [(p, self._free_numbers(p, named)[0]) for p in self.game.church_ids]
        kind = word if word in self.game.house_types else self.game.office_type
        return [(s.parish, s.number) for s, shown in board.items() if shown == kind and s not in self.state.sites and s not in named]


def _joined(words: list[str], tail: list[str]) -> list[str]:
    """Words with a tail that begins with a comma (", score nikolai five") joined on to them."""
    if tail and tail[0] == ",":
        return words[:-1] + [words[-1] + ","] + tail[1:]
    return words + tail
