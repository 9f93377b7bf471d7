"""What `referee lab` does: a run of simulated games (or two, on the same seeds, with
`--against`), its figures, and the re-check of real records under a variant.

A comparison is played in batches; after each, the sequential test (stats.sprt) is asked
whether the question is settled, and the run stops early when it is. Nothing here prints:
the command line shows the figures (report.py) this module returns.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import UsageError
from referee.i18n import _, ngettext
from referee.lab import stats
from referee.lab.agents import make_agent
from referee.lab.random_game import random_game_start
from referee.lab.runs import GameResult, Progress, Task, run_local, tasks_for
from referee.terminal import readable_name


@dataclass
class Plan:
    """A run as the command line asks for it."""

    game: str
    players: int
    games: int
    variants: list[str] = field(default_factory=list)
    against: list[str] | None = None  # the base side's variants ([] for the plain rules)
    agents: list[str] = field(default_factory=lambda: ["random"])
    seed: int = 1
    rotate: bool = False
    jobs: int = 1
    ray: bool = False
    ray_address: str | None = None
    batch: int = 50  # games per side between two looks of the sequential test
    sensitivity: float | None = None  # vary each provisional value by this share of itself
    sensitivity_games: int = 40
    records_out: str | None = None  # a folder to write each game played into, as a record


def check_plan(plan: Plan) -> None:
    """Refuse what cannot be run before any game starts: a player count, an agent, a variant
    (SpecError, exit 4) or a number of games that makes no sense."""
    if plan.games < 1:
        raise UsageError(_("--games needs 1 or more"))
    if plan.sensitivity is not None and not 0 < plan.sensitivity < 1:
        raise UsageError(_("--sensitivity takes a share between 0 and 1, such as 0.25"))
    for name in plan.agents:
        make_agent(name)
    if len(plan.agents) > plan.players:
        raise UsageError(ngettext("{agents} agents for {seats} seat", "{agents} agents for {seats} seats", plan.players).format(agents=len(plan.agents), seats=plan.players))
    random_game_start(plan.game, plan.players, plan.variants)
    if plan.against is not None:
        random_game_start(plan.game, plan.players, plan.against)


def run(plan: Plan, progress: Progress | None = None, runner: Callable[[list[tuple[Task, str]]], list[GameResult]] | None = None) -> dict:
    """Play the run and return its figures (the data that report.py shows and writes)."""
    check_plan(plan)
    folder = _records_folder(plan.records_out) if plan.records_out is not None else None
    runner = runner or _runner(plan, progress)
    started = time.monotonic()
    sides = [("variant", plan.variants)] + ([("base", plan.against)] if plan.against is not None else [])
    results: dict[str, list[GameResult]] = {name: [] for name, _ in sides}
    stopped_early = False
    written = 0
    step = plan.batch if plan.against is not None else plan.games
    for start in range(0, plan.games, step):
        count = min(step, plan.games - start)
        items = [(task, name) for name, variants in sides for task in tasks_for(plan.game, plan.players, variants, plan.agents, count, plan.seed, plan.rotate, start, folder is not None)]
        for result in runner(items):
            results[result.side].append(result)
            if folder is not None and result.record:
                _write_record(folder, result)
                written += 1
        if plan.against is not None and start + count < plan.games:
            if stats.paired(results["variant"], results["base"])["sprt"]["verdict"] != "undecided":
                stopped_early = True
                break
    if progress:
        progress.close()
    out = {
        "game": plan.game,
        "players": plan.players,
        "seed": plan.seed,
        "agents": list(plan.agents),
        "rotate": plan.rotate,
        "games_asked": plan.games,
        "stopped_early": stopped_early,
        "runner": ("ray" if plan.ray else "local"),
        "sides": {},
    }
    for name, variants in sides:
        out["sides"][name] = {"variants": list(variants), **stats.summarise(results[name])}
    if plan.against is not None:
        out["comparison"] = stats.paired(results["variant"], results["base"])
    if plan.sensitivity is not None:
        from referee.lab.sensitivity import sensitivity

        relied = [r["address"] for r in out["sides"]["variant"]["relied_on"]]
        out["sensitivity"] = sensitivity(plan, relied, min(plan.games, plan.sensitivity_games), plan.sensitivity, runner)
    if folder is not None:
        out["records"] = {"folder": str(folder), "written": written}
    out["seconds"] = round(time.monotonic() - started, 3)
    out["games"] = [r.to_json() for side in results.values() for r in side]
    return out


def _records_folder(path: str) -> Path:
    """The folder --records-out names, made if missing, before any game is played."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(_("cannot make the folder {folder}: {reason}").format(folder=readable_name(path), reason=exc.strerror or exc)) from None
    return folder


def _write_record(folder: Path, result: GameResult) -> None:
    """One game as a record file: game-0001.log for the variant's side, base-game-0001.log
    for the base it is compared with."""
    name = f"{'base-' if result.side == 'base' else ''}game-{result.number + 1:04d}.log"
    try:
        (folder / name).write_text(result.record, encoding="utf-8")
    except OSError as exc:
        raise UsageError(_("cannot write {path}: {reason}").format(path=readable_name(str(folder / name)), reason=exc.strerror or exc)) from None


def _runner(plan: Plan, progress: Progress | None):
    if plan.ray:
        from referee.lab.ray_runner import run_ray

        return lambda items: run_ray(items, plan.ray_address, None if plan.ray_address else plan.jobs if plan.jobs > 1 else None, progress)
    return lambda items: run_local(items, plan.jobs, progress)


# --- real records under a variant ------------------------------------------------------------


def replay_records(paths: list[str], variants: list[str]) -> dict:
    """Each record checked as written and again with the variants added: the records whose
    verdict or winner changes, listed with both."""
    from referee.engine.replay import check_bytes, read_source
    from referee.terminal import readable_name

    if not variants:
        raise UsageError(_("lab replay needs --variant: the variant to check the records under"))
    rows = []
    for path in paths:
        try:
            data, name = read_source(path)
        except OSError as exc:
            raise UsageError(_("cannot read {path}: {reason}").format(path=readable_name(path), reason=exc.strerror or exc)) from None
        shown = readable_name(name)
        before = check_bytes(data, shown, [])
        after = check_bytes(data, shown, variants)
        row = {"record": shown, "before": _verdict(before), "after": _verdict(after)}
        row["legality_changes"] = row["before"]["status"] != row["after"]["status"]
        row["winner_changes"] = row["before"]["winners"] != row["after"]["winners"]
        rows.append(row)
    changed = [r for r in rows if r["legality_changes"] or r["winner_changes"]]
    return {"variants": list(variants), "records": len(rows), "changed": len(changed), "rows": rows}


def _verdict(report) -> dict:
    first = report.errors[0] if report.errors else None
    return {
        "status": report.status,
        "complete": report.complete,
        "winners": [s.colour for s in report.winners],
        "scores": {s.seat.colour: s.total for s in report.standings} if report.complete else {},
        "first_error": f"{first.rule}: {first.message}" if first is not None and first.rule else (first.message if first else None),
    }
