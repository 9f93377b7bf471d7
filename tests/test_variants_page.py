"""The "Make a variant" page works as written: its files are written and its commands run in
a copy of the project, in order, and each command's output shows what the page says it shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from referee.spec.loader import specs_root, validate_against_schema

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "variants.md"
MARKER = re.compile(r"<!-- (file|excerpt|exit): (\S+) -->")


def blocks(text: str):
    """(language, body, markers) of each fenced block, with the markers just above it."""
    markers: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        found = MARKER.fullmatch(line.strip())
        if found:
            markers[found.group(1)] = found.group(2)
        elif line.startswith("```"):
            lang = line[3:].strip()
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            yield lang, "\n".join(lines[i + 1 : end]) + "\n", markers
            markers, i = {}, end
        i += 1


def expected(line: str) -> re.Pattern:
    """A line of shown output; `...` stands for anything."""
    return re.compile(".*".join(re.escape(part) for part in line.split("...")))


def test_the_page_is_in_the_site_navigation():
    assert "Make a variant: variants.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_every_file_and_command_of_the_page_works(tmp_path):
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "referee"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m referee "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", REFEREE_DATA=str(tmp_path), PYTHONPATH=str(ROOT))
    output = None
    ran = written = shown = 0
    for lang, body, markers in blocks(PAGE.read_text(encoding="utf-8")):
        if lang == "yaml" and "file" in markers:
            (tmp_path / markers["file"]).write_text(body, encoding="utf-8")
            written += 1
        elif lang == "yaml" and "excerpt" in markers:
            source = (ROOT / markers["excerpt"]).read_text(encoding="utf-8")
            assert body in source, f"the page's excerpt of {markers['excerpt']} is not in it"
        elif lang == "yaml":  # the format, shown whole: an overlay the schema accepts
            validate_against_schema(yaml.safe_load(body), "variant", PAGE, specs_root())
        elif lang == "sh":
            output = ""
            for command in filter(None, (c.strip() for c in body.splitlines())):
                run = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
                assert run.returncode == int(markers.get("exit", 0)), f"{command}: exit {run.returncode}\n{run.stdout}{run.stderr}"
                assert "Traceback" not in run.stderr
                output += run.stdout + run.stderr
                ran += 1
        elif lang == "text" and output is not None:
            for line in body.splitlines():
                if line.strip() and line.strip() != "...":
                    assert any(expected(line).fullmatch(out) for out in output.splitlines()), f"the page shows {line!r}; the output was:\n{output}"
                    shown += 1
            output = None
    assert written >= 3 and ran >= 6 and shown >= 5
    assert (tmp_path / "specs" / "speicherstadt" / "variants" / "big-offices.yaml").is_file()
