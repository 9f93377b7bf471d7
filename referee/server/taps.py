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

from dataclasses import dataclass, field

from referee.engine.continuations import COUNTS, RANGE, TOKEN
from referee.recording.session import Recording

MOST_TEXT = 400  # a menu's text is the start of one line: no longer than a line of a record
FORCED_STEPS = 8  # words taken without a tap, at most, where each is the only way on


@dataclass
class Button:
    """One tap: the text the line becomes, what the button says, and whether the tap
    enters the line (a whole move) or opens the next choice."""

    text: str
    label: str
    note: str
    enters: bool


@dataclass
class Menu:
    text: str  # the line so far, after any forced words
    buttons: list[Button] = field(default_factory=list)
    can_enter: bool = False  # the text is a whole line already (it may go on, too)
    free: str = ""  # a chance outcome the table states that no list gives (a fire's points): typed in
    groups: list[tuple[str, list[Button]]] = field(default_factory=list)


def menu(recording: Recording, text: str) -> Menu:
    """The buttons after `text` in the recording's position."""
    text = text[:MOST_TEXT]
    if text.strip() == "":
        text = ""
    elif not text.endswith(" "):
        text += " "
    for _ in range(FORCED_STEPS):
        buttons, filling = _buttons(recording, text)
        whole = _is_whole(recording, text, filling)
        if len(buttons) == 1 and not buttons[0].enters and not whole:
            text = buttons[0].text  # the only way on: taken without a tap
            continue
        shared = _shared_words(text, buttons)
        if shared and not whole:
            text = shared  # every button goes on with the same word: it needs no tap either
            continue
        break
    found = Menu(text, buttons, whole, _free(recording, text))
    found.groups = _grouped(text, buttons)
    return found


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
    continuations = recording.continuations()
    out: list[Button] = []
    filling = False
    grows = recording.word_by_word(recording.state)
    position = _position(recording) if grows else None
    for choice in continuations.complete(text):
        if choice.meta in ("command", "a checkpoint line") or choice.meta.startswith("= "):
            continue  # commands and checkpoints have their own buttons; other spellings are not needed
        filling = filling or choice.meta.startswith("<")
        new = text[: len(text) - choice.replace] + choice.text
        enters = not new.endswith(" ")
        if not enters and choice.meta.startswith("<") and _fills_up(recording, new):
            new, enters = new.rstrip(), True  # the last of a chance outcome's pieces ends the move
        if enters and grows:  # a word the completion did not look past: ask whether it ends the move
            try:
                after = position.next_words(new)
            except Exception:
                after = [""]
            if after != [""]:
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
    state = recording.state
    if recording.word_by_word(state):
        try:
            return "" in _position(recording).next_words(line)
        except Exception:
            return False
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
    if recording.word_by_word(recording.state):
        return ""
    words = text.split()
    for hint in recording.hints():
        parts = TOKEN.findall(hint)
        if len(parts) > len(words) and parts[: len(words)] == words:
            token = parts[len(words)]
            if token.startswith("<") and not COUNTS.fullmatch(token) and not RANGE.fullmatch(token):
                return token
    return ""


def _position(recording: Recording):
    """The engine's position around a copy of the game's state, for the search to ask (it
    may note rules in the copy's trace), made once per position rather than per question."""
    from referee.engine.copying import copy_state
    from referee.engine.position import Position

    cached = getattr(recording, "_tap_position", None)
    if cached is None or cached[0] is not recording.state:
        header = recording.report.record.header if recording.report.record else None
        cached = (recording.state, Position.at(recording.game, copy_state(recording.state), header))
        recording._tap_position = cached
    return cached[1]


def _grouped(text: str, buttons: list[Button]) -> list[tuple[str, list[Button]]]:
    """Buttons grouped the way the moves are: by their first words after the text (the
    player and the action), so a phone shows a short heading over each group."""
    groups: dict[str, list[Button]] = {}
    for button in buttons:
        rest = button.text[len(text) :].split()
        key = " ".join(rest[:2]) if button.enters and len(rest) > 2 else ""
        groups.setdefault(key, []).append(button)
    out = []
    for key, items in groups.items():
        if key and len(items) > 1:
            for item in items:
                item.label = item.text[len(text) :].strip()[len(key) :].strip() or item.label
        out.append((key if len(items) > 1 else "", items))
    return out


def checkpoint_offer(recording: Recording) -> list[str]:
    """The checkpoint lines the referee would write here (`State.play_checkpoints`, as
    `referee play` writes them), with its own figures filled in, for the table to confirm or
    correct; none where the game does not take a checkpoint at this point."""
    state = recording.state
    if state.is_over():
        return []
    position = _position(recording)
    try:
        if recording.word_by_word(state):
            return list(position.state.play_checkpoints(None))
        for move in position.legal_moves():
            lines = position.state.play_checkpoints(move)
            if lines:
                return list(lines)
    except Exception:  # an offer helps; it must never stop the page
        return []
    return []


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
