"""Golden playthroughs: fixed random games replayed step by step, compared line by line.

A difference means a game's rules, random play or data changed. When the
change is intended, `python scripts/golden.py` writes the files again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from golden import first_difference, loadable_games, playthroughs, transcript  # noqa: E402

GAMES, SKIPPED = loadable_games()
CASES = [pytest.param(p, id=p.path.stem) for game in GAMES for p in playthroughs(game)] + [
    pytest.param(None, id=game, marks=pytest.mark.skip(reason=f"{game} has no golden playthrough yet: its module does not load ({why})")) for game, why in SKIPPED.items()
]


@pytest.mark.parametrize("playthrough", CASES)
def test_playthrough_matches_its_golden_transcript(playthrough):
    if not playthrough.path.exists():
        pytest.fail(f"{playthrough.path} is missing: run python scripts/golden.py")
    golden = playthrough.path.read_text(encoding="utf-8").splitlines()
    diff = first_difference(golden, transcript(playthrough))
    if diff:
        line, want, got = diff
        pytest.fail(f"{playthrough.path}:{line}: the playthrough differs from its golden transcript\n  golden: {want}\n  now:    {got}\nif the change is intended, run python scripts/golden.py")


def test_the_first_difference_is_named_by_line():
    assert first_difference(["a", "b", "c"], ["a", "b", "c"]) is None
    assert first_difference(["a", "b", "c"], ["a", "x", "c"]) == (2, "b", "x")
    assert first_difference(["a", "b"], ["a", "b", "c"]) == (3, "<end of file>", "c")
