"""Which printed numbers to read off the box first (`referee lab --sensitivity`).

Each provisional spec value that the run's games relied on and that holds numbers (a number,
or a table of them such as points by size) is varied within a stated range: every number in
it down and up by `spread` (a quarter by default) of itself, and by at least 1 for a whole
number. Both settings play the same games (seeds and agents) as an
overlay written for the purpose, and the values are ranked by how far the results move
between the two: the largest change of a seat's win rate first, then of a seat's mean score.
A value whose overlay the schema or the game's checks refuse is listed with the reason.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml

from referee.errors import SpecError
from referee.games import load_game
from referee.lab import stats


def varied_values(game_name: str, variants: list[str], relied_on: list[str]) -> list[tuple[str, str, float]]:
    """(file, key, value) of the provisional plain numbers among the addresses relied on."""
    spec = load_game(game_name, variants).spec
    out = []
    for address in relied_on:
        p = spec.provenance.get(address)
        if p is None or p.status != "provisional":
            continue
        if any(part.isdigit() or part == "*" for part in p.key.split(".")):
            continue  # an entry of a list: an overlay replaces a list whole
        try:
            value = spec.get(address)
        except (KeyError, IndexError, TypeError, ValueError, SpecError):
            continue
        if not _has_numbers(value):
            continue
        out.append((p.file, p.key, value))
    return out


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _has_numbers(value) -> bool:
    if _number(value):
        return True
    if isinstance(value, dict):
        return any(_has_numbers(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_numbers(v) for v in value)
    return False


def scaled(value, spread: float, direction: int):
    """The value with every number in it moved by `spread` of itself (at least 1 for a whole
    number) in the direction given (-1 down, +1 up); names and flags stay as they are."""
    if _number(value):
        if isinstance(value, int):
            return value + direction * max(1, round(abs(value) * spread))
        return value * (1 + direction * spread)
    if isinstance(value, dict):
        return {k: scaled(v, spread, direction) for k, v in value.items()}
    if isinstance(value, list):
        return [scaled(v, spread, direction) for v in value]
    return value


def settings(value, spread: float) -> tuple:
    """The low and the high setting of a value."""
    return scaled(value, spread, -1), scaled(value, spread, +1)


def overlay(folder: Path, game: str, file: str, key: str, value, name: str) -> Path:
    """A variant file that sets one value, written into `folder`."""
    changes: dict = {}
    node = changes.setdefault(file, {})
    parts = key.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    text = yaml.safe_dump(
        {"kind": "variant", "id": name, "game": game, "title": f"{file}:{key} = {value}", "description": "A setting tried by referee lab --sensitivity.", "changes": changes}, sort_keys=False
    )
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def sensitivity(plan, relied_on: list[str], games: int, spread: float, runner) -> dict:
    """Each value's effect, ranked; `plan` is the run's (experiment.Plan) and `runner` plays
    a list of (task, side) pairs, as the run's own runner does."""
    from referee.lab.runs import tasks_for

    rows = []
    with tempfile.TemporaryDirectory(prefix="referee-lab-") as folder:
        for n, (file, key, value) in enumerate(varied_values(plan.game, plan.variants, relied_on)):
            low, high = settings(value, spread)
            row = {"address": f"{file}:{key}", "value": value, "low": low, "high": high, "games": games, "plain": _number(value)}
            try:
                sides = {}
                for label, setting in (("low", low), ("high", high)):
                    path = overlay(Path(folder), plan.game, file, key, setting, f"sensitivity-{n}-{label}")
                    variants = [*plan.variants, str(path)]
                    load_game(plan.game, variants)
                    sides[label] = variants
            except SpecError as exc:
                row["refused"] = exc.message
                rows.append(row)
                continue
            items = [(task, label) for label, variants in sides.items() for task in tasks_for(plan.game, plan.players, variants, plan.agents, games, plan.seed, plan.rotate)]
            results = runner(items)
            lows = stats.summarise([r for r in results if r.side == "low"])
            highs = stats.summarise([r for r in results if r.side == "high"])
            row["win_rate_shift"] = max((abs(a["rate"] - b["rate"]) for a, b in zip(highs["seats"], lows["seats"])), default=0.0)
            row["score_shift"] = max((abs(a["score"]["mean"] - b["score"]["mean"]) for a, b in zip(highs["seats"], lows["seats"])), default=0.0)
            row["finished"] = [lows["finished"], highs["finished"]]
            rows.append(row)
    rows.sort(key=lambda r: (-r.get("win_rate_shift", -1), -r.get("score_shift", -1)))
    return {"spread": spread, "games": games, "values": rows}
