"""Figures from simulated games that hold: every rate with its 95% interval, every figure
with its sample size.

- win rates: Wilson score intervals (right near 0 and 1, where a seat that never wins in
  twenty games is not "0% +- 0");
- means with their spread (standard deviation) and a normal interval for the mean;
- a paired comparison of two sides played on the same seeds (`--against`): each game gives
  one difference, whose mean has a normal interval, so the chance that both sides share
  cancels out;
- a sequential probability ratio test (Wald's SPRT) on the first seat's wins in the pairs
  where only one side's first seat won: it stops a comparison as soon as the question "does
  the variant change the start player's chance by at least `delta`?" is settled either way.

A game counts as won by every seat that shares first place after the rules' tie-breaks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean, pstdev

from referee.lab.runs import GameResult

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0 to 1 with no games)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def describe(values: list[float]) -> dict:
    """Sample size, mean, spread, least and most, and a 95% interval for the mean."""
    n = len(values)
    if not n:
        return {"n": 0}
    mean = fmean(values)
    sd = _sample_sd(values, mean)
    half = Z95 * sd / math.sqrt(n) if n > 1 else None
    return {"n": n, "mean": mean, "sd": sd, "min": min(values), "max": max(values), "ci": [mean - half, mean + half] if half is not None else None}


def _sample_sd(values: list[float], mean: float) -> float:
    n = len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0


def rate(wins: int, n: int) -> dict:
    low, high = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": wins / n if n else None, "ci": [low, high]}


def correlation(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's r (with a 0/1 variable, the point-biserial correlation); None when either
    side does not vary."""
    if len(xs) < 2:
        return None
    mx, my = fmean(xs), fmean(ys)
    sx, sy = pstdev(xs, mx), pstdev(ys, my)
    if sx == 0 or sy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (len(xs) * sx * sy)


def summarise(results: list[GameResult]) -> dict:
    """The figures of one side of a run."""
    played = [r for r in results if not r.error]
    finished = [r for r in played if r.finished]
    out: dict = {"games": len(results), "finished": len(finished), "errors": sorted({r.error for r in results if r.error})[:10], "unfinished": len(played) - len(finished)}
    if not finished:
        out.update(seats=[], agents={}, length={}, margin={"n": 0}, lead_changes={"n": 0}, usage=[], relied_on=[])
        return out
    seats = len(finished[0].colours)
    out["seats"] = []
    for i in range(seats):
        wins = sum(1 for r in finished if i in r.winners)
        out["seats"].append({"seat": i + 1, "colour": finished[0].colours[i], **rate(wins, len(finished)), "score": describe([r.scores[i] for r in finished])})
    agents: dict[str, list[int]] = {}
    for r in finished:
        for i, name in enumerate(r.agents):
            agents.setdefault(name, []).append(1 if i in r.winners else 0)
    out["agents"] = {name: rate(sum(w), len(w)) for name, w in sorted(agents.items())}
    out["length"] = {"moves": describe([r.moves for r in finished]), "rounds": describe([r.rounds for r in finished])}
    out["margin"] = describe([_margin(r) for r in finished])
    out["lead_changes"] = describe([r.lead_changes for r in finished])
    out["usage"] = _usage(finished)
    counts: dict[str, int] = {}
    for r in played:
        for address in r.relied_on:
            counts[address] = counts.get(address, 0) + 1
    out["relied_on"] = [{"address": a, "games": n, "of": len(played)} for a, n in sorted(counts.items())]
    return out


def _margin(r: GameResult) -> int:
    """The winner's lead over the best of the rest (0 when first place is shared)."""
    ordered = sorted(r.scores, reverse=True)
    return ordered[0] - ordered[1] if len(ordered) > 1 else 0


def _usage(finished: list[GameResult]) -> list[dict]:
    """How often each choice was made per seat and game, and how that goes with winning."""
    words = sorted({w for r in finished for u in r.usage for w in u})
    rows = []
    for word in words:
        counts, won = [], []
        for r in finished:
            for i, u in enumerate(r.usage):
                counts.append(u.get(word, 0))
                won.append(1 if i in r.winners else 0)
        winners = [c for c, w in zip(counts, won) if w]
        others = [c for c, w in zip(counts, won) if not w]
        rows.append(
            {
                "choice": word,
                "n": len(counts),
                "per_game": fmean(counts),
                "by_winners": fmean(winners) if winners else None,
                "by_others": fmean(others) if others else None,
                "correlation": correlation(counts, won),
            }
        )
    rows.sort(key=lambda row: -row["per_game"])
    return rows


# --- two sides on the same seeds --------------------------------------------------------------


def paired(variant: list[GameResult], base: list[GameResult]) -> dict:
    """Each difference (variant less base) with its interval, over the game numbers that both
    sides finished."""
    by_number = {r.number: r for r in base if r.finished and not r.error}
    pairs = [(r, by_number[r.number]) for r in variant if r.finished and not r.error and r.number in by_number]
    out: dict = {"pairs": len(pairs)}
    if not pairs:
        out["seats"] = []
        return out
    seats = min(len(pairs[0][0].colours), len(pairs[0][1].colours))
    out["seats"] = []
    for i in range(seats):
        out["seats"].append(
            {
                "seat": i + 1,
                "win_rate": describe([(i in a.winners) - (i in b.winners) for a, b in pairs]),
                "score": describe([a.scores[i] - b.scores[i] for a, b in pairs]),
            }
        )
    out["moves"] = describe([a.moves - b.moves for a, b in pairs])
    out["rounds"] = describe([a.rounds - b.rounds for a, b in pairs])
    out["margin"] = describe([_margin(a) - _margin(b) for a, b in pairs])
    out["sprt"] = sprt_first_seat(pairs).to_json()
    return out


@dataclass
class SPRT:
    """Wald's sequential test, two-sided as two one-sided tests of p = 1/2 against
    p = 1/2 +- delta, on the pairs where exactly one side's first seat won (p: the chance it
    is the variant's). `verdict`: "higher", "lower", "no change of delta or more", or
    "undecided" while the evidence is short of both bounds."""

    delta: float
    alpha: float
    beta: float
    discordant: int
    variant_won: int
    llr_up: float
    llr_down: float
    verdict: str

    def to_json(self) -> dict:
        return {
            "question": f"does the variant change the first seat's chance of winning by {self.delta:.0%} or more?",
            "delta": self.delta,
            "alpha": self.alpha,
            "beta": self.beta,
            "n": self.discordant,
            "variant_won": self.variant_won,
            "llr_up": self.llr_up,
            "llr_down": self.llr_down,
            "bounds": list(sprt_bounds(self.alpha, self.beta)),
            "verdict": self.verdict,
        }

    @property
    def settled(self) -> bool:
        return self.verdict != "undecided"


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: accept H0 below the first, H1 above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_first_seat(pairs, delta: float = 0.15, alpha: float = 0.05, beta: float = 0.05) -> SPRT:
    wins = losses = 0
    for a, b in pairs:
        va, vb = 0 in a.winners, 0 in b.winners
        if va and not vb:
            wins += 1
        elif vb and not va:
            losses += 1
    return sprt(wins, losses, delta, alpha, beta)


def sprt(wins: int, losses: int, delta: float = 0.15, alpha: float = 0.05, beta: float = 0.05) -> SPRT:
    """The test after `wins` discordant pairs the variant's side won and `losses` it lost."""
    p0, up, down = 0.5, 0.5 + delta, 0.5 - delta
    llr_up = wins * math.log(up / p0) + losses * math.log((1 - up) / (1 - p0))
    llr_down = wins * math.log(down / p0) + losses * math.log((1 - down) / (1 - p0))
    low, high = sprt_bounds(alpha, beta)
    if llr_up >= high:
        verdict = "higher"
    elif llr_down >= high:
        verdict = "lower"
    elif llr_up <= low and llr_down <= low:
        verdict = "no change of delta or more"
    else:
        verdict = "undecided"
    return SPRT(delta, alpha, beta, wins + losses, wins, llr_up, llr_down, verdict)
