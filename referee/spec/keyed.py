"""Tables keyed by a count or an id: every key must name something the game has.

Many spec tables are looked up by a number or a name: points by the number of counting
offices a player owns, set-ups by player count, a King's favour table by service. A schema
can say that such a key is a number or a name, but not that the game has that many cards or
that service. An entry under any other key is never read, so an overlay that adds one (a
points step for a fifth counting office when the deck has four) would change nothing while
looking as if it did. Each game's cross-checks (`checks.py`) name its keyed tables and what
their keys count or name; this module refuses a key outside that, at the key itself, so that
a variant that wrote it is the one blamed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from referee.errors import SpecError
from referee.i18n import _, current
from referee.spec.loader import Spec, did_you_mean


def same_key(key: Any, allowed: Iterable[Any]) -> bool:
    """YAML reads `5:` as a number and `'5':` as text; either names the fifth."""
    return any(key == a or str(key) == str(a) for a in allowed)


def check_keys(spec: Spec, stem: str, key: str, allowed: Iterable[Any], message: str) -> None:
    """Every key of the mapping at `stem:key` is one of `allowed`.

    `message` says what a wrong key would mean, with `{key}` where the key goes, such as
    "a points step for {key} counting offices, but the deck has 4".
    """
    if not spec.has(f"{stem}:{key}"):
        return
    table = spec.get(f"{stem}:{key}")
    if not isinstance(table, dict):
        return
    allowed = list(allowed)
    for k in table:
        if not same_key(k, allowed):
            hint = "" if isinstance(k, int) else did_you_mean(str(k), [a for a in allowed if not isinstance(a, int)])
            raise SpecError(spec.path_of(stem), f"{key}.{k}", message.format(key=k) + hint)


def check_entries(spec: Spec, stem: str, key: str, most: int, message: str) -> None:
    """The list at `stem:key`, read by ordinal (the first, second, ... of something), has at
    most `most` entries; `message` says what the first entry too many would be for, with
    `{key}` where its ordinal (`7th`) goes."""
    if spec.has(f"{stem}:{key}") and isinstance(spec.get(f"{stem}:{key}"), list) and len(spec.get(f"{stem}:{key}")) > most:
        raise SpecError(spec.path_of(stem), f"{key}.{most}", message.format(key=ordinal(most + 1)))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st in English; `7.` in Hungarian and German,
    which write an ordinal as its number and a full stop."""
    if current() != "en":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def counts(low: int, high: int) -> range:
    """The counts from `low` to `high`, both included."""
    return range(low, high + 1)


def player_counts(spec: Spec) -> range:
    """The player counts the game is for (game.yaml, players)."""
    players = spec.meta["players"]
    return counts(players["min"], players["max"])


def span(numbers: Iterable[int]) -> str:
    """`1 to 4`, or `4` alone, for a message, in the language in use: `check_keys` words its
    message at once."""
    numbers = sorted(numbers)
    if not numbers:
        return _("none")
    return str(numbers[0]) if numbers[0] == numbers[-1] else _("{low} to {high}").format(low=numbers[0], high=numbers[-1])
