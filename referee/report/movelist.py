"""The legal next moves as a person reads them: one per line, or grouped when there are many.

`referee moves` and the `moves` command of `referee record` list them alike.
"""

from __future__ import annotations

from referee.i18n import _

GROUP_ABOVE = 30  # more moves than this are shown grouped


def move_lines(moves: list[str]) -> list[str]:
    """The moves one per line, or grouped when there are more than GROUP_ABOVE."""
    return grouped_moves(moves) if len(moves) > GROUP_ABOVE else list(moves)


def grouped_moves(moves: list[str], shown: int = 4) -> list[str]:
    """Moves grouped by player and action, each group with its count and its first few moves.

    Grouping keys on the first words (`blue: tax build`), so a group's moves are shown with
    the key left off: `blue: tax build (45): well b1; well c1; ...`.
    """
    groups: dict[str, list[str]] = {}
    for text in moves:
        words = text.split()
        key = " ".join(words[:3]) if words and words[0].endswith(":") else " ".join(words[:2])
        groups.setdefault(key, []).append(text)
    lines = []
    for key, items in groups.items():
        rests = [item[len(key) :].strip() for item in items]
        if rests == [""]:
            lines.append(key)
            continue
        listed = "; ".join(r or _("(no more)") for r in rests[:shown])
        lines.append(f"{key} ({len(items)}): {listed}{'; ...' if len(items) > shown else ''}")
    return lines
