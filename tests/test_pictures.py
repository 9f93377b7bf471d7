"""`referee draw`: an SVG picture of a position, drawn from the spec and the state.

Every picture is parsed as XML; the root must scale (a viewBox, width 100%). A variant that
changes the data changes the picture, colours come from specs/common/colours.yaml, and a
value that rests on a provisional stand-in carries the provisional mark.
"""

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.drawing.svg import Series, line_chart, nice_step, paint
from referee.engine.replay import check_bytes

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {game: sorted((ROOT / "specs" / game / "examples").glob("*.log")) for game in ("speicherstadt", "canterbury", "hamburgum")}
NS = "{http://www.w3.org/2000/svg}"


def draw(capsys, *args) -> tuple[int, ET.Element, str]:
    code = main(["draw", *map(str, args)])
    out = capsys.readouterr().out
    return code, ET.fromstring(out), out


def texts(root: ET.Element) -> list[str]:
    return [node.text or "" for node in root.iter(f"{NS}text")]


@pytest.mark.parametrize("record", [p for paths in EXAMPLES.values() for p in paths], ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_example_draws_as_valid_scalable_svg(record, capsys):
    report = check_bytes(record.read_bytes(), str(record))
    for at in sorted({0, report.moves // 2, report.moves}):
        code, root, _ = draw(capsys, record, "--at", at)
        assert code == 0
        assert root.tag == f"{NS}svg"
        assert root.get("width") == "100%"
        x, y, width, height = map(float, root.get("viewBox").split())
        assert (x, y) == (0, 0) and width > 0 and height > 0
        assert (f"after move {at} (line " if at else "before the first move") in root.find(f"{NS}title").text


def test_canterbury_draws_every_district_with_its_name_and_cubes(capsys):
    record = EXAMPLES["canterbury"][0].parent / "opening-a-district.log"
    code, root, _ = draw(capsys, record)
    assert code == 0
    words = texts(root)
    for district in [f"{c}{r}" for c in "abcde" for r in range(1, 6)]:
        assert district in words
    assert "Old Roman well" in words
    city = [n for n in root.iter(f"{NS}rect") if (n.findtext(f"{NS}title") or "").startswith("water: city")]
    assert len(city) == 1 and city[0].get("fill") == paint("purple").fill  # the city cube, purple as board.yaml says


def test_a_variant_that_renames_a_district_shows_the_new_name(tmp_path, capsys):
    overlay = tmp_path / "abbey.yaml"
    overlay.write_text("kind: variant\nid: abbey\ngame: canterbury\ntitle: The abbey quarter\nchanges:\n  board:\n    districts:\n      a1: {names: {en: Abbey Gate}}\n", encoding="utf-8")
    record = EXAMPLES["canterbury"][0].parent / "opening-a-district.log"
    assert "Abbey Gate" not in texts(draw(capsys, record)[1])
    code, root, _ = draw(capsys, record, "--variant", overlay)
    assert code == 0
    assert "Abbey Gate" in texts(root) and "a1" not in texts(root)


def test_a_variant_that_changes_a_churchs_name_shows_it(tmp_path, capsys):
    overlay = tmp_path / "church.yaml"
    overlay.write_text("kind: variant\nid: church\ngame: hamburgum\ntitle: Another church\nchanges:\n  churches:\n    churches:\n      petri: {names: {en: St. Ansgar}}\n", encoding="utf-8")
    record = EXAMPLES["hamburgum"][0]
    code, root, _ = draw(capsys, record, "--at", 5, "--variant", overlay)
    assert code == 0
    assert "St. Ansgar" in texts(root) and "St. Petri" not in texts(root)


def test_the_rondel_shows_its_spaces_in_the_spec_order_with_the_markers(capsys):
    record = EXAMPLES["hamburgum"][0]
    code, root, _ = draw(capsys, record, "--at", 3)
    spaces = [n.findtext(f"{NS}title") for n in root.iter(f"{NS}circle") if (n.findtext(f"{NS}title") or "").startswith("space ")]
    assert spaces[0] == "space 1 clockwise: Sugar" and spaces[2] == "space 3 clockwise: upper Trade" and len(spaces) == 8
    placed = [n.findtext(f"{NS}title") for n in root.iter(f"{NS}circle") if n.get("r") == "5.5"]
    assert len(placed) == 3  # three players have moved their markers onto the rondel


def test_the_speicherstadt_queue_stands_on_its_card_with_prices(capsys):
    record = ROOT / "specs" / "speicherstadt" / "examples" / "purchase-queue.log"
    code, root, _ = draw(capsys, record, "--at", 14)
    slot = next(g for g in root.iter(f"{NS}g") if g.get("class") == "slot 1")
    workers = [(n.get("fill"), n.findtext(f"{NS}title")) for n in slot.iter(f"{NS}circle") if n.findtext(f"{NS}title")]
    assert [t for _, t in workers] == ["beige: 4 coins", "orange: 3 coins", "beige: 2 coins", "purple: 1 coin"]
    assert workers[0][0] == paint("beige").fill and workers[1][0] == paint("orange").fill
    ringed = [n for n in slot.iter(f"{NS}circle") if n.get("r") == "9"]
    assert len(ringed) == 1  # the worker being asked


def test_a_bought_card_is_drawn_as_gone_from_the_display(capsys):
    record = ROOT / "specs" / "speicherstadt" / "examples" / "purchase-queue.log"
    _, root, _ = draw(capsys, record)
    slot = next(g for g in root.iter(f"{NS}g") if g.get("class") == "slot 1")
    assert "bought, 1" in texts(slot)
    assert not [n for n in slot.iter(f"{NS}circle") if (n.findtext(f"{NS}title") or "").endswith("coin")]


def test_provisional_values_are_marked_and_explained(capsys):
    record = EXAMPLES["canterbury"][0].parent / "random-2p-seed7.log"
    _, root, _ = draw(capsys, record, "--at", 10)
    marks = [n for n in root.iter(f"{NS}text") if n.get("class") == "provisional"]
    assert marks and "provisional" in marks[0].findtext(f"{NS}title")
    assert any("rests on a provisional value" in t for t in texts(root))
    _, start, _ = draw(capsys, ROOT / "specs" / "speicherstadt" / "examples" / "purchase-queue.log", "--at", 0)
    assert not [n for n in start.iter(f"{NS}text") if n.get("class") == "provisional"]


def test_control_characters_from_a_record_still_make_valid_xml(tmp_path, capsys):
    record = tmp_path / "odd.log"
    record.write_text('[Game "speicherstadt"]\n[Players "beige A\x01<b>&, orange"]\n\nreveal warehouse\n', encoding="utf-8")
    code, root, out = draw(capsys, record)
    assert code == 0
    assert "\x01" not in out and any("A\\x01<b>&" in t for t in texts(root))


def test_draw_writes_a_file_and_an_illegal_record_exits_1(tmp_path, capsys):
    record = tmp_path / "bad.log"
    record.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\nreveal warehouse\nreveal bank\n', encoding="utf-8")
    out = tmp_path / "bad.svg"
    assert main(["draw", str(record), "-o", str(out)]) == 1
    assert "error[speicherstadt/deck-season]" in capsys.readouterr().err
    root = ET.parse(out).getroot()
    assert root.find(f"{NS}title").text.endswith("before line 4, the line with the first error; after move 1 (line 3)")


def test_broken_colour_data_is_a_spec_error(tmp_path, capsys, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "specs", data / "specs")
    shutil.copytree(ROOT / "grammar", data / "grammar")
    colours = data / "specs" / "common" / "colours.yaml"
    colours.write_text(colours.read_text(encoding="utf-8").replace('beige: {fill: "#e6d3a3"', 'beige: {fill: "beige"'), encoding="utf-8")
    monkeypatch.setenv("REFEREE_DATA", str(data))
    record = ROOT / "specs" / "speicherstadt" / "examples" / "purchase-queue.log"
    assert main(["draw", str(record)]) == 4
    assert "colours.yaml" in capsys.readouterr().err
    assert main(["validate"]) == 4
    assert "colours.yaml:11:11: error: colours.beige.fill: 'beige' does not match" in capsys.readouterr().err


def test_the_chart_draws_a_step_line_per_player():
    drawing = line_chart("points by round", ["start", "1", "2", "end"], [Series("blue", "blue", [0, 3, 3, 9]), Series("red", "red", [0, 1, None, 4])], "round")
    root = ET.fromstring(drawing.tostring())
    lines = list(root.iter(f"{NS}polyline"))
    assert [n.get("stroke") for n in lines] == [paint("blue").fill, paint("red").fill]
    assert len(lines[0].get("points").split()) == 7  # four points, three steps
    assert len(drawing.xs) == 4 and drawing.xs == sorted(drawing.xs)
    assert [nice_step(s) for s in (4, 30, 99, 480)] == [1, 10, 20, 100]


def test_an_edited_colours_file_is_read_again_when_the_loaded_data_is_forgotten(tmp_path, monkeypatch):
    """A long-lived process that rebuilds from edited files (`mkdocs serve`) forgets what it
    read before each rebuild; the paints of colours.yaml are among what it forgets."""
    from referee.games import forget_loaded_data

    data = tmp_path / "data"
    shutil.copytree(ROOT / "specs", data / "specs")
    shutil.copytree(ROOT / "grammar", data / "grammar")
    monkeypatch.setenv("REFEREE_DATA", str(data))
    forget_loaded_data()
    before = paint("beige").fill
    colours = data / "specs" / "common" / "colours.yaml"
    colours.write_text(colours.read_text(encoding="utf-8").replace(f'beige: {{fill: "{before}"', 'beige: {fill: "#123456"'), encoding="utf-8")
    assert paint("beige").fill == before  # read once per process...
    forget_loaded_data()
    assert paint("beige").fill == "#123456"  # ...until the loaded data is forgotten
    monkeypatch.delenv("REFEREE_DATA")
    forget_loaded_data()
