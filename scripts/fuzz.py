"""Fuzz the referee: every case must end with the design's exit code and a located message.

    python scripts/fuzz.py --cases 100000 --jobs 4       # the full run
    python scripts/fuzz.py --case 4711 --seed 0          # one case again, with its files and output

Each case (see `fuzzcases.py`) runs `referee.cli.main.main` in a worker process, so a
hundred thousand cases do not pay a hundred thousand start-ups; every
`--subprocess-every`-th case also runs as a real `python -m referee` process,
which measures its wall time and peak memory exactly. A case fails when:

- the run raises, hangs, prints a traceback or exits 5 (internal error);
- its exit code is not one the case allows (a replaced move, or a ruling on a move put in: 0, 1 or 3);
- a rule violation (1) names no rule id, or a malformed record (3) or invalid
  spec (4) names no file:line:column;
- it takes more than 2 s of processor time, or more than 200 MB. (Processor time,
  not wall time: on a busy machine the wall clock measures the other work too;
  a case is stopped as a hang after 20 s of processor time, or after 300 s of
  wall time, which only a case that waits instead of working reaches.)
- its output holds a raw control or invisible character, is larger than a bound
  per record, or (with --format json) is not JSON.

Cases that disturb the run itself (`process_only`: standard streams closed, full or
cut, a worker or the command killed, odd environments) run only as real processes,
and are judged against the same case run undisturbed: a closed or full standard
output must give exit 6, a closed pipe the verdict's code or 141 (never 0 for a
verdict that is not 0), a killed worker must leave every file reported or marked
and a code that is not 0, and no worker may outlive a killed command.

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

from fuzzcases import ODD_FILES, Case, Corpus, make_case  # noqa: E402

from referee.cli import main as cli  # noqa: E402
from referee.errors import EXIT_INTERNAL, EXIT_OUTPUT, EXIT_SIGPIPE, EXIT_USAGE  # noqa: E402
from referee.spec.loader import grammar_root, specs_root  # noqa: E402

MAX_SECONDS = 2.0
MAX_MEGABYTES = 200
HANG_SECONDS = 20  # of processor time: a case still working after this is stopped and counted as a hang
WAIT_SECONDS = 300  # of wall time: a case still running after this (waiting, or starved of processors) is a hang
LOCATED = re.compile(r"^\S.*?:\d+:\d+: (error|warning)", re.MULTILINE)
RULE_ID = re.compile(r"error\[[a-z0-9-]+/[a-z0-9-]+\]")
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
# what a terminal obeys, and what no encoder writes: never raw in the output
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
OUTPUT_PER_RECORD = 400_000  # characters of output a record may cause, at most (200 diagnostics and the rest)
# `moves --all` lists every legal move, one to a line, as asked: a Canterbury position can have
# seven thousand. The lines of that list, each a move of at most this many characters, come on
# top of the allowance above.
MOVE_LINE_CHARS = 200
KILL_WAIT_SECONDS = 10  # for the first result before a worker is killed; for workers to die after their parent


@dataclass
class Outcome:
    code: int | None
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0  # processor time
    megabytes: float | None = None  # peak memory: measured for a real process only
    crash: str | None = None  # a traceback that escaped the referee, or "hang"
    orphans: list[int] = field(default_factory=list)  # workers that outlived a killed command


@dataclass
class Verdict:
    index: int
    family: str
    code: int | None
    seconds: float
    megabytes: float | None
    problems: list[str] = field(default_factory=list)
    output: str = ""


class Hang(Exception):
    pass


# --- running one case ---------------------------------------------------------------


def materialize(case: Case, directory: Path) -> tuple[list[str], dict[str, str]]:
    """Write the case's files; return its command line with real paths, and its environment."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        put(directory / name, data, delete_empty=False)
    env = {}
    if case.specs is not None or case.grammar is not None:
        data_root = directory / "data"
        shutil.rmtree(data_root, ignore_errors=True)
        shutil.copytree(specs_root(), data_root / "specs")
        if case.grammar is None:
            (data_root / "grammar").symlink_to(grammar_root())
        else:
            shutil.copytree(grammar_root(), data_root / "grammar")
        for base, changes in (("specs", case.specs), ("grammar", case.grammar)):
            for rel, content in (changes or {}).items():
                put(data_root / base / rel, content, delete_empty=True)
        env["REFEREE_DATA"] = str(data_root)

    def real(match: re.Match) -> str:
        name = match.group(1)
        if name == "dir":
            return str(directory)
        if name == "specs":
            return str(directory / "data" / "specs")
        if name == "relative-data":
            return "data"  # the process runs in the case's directory
        if name == "empty-dir":
            (directory / "empty").mkdir(exist_ok=True)
            return str(directory / "empty")
        return str(directory / name)

    env.update({key: PLACEHOLDER.sub(real, value) for key, value in case.env.items()})
    return [PLACEHOLDER.sub(real, arg) for arg in case.argv], env


def put(path: Path, content: bytes | str, delete_empty: bool) -> None:
    """Write a case's file: bytes (none: deleted, in a data folder), or an odd file (ODD_FILES)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    if content == "fifo":
        os.mkfifo(path)
    elif content == "dev-zero":
        path.symlink_to("/dev/zero")
    elif content == "directory":
        path.mkdir()
    elif content in ODD_FILES:
        raise ValueError(content)
    elif content or not delete_empty:
        path.write_bytes(content)


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
    saved_stdin, saved_env = sys.stdin, {key: os.environ.get(key) for key in env}
    sys.stdin = io.TextIOWrapper(io.BytesIO(case.stdin or b""), encoding="utf-8")
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    outcome = Outcome(None)
    start = time.process_time()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGPROF, _on_alarm)
    signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
    signal.setitimer(signal.ITIMER_REAL, WAIT_SECONDS)
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
        signal.setitimer(signal.ITIMER_PROF, 0)
        outcome.seconds = time.process_time() - start
        sys.stdin = saved_stdin
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if fresh_data:
            reset_caches()
    outcome.stdout, outcome.stderr = out.getvalue(), err.getvalue()
    # no memory figure: the peak of this process is that of everything it ran before the case
    return outcome


def run_subprocess(case: Case, directory: Path) -> Outcome:
    """The case as a user runs it: a fresh `python -m referee` process, timed and measured,
    with its standard streams disturbed and its processes killed as the case asks."""
    argv, env = materialize(case, directory)
    stdin_path, out_path, err_path = directory / ".stdin", directory / ".stdout", directory / ".stderr"
    stdin_path.write_bytes(case.stdin or b"")
    closing: list[int] = []
    with contextlib.ExitStack() as stack:
        i = stack.enter_context(open(stdin_path, "rb"))
        o = stack.enter_context(open(out_path, "wb"))
        e = stack.enter_context(open(err_path, "wb"))
        if case.stream == "stdout-full" or case.stream == "stderr-full":
            full = stack.enter_context(open("/dev/full", "wb"))
            o, e = (full, e) if case.stream == "stdout-full" else (o, full)
        elif case.stream == "stdout-pipe-closed":
            read, write = os.pipe()
            os.close(read)  # the reader is gone before the command writes
            stack.callback(os.close, write)
            o = write
        if case.stream in ("stdout-closed", "stdin-closed"):
            closing.append(1 if case.stream == "stdout-closed" else 0)
        # the case's directory is the working directory: the referee under test is found by an absolute path
        code = str(Path(cli.__file__).resolve().parents[1])
        path = os.pathsep.join([code, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
        peak = directory / ".peak"
        proc = subprocess.Popen(
            [sys.executable, "-c", _MEASURED, *argv],
            stdin=i,
            stdout=o,
            stderr=e,
            env={**os.environ, "PYTHONPATH": path, **env, "REFEREE_FUZZ_PEAK": str(peak)},
            cwd=directory,
            preexec_fn=(lambda: [os.close(fd) for fd in closing]) if closing else None,
        )
        orphans: list[int] = []
        if case.kill:
            orphans = _kill_while_running(proc.pid, case.kill, out_path)
        try:
            _, status, usage = _wait4(proc.pid, WAIT_SECONDS)
        except Hang:
            proc.kill()
            os.waitpid(proc.pid, 0)
            proc.returncode = -9
            return Outcome(None, crash="hang", seconds=HANG_SECONDS)
        proc.returncode = os.waitstatus_to_exitcode(status)
    encoding = (env.get("PYTHONIOENCODING") or "utf-8").split(":")[0] or "utf-8"
    outcome = Outcome(
        proc.returncode,
        out_path.read_bytes().decode(encoding, errors="replace"),
        err_path.read_bytes().decode(encoding, errors="replace"),
        usage.ru_utime + usage.ru_stime,
        _peak_megabytes(peak),
    )
    outcome.orphans = orphans
    return outcome


# `python -m referee` that writes its own peak memory (VmHWM) when it ends. The rusage of
# wait4 cannot give it: Linux carries the peak of the process that forked the command (this
# one, with everything it ran before) through exec into the command's figure.
_MEASURED = """\
import atexit, os, runpy

def _write_peak():
    with open("/proc/self/status", encoding="ascii") as status:
        kilobytes = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    with open(os.environ.pop("REFEREE_FUZZ_PEAK"), "w", encoding="ascii") as out:
        out.write(str(kilobytes))

atexit.register(_write_peak)
runpy.run_module("referee", run_name="__main__", alter_sys=True)
"""


def _peak_megabytes(path: Path) -> float | None:
    """What the command wrote as its peak; none when it was killed before it could."""
    try:
        return int(path.read_text(encoding="ascii")) / 1024
    except (OSError, ValueError):
        return None


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _kill_while_running(pid: int, which: str, out_path: Path) -> list[int]:
    """Once the command has printed its first result (or after a while), kill its workers or
    itself; for the latter, the workers still alive a while later (and killed then)."""
    deadline = time.monotonic() + KILL_WAIT_SECONDS
    while time.monotonic() < deadline and out_path.stat().st_size == 0 and _alive(pid):
        time.sleep(0.02)
    deadline = time.monotonic() + WAIT_SECONDS / 2  # a starved machine may not have started them yet
    workers = _children(pid)
    while not workers and time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
        workers = _children(pid)
    if which == "worker":
        for child in workers:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        return []
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + KILL_WAIT_SECONDS
    while time.monotonic() < deadline and any(_alive(child) for child in workers):
        time.sleep(0.05)
    orphans = [child for child in workers if _alive(child)]
    for child in orphans:
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGKILL)
    return orphans


def _wait4(pid: int, timeout: float):
    """Wait for the process: a hang once it has worked HANG_SECONDS or waited `timeout`."""
    deadline = time.monotonic() + timeout
    ticks = os.sysconf("SC_CLK_TCK")
    polls = 0
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return done, status, usage
        if time.monotonic() > deadline:
            raise Hang()
        polls += 1
        if polls % 100 == 0:  # about every half second: the processor time it has used
            try:
                fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
                if (int(fields[11]) + int(fields[12])) / ticks > HANG_SECONDS:
                    raise Hang()
            except (OSError, IndexError, ValueError):
                pass
        time.sleep(0.005)


# --- judging ---------------------------------------------------------------------------


def judge(case: Case, outcome: Outcome) -> list[str]:
    """What is wrong with how the referee ended this case (nothing, for a pass)."""
    problems = []
    text = outcome.stdout + outcome.stderr + _json_diagnostics(outcome.stdout)
    if outcome.crash == "hang":
        return [f"no answer within {HANG_SECONDS} s of processor time or {WAIT_SECONDS} s of waiting"]
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
    if outcome.megabytes is not None and outcome.megabytes > MAX_MEGABYTES:
        problems.append(f"used {outcome.megabytes:.0f} MB")
    return problems + judge_output(case, outcome)


def judge_output(case: Case, outcome: Outcome) -> list[str]:
    """What a stranger's record or spec folder must never get into the output: raw control
    characters, output out of proportion to the records, JSON that does not read."""
    problems = []
    raw = RAW.search(outcome.stdout + outcome.stderr)
    if raw:
        problems.append(f"a raw control or invisible character in the output: U+{ord(raw.group()):04X}")
    records = sum(1 for arg in case.argv if arg == "-" or PLACEHOLDER.fullmatch(arg))
    size = len(outcome.stdout) + len(outcome.stderr)
    allowed = OUTPUT_PER_RECORD * max(1, records)
    if case.argv[:1] == ["moves"] and "--all" in case.argv:
        allowed += sum(len(line) + 1 for line in outcome.stdout.splitlines() if line.startswith("  ") and len(line) <= MOVE_LINE_CHARS)
    if size > allowed:
        problems.append(f"{size} characters of output for {records} record(s)")
    if "json" in case.argv and case.argv[case.argv.index("json") - 1] == "--format" and outcome.stdout.strip():
        try:
            json.loads(outcome.stdout)
        except ValueError as exc:
            problems.append(f"--format json printed what is not JSON: {exc}")
    return problems


def judge_process(case: Case, outcome: Outcome, undisturbed: Outcome | None) -> list[str]:
    """A run whose streams, processes or environment were disturbed (see the module's text)."""
    if outcome.crash:
        return judge(case, outcome)
    problems = []
    text = outcome.stdout + outcome.stderr
    if "Traceback (most recent call last)" in text:
        problems.append("a traceback in the output")
    if case.kill == "parent":
        return problems + [f"{len(outcome.orphans)} worker(s) outlived the killed command"] * bool(outcome.orphans)
    if case.kill == "worker":
        return problems + _judge_killed_worker(case, outcome)
    if case.stream is None:  # an odd environment: the usual rules
        return judge(case, outcome)
    code, verdict = outcome.code, undisturbed.code if undisturbed else None
    printed = bool(undisturbed and undisturbed.stdout)
    if case.stream == "stdin-closed":
        allowed = {EXIT_USAGE}
        if "standard input is closed" not in text:
            problems.append("a closed standard input without a message saying so")
    elif case.stream in ("stdout-closed", "stdout-full"):
        allowed = {EXIT_OUTPUT} if printed else {verdict}
    elif case.stream == "stdout-pipe-closed":
        allowed = {verdict, EXIT_SIGPIPE} | set(range(1, verdict or 0)) if printed else {verdict}
    else:  # a full standard error: the code is all that arrives, and it is the same
        allowed = {verdict}
    if code not in allowed:
        problems.append(f"exit code {code} with {case.stream}; undisturbed it is {verdict}, so one of {sorted(allowed)}")
    problems += judge_output(case, outcome)
    if outcome.seconds > MAX_SECONDS:
        problems.append(f"took {outcome.seconds:.2f} s of processor time")
    return problems


def _judge_killed_worker(case: Case, outcome: Outcome) -> list[str]:
    """Every file reported or marked as not checked, in command-line order; a code that is not 0."""
    problems = []
    files = [arg for arg in case.argv if PLACEHOLDER.fullmatch(arg)]
    waiting = next(name for name in files if case.files[name[1:-1]] == "fifo")
    if outcome.code != EXIT_INTERNAL:
        problems.append(f"exit code {outcome.code} after a worker was killed; expected {EXIT_INTERNAL}")
    if "json" in case.argv:
        try:
            entries = json.loads(outcome.stdout)
        except ValueError:
            return problems + ["--format json printed what is not JSON after a worker was killed"]
        names = [Path(entry["file"]).name for entry in entries]
        marked = [Path(entry["file"]).name for entry in entries if entry["status"] == "not-checked"]
    else:
        names = [Path(m.group(1)).name for m in re.finditer(r"^(\S+?): (?:legal|ILLEGAL|MALFORMED|INVALID|NOT CHECKED)", outcome.stdout, re.MULTILINE)]
        marked = [Path(m.group(1)).name for m in re.finditer(r"^(\S+?): NOT CHECKED", outcome.stdout, re.MULTILINE)]
    if names != [name[1:-1] for name in files]:
        problems.append(f"after a worker was killed the files reported were {names}, not every file in order")
    if waiting[1:-1] not in marked:
        problems.append("the file whose worker was killed is not marked as not checked")
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
        if case.process_only:
            outcome, problems = run_disturbed(case, directory)
        else:
            outcome = run_in_process(case, directory)
            problems = judge(case, outcome)
        if options.subprocess_every and index % options.subprocess_every == 0 and not case.process_only:
            shutil.rmtree(directory, ignore_errors=True)
            real = run_subprocess(case, directory)
            problems += [f"as a process: {p}" for p in judge(case, real)]
            outcome.megabytes = real.megabytes
        if problems and options.keep:
            keep = Path(options.keep) / f"case-{index}"
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(directory, keep, symlinks=True)
            (keep / "argv.txt").write_text(" ".join(case.argv) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    output = (outcome.stdout + outcome.stderr)[-2000:] if problems else ""
    return Verdict(index, case.family, outcome.code, outcome.seconds, outcome.megabytes, problems, output)


def run_disturbed(case: Case, directory: Path) -> tuple[Outcome, list[str]]:
    """A case that disturbs the run, as a real process, judged against its undisturbed run."""
    undisturbed, problems = None, []
    if case.stream and case.stream != "stdin-closed":
        undisturbed = run_in_process(case, directory)
        problems = [f"undisturbed: {p}" for p in judge(case, undisturbed)]
        shutil.rmtree(directory, ignore_errors=True)
    outcome = run_subprocess(case, directory)
    return outcome, problems + judge_process(case, outcome, undisturbed)


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
                verdicts = results.next(timeout=WAIT_SECONDS * options.chunk)
            except multiprocessing.TimeoutError:
                print("fuzz: a worker stopped answering; the cases of its chunk hang", file=sys.stderr)
                pool.terminate()
                failures.append(Verdict(-1, "?", None, 0, 0, ["a worker stopped answering"]))
                break
            for v in verdicts:
                codes[v.code] += 1
                families[v.family] += 1
                slowest = v if v.seconds > slowest.seconds else slowest
                heaviest = max(heaviest, v.megabytes or 0)
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


def _megabytes(outcome: Outcome) -> str:
    return "memory not measured" if outcome.megabytes is None else f"{outcome.megabytes:.0f} MB"


def show_case(options: argparse.Namespace, corpus: Corpus) -> int:
    case = make_case(corpus, options.seed, options.case)
    directory = Path(options.keep or tempfile.mkdtemp(prefix="referee-case-")) / f"case-{case.index}"
    shutil.rmtree(directory, ignore_errors=True)
    if case.process_only:
        outcome, problems = run_disturbed(case, directory)
    else:
        outcome = run_subprocess(case, directory)
        problems = judge(case, outcome)
    argv, env = materialize(case, directory)
    print(f"case {case.index} ({case.family}), files in {directory}")
    extra = ", ".join(f"{k} {getattr(case, k)}" for k in ("stream", "kill") if getattr(case, k))
    print(f"  disturbed: {extra}" if extra else "", end="\n" if extra else "")
    print("  " + " ".join(f"{k}={v}" for k, v in env.items()) + (" " if env else "") + "referee " + " ".join(argv))
    print(f"exit code {outcome.code}, {outcome.seconds:.2f} s of processor time, {_megabytes(outcome)}")
    print(outcome.stdout[-3000:] + outcome.stderr[-3000:])
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
