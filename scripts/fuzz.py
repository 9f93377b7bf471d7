"""Fuzz the referee: every case must end with the design's exit code and a located message.

    python scripts/fuzz.py --cases 100000 --jobs 4       # the full run
    python scripts/fuzz.py --case 4711 --seed 0          # one case again, with its files and output

Each case (see `fuzzcases.py`) runs `referee.cli.main` in a worker process, so a
hundred thousand cases do not pay a hundred thousand start-ups; every
`--subprocess-every`-th case also runs as a real `python -m referee` process,
which measures its wall time and peak memory exactly. A case fails when:

- the run raises, hangs, prints a traceback or exits 5 (internal error);
- its exit code is not one the case allows (a replaced move: 0, 1 or 3);
- a rule violation (1) names no rule id, or a malformed record (3) or invalid
  spec (4) names no file:line:column;
- it takes more than 2 s of processor time, or more than 200 MB. (Processor time,
  not wall time: on a busy machine the wall clock measures the other work too;
  a case that waits instead of working is stopped as a hang after 20 s.)

The last line counts the cases by exit code; the script exits 0 only when no case failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzzcases import Case, Corpus, make_case  # noqa: E402

from referee import cli  # noqa: E402
from referee.spec import grammar_root, specs_root  # noqa: E402

MAX_SECONDS = 2.0
MAX_MEGABYTES = 200
HANG_SECONDS = 20  # a case still running after this is stopped and counted as a hang
LOCATED = re.compile(r"^\S.*?:\d+:\d+: (error|warning)", re.MULTILINE)
RULE_ID = re.compile(r"error\[[a-z0-9-]+/[a-z0-9-]+\]")
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


@dataclass
class Outcome:
    code: int | None
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0  # processor time
    megabytes: float = 0.0
    crash: str | None = None  # a traceback that escaped the referee, or "hang"


@dataclass
class Verdict:
    index: int
    family: str
    code: int | None
    seconds: float
    megabytes: float
    problems: list[str] = field(default_factory=list)
    output: str = ""


class Hang(Exception):
    pass


# --- running one case ---------------------------------------------------------------


def materialize(case: Case, directory: Path) -> tuple[list[str], dict[str, str]]:
    """Write the case's files; return its command line with real paths, and its environment."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        (directory / name).write_bytes(data)
    env = {}
    if case.specs is not None:
        data_root = directory / "data"
        shutil.rmtree(data_root, ignore_errors=True)
        shutil.copytree(specs_root(), data_root / "specs")
        (data_root / "grammar").symlink_to(grammar_root())
        for rel, content in case.specs.items():
            target = data_root / "specs" / rel
            if content:
                target.write_bytes(content)
            else:
                target.unlink(missing_ok=True)
        env["REFEREE_DATA"] = str(data_root)

    def real(match: re.Match) -> str:
        name = match.group(1)
        if name == "dir":
            return str(directory)
        if name == "specs":
            return str(directory / "data" / "specs")
        return str(directory / name)

    return [PLACEHOLDER.sub(real, arg) for arg in case.argv], env


def reset_caches() -> None:
    """Forget every loaded spec, game and parser: the next case may bring other data."""
    for name, module in list(sys.modules.items()):
        if name == "referee" or name.startswith("referee."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _on_alarm(signum, frame):
    raise Hang()


def run_in_process(case: Case, directory: Path) -> Outcome:
    argv, env = materialize(case, directory)
    fresh_data = bool(env) or "--variant" in argv
    if fresh_data:
        reset_caches()
    saved_stdin, saved_env = sys.stdin, os.environ.get("REFEREE_DATA")
    sys.stdin = io.TextIOWrapper(io.BytesIO(case.stdin or b""), encoding="utf-8")
    if env:
        os.environ["REFEREE_DATA"] = env["REFEREE_DATA"]
    out, err = io.StringIO(), io.StringIO()
    outcome = Outcome(None)
    start = time.process_time()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            outcome.code = cli.main(argv)
    except SystemExit as exc:
        outcome.code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    except Hang:
        outcome.crash = "hang"
    except BaseException:
        outcome.crash = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        outcome.seconds = time.process_time() - start
        sys.stdin = saved_stdin
        if saved_env is None:
            os.environ.pop("REFEREE_DATA", None)
        else:
            os.environ["REFEREE_DATA"] = saved_env
        if fresh_data:
            reset_caches()
    outcome.stdout, outcome.stderr = out.getvalue(), err.getvalue()
    outcome.megabytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return outcome


def run_subprocess(case: Case, directory: Path) -> Outcome:
    """The case as a user runs it: a fresh `python -m referee` process, timed and measured."""
    argv, env = materialize(case, directory)
    stdin_path, out_path, err_path = directory / ".stdin", directory / ".stdout", directory / ".stderr"
    stdin_path.write_bytes(case.stdin or b"")
    with open(stdin_path, "rb") as i, open(out_path, "wb") as o, open(err_path, "wb") as e:
        proc = subprocess.Popen([sys.executable, "-m", "referee", *argv], stdin=i, stdout=o, stderr=e, env={**os.environ, **env})
        try:
            _, status, usage = _wait4(proc.pid, HANG_SECONDS)
        except Hang:
            proc.kill()
            os.waitpid(proc.pid, 0)
            proc.returncode = -9
            return Outcome(None, crash="hang", seconds=HANG_SECONDS)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return Outcome(
        proc.returncode,
        out_path.read_text(encoding="utf-8", errors="replace"),
        err_path.read_text(encoding="utf-8", errors="replace"),
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss / 1024,
    )


def _wait4(pid: int, timeout: float):
    deadline = time.monotonic() + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return done, status, usage
        if time.monotonic() > deadline:
            raise Hang()
        time.sleep(0.005)


# --- judging ---------------------------------------------------------------------------


def judge(case: Case, outcome: Outcome) -> list[str]:
    """What is wrong with how the referee ended this case (nothing, for a pass)."""
    problems = []
    text = outcome.stdout + outcome.stderr + _json_diagnostics(outcome.stdout)
    if outcome.crash == "hang":
        return [f"no answer within {HANG_SECONDS} s"]
    if outcome.crash:
        return ["uncaught exception: " + outcome.crash.strip().splitlines()[-1]]
    if "Traceback (most recent call last)" in text:
        problems.append("a traceback in the output")
    if outcome.code == 5 or "internal error" in text.lower():
        problems.append("an internal error")
    elif outcome.code not in case.expect:
        problems.append(f"exit code {outcome.code}, expected one of {sorted(case.expect)}")
    if outcome.code == 1 and not RULE_ID.search(text):
        problems.append("a violation that names no rule id")
    if outcome.code in (1, 3, 4) and not LOCATED.search(text) and not (outcome.code == 4 and _names_missing_path(text)):
        problems.append("no file:line:column in the message")
    if outcome.code == 3 and case.replaced_line is not None:
        lines = {int(m.group(1)) for m in re.finditer(r"^\S+?:(\d+):\d+: error", text, re.MULTILINE)}
        if case.replaced_line not in lines:
            problems.append(f"a replaced move makes the record malformed away from its line {case.replaced_line}")
    if outcome.code == 2 and not text.strip():
        problems.append("a usage error without a message")
    if outcome.seconds > MAX_SECONDS:
        problems.append(f"took {outcome.seconds:.2f} s of processor time")
    if outcome.megabytes > MAX_MEGABYTES:
        problems.append(f"used {outcome.megabytes:.0f} MB")
    return problems


def _json_diagnostics(stdout: str) -> str:
    """The diagnostics of `check --format json` written as the text format writes them."""
    if not stdout.startswith(("{", "[")):
        return ""
    try:
        reports = json.loads(stdout)
    except ValueError:
        return ""
    lines = []
    for report in reports if isinstance(reports, list) else [reports]:
        for d in report.get("diagnostics", []):
            where = f"{report['file']}:{d['line']}:{d['column']}" if d["line"] else d["spec"] or report["file"]
            tag = f"{d['severity']}[{d['rule']}]" if d["rule"] else d["severity"]
            lines.append(f"\n{where}: {tag}: {d['message']}")
    return "".join(lines)


def _names_missing_path(text: str) -> bool:
    """An error about a path that is no readable file (a directory, or nothing there) has no
    line to name; nor has `validate` given something that holds no specs."""
    for match in re.finditer(r"^(\S+?):? error", text, re.MULTILINE):
        if not Path(match.group(1)).is_file():
            return True
    return "does not exist" in text or "no game specs found" in text


# --- the worker pool ------------------------------------------------------------------

_corpus: Corpus | None = None
_workdir: Path | None = None
_options: argparse.Namespace | None = None


def _start_worker(options: argparse.Namespace) -> None:
    global _corpus, _workdir, _options
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit = 2 * 1024**3  # a runaway case fails with MemoryError instead of taking the machine
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _options = options
    _corpus = _corpus or Corpus.build()  # inherited from the parent when the pool forks
    _workdir = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))


def run_chunk(indices: list[int]) -> list[Verdict]:
    verdicts = []
    for index in indices:
        verdicts.append(run_one(_corpus, _options, index, _workdir))
    return verdicts


def run_one(corpus: Corpus, options: argparse.Namespace, index: int, workdir: Path) -> Verdict:
    case = make_case(corpus, options.seed, index)
    directory = workdir / f"case-{index}"
    try:
        outcome = run_in_process(case, directory)
        problems = judge(case, outcome)
        if options.subprocess_every and index % options.subprocess_every == 0:
            shutil.rmtree(directory, ignore_errors=True)
            real = run_subprocess(case, directory)
            problems += [f"as a process: {p}" for p in judge(case, real)]
        if problems and options.keep:
            keep = Path(options.keep) / f"case-{index}"
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(directory, keep, symlinks=True)
            (keep / "argv.txt").write_text(" ".join(case.argv) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    output = (outcome.stdout + outcome.stderr)[-2000:] if problems else ""
    return Verdict(index, case.family, outcome.code, outcome.seconds, outcome.megabytes, problems, output)


def run_many(options: argparse.Namespace, corpus: Corpus) -> tuple[Counter, Counter, list[Verdict], Verdict, float]:
    """Run cases `options.start` .. + `options.cases` in `options.jobs` processes."""
    indices = list(range(options.start, options.start + options.cases))
    chunks = [indices[i : i + options.chunk] for i in range(0, len(indices), options.chunk)]
    codes: Counter = Counter()
    families: Counter = Counter()
    failures: list[Verdict] = []
    slowest, heaviest, done = Verdict(-1, "", None, 0.0, 0.0), 0.0, 0
    started = time.perf_counter()
    global _corpus
    _corpus = corpus
    context = multiprocessing.get_context("fork")
    with context.Pool(options.jobs, initializer=_start_worker, initargs=(options,), maxtasksperchild=200) as pool:
        results = pool.imap_unordered(run_chunk, chunks)
        for _ in chunks:
            try:
                verdicts = results.next(timeout=HANG_SECONDS * options.chunk + 120)
            except multiprocessing.TimeoutError:
                print("fuzz: a worker stopped answering; the cases of its chunk hang", file=sys.stderr)
                pool.terminate()
                failures.append(Verdict(-1, "?", None, 0, 0, ["a worker stopped answering"]))
                break
            for v in verdicts:
                codes[v.code] += 1
                families[v.family] += 1
                slowest = v if v.seconds > slowest.seconds else slowest
                heaviest = max(heaviest, v.megabytes)
                if v.problems:
                    failures.append(v)
                    if not options.quiet:
                        print(f"FAIL case {v.index} ({v.family}): {'; '.join(v.problems)}", file=sys.stderr)
            done += len(verdicts)
            if not options.quiet and done % max(options.chunk, options.cases // 20 // options.chunk * options.chunk) < len(verdicts):
                rate = done / (time.perf_counter() - started)
                print(f"fuzz: {done}/{options.cases} cases, {len(failures)} failures, {rate:.0f} cases/s", file=sys.stderr)
    return codes, families, failures, slowest, heaviest


def summary(options, codes: Counter, failures: list[Verdict], seconds: float, slowest: Verdict, heaviest: float) -> str:
    by_code = ", ".join(f"exit {code} {codes[code]}" for code in sorted(codes, key=lambda c: (c is None, c)))
    return (
        f"fuzz: {sum(codes.values())} cases (seed {options.seed}, {options.jobs} processes, {seconds:.0f} s): {by_code}; "
        f"{len(failures)} failures; slowest case {slowest.seconds:.2f} s of processor time (case {slowest.index}, {slowest.family}), peak memory {heaviest:.0f} MB"
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 1)[1])
    p.add_argument("--cases", type=int, default=2000, help="how many cases (default 2000)")
    p.add_argument("--start", type=int, default=0, help="index of the first case")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="worker processes (default: one per core)")
    p.add_argument("--chunk", type=int, default=25, help="cases a worker takes at a time")
    p.add_argument("--subprocess-every", type=int, default=50, metavar="K", help="also run every K-th case as a real process (0: never)")
    p.add_argument("--case", type=int, help="run this one case and show its command, files and output")
    p.add_argument("--keep", metavar="DIR", help="copy the files of every failing case into DIR")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    return p.parse_args(argv)


def show_case(options: argparse.Namespace, corpus: Corpus) -> int:
    case = make_case(corpus, options.seed, options.case)
    directory = Path(options.keep or tempfile.mkdtemp(prefix="referee-case-")) / f"case-{case.index}"
    shutil.rmtree(directory, ignore_errors=True)
    outcome = run_subprocess(case, directory)
    argv, env = materialize(case, directory)
    print(f"case {case.index} ({case.family}), files in {directory}")
    print("  " + " ".join(f"{k}={v}" for k, v in env.items()) + (" " if env else "") + "referee " + " ".join(argv))
    print(f"exit code {outcome.code}, {outcome.seconds:.2f} s of processor time, {outcome.megabytes:.0f} MB")
    print(outcome.stdout[-3000:] + outcome.stderr[-3000:])
    problems = judge(case, outcome)
    print("problems: " + ("; ".join(problems) if problems else "none"))
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    corpus = Corpus.build()
    for game, why in corpus.skipped.items():
        print(f"fuzz: note: {game} is not fuzzed; its module does not load yet ({why})", file=sys.stderr)
    if not corpus.games:
        print("fuzz: no game can be fuzzed", file=sys.stderr)
        return 1
    if options.case is not None:
        return show_case(options, corpus)
    started = time.perf_counter()
    codes, families, failures, slowest, heaviest = run_many(options, corpus)
    if not options.quiet:
        print("cases by family: " + ", ".join(f"{f} {n}" for f, n in sorted(families.items())), file=sys.stderr)
        for v in failures[:20]:
            print(f"\ncase {v.index} ({v.family}), exit {v.code}: {'; '.join(v.problems)}\n{v.output}", file=sys.stderr)
    print(summary(options, codes, failures, time.perf_counter() - started, slowest, heaviest))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
