"""The games a server holds open: one record file each, one lock each, one version each.

A table is a record being played (`recording.session.Recording`, the session that
`referee record` uses): a line is checked against the position after the last line, one
entry at a time, and appended to the file and synced before any phone is told it is kept.
Every change to a table happens under its lock, so two phones tapping at once never both
apply: each tap names the version of the game it was made on, and a tap on an older
version is refused (the phone is shown the game as it is now). The file is also locked
(`flock`) while it is written, and a file that changed on the disk since it was read (a
`referee record` session beside the server) is read again before the next line.

Games live in one folder; a game's id is its file name there, and nothing outside the
folder is ever read or written.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import threading
from pathlib import Path

from referee.errors import RecordError, SpecError, UsageError
from referee.i18n import _, current
from referee.recording.durable import Held, create_synced, hold, replace_synced
from referee.recording.session import Outcome, Recording, Stop, _create, open_recording
from referee.server import taps
from referee.terminal import visible

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.log")
MOST_FORCED = 8  # lines the rules leave no choice about, entered after a tap by themselves, at most
MOST_CACHED = 64  # things drawn of one version kept for the next phone that asks
CODES_FILE = ".referee-serve-codes.json"  # the join codes, kept so that a restart keeps them


class NoSuchGame(Exception):
    """A game id that names no record of the folder (or no file name at all)."""


class Table:
    """One game being played: its session, the lock every change takes, and a version
    that grows with every change, for the phones to see whether they are in step."""

    def __init__(self, path: Path, recording: Recording, code: str):
        self.path = path
        self.id = path.name
        self.recording = recording
        self.code = code
        self.lock = threading.RLock()
        self.version = 0
        self._seen = self._stamp()
        self._cache: dict[tuple[int, str, str], object] = {}

    def _stamp(self) -> tuple[int, int]:
        try:
            st = self.path.stat()
        except OSError:
            return (-1, -1)
        return (st.st_size, st.st_mtime_ns)

    def fresh(self) -> None:
        """Read the file again if something beside the server wrote to it."""
        with self.lock:
            if self._stamp() != self._seen:
                old = self.recording
                old.close()  # its lock goes to the session that reads the file again
                try:
                    self.recording, _ = open_recording(str(self.path), lambda q: "n")
                except (Stop, UsageError, RecordError, SpecError):
                    try:  # the file no longer replays: the session keeps the last good state, and the file
                        old.lock = hold(str(self.path))
                    except (Held, OSError):
                        pass
                    return
                self.recording.name = old.name
                self._changed()

    def _changed(self) -> None:
        self.version += 1
        self._seen = self._stamp()
        self._cache.clear()

    def cached(self, kind: str, make):
        """What is drawn of a version (the picture, the checkpoint offer, the menu after a
        text), made once for every phone that asks in the same language (a picture's labels, a
        menu's words are in the reader's); past `MOST_CACHED` kinds of a version (texts a phone
        made up), made each time."""
        key = (self.version, current(), kind)
        with self.lock:
            if key in self._cache:
                return self._cache[key]
            made = make()
            if len(self._cache) < MOST_CACHED:
                self._cache[key] = made
            return made

    def enter(self, lines: list[str], version: int) -> tuple[Outcome, bool]:
        """Lines tapped or typed on a phone that saw `version`: each checked and, if the
        rules accept it, appended and synced. The flag says whether the phone was out of
        step (then nothing is entered)."""
        with self.lock:
            self.fresh()
            if version != self.version:
                return Outcome(False, [_("another phone moved first; this is the game as it is now")]), True
            messages: list[str] = []
            accepted = False
            with self._file_lock():
                for line in lines:
                    outcome = self.recording.enter(line)
                    messages += outcome.messages
                    if not outcome.accepted:
                        break
                    accepted = True
                for _step in range(MOST_FORCED if accepted and outcome.accepted else 0):
                    forced = taps.forced_line(self.recording)
                    if forced is None or not self.recording.enter(forced).accepted:
                        break
                    messages.append(visible(_("{line}: the only legal line, entered with the tap").format(line=forced)))
            if accepted:
                self._changed()
            return Outcome(accepted and outcome.accepted, messages), False

    def undo(self, version: int) -> tuple[Outcome, bool]:
        with self.lock:
            self.fresh()
            if version != self.version:
                return Outcome(False, [_("another phone moved first; this is the game as it is now")]), True
            with self._file_lock():
                outcome = self.recording.undo()
            if outcome.accepted:
                self._changed()
            return outcome, False

    @contextlib.contextmanager
    def _file_lock(self):
        """The record file locked while it is written, against another writer that locks too. A
        session that holds the file's lock for its whole length (`Recording.lock`) is that lock."""
        if getattr(self.recording, "lock", None) is not None:
            yield
            return
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing the file lets the lock go


class Tables:
    """The folder of games and the tables open on them, each opened once."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._open: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._codes = self._read_codes()

    # --- paths: only plain file names inside the folder ---

    def path_of(self, game_id: str) -> Path:
        if not GAME_ID.fullmatch(game_id or ""):
            raise NoSuchGame(game_id)
        path = self.folder / game_id
        if path.is_symlink() or path.resolve().parent != self.folder:
            raise NoSuchGame(game_id)
        return path

    def listing(self) -> list[str]:
        return sorted(p.name for p in self.folder.iterdir() if GAME_ID.fullmatch(p.name) and p.is_file() and not p.is_symlink())

    # --- join codes ---

    def _read_codes(self) -> dict[str, str]:
        try:
            data = json.loads((self.folder / CODES_FILE).read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}

    def code_of(self, game_id: str) -> str:
        """The game's join code: a random token, made when first asked for and kept."""
        with self._lock:
            if game_id not in self._codes:
                self._codes[game_id] = secrets.token_urlsafe(12)
                data = json.dumps(self._codes, indent=1).encode()
                target = self.folder / CODES_FILE
                if target.exists():
                    replace_synced(str(target), data)
                else:
                    create_synced(str(target), data)
                    os.chmod(target, 0o600)
            return self._codes[game_id]

    # --- tables ---

    def table(self, game_id: str) -> Table:
        """The open table of a record of the folder; opened (replayed once) when first asked for."""
        path = self.path_of(game_id)
        with self._lock:
            table = self._open.get(game_id)
        if table is not None:
            table.fresh()
            return table
        if not path.is_file():
            raise NoSuchGame(game_id)
        try:
            recording, _ = open_recording(str(path), lambda q: "n")
        except Stop as stop:
            raise UsageError(stop.message) from None
        recording.name = game_id
        table = Table(path, recording, self.code_of(game_id))
        with self._lock:
            return self._open.setdefault(game_id, table)

    def new_game(self, name: str, game: str, players: str, start: str | None, variants: list[str]) -> Table:
        """A new record in the folder, with the header from the form."""
        stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:56] or "game"
        game_id, n = f"{stem}.log", 1
        while (self.folder / game_id).exists():
            n += 1
            game_id = f"{stem}-{n}.log"
        path = self.path_of(game_id)
        try:
            recording = _create(str(path), game, players, start, variants)
        except Stop as stop:
            raise UsageError(stop.message) from None
        recording.name = game_id
        table = Table(path, recording, self.code_of(game_id))
        with self._lock:
            self._open[game_id] = table
        return table


def shown(text: str) -> str:
    """Text for a page: control characters made visible (the page escapes the rest)."""
    return visible(text, keep_lines=True)
