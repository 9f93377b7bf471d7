"""`validate --provenance` shows each uncertain value as YAML, the way the spec file writes it."""

from __future__ import annotations

import yaml

from referee.cli.main import main


def test_values_are_readable_yaml_not_python_on_one_line(capsys):
    assert main(["validate", "--provenance"]) == 0
    listing = capsys.readouterr().out
    assert "{'" not in listing and "': " not in listing  # no Python dict anywhere
    assert "scoring.yaml:district.secondary.rounding = down\n" in listing
    lines = listing.split("\n")
    start = next(i for i, line in enumerate(lines) if line.endswith("scoring.yaml:rank_markers:"))
    block = []
    for line in lines[start + 1 :]:
        if not line.startswith(" " * 14) or line.startswith(" " * 14 + "No source"):
            break
        block.append(line[14:])
    assert block[0] == "1: [1, 2, 3]"
    assert yaml.safe_load("\n".join(block)) == {1: [1, 2, 3], 2: [2, 3, 4], 3: [3, 4, 5], 4: [4, 5, 6]}
