"""Pictures and pages stay well-formed and bounded whatever a record holds: names of thousands
of characters, characters XML 1.0 forbids, and comments that look like the start of a script."""

from __future__ import annotations

import json
import re
import xml.dom.minidom
from pathlib import Path

import pytest

from referee.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"
PLAYERS = '[Players "beige Anna, orange Ben, purple Cleo"]'


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """The sample game with three names of 3,000 characters (one holds U+FFFF, one
    U+FFFE) and a move line with the comment `# <!--<script>`, which the page shows."""
    text = SAMPLE.read_text(encoding="utf-8")
    names = f'[Players "beige {"A" * 3000}, orange B\uffff{"B" * 3000}, purple C\ufffe{"C" * 3000}"]'
    text = text.replace(PLAYERS, names).replace("reveal coffee-roaster", "reveal coffee-roaster  # <!--<script>", 1)
    path = tmp_path_factory.mktemp("hostile") / "hostile.log"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_picture_is_well_formed_xml_whatever_the_names_hold(hostile, tmp_path, capsys):
    out = tmp_path / "end.svg"
    assert main(["draw", str(hostile), "-o", str(out)]) == 0
    picture = out.read_text(encoding="utf-8")
    xml.dom.minidom.parseString(picture.encode("utf-8"))  # expat refuses U+FFFE and U+FFFF
    assert "\uffff" not in picture and "\ufffe" not in picture and "\\uffff" in picture
    assert not re.search("A{241}", picture) and len(picture) < 40_000


def test_the_replay_page_is_bounded_and_its_data_block_cannot_end_early(hostile, tmp_path, capsys):
    out = tmp_path / "replay.html"
    assert main(["replay", str(hostile), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert len(page) < 1_300_000 and not re.search("A{301}", page)
    block = page.split('<script type="application/json" id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert not re.search(r"<(/|!--|script)", block, re.IGNORECASE)
    data = json.loads(block)
    assert any(entry["text"] == "reveal coffee-roaster  # <!--<script>" for entry in data["entries"])
    assert any("<svg" in part or "<g" in part for part in data["parts"])  # the pictures' markup survives the escape
