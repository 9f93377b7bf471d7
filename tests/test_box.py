"""`referee box`: the template of questions, the group's box file laid over the spec by every
command, and the printed numbers learnt from records' checkpoints."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml

from referee.box.command import choices, relation
from referee.box.infer import equations, infer
from referee.box.questions import ASKED, questions
from referee.box.template import write_box
from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.lab.random_game import play_game
from referee.spec.loader import iter_uncertain
from tests.runner import run as referee

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "specs" / "canterbury" / "examples" / "random-4p-seed7.log"
WELL_COST = "structures:structures.well.printed.cost"
WELL_POINTS = "structures:structures.well.printed.player"


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A configuration folder of the test's own: no box file until the test keeps one."""
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


def run(*argv, stdin: str | None = None) -> tuple[int, str, str]:
    result = referee(*argv, stdin=stdin)
    return result.returncode, result.stdout, result.stderr


def standings(report) -> list:
    return [(s.seat.colour, s.total, dict(s.breakdown)) for s in report.standings]


# --- the template ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["canterbury", "hamburgum", "speicherstadt"])
def test_the_template_asks_for_every_provisional_and_unknown_value(game, config):
    code, out, _ = run("box", game)
    assert code == 0
    data = yaml.safe_load(out)
    assert data["kind"] == "box" and data["game"] == game
    assert all(v is None for v in data["answers"].values())  # nothing answered yet
    spec = load_game(game).spec
    for p in iter_uncertain(spec, ASKED):
        assert any(a == p.address or a.startswith(p.address + ".") for a in data["answers"]), p.address
    for address in data["answers"]:
        assert re.search(rf"^  # .+\n  {re.escape(address)}:$", out, re.M), address  # each after its question


def test_a_question_is_in_the_words_of_the_tile_with_its_stand_in(config):
    _, out, _ = run("box", "canterbury")
    assert "# cost printed on the Well tile, in shillings (top left) (stand-in: 2)\n  structures:structures.well.printed.cost:\n" in out
    assert "  # == Well tile ==" in out
    _, german, _ = run("box", "canterbury", "--lang", "de")
    assert "# auf dem Plättchen Brunnen gedruckte Kosten in Schilling (oben links) (Ersatzwert: 2)\n" in german


def test_the_hamburg_map_is_asked_by_sites_and_lines(config):
    _, out, _ = run("box", "hamburgum")
    assert "  board:sites:" in out and "  board:links:" in out
    assert "{parish: petri, number: 1, type: brewery}" in out


# --- the box file in use --------------------------------------------------------------------


def filled(tmp_path: Path, game: str, change: dict | None = None) -> Path:
    """The template with every stand-in written in as the answer, and `change` on top."""
    spec = load_game(game, box=False).spec
    answers = {q.address: ("dash" if q.standin is None else q.standin) for q in questions(spec) if not q.unknown}
    answers.update(change or {})
    path = tmp_path / f"{game}-box.yaml"
    write_box(path, game, answers)
    return path


def test_a_template_filled_with_the_stand_ins_changes_no_figure_and_leaves_only_what_is_likely(config, tmp_path):
    before = check_bytes(RECORD.read_bytes(), "game.log")
    code, out, _ = run("box", "canterbury", "--use", str(filled(tmp_path, "canterbury")))
    assert code == 0 and "box file in use" in out
    after = check_bytes(RECORD.read_bytes(), "game.log")
    assert after.exit_code == before.exit_code == 0
    assert standings(after) == standings(before)
    assert after.checkpoints_confirmed == before.checkpoints_confirmed
    assert {p.status for p in before.relied_on} >= {"provisional"}
    assert {p.status for p in after.relied_on} <= {"likely", "guess"}  # the answered values are the group's


def test_one_changed_value_changes_exactly_the_figures_that_use_it(config, tmp_path):
    text = RECORD.read_text(encoding="utf-8")
    base = equations(load_game("canterbury"), text, "game.log")
    run("box", "canterbury", "--use", str(filled(tmp_path, "canterbury", {WELL_POINTS: 3})))  # stand-in 1
    changed = equations(load_game("canterbury"), text, "game.log")
    assert [(e.line, e.owner, e.figure) for e in base] == [(e.line, e.owner, e.figure) for e in changed]
    moved = 0
    for b, c in zip(base, changed):
        wells = dict(b.coefficients).get(WELL_POINTS, 0)
        assert c.ours - b.ours == 2 * wells, (b.line, b.owner, b.figure)
        moved += bool(wells)
    assert moved > 10
    report = check_bytes(RECORD.read_bytes(), "game.log")
    assert report.exit_code == 1
    lines = {d.pos.line for d in report.diagnostics if d.rule == "canterbury/checkpoint"}
    assert lines == {b.line for b in base if dict(b.coefficients).get(WELL_POINTS)}


def test_every_command_uses_the_box_file_and_reports_only_what_is_still_uncertain(config, tmp_path):
    box = filled(tmp_path, "canterbury", {WELL_COST: 1})
    # a box file that every command uses: a record played with it is legal with it, and not without
    run("box", "canterbury", "--use", str(box))
    game = tmp_path / "game.log"
    code, _, _ = run("play", "canterbury", "--players", "3", "--seed", "4", "--out", str(game))
    assert code == 0
    code, out, _ = run("check", str(game), "--format", "json")
    assert code == 0
    relied = {p["address"] for p in json.loads(out)["relies_on"]}
    assert relied and not any(a.startswith("structures:") for a in relied)
    code, out, _ = run("explain", str(game), "blue", "money")
    assert code == 0
    code, _, _ = run("show", str(game))
    assert code == 0
    recorded = tmp_path / "recorded.log"
    moves = [line for line in game.read_text(encoding="utf-8").splitlines() if line and not line.startswith(("[", "#", "check", "result"))][:6]
    code, _, _ = run("record", str(recorded), "--game", "canterbury", "--players", "blue, red, green", stdin="\n".join(moves) + "\n")
    assert code == 0 and len([line for line in recorded.read_text(encoding="utf-8").splitlines() if line in moves]) == 6
    code, out, _ = run("validate", "--provenance")
    assert "structures.yaml:structures.well.printed.cost" not in out
    code, out, _ = run("box", "canterbury")  # the template again, with the group's answers in it
    assert f"\n  {WELL_COST}: 1\n" in out
    code, out, _ = run("box", "canterbury", "--show")
    assert str(config / "referee" / "box" / "canterbury.yaml") in out
    assert re.search(r"changed structures:structures\.well\.printed\.cost: 2 -> 1", out)
    # without it, the stand-in cost of 2 contradicts the record
    code, out, _ = run("box", "canterbury", "--forget")
    assert code == 0 and "removed" in out
    code, _, _ = run("check", str(game))
    assert code == 1


def test_a_record_names_variants_on_top_of_the_box_file(config, tmp_path):
    run("box", "canterbury", "--use", str(filled(tmp_path, "canterbury", {WELL_COST: 1})))
    game = load_game("canterbury", ["two-player"])
    assert game.spec.get(WELL_COST) == 1 and game.spec.variants[0].id == "two-player"


def test_a_box_file_with_a_wrong_answer_is_refused_at_its_line(config, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: box\ngame: canterbury\nanswers:\n  structures:structures.well.size: large\n", encoding="utf-8")
    code, _, err = run("box", "canterbury", "--use", str(bad))
    assert code == 4 and f"{bad}:4:" in err and "certain" in err
    bad.write_text("kind: box\ngame: canterbury\nanswers:\n  structures:structures.well.printed.cost: many\n", encoding="utf-8")
    code, _, err = run("box", "canterbury", "--use", str(bad))
    assert code == 4 and f"{bad}:4:" in err
    assert not (config / "referee" / "box" / "canterbury.yaml").exists()  # nothing kept


def test_the_interactive_questions_check_each_answer(config):
    spec = load_game("canterbury", box=False).spec
    asked = questions(spec)
    first = asked[0]
    assert first.address.endswith(".names")
    answers = ["{en: Theatre}", "many", "-3", "30"]  # the name; the city points: refused, refused by the schema, taken
    code, out, _ = run("box", "canterbury", "--interactive", stdin="\n".join(answers) + "\nquit\n")
    assert code == 0
    assert "refused: a whole number is asked for" in out
    assert out.count("refused:") == 2
    kept = load_game("canterbury").spec
    assert kept.get(asked[1].address) == 30 and kept.get(first.address) == {"en": "Theatre"}


# --- learning the numbers from records --------------------------------------------------------


@pytest.fixture(scope="module")
def secret_games(tmp_path_factory):
    """Random games played with a secret set of printed numbers, their checkpoints written from
    them; and the secret."""
    folder = tmp_path_factory.mktemp("secret")
    rng = random.Random(36)
    spec = load_game("canterbury", box=False).spec
    secret = {}
    for q in questions(spec):
        if re.fullmatch(r"structures:structures\.[a-z-]+\.printed\.(cost|city|player(\.[a-z]+)?)", q.address) and isinstance(q.standin, int):
            secret[q.address] = max(1, q.standin + rng.choice([-2, -1, 1, 2]))
    return played_with(folder, "canterbury", secret, ((3, 11), (4, 12), (2, 13))), secret


def played_with(folder: Path, game: str, secret: dict, games) -> list[Path]:
    """Random games of `game` played with the box file `secret` in use, their checkpoints
    written from it: (players, seed) for each."""
    config = folder / "config"
    (config / "referee" / "box").mkdir(parents=True, exist_ok=True)
    write_box(config / "referee" / "box" / f"{game}.yaml", game, secret)
    records = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(config))
        for players, seed in games:
            path = folder / f"{game}-{players}p-{seed}.log"
            path.write_text(play_game(game, players, seed), encoding="utf-8")
            records.append(path)
    return records


def test_the_inference_recovers_the_secret_numbers(secret_games, config):
    records, secret = secret_games
    found = infer("canterbury", [str(p) for p in records])
    assert not found.refused and not found.conflict
    assert len(found.values) >= 30
    for address, value in found.values.items():
        assert value == secret[address], address
    standins = load_game("canterbury").spec
    put_right = {a for a, v in secret.items() if a in found.values and v != standins.get(a)}
    assert len(put_right) >= 10  # stand-ins the games show wrong, put right
    for address in found.values:
        assert found.proofs[address] and all(e.file in {str(p) for p in records} for e in found.proofs[address])


def test_the_numbers_found_and_those_read_off_the_box_make_the_records_legal(secret_games, config, tmp_path):
    records, secret = secret_games
    out_file = tmp_path / "learnt.yaml"
    code, out, _ = run("box", "canterbury", "--infer", *map(str, records), "-o", str(out_file))
    assert code == 0 and "determined by the checkpoints" in out and re.search(r"lines \d+", out)
    for record in records:
        assert check_bytes(record.read_bytes(), "game.log").exit_code == 1  # the stand-ins
    learnt = yaml.safe_load(out_file.read_text(encoding="utf-8"))["answers"]
    found = {a: v for a, v in learnt.items() if v is not None}
    assert found and all(secret[a] == v for a, v in found.items())
    # what the records leave open, the group reads off the box
    write_box(out_file, "canterbury", {**found, **{a: v for a, v in secret.items() if a not in found}})
    run("box", "canterbury", "--use", str(out_file))
    for record in records:
        assert check_bytes(record.read_bytes(), "game.log").exit_code == 0


def test_a_record_that_no_numbers_satisfy_is_refused(secret_games, config, tmp_path):
    records, _ = secret_games
    lines = records[0].read_text(encoding="utf-8").splitlines()
    # the first player's money after the first Levy, one shilling off: the cost of the first
    # build cannot be both
    checks = [i for i, line in enumerate(lines) if re.match(r"check \w+: money \d+", line)]
    i = checks[len(checks) // 2]
    lines[i] = re.sub(r"money (\d+)", lambda m: f"money {int(m.group(1)) + 1}", lines[i], count=1)
    broken = tmp_path / "broken.log"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("box", "canterbury", "--infer", str(broken), str(records[1]))
    assert code == 1
    assert f"{broken}: refused: no printed numbers satisfy its checkpoints on lines" in out
    assert str(i + 1) in out.split(f"{broken}: refused:")[1].splitlines()[0]


# Hamburgum's church table, depot prices and a citizen token, other than the stand-ins
HAMBURG_SECRET = {
    "churches:completion_bonus.2": 9,
    "churches:completion_bonus.3": 2,
    "market:materials_price.totals.2": 40,
    "market:materials_price.totals.4": 140,
    "churches:churches.michaelis.citizen.points": 4,
}
# and building tokens that count other houses than the stand-ins say
HAMBURG_NAMES = {
    "churches:churches.nikolai.building.house": "weaving-mill",
    "churches:churches.jacobi.building.house": "office",
    "churches:churches.petri.building.house": "captain",
}
FIRE_SECRET = {"B": 3, "C": 1, "D": 6, "E": 2}  # the points of the fires `play` deals


@pytest.fixture(scope="module")
def hamburg_record(tmp_path_factory):
    (record,) = played_with(tmp_path_factory.mktemp("hamburg"), "hamburgum", HAMBURG_SECRET | HAMBURG_NAMES, ((3, 11),))
    return record


@pytest.fixture(scope="module")
def fire_records(tmp_path_factory):
    """Speicherstadt games whose fires were dealt with secret points, and the same records
    with the points taken off every fire revealed: only the point checkpoints tell them."""
    folder = tmp_path_factory.mktemp("fires")
    records = played_with(folder, "speicherstadt", {"cards:types.fire.play_points": FIRE_SECRET}, ((3, 11), (4, 12)))
    bare = []
    for record in records:
        text = record.read_text(encoding="utf-8")
        assert re.search(r"(?m)^reveal fire \d+$", text)
        path = record.with_name("bare-" + record.name)
        path.write_text(re.sub(r"(?m)^reveal fire \d+$", "reveal fire", text), encoding="utf-8")
        bare.append(path)
    return records, bare


def fire_faces() -> dict[str, str]:
    """The address of each fire card's points, by the season of the card."""
    faces = load_game("speicherstadt", box=False).spec.get("cards:types.fire.faces")
    return {f"cards:types.fire.faces.{i}.points": face["season"] for i, face in enumerate(faces)}


def test_the_hamburg_inference_recovers_the_secret_numbers(hamburg_record, config):
    found = infer("hamburgum", [str(hamburg_record)])
    assert not found.refused and not found.conflict
    assert set(HAMBURG_SECRET) <= set(found.values)
    standins = load_game("hamburgum", box=False).spec
    for address, value in found.values.items():
        if address not in found.assumed:
            assert value == HAMBURG_SECRET.get(address, standins.get(address)), address
        assert found.proofs[address] and all(e.file == str(hamburg_record) for e in found.proofs[address])
    # the house type a scored building token counts: the stand-in is put right, and a number
    # that rests on a house type the checkpoints leave open says so
    nikolai = "churches:churches.nikolai.building.house"
    assert HAMBURG_NAMES[nikolai] in found.named[nikolai] and standins.get(nikolai) not in found.named[nikolai]
    for number, (name, _choice) in found.assumed.items():
        assert number == name.replace(".house", ".points") and len(found.named.get(name, [1, 2])) != 1


def test_the_hamburg_report_names_each_number_with_its_lines_and_how_many_agree(hamburg_record, config, tmp_path):
    out_file = tmp_path / "learnt.yaml"
    code, out, _ = run("box", "hamburgum", "--infer", str(hamburg_record), "-o", str(out_file))
    assert code == 0
    found = re.search(rf"^  market:materials_price\.totals\.2 = 40  \(stand-in 50; from {re.escape(str(hamburg_record))} lines? [\d, ]+; (\d+) more checkpoint figures? agrees?\)$", out, re.M)
    assert found and int(found.group(1)) > 0
    learnt = yaml.safe_load(out_file.read_text(encoding="utf-8"))["answers"]
    assert all(learnt[a] == v for a, v in HAMBURG_SECRET.items())
    assert "names the checkpoints tell apart" in out and re.search(r"; if churches:churches\.\w+\.building\.house is [\w-]+; from ", out)
    for number in re.findall(r"^  (churches:churches\.\w+\.building\.points) = \d+  \([^)]*; if ", out, re.M):
        assert learnt[number] is None  # a number resting on a house type left open is not written in


def test_a_hamburg_checkpoint_no_numbers_satisfy_is_refused_at_its_line(hamburg_record, config, tmp_path):
    lines = hamburg_record.read_text(encoding="utf-8").splitlines()
    checks = [i for i, line in enumerate(lines) if re.match(r"check \w+: money \d+", line)]
    i = checks[len(checks) // 2]
    lines[i] = re.sub(r"money (\d+)", lambda m: f"money {int(m.group(1)) + 10}", lines[i], count=1)
    broken = tmp_path / "broken.log"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("box", "hamburgum", "--infer", str(broken))
    assert code == 1
    why = out.split(f"{broken}: refused: no printed numbers satisfy its checkpoints on lines ")[1].splitlines()[0]
    assert str(i + 1) in why.replace(",", " ").split()


def test_fire_points_are_recovered_from_the_point_checkpoints_alone(fire_records, config):
    _, bare = fire_records
    found = infer("speicherstadt", [str(p) for p in bare])
    assert not found.refused and not found.conflict
    faces = fire_faces()
    assert {a: FIRE_SECRET[faces[a]] for a in faces} == found.values
    for address in found.values:  # proved by what the table wrote, not by a reveal
        for proof in found.proofs[address]:
            line = Path(proof.file).read_text(encoding="utf-8").splitlines()[proof.line - 1]
            assert line.startswith(("check ", "result ")), line


def test_a_box_file_that_says_otherwise_is_named_beside_the_number_found(fire_records, config, tmp_path):
    _, bare = fire_records
    first = next(a for a, season in fire_faces().items() if season == "B")
    box = tmp_path / "box.yaml"
    write_box(box, "speicherstadt", {first: 5})
    run("box", "speicherstadt", "--use", str(box))
    code, out, _ = run("box", "speicherstadt", "--infer", str(bare[0]))
    assert code == 0 and f"  {first} = {FIRE_SECRET['B']}  (no stand-in; your box says 5; from " in out


def test_fire_points_the_checkpoints_do_not_tell_are_not_proposed(fire_records, config, tmp_path):
    _, bare = fire_records
    lines = bare[0].read_text(encoding="utf-8").splitlines()
    quiet = tmp_path / "no-points.log"
    quiet.write_text("\n".join(line for line in lines if not line.startswith(("check ", "result "))) + "\n", encoding="utf-8")
    out_file = tmp_path / "learnt.yaml"
    code, out, _ = run("box", "speicherstadt", "--infer", str(quiet), "-o", str(out_file))
    assert code == 0
    assert "determined by the checkpoints" not in out
    assert all(a in out for a in fire_faces())  # each named as not told
    written = out_file.read_text(encoding="utf-8")  # what the reveals show is kept: the contracts' goods
    assert "cards:types.contract.faces: [" in written and all(f"  {a}:\n" in written for a in fire_faces())  # no fire's points


@pytest.fixture(scope="module")
def five_player_games(tmp_path_factory):
    """Two random five-player games of The Speicherstadt: each reveals every contract card
    with its goods, dealt at random, so the two are games of different boxes."""
    folder = tmp_path_factory.mktemp("contracts")
    paths = []
    for seed in (4, 5):
        path = folder / f"five-{seed}.log"
        path.write_text(play_game("speicherstadt", 5, seed), encoding="utf-8")
        paths.append(path)
    return paths


def revealed_contracts(path: Path) -> list[str]:
    return sorted(" ".join(sorted(line.split()[2:])) for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("reveal contract "))


def test_the_contracts_goods_are_read_off_a_records_reveals(five_player_games, config, tmp_path):
    """A five-player game shows every contract card: --infer reads their goods by season,
    -o writes them into the template, and with that file in use every contract a record
    reveals is checked against the cards."""
    record = five_player_games[0]
    learnt = tmp_path / "learnt.yaml"
    code, out, _ = run("box", "speicherstadt", "--infer", str(record), "-o", str(learnt))
    assert code == 0 and "  cards:types.contract.faces: 10 of 10 cards: A: " in out
    assert "determined by the checkpoints (4):" in out and "nothing determined" not in out
    faces = yaml.safe_load(learnt.read_text(encoding="utf-8"))["answers"]["cards:types.contract.faces"]
    assert sorted(" ".join(face["goods"]) for face in faces) == revealed_contracts(record)
    assert [face["season"] for face in faces] == ["A"] * 3 + ["B"] * 3 + ["C"] * 4
    code, out, _ = run("box", "speicherstadt", "--infer", str(record), "--lang", "hu")  # the goods by their names, the file by ids
    (line,) = [line for line in out.splitlines() if "cards:types.contract.faces: 10 lapból 10: A: " in line]
    assert not {"coffee", "rubber", "saffron", "carpet"} & set(line.replace(";", " ").split()) and {"kávé", "gumi", "sáfrány", "szőnyeg"} & set(line.replace(";", " ").split())
    assert run("box", "speicherstadt", "--use", str(learnt))[0] == 0
    assert run("check", str(record))[0] == 0
    first = next(line for line in record.read_text(encoding="utf-8").splitlines() if line.startswith("reveal contract "))
    other = "reveal contract " + ("tea tea" if first != "reveal contract tea tea" else "coffee coffee")
    wrong = tmp_path / "wrong.log"
    wrong.write_text(record.read_text(encoding="utf-8").replace(first + "\n", other + "\n", 1), encoding="utf-8")
    code, out, _ = run("check", str(wrong))
    assert code == 1 and "error[speicherstadt/card-face]" in out


def test_records_of_different_boxes_keep_no_contract(five_player_games, config, tmp_path):
    learnt = tmp_path / "learnt.yaml"
    code, out, _ = run("box", "speicherstadt", "--infer", *map(str, five_player_games), "-o", str(learnt))
    assert code == 1 and "the records show more faces than cards:types.contract.faces (A) has cards" in out
    assert "read off the records' reveals" not in out
    assert "cards:types.contract.faces: [" not in learnt.read_text(encoding="utf-8")  # the fire points are kept


def test_records_that_state_different_fire_points_contradict_each_other(fire_records, config):
    records, _ = fire_records
    sample = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"  # its first fire shows 2, the secret 3
    code, out, _ = run("box", "speicherstadt", "--infer", str(records[0]), str(sample))
    assert code == 1
    clash = out.split("no printed numbers satisfy these checkpoints together: ")[1]
    assert str(records[0]) in clash and str(sample) in clash


def test_the_inference_speaks_the_language_asked(fire_records, config):
    _, bare = fire_records
    code, out, _ = referee_env(["box", "speicherstadt", "--infer", str(bare[0])], {"LANG": "hu_HU.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""})
    assert code == 0 and "az ellenőrzőpontokból meghatározva (4):" in out and "jegyzőkönyv beolvasva" in out
    code, out, _ = run("box", "speicherstadt", "--infer", str(bare[0]), "--lang", "hu")
    assert code == 0 and "az ellenőrzőpontokból meghatározva (4):" in out
    code, out, _ = run("box", "hamburgum", "--show", "--lang", "de")
    assert code == 0 and "keine Schachteldatei in Gebrauch" in out
    code, out, _ = run("box", "hamburgum", "--lang", "hu")
    assert "# Civitas Hamburgum: a saját doboz számai." in out and "(helyettesítő: ismeretlen)" in out
    code, out, _ = run("box", "canterbury", "--interactive", "--lang", "de", stdin="viele\nquit\n")
    assert code == 0 and "abgelehnt:" in out


def referee_env(argv: list[str], env: dict) -> tuple[int, str, str]:
    result = referee(*argv, env=env)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize(
    "game, text",
    [
        ("hamburgum", '[Game "hamburgum"]\n[Players "red, blue"]\nred: frobnicate\n'),
        ("hamburgum", '[Game "canterbury"]\n[Players "blue, red"]\n'),
        ("speicherstadt", ""),
        ("speicherstadt", "\x00\x1b[2J not a record"),
        ("speicherstadt", '[Game "speicherstadt"]\n[Players "beige, orange"]\ncheck nobody: points 3\nresult beige 99999999999999999999\n'),
    ],
)
def test_no_traceback_on_records_that_teach_nothing(game, text, config, tmp_path):
    path = tmp_path / "bad\x1b.log"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("box", game, "--infer", str(path))
    assert code in (1, 2, 3), (code, err)
    assert "Traceback" not in out + err and "internal error" not in err
    assert "\x1b" not in out + err  # the file's name and text shown escaped
    assert (out if code == 1 else err).strip()


def test_fire_points_a_record_writes_are_read_as_the_lines_that_prove_them(config):
    record = ROOT / "specs" / "speicherstadt" / "examples" / "sample-3p.log"
    found = infer("speicherstadt", [str(record)])
    lines = record.read_text(encoding="utf-8").splitlines()
    for address, value in found.values.items():
        (proof,) = found.proofs[address]
        assert lines[proof.line - 1].strip() == f"reveal fire {value}", address
    assert len(found.values) == 4 and not found.refused


# --- the Hamburg map, by sites and lines --------------------------------------------------------

HAMBURG_SITES = {  # a map of one's own: 28 sites, as many of each type as there are tiles
    "nikolai": ["brewery", "captain", "brewery", "office", "refinery", "office"],
    "michaelis": ["weaving-mill", "weaving-mill", "merchant", "office", "refinery", "brewery"],
    "katharinen": ["weaving-mill", "merchant", "office", "refinery", "brewery", "captain"],
    "petri": ["weaving-mill", "merchant", "office", "refinery", "brewery"],
    "jacobi": ["weaving-mill", "captain", "office", "refinery", "office"],
}


def hamburg_box(path: Path, sites: dict) -> Path:
    listed = [{"parish": p, "number": i + 1, "type": t} for p, types in sites.items() for i, t in enumerate(types)]
    links = [[f"{p}-1", p] for p in sites] + [[f"{p}-{i}", f"{p}-{i + 1}"] for p, types in sites.items() for i in range(1, len(types))]
    write_box(path, "hamburgum", {"board:sites": listed, "board:links": links})
    return path


def test_the_hamburg_map_entered_in_the_box_has_its_rules_checked(config, tmp_path):
    record = ROOT / "specs" / "hamburgum" / "examples" / "quick-start.log"
    before = check_bytes(record.read_bytes(), "quick-start.log")
    assert {d.rule for d in before.diagnostics if d.severity == "warning"} >= {"hamburgum/site-type", "hamburgum/guildhall-adjacency"}
    code, _, _ = run("box", "hamburgum", "--use", str(hamburg_box(tmp_path / "map.yaml", HAMBURG_SITES)))
    assert code == 0
    after = check_bytes(record.read_bytes(), "quick-start.log")
    assert after.exit_code == 0
    assert not [d for d in after.diagnostics if d.severity == "warning" and "not checked" in d.message]
    # the same map with the merchant site of St. Michaelis' parish printed for a captain
    other = {**HAMBURG_SITES, "michaelis": ["weaving-mill", "weaving-mill", "captain", "office", "refinery", "brewery"], "jacobi": ["weaving-mill", "merchant", "office", "refinery", "office"]}
    run("box", "hamburgum", "--use", str(hamburg_box(tmp_path / "other.yaml", other)))
    refused = check_bytes(record.read_bytes(), "quick-start.log")
    assert refused.exit_code == 1
    assert [d.rule for d in refused.diagnostics if d.severity == "error"] == ["hamburgum/site-type"]


# --- the solver -------------------------------------------------------------------------------


def eq(line: int, written: int, **counts):
    from referee.box.solving import Equation

    return Equation("r.log", line, "blue", "money", written, 0, tuple(sorted(counts.items())))


def test_the_solver_names_the_lines_behind_each_value_and_what_is_left_open():
    from referee.box.solving import solve

    # 2a + b = 7 (line 1), a + b = 5 (line 2), c + d = 4 (line 3): a = 2, b = 3, c and d open
    found = solve([eq(1, 7, a=2, b=1), eq(2, 5, a=1, b=1), eq(3, 4, c=1, d=1)], {})
    assert found.contradiction is None
    assert found.values == {"a": 2, "b": 3}
    assert found.proofs == {"a": [0, 1], "b": [0, 1]}
    # what is left open is said in whole numbers: 2a + b = 7, c + d = 4 and 2c - e = 5
    relations = solve([eq(1, 7, a=2, b=1), eq(3, 4, c=1, d=1), eq(4, 5, c=2, e=-1)], {}).relations
    assert {relation(*row)[0] for row in relations} == {"2 × a + b = 7", "2 × c - e = 5", "2 × d + e = 3"}
    assert choices({"a": 2, "b": 1}, 7) == "(a, b) = (0, 7), (1, 5), (2, 3), (3, 1)"
    assert choices({"a": 2, "b": 1}, 70) == choices({"c": 2, "e": -1}, 5) == ""  # too many ways; no bound


def test_the_solver_refuses_lines_no_whole_numbers_satisfy():
    from referee.box.solving import solve

    assert solve([eq(1, 5, a=1), eq(2, 6, a=1), eq(3, 9, b=1)], {}).contradiction == [0, 1]
    assert solve([eq(1, 3, a=2)], {}).contradiction == [0]  # a = 3/2 is printed on no tile
    assert solve([eq(1, -3, a=1)], {}).contradiction == [0]  # nor is -3
    skipped = solve([eq(1, 5, a=1), eq(2, 6, a=1), eq(3, 9, b=1)], {}, skip=True)
    assert skipped.values == {"a": 5, "b": 9} and skipped.skipped == [1]


def test_a_move_the_table_took_back_adds_nothing(config, tmp_path):
    lines = RECORD.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("blue: "))
    taken_back = lines[: first + 1] + ["ruling void: taken back"] + lines[first:]
    path = tmp_path / "void.log"
    path.write_text("\n".join(taken_back) + "\n", encoding="utf-8")
    assert (
        equations(load_game("canterbury"), path.read_text(encoding="utf-8"), "void.log")[0].coefficients
        == equations(load_game("canterbury"), RECORD.read_text(encoding="utf-8"), "game.log")[0].coefficients
    )


def test_the_site_and_the_pictures_use_the_box_file(config, tmp_path):
    from referee import site
    from referee.spec.loader import data_root, load_spec

    def verify_page() -> str:
        spec = load_spec("canterbury", root=data_root() / "specs")
        return next(p.text for p in site.game_pages(spec, data_root()) if p.path == "canterbury/verify.md")

    def question_marks() -> int:
        code, svg, _ = run("draw", str(RECORD))
        assert code == 0
        return svg.count("?")

    before, marks = verify_page(), question_marks()
    assert "key `structures.well.printed`" in before
    run("box", "canterbury", "--use", str(filled(tmp_path, "canterbury")))  # the stand-ins, now the group's
    after = verify_page()
    assert "key `structures.well.printed" not in after and "key `district.secondary.rounding`" in after
    assert question_marks() < marks  # money and prosperity rest on the group's numbers, not on stand-ins
