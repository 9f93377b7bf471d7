"""The words a figure is written in, in the reader's language: a plain text table, a figure
marked when it rests on a provisional value, counts with their units ("3 coins"), lists
("coffee, tea and tea") and ordinals. Every game's views and sentences use them."""

from __future__ import annotations

from referee.i18n import _, current, ngettext


def table(headers: list[str], rows: list[list[object]]) -> list[str]:
    """A plain text table: the first column to the left, numbers to the right."""
    cells = [headers] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    numeric = [all(_numberish(row[i]) for row in cells[1:]) for i in range(len(headers))]
    out = []
    for row in cells:
        parts = [c.rjust(w) if numeric[i] and i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        out.append("  ".join(parts).rstrip())
    return out


def _numberish(cell: str) -> bool:
    return cell.rstrip("?").lstrip("-").isdigit() or cell == ""


def mark(value: object, provisional: bool) -> str:
    """A figure in text, with `?` when it rests on a provisional value."""
    return f"{value}?" if provisional else str(value)


def article(word: str) -> str:
    """A word with "a" or "an" before it, as an English sentence says it: "an Aqueduct", "a
    Well"; in Hungarian and German the sentence's own words carry it, and the word stands alone."""
    if current() != "en":
        return word
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _units(count: int) -> dict[str, str]:
    """The units sentences count in, each in the reader's language (a count is said in words
    that depend on it: 1 coin, 3 coins)."""
    return {
        "coin": ngettext("{n} coin", "{n} coins", count),
        "point": ngettext("{n} point", "{n} points", count),
        "points": ngettext("{n} point", "{n} points", count),
        "shilling": ngettext("{n} shilling", "{n} shillings", count),
        "prosperity": ngettext("{n} prosperity", "{n} prosperity", count),
        "prestige": ngettext("{n} prestige", "{n} prestige", count),
        "thaler": ngettext("{n} thaler", "{n} thalers", count),
        "prestige point": ngettext("{n} prestige point", "{n} prestige points", count),
        "step": ngettext("{n} step", "{n} steps", count),
    }


def amount(count: int, unit: str, plural: str | None = None) -> str:
    """A count with its unit: "1 coin", "3 coins"."""
    known = _units(count).get(unit) if current() != "en" else None  # English as it always was
    if known and plural is None:
        return known.format(n=count)
    return f"{count} {unit if count == 1 else (plural or unit + 's')}"


def signed(count: int, unit: str) -> str:
    """A change: "+3 prosperity", "-2 points"."""
    known = _units(abs(count)).get(unit) if current() != "en" else None
    sign = "+" if count > 0 else ""
    if known:
        return sign + known.format(n=count)
    return f"{sign}{count} {unit}"


def listing(words) -> str:
    """Words as a sentence lists them: "coffee, tea and tea"."""
    words = [str(w) for w in words]
    if not words:
        return _("nothing")
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])}{_(' and ')}{words[-1]}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st (1., 2. in Hungarian and German)."""
    if current() != "en":
        return f"{n}."
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
