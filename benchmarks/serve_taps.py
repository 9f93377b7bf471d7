"""How long a tap takes on `referee serve` with many games played at once, over loopback.

    python benchmarks/serve_taps.py [--games 20] [--seconds 40] [--game canterbury] [--words] [--json FILE]
    python benchmarks/serve_taps.py --alone [--games 2] [--lines 120] [--game hamburgum] [--json FILE]

The app is served by uvicorn in this process, on 127.0.0.1 and a free port, on a folder of
its own that is removed at the end. Each of `--games` clients starts a game from the form
and plays a random legal game of it (`referee play`, one seed per client) as a phone does:
every tap is one request that applies the move, writes and syncs it, and answers with the
updated part of the page; a checkpoint is one tap that confirms the lines the page offers.
The clients run at once, each waiting for an answer and then a player's moment (`--think`,
a second on average) before its next tap, until its game is over or `--seconds` have
passed. They run as threads of one process of their own, as the phones are other machines
(`--same-process` runs them in the server's process, where their work takes turns with the
server's for the interpreter). The figure is the time from sending a tap to having the
updated part of the page and the picture of the new position, as percentiles over every
tap of every client; the goal is a 95th percentile under 100 ms with 20 games at once on
the project's machine (2 cores). Besides the times, the server's processor time per tap is
given, which the machine's other work changes less than the times.

With `--words` a client enters each line as a phone's player does where the line is not one
button: it asks for the menu after each word it taps (`?text=`), choosing the button that leads
to the line, until the line is a button or whole; each menu is a tap of its own, timed apart
(the menus of a game completed word by word, Canterbury's builds or Civitas Hamburgum's turns,
are the slowest pages). A line no menu leads to (a yield a record states) is typed in.

With `--alone` no server is started: the menus a phone asks for to enter the first `--lines`
lines of each game word by word (as `--words` taps them) are made one after another in this
process, each timed alone in processor time (`taps.menu`, the server's work for a menu; the page
around it is the same for every menu), so that neither the clients nor the machine's other work
moves them much. The figures are given over every menu and for the menus of each kind of line
by its action (a Civitas Hamburgum turn's `guildhall`, say), the slowest kind first.

Only loopback is used, every loop is bounded in taps and in time, and the server stops by
itself at the end.
"""

from __future__ import annotations

import argparse
import html
import json
import multiprocessing
import random
import re
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from referee.lab.random_game import play_game  # noqa: E402
from referee.recording.session import open_recording  # noqa: E402
from referee.server import taps  # noqa: E402
from referee.server.app import Settings, create_app  # noqa: E402

VERSION = re.compile(r'data-version="(\d+)"')
TEXT = re.compile(r'data-text="([^"]*)"')
BUTTON = re.compile(r'<(button|a) class="tap (?:move|word)"[^>]*? data-move="([^"]*)"')
RECENT = re.compile(r'<ol class="recent"[^>]*>(.*?)</ol>', re.S)
MOST_WORDS = 24  # menus asked for one line, at most
MOST_FORCED = 8  # lines the server may enter after a tap by itself (the only legal ones), at most
SIDES = ("upper", "lower")  # Civitas Hamburgum's Trade spaces, written before the action


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def body_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith("[")]


def kept(lines: list[str], entered: int, page: str) -> int:
    """How many of the record's lines the file holds after a tap that entered the first
    `entered`: the server enters a line the rules leave no choice about by itself (a pass
    when a player cannot pay), read off the last lines the page shows."""
    shown = RECENT.search(page)
    recent = [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", shown.group(1))] if shown else []
    for n in range(entered, min(len(lines), entered + MOST_FORCED) + 1):
        if recent and lines[:n][-len(recent) :] == recent:
            return n
    return entered


def words_to(http: httpx.Client, address: str, target: str, think: float, menus: list[float]) -> None:
    """Tap the words that lead to `target`, a menu each, as a phone does, until the line is
    a button or whole (the caller then enters it); each menu's time goes to `menus`."""
    text = ""
    for _ in range(MOST_WORDS):
        start = time.perf_counter()
        page = http.get(address, params={"text": text}, headers={"X-Partial": "1"}).text
        menus.append(time.perf_counter() - start)
        shown = TEXT.search(page)
        text = html.unescape(shown.group(1)) if shown else ""
        if text.strip() == target:
            return
        offered = [(tag, html.unescape(move)) for tag, move in BUTTON.findall(page)]
        if any(tag == "button" and move == target for tag, move in offered):
            return
        leading = [move for tag, move in offered if tag == "a" and (target.startswith(move) or target == move.strip())]
        if not leading:
            return  # no menu leads there: the line is typed
        text = max(leading, key=len)
        time.sleep(think * (0.5 + random.random()))


def client(base: str, game: str, record: str, seed: int, until: float, think: float, times: list[float], failures: list[str], menus: list[float] | None = None) -> None:
    """One phone: a new game from the form, then every line of a random game, a tap each
    (a checkpoint block is one tap, as the page offers it); with `menus`, the words before a
    line too, a menu each."""
    colours = [c.strip() for c in record.split('[Players "')[1].split('"')[0].split(",")]
    lines = body_lines(record)
    with httpx.Client(base_url=base, timeout=30, follow_redirects=True) as http:
        http.get("/")
        form = http.cookies.get("referee-form")
        answer = http.post("/new", data={"form": form, "game": game, "title": f"bench-{seed}", "colour": colours, "name": [""] * len(colours)})
        address = str(answer.url.path)
        version = int(VERSION.search(answer.text).group(1))
        i = 0
        while i < len(lines) and time.monotonic() < until:
            batch = [lines[i]]
            if lines[i].startswith("check "):
                while i + len(batch) < len(lines) and lines[i + len(batch)].startswith("check "):
                    batch.append(lines[i + len(batch)])
            if menus is not None and not lines[i].startswith("check "):
                words_to(http, address, lines[i], think, menus)
            start = time.perf_counter()
            answer = http.post(address + "/enter", data={"form": form, "version": str(version), "line": batch}, headers={"X-Partial": "1"})
            if answer.status_code != 200:
                failures.append(f"{address} {batch[0]!r}: {answer.status_code}")
                return
            version = int(VERSION.search(answer.text).group(1))
            picture = http.get(f"{address}/picture.svg?v={version}")  # the page's picture of the new position
            times.append(time.perf_counter() - start)
            if picture.status_code != 200:
                failures.append(f"{address} picture: {picture.status_code}")
                return
            i = kept(lines, i + len(batch), answer.text)
            time.sleep(think * (0.5 + random.random()))


def phones(base: str, game: str, records: list[str], seconds: float, think: float, words: bool = False) -> tuple[list[float], list[str], list[float]]:
    """Every client at once, a thread each, until its game ends or `seconds` have passed:
    each tap's time, what failed, and each menu's time (with `words`)."""
    times: list[float] = []
    failures: list[str] = []
    menus: list[float] = []
    until = time.monotonic() + seconds
    clients = [threading.Thread(target=client, args=(base, game, record, seed, until, think, times, failures, menus if words else None)) for seed, record in enumerate(records)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    return times, failures, menus


def action_of(line: str) -> str:
    """The kind of a line, for the menus' figures: the word after the player (after a side)."""
    words = line.split()
    if len(words) > 1 and words[0].endswith(":"):
        return words[2] if words[1] in SIDES and len(words) > 2 else words[1]
    return words[0] if words else ""


def menus_alone(record: str, lines: int) -> list[tuple[str, float]]:
    """The menus that enter the first `lines` lines of `record` word by word, each made alone in
    this process as the server makes it: each one's line's action and its processor time."""
    folder = Path(tempfile.mkdtemp(prefix="referee-serve-menus-"))
    try:
        path = folder / "game.log"
        path.write_text(record.split("\n\n")[0] + "\n\n", "utf-8")  # the header alone
        recording, _new = open_recording(str(path), lambda question: "n")
        out: list[tuple[str, float]] = []
        try:
            for line in body_lines(record)[:lines]:
                if not line.startswith("check "):
                    text = ""
                    for _ in range(MOST_WORDS):  # the words a phone taps, as `words_to` taps them
                        start = time.process_time()
                        menu = taps.menu(recording, text)
                        out.append((action_of(line), time.process_time() - start))
                        text = menu.text
                        if text.strip() == line or any(b.enters and b.text == line for b in menu.buttons):
                            break
                        leading = [b.text for b in menu.buttons if not b.enters and (line.startswith(b.text) or line == b.text.strip())]
                        if not leading:
                            break  # no menu leads there: the line is typed
                        text = max(leading, key=len)
                outcome = recording.enter(line)
                if not outcome.accepted:
                    raise SystemExit(f"{line!r} refused: {outcome.messages}")
        finally:
            recording.close()
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def alone(args) -> int:
    """`--alone`: every menu of the games' first lines made one at a time, in processor time."""
    records = [play_game(args.game, 3, seed=seed) for seed in range(args.games)]
    menus_alone(records[0], 8)  # loads the game once
    timed = [m for record in records for m in menus_alone(record, args.lines)]
    by_action: dict[str, list[float]] = {}
    for action, seconds in timed:
        by_action.setdefault(action, []).append(seconds)

    def summary(times: list[float]) -> dict:
        ordered = sorted(times)
        return {
            "menus": len(ordered),
            "median_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 2),
            "max_ms": round(ordered[-1] * 1000, 2),
            "total_ms": round(sum(ordered) * 1000, 1),
        }

    figures = {"game": args.game, "games": args.games, "lines": args.lines, "clock": "processor time, one menu at a time", **summary([s for _a, s in timed])}
    figures["by_action"] = {a: summary(t) for a, t in sorted(by_action.items(), key=lambda item: -max(item[1]))}
    for key, value in figures.items():
        if key != "by_action":
            print(f"{key:>16}: {value}")
    for action, numbers in figures["by_action"].items():
        print(f"{action:>16}: " + ", ".join(f"{k} {v}" for k, v in numbers.items()))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games played at once (default 20; with --alone, games whose menus are made, default 2)")
    parser.add_argument("--seconds", type=float, default=40.0, help="stop the clients after this long (default 40)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes between taps (default 1; 0 taps back to back, a saturation test)")
    parser.add_argument("--game", default="canterbury", help="the game every client plays (default canterbury)")
    parser.add_argument("--words", action="store_true", help="tap the words before each line too, a menu each, as a phone does where a line is not one button")
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON too")
    parser.add_argument("--same-process", action="store_true", help="run the clients in the server's process (as before 2 December 2026: they then take the server's interpreter lock too)")
    parser.add_argument("--alone", action="store_true", help="no server: time each menu that enters the games' first lines word by word alone, in processor time, by the lines' actions")
    parser.add_argument("--lines", type=int, default=120, help="with --alone: the lines of each game entered (default 120)")
    args = parser.parse_args()
    if args.games is None:
        args.games = 2 if args.alone else 20
    if args.alone:
        return alone(args)
    folder = Path(tempfile.mkdtemp(prefix="referee-serve-bench-"))
    port = free_port()
    app = create_app(Settings(folder, "127.0.0.1", port, rate=10000, burst=10000))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    records = [play_game(args.game, 3, seed=seed) for seed in range(args.games)]  # before the clock starts
    warm: list[float] = []
    client(f"http://127.0.0.1:{port}", args.game, records[0], -1, time.monotonic() + 5, 0.0, warm, [])  # loads the game once
    base = f"http://127.0.0.1:{port}"
    started, cpu = time.monotonic(), time.process_time()
    if args.same_process:
        times, failures, menus = phones(base, args.game, records, args.seconds, args.think, args.words)
    else:  # the phones are other machines: their requests do not share the server's interpreter
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            times, failures, menus = pool.apply(phones, (base, args.game, records, args.seconds, args.think, args.words))
    elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
    server.should_exit = True
    thread.join(10)
    shutil.rmtree(folder, ignore_errors=True)
    if not times:
        print("no tap was answered", failures)
        return 1
    ordered = sorted(times)
    pick = lambda q, ordered=ordered: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    figures = {
        "games": args.games,
        "clients": "in the server's process" if args.same_process else "in a process of their own",
        "think_s": args.think,
        "game": args.game,
        "taps": len(times),
        "seconds": round(elapsed, 1),
        "taps_per_second": round(len(times) / elapsed, 1),
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p95_ms": round(pick(0.95), 1),
        "p99_ms": round(pick(0.99), 1),
        "max_ms": round(ordered[-1] * 1000, 1),
        "failures": failures,
    }
    if menus:
        by_time = sorted(menus)
        figures |= {"menus": len(menus), "menu_median_ms": round(statistics.median(menus) * 1000, 1), "menu_p95_ms": round(pick(0.95, by_time), 1), "menu_max_ms": round(by_time[-1] * 1000, 1)}
    if not args.same_process:  # this process is the server's alone while the clock runs
        figures["server_cpu_ms_per_tap"] = round(cpu / (len(times) + len(menus)) * 1000, 2)
    for key, value in figures.items():
        print(f"{key:>16}: {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
