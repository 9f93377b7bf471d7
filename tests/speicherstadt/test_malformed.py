"""Records that cannot be read exit 3 with a position, never a traceback."""

import pytest

from .records import HEADER_2P, TO_ROUND_2, check

CASES = {
    "empty file": ("", 1, 1),
    "only blanks": ("\n\n   \n", 1, 1),
    "truncated tag": ('[Game "speicherstadt"]\n[Players "beige, orange"', 2, 25),
    "no game tag": ('[Players "beige, orange"]\nreveal warehouse\n', 1, 1),
    "unknown game": ('[Game "monopoly"]\n[Players "beige, orange"]\n', 1, 8),
    "unknown card": (HEADER_2P + "reveal ferry\n", 5, 8),
    "unknown good": (HEADER_2P + "reveal ship coffee tea gold\n", 5, 24),
    "binary junk": ('[Game "speicherstadt"]\n\x00\x01\x02', 2, 1),
    "bad utf-8": (b'[Game "speicherstadt"]\n\xff\xfe junk\n', 2, 1),
    "unknown colour": ('[Game "speicherstadt"]\n[Players "beige, gold"]\n', 2, 18),  # at the typo
    "one player": ('[Game "speicherstadt"]\n[Players "beige"]\n', 2, 11),
    "missing players": ('[Game "speicherstadt"]\nreveal warehouse\n', 1, 1),
    "start not seated": ('[Game "speicherstadt"]\n[Players "beige, orange"]\n[Start "blue"]\n', 3, 9),
    "garbage line": (HEADER_2P + "reveal warehouse\n%%% ???\n", 6, 1),
    "number instead of good": (HEADER_2P + "reveal ship 3\n", 5, 13),
    "missing slot": (TO_ROUND_2.split("beige: place 1")[0] + "beige: place\n", 9, 13),
    "duplicate tag": ('[Game "speicherstadt"]\n[Game "speicherstadt"]\n', 2, 2),
    "unknown checkpoint figure": (TO_ROUND_2 + "check beige: gold 3\n", 18, 14),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_record_exits_3_with_a_position(name):
    text, line, column = CASES[name]
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    report = check_bytes_any(data)
    assert report.status == "malformed", report.diagnostics
    assert report.exit_code == 3
    error = report.errors[0]
    assert (error.pos.line, error.pos.column) == (line, column), error


def check_bytes_any(data):
    from referee.engine.replay import check_bytes

    return check_bytes(data, "bad.log")


def test_truncated_valid_record_is_legal_so_far_or_malformed():
    """Cutting a legal record anywhere never crashes: either legal-so-far or malformed."""
    text = TO_ROUND_2
    for cut in range(0, len(text), 7):
        report = check(text[:cut])
        assert report.status in ("legal", "malformed"), (cut, report.diagnostics)
        if report.status == "malformed":
            assert report.errors[0].pos is not None
