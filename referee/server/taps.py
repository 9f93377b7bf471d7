"""The legal next moves of a position as buttons: one tap a move where few are open, else
word by word along the legal continuations.

A menu is asked for with the text tapped so far (the start of a line, its words followed
by a space). Its buttons come from the recorder's completion (`Continuations.complete`):
where at most a dozen moves remain, each whole move is a button, so most moves take one
tap; where there are more (Canterbury's thousands of builds), the next words are, each
with how many moves it leads to. A word that is the only way on is taken at once, so no
tap is spent on it. Chance outcomes are placeholders filled from the game's own words
(the goods a contract shows, a fireman's value).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from referee.copying import copy_state
from referee.engine.continuations import COUNTS, RANGE, TOKEN, Branch, Continuations
from referee.engine.reading import read_entry
from referee.i18n import _
from referee.recording.session import Recording

MOST_TEXT = 400  # a menu's text is the start of one line: no longer than a line of a record
FORCED_STEPS = 8  # words taken without a tap, at most, where each is the only way on
MOST_COMBOS = 36  # a chance outcome's pieces still to pick, offered whole where this few ways remain
MOST_INLINE = 10  # a word that leads to at most this many whole moves shows them in its place
MOST_BUTTONS = 24  # while the menu holds at most this many buttons
CHAIN = 6  # passes a tap may answer for before the move it ends with, at most
MOST_SPREAD = 64  # a menu of whole moves only may hold this many buttons: a scroll costs less than a tap
MOST_SHARED = 3  # moves that share their first two words, at least, for the two to head them
MOST_BUNDLES = 12  # moves of several goods at once a menu offers, at most
MOST_BUNDLED = 9  # goods in one such move, at most (a ship's cubes, a warehouse and a hall's)


@dataclass
class Button:
    """One tap: the text the line becomes, what the button says, and whether the tap
    enters the line (a whole move) or opens the next choice."""

    text: str
    label: str
    note: str
    enters: bool
    before: tuple[str, ...] = ()  # lines the same tap enters first (the passes before a purchase)
    group: str | None = None  # the heading it goes under, where the words do not say it

    @property
    def lines(self) -> list[str]:
        return [*self.before, self.text]


@dataclass
class Menu:
    text: str  # the line so far, after any forced words
    buttons: list[Button] = field(default_factory=list)
    can_enter: bool = False  # the text is a whole line already (it may go on, too)
    free: str = ""  # a chance outcome the table states that no list gives (a fire's points): typed in
    groups: list[tuple[str, list[Button]]] = field(default_factory=list)
    prefix: str = ""  # the words before the typed outcome, where they are not the text (a fire among the reveals)

    @property
    def before_free(self) -> str:
        """The start of the line the typed outcome ends."""
        return self.prefix or self.text

    @property
    def free_label(self) -> str:
        """What the typed outcome's field says: its placeholder, after the words it follows."""
        return f"{self.before_free[len(self.text) :]}{self.free}".strip()


def menu(recording: Recording, text: str) -> Menu:
    """The buttons after `text` in the recording's position."""
    text = text[:MOST_TEXT]
    if text.strip() == "":
        text = ""
    elif not text.endswith(" "):
        text += " "
    listed = not _grows(recording)
    chains = _chains(recording) if listed and not text else []
    bundles = _bundles(recording) if listed and not text else []
    others: list[Button] = []
    if listed and not text:
        text, others = _same_player(recording)
        bundles.sort(key=lambda b: not b.text.startswith(text))  # the player who moved last first
    for _step in range(FORCED_STEPS):
        buttons, filling = _buttons(recording, text)
        whole = _is_whole(recording, text, filling)
        if len(buttons) == 1 and not buttons[0].enters and not whole:
            text = buttons[0].text  # the only way on: taken without a tap
            continue
        shared = _shared_words(text, buttons)
        if shared and not whole and not chains:
            text = shared  # every button goes on with the same word: it needs no tap either
            continue
        break
    free, prefix = _free(recording, text), ""
    if listed:
        combos = _combos(recording, text)
        buttons = (combos if combos is not None else _inline(recording, text, buttons)) + chains + others
        if combos is None:
            buttons, typed = _spread(recording, buttons, bool(free))
            if typed:
                prefix, free = typed
        buttons += bundles
    found = Menu(text, buttons, whole, free, prefix=prefix)
    found.groups = _grouped(text, buttons)
    return found


def _same_player(recording: Recording) -> tuple[str, list[Button]]:
    """Where several players may move (loading ships, each in turn order) and the one who
    moved last may go on, the menu starts with their moves, the others' a tap away."""
    last = next((line for line in reversed(recording.text.split("\n")) if line.strip() and not line.lstrip().startswith(("check ", "#", "["))), "")
    actor = last.split()[0] if last.split() and last.split()[0].endswith(":") else ""
    if not actor:
        return "", []
    top, _filling = _buttons(recording, "")
    if not any(b.text == actor + " " and not b.enters for b in top) or all(b.text.startswith(actor) for b in top):
        return "", []
    return actor + " ", [Button(b.text, b.label, b.note, b.enters, group=_("others")) for b in top if not b.text.startswith(actor + " ")]


def _inline(recording: Recording, text: str, buttons: list[Button]) -> list[Button]:
    """A word that leads to a few whole moves only (a fireman's value 1-5, a player's ways
    to use the market hall) is replaced by them, under the word as their heading, while the
    menu stays within `MOST_BUTTONS`: one tap instead of two."""
    out, size = [], len(buttons)
    for button in buttons:
        if not button.enters:
            below, _filling = _buttons(recording, button.text)
            if below and len(below) <= MOST_INLINE and size - 1 + len(below) <= MOST_BUTTONS and all(b.enters for b in below):
                size += len(below) - 1
                for b in below:
                    out.append(Button(b.text, b.text[len(button.text) :].strip() or b.label, b.note, True, group=button.label))
                continue
        out.append(button)
    return out


def _spread(recording: Recording, buttons: list[Button], typing: bool) -> tuple[list[Button], tuple[str, str] | None]:
    """Where every move is listed, the words left in a menu (the players who may load goods
    besides the one who moved last, a ship's cubes among the reveals) replaced by the whole
    moves they lead to, each under its first words as a heading, while the menu stays within
    `MOST_SPREAD`: one tap a move; with the room left, a contract's goods by their first
    two pieces. A word that leads to one outcome typed in (a fire's
    points) becomes the menu's field for it, with the words before it (the words and the
    placeholder); the menu keeps the word where it already has a field."""
    if not recording.game.hints_every_move:
        return buttons, None
    hints = recording.hints()
    typed = None
    belows: dict[int, list[Button]] = {}
    found: dict[int, list[Button]] = {}
    size = len(buttons)
    for n, button in enumerate(buttons):
        if button.enters:
            continue
        token = _free(recording, button.text)
        if token and not typing and typed is None and [h for h in hints if h.startswith(button.text)] == [button.text + token]:
            typed, size = (button.text, token), size - 1
            belows[n] = []
            continue
        below = _whole_below(recording, button, hints)
        if below:
            found[n] = below
    # whole moves take the room first: a tap saved on each, where the pieces save one of two
    for n, below in sorted(found.items(), key=lambda item: not item[1][0].enters):
        if size - 1 + len(below) <= MOST_SPREAD:
            belows[n], size = below, size - 1 + len(below)
    return [b for n, button in enumerate(buttons) for b in belows.get(n, [button])], typed


def _whole_below(recording: Recording, word: Button, hints: list[str]) -> list[Button] | None:
    """The whole moves a word leads to, as buttons under a heading of the word (and the
    next word where several moves share it); for a chance outcome with too many ways to
    show whole (a contract's goods), its first two pieces, a tap each; None where a move
    is not listed whole otherwise."""
    combos = _combos(recording, word.text)
    if combos is not None:
        if combos and (all(b.enters for b in combos) or not any(b.enters for b in combos)):
            return [Button(b.text, b.label, "", b.enters, group=word.label) for b in combos]
        return None
    lines = [h for h in hints if h.startswith(word.text)]
    if not lines or any("<" in line for line in lines):
        return None
    rests = [line[len(word.text) :].split() for line in lines]
    pairs = Counter(tuple(rest[:2]) for rest in rests if len(rest) > 2)
    out = []
    for line, rest in zip(lines, rests):
        shared = 2 if pairs[tuple(rest[:2])] >= MOST_SHARED else 1 if len(rest) > 1 else 0
        heading = " ".join([word.label, *rest[:shared]])
        out.append(Button(line, " ".join(rest[shared:]), "", True, group=heading))
    return out


def _combos(recording: Recording, text: str) -> list[Button] | None:
    """Where `text` is filling a chance outcome of several pieces (a ship's cubes drawn from
    the bag, a contract's goods) and few ways to finish it remain, each way as one button
    (the pieces in the order a record writes them, sorted), those the rules refuse left
    out; None where this is not such a point or too many ways remain."""
    words = text.split()
    for hint in recording.hints():
        parts = TOKEN.findall(hint)
        counts = COUNTS.fullmatch(parts[-1]) if parts else None
        fixed = len(parts) - 1
        if not counts or words[:fixed] != parts[:-1] or len(words) < fixed:
            continue
        picked = words[fixed:]
        fillers = sorted(recording.game.placeholder_words(_position(recording).state, parts[-1]))
        if any(w not in fillers for w in picked) or picked != sorted(picked):
            return None
        rest = [n - len(picked) for n in sorted({int(n) for n in counts.group(1).split("/")}) if n > len(picked)]
        start = fillers.index(picked[-1]) if picked else 0
        ways = [way for size in rest for way in itertools.combinations_with_replacement(fillers[start:], size)]
        if not ways:
            return None
        if len(ways) > MOST_COMBOS:  # too many to show: the first two pieces at once, where each way has two more
            pairs = list(itertools.combinations_with_replacement(fillers[start:], 2))
            if min(rest) < 2 or len(pairs) > MOST_COMBOS:
                return None
            return [Button(text + " ".join(pair) + " ", " ".join(pair), "", False, group=pair[0]) for pair in pairs]
        out = []
        for way in ways:
            line = text + " ".join(way)
            if _trial(recording, [line]) is not None:
                out.append(Button(line, " ".join(way), "", True, group=way[0]))
        return out
    return None


def _chains(recording: Recording) -> list[Button]:
    """Where the player to act may pass (a card offered in turn), the moves of the players
    after them as one tap each: the passes before it are entered with it."""
    hints = recording.hints()
    passes = [h for h in hints if _passes(h)]
    if len(passes) != 1:
        return []
    position = _trial(recording, [])
    before: list[str] = []
    out: list[Button] = []
    line = passes[0]
    for _step in range(CHAIN):
        if position is None or not _play(position, line):
            break
        before.append(line)
        following = recording.game.move_hints(copy_state(position.state))
        who = ", ".join(dict.fromkeys(b.split(":", 1)[0] for b in before))
        for hint in following:
            if not _passes(hint) and "<" not in hint:
                out.append(Button(hint, hint, _("after {players} pass").format(players=who), True, before=tuple(before), group=_("after passes")))
        passes = [h for h in following if _passes(h)]
        if len(passes) != 1:
            break
        line = passes[0]
    return out


def _bundles(recording: Recording) -> list[Button]:
    """Where a player may move several goods the same way (onto one contract, to the
    traders, into the warehouse), all of them at once, one tap: the player's moves that
    differ in their last word only, a good's name, joined into the one line the rules
    accept (`blue: contract 2 rubber tea`)."""
    groups: dict[str, list[str]] = {}
    for hint in recording.hints():
        head, _space, last = hint.rpartition(" ")
        if head and head.split()[0].endswith(":") and last.isalpha() and "<" not in hint:
            groups.setdefault(head, []).append(last)
    out = []
    for head, lasts in groups.items():
        goods = sorted(lasts)
        if len(out) >= MOST_BUNDLES or (len(goods) > 1 and _trial(recording, [f"{head} {' '.join(goods)}"]) is None):
            continue  # (one good alone is a legal move: it was listed)
        for good in lasts:  # a good held more than once: as many as the rules take
            while len(goods) < MOST_BUNDLED and _trial(recording, [f"{head} {' '.join(sorted([*goods, good]))}"]) is not None:
                goods = sorted([*goods, good])
        if len(goods) > 1:
            out.append(Button(f"{head} {' '.join(goods)}", " ".join(goods), "", True, group=_("{move}, all at once").format(move=head)))
    return out


def _passes(line: str) -> bool:
    """Whether a line is a player's pass (`orange: pass 3`)."""
    words = line.split()
    return len(words) >= 2 and words[0].endswith(":") and words[1] == "pass"


def _trial(recording: Recording, lines: list[str]):
    """The engine's position around a copy of the game's state with `lines` played on it,
    or None if the rules refuse one of them."""
    from referee.engine.position import Position

    header = recording.report.record.header if recording.report.record else None
    position = Position.at(recording.game, copy_state(recording.state), header)
    for line in lines:
        if not _play(position, line):
            return None
    return position


def _play(position, line: str) -> bool:
    """Play one line on a trial position; whether the rules took it."""
    try:
        outcome = position.apply(read_entry(position.game, line))
    except Exception:
        return False
    return outcome.played and outcome.legal


def _shared_words(text: str, buttons: list[Button]) -> str:
    """The text with the words that every button adds first, where they all add one."""
    if len(buttons) < 2:
        return ""
    rests = [b.text[len(text) :].split(" ") for b in buttons]
    first = rests[0][0]
    if first and all(len(rest) > 1 and rest[0] == first for rest in rests):
        return text + first + " "
    return ""


def _buttons(recording: Recording, text: str) -> tuple[list[Button], bool]:
    """The choices after `text`, and whether a chance outcome is being filled in."""
    continuations = _continuations(recording)
    out: list[Button] = []
    filling = False
    grows = _grows(recording)
    for choice in continuations.complete(text):
        if choice.meta in ("command", "a checkpoint line") or choice.meta.startswith("= "):
            continue  # commands and checkpoints have their own buttons; other spellings are not needed
        filling = filling or choice.meta.startswith("<")
        new = text[: len(text) - choice.replace] + choice.text
        enters = not new.endswith(" ")
        if not enters and choice.meta.startswith("<") and _fills_up(recording, new):
            new, enters = new.rstrip(), True  # the last of a chance outcome's pieces ends the move
        if enters and grows:  # a word the completion did not look past: ask whether it ends the move
            if _after(recording, new) not in ([""], None):
                new, enters = new + " ", False
        label = new[len(text) :].strip() or new.strip()
        out.append(Button(new, label, "" if choice.meta in ("move", "") else choice.meta, enters))
    return out, filling


def _is_whole(recording: Recording, text: str, filling: bool) -> bool:
    """Whether the text so far is a whole line: a legal move as listed, one the game says
    may end here, or a chance outcome filled in with as many words as its placeholder takes
    (the rules then judge the words themselves)."""
    line = text.strip()
    if not line:
        return False
    if _grows(recording):
        return "" in (_after(recording, line) or ())
    hints = recording.hints()
    if line in hints:
        return True
    words = line.split()
    for hint in hints:
        parts = TOKEN.findall(hint)
        if parts and parts[-1].startswith("<") and words[: len(parts) - 1] == parts[:-1]:
            filled = len(words) - (len(parts) - 1)
            counts = COUNTS.fullmatch(parts[-1])
            if counts:
                if filled in {int(n) for n in counts.group(1).split("/")}:
                    return True
            elif filled == 1:
                return True
    return False


def _fills_up(recording: Recording, text: str) -> bool:
    """Whether `text` fills a move's last placeholder with as many words as it can take."""
    words = text.split()
    for hint in recording.hints():
        parts = TOKEN.findall(hint)
        counts = COUNTS.fullmatch(parts[-1]) if parts else None
        if counts and words[: len(parts) - 1] == parts[:-1]:
            if len(words) - (len(parts) - 1) == max(int(n) for n in counts.group(1).split("/")):
                return True
    return False


def _free(recording: Recording, text: str) -> str:
    """The placeholder that comes next after `text` where neither a list nor a range of
    numbers fills it (`<points>` of a fire whose printed points no source gives)."""
    if _grows(recording):
        return ""
    words = text.split()
    for hint in recording.hints():
        parts = TOKEN.findall(hint)
        if len(parts) > len(words) and parts[: len(words)] == words:
            token = parts[len(words)]
            if token.startswith("<") and not COUNTS.fullmatch(token) and not RANGE.fullmatch(token):
                return token
    return ""


def _continuations(recording: Recording) -> Continuations:
    """What may follow in the recording's position: the recorder's completion."""
    return recording.continuations()


def _grows(recording: Recording) -> bool:
    """Whether the position's moves are completed word by word (not listed)."""
    return recording.word_by_word(recording.state) or _continuations(recording).grows


def _after(recording: Recording, text: str) -> list[str] | None:
    """The words that may follow `text` in a legal move ("" where it may end), where the game
    completes a move word by word: read off the completion's tree, which has asked the game
    for them already as it offered the words (each question is asked once per position),
    else asked of the game; None where the game's search fails."""
    words = text.split()
    node = _continuations(recording).root
    if isinstance(node, Branch):
        for word in words:
            node = node.children.get(word)
            if node is None:
                break
        else:
            return ([""] if node.end else []) + sorted(node.children)
    try:
        return _position(recording).next_words(text)
    except Exception:
        return None


def _position(recording: Recording):
    """The engine's position around a copy of the game's state, for the search to ask (it
    may note rules in the copy's trace), made once per position rather than per question."""
    cached = getattr(recording, "_tap_position", None)
    if cached is None or cached[0] is not recording.state:
        cached = (recording.state, _trial(recording, []))
        recording._tap_position = cached
    return cached[1]


def _grouped(text: str, buttons: list[Button]) -> list[tuple[str, list[Button]]]:
    """Buttons grouped the way the moves are: by their first words after the text (the
    player and the action), so a phone shows a short heading over each group."""
    groups: dict[tuple[str, bool], list[Button]] = {}
    for button in buttons:
        if button.group is not None:
            groups.setdefault((button.group, True), []).append(button)
            continue
        rest = button.text[len(text) :].split()
        key = " ".join(rest[:2]) if button.enters and len(rest) > 2 else ""
        groups.setdefault((key, False), []).append(button)
    out = []
    for (key, given), items in groups.items():
        if given:
            out.append((key, items))
            continue
        if key and len(items) > 1:
            for item in items:
                item.label = item.text[len(text) :].strip()[len(key) :].strip() or item.label
        out.append((key if len(items) > 1 else "", items))
    return out


def forced_line(recording: Recording) -> str | None:
    """The only line the rules allow next (a round's heading, a pass when a player cannot
    pay), which the server enters after the tap before it: where the game lists every kind
    of move (a game that lists a few stand-ins for many, such as Civitas Hamburgum's, leaves
    nothing forced), not a chance outcome the table has to state, nor the result, and not
    while a checkpoint is offered (its confirmation enters the line after it:
    `checkpoint`)."""
    state = recording.state
    if not recording.game.hints_every_move or state.is_over() or recording.word_by_word(state):
        return None
    hints = recording.hints()
    if len(hints) != 1 or "<" in hints[0] or hints[0].startswith("result"):
        return None
    if checkpoint(recording)[0]:
        return None
    return hints[0]


def checkpoint(recording: Recording) -> tuple[list[str], str | None]:
    """The checkpoint lines the referee would write here (`State.play_checkpoints`, as
    `referee play` writes them), with its own figures filled in, for the table to confirm or
    correct (none where the game takes no checkpoint here, or the table has just entered
    it); and the move the checkpoint is offered before where no player chooses it (the next
    round's heading: the checkpoint closes the round), which the confirmation enters after
    it. That move is None where it is a player's (the table taps it), a chance outcome the
    table states, or the game offers its checkpoint for no one move."""
    state = recording.state
    if state.is_over():
        return [], None
    offer, then = _offered(recording)
    entered = [line.strip() for line in recording.text.split("\n") if line.strip() and not line.lstrip().startswith(("#", "["))]
    if offer and entered[-len(offer) :] == offer:
        return [], None  # the table has just entered this checkpoint: it is not offered again
    return offer, then


def _offered(recording: Recording) -> tuple[list[str], str | None]:
    state, position = recording.state, _position(recording)
    try:
        if recording.word_by_word(state) and not recording.game.lists_quickly:
            return list(position.state.play_checkpoints(None)), None
        for move in position.legal_moves():
            lines = position.state.play_checkpoints(move)
            if lines:
                then = recording.game.format_move(move)
                chosen = getattr(move, "player", None) is not None  # a player's turn is the table's to tap
                return list(lines), then if not chosen and then in recording.hints() else None
    except Exception:  # an offer helps; it must never stop the page
        return [], None
    return [], None


def checkpoint_line(recording: Recording, owner: str) -> str:
    """A checkpoint of every plain figure of one owner, for a table that wants one now."""
    try:
        figures = recording.state.figures(owner)
    except Exception:
        return ""
    parts = []
    for key, value in figures.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            parts.append(f"{key} {value}")
    return f"check {owner}: " + ", ".join(parts) if parts else ""
