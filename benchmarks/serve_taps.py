"""How long a tap takes on `referee serve` with many games played at once, over loopback.

    python benchmarks/serve_taps.py [--games 20] [--seconds 40] [--game canterbury] [--json FILE]

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

Only loopback is used, every loop is bounded in taps and in time, and the server stops by
itself at the end.
"""

from __future__ import annotations

import argparse
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
from referee.server.app import Settings, create_app  # noqa: E402

VERSION = re.compile(r'data-version="(\d+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def body_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith("[")]


def client(base: str, game: str, record: str, seed: int, until: float, think: float, times: list[float], failures: list[str]) -> None:
    """One phone: a new game from the form, then every line of a random game, a tap each
    (a checkpoint block is one tap, as the page offers it)."""
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
            i += len(batch)
            time.sleep(think * (0.5 + random.random()))


def phones(base: str, game: str, records: list[str], seconds: float, think: float) -> tuple[list[float], list[str]]:
    """Every client at once, a thread each, until its game ends or `seconds` have passed:
    each tap's time, and what failed."""
    times: list[float] = []
    failures: list[str] = []
    until = time.monotonic() + seconds
    clients = [threading.Thread(target=client, args=(base, game, record, seed, until, think, times, failures)) for seed, record in enumerate(records)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    return times, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--seconds", type=float, default=40.0, help="stop the clients after this long (default 40)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes between taps (default 1; 0 taps back to back, a saturation test)")
    parser.add_argument("--game", default="canterbury", help="the game every client plays (default canterbury)")
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON too")
    parser.add_argument("--same-process", action="store_true", help="run the clients in the server's process (as before 2 December 2026: they then take the server's interpreter lock too)")
    args = parser.parse_args()
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
        times, failures = phones(base, args.game, records, args.seconds, args.think)
    else:  # the phones are other machines: their requests do not share the server's interpreter
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            times, failures = pool.apply(phones, (base, args.game, records, args.seconds, args.think))
    elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
    server.should_exit = True
    thread.join(10)
    shutil.rmtree(folder, ignore_errors=True)
    if not times:
        print("no tap was answered", failures)
        return 1
    ordered = sorted(times)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
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
    if not args.same_process:  # this process is the server's alone while the clock runs
        figures["server_cpu_ms_per_tap"] = round(cpu / len(times) * 1000, 2)
    for key, value in figures.items():
        print(f"{key:>16}: {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
