"""`referee serve` without a browser: the app's answers to good and bad requests, its tap
menus, its record files and its exports, through Starlette's test client (one app for the
module; each test starts games of its own in it)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="needs the serve extra")
pytest.importorskip("httpx", reason="the test client needs httpx")

from starlette.testclient import TestClient  # noqa: E402

from referee.engine.replay import check_bytes  # noqa: E402
from referee.i18n import _ as translated  # noqa: E402
from referee.i18n import speaking
from referee.server import taps  # noqa: E402
from referee.server.app import Settings, create_app  # noqa: E402
from referee.server.tables import Tables  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import round_taps  # noqa: E402  (scripts/round_taps.py: the taps a round takes)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def client(folder):
    app = create_app(Settings(folder, rate=1000, burst=1000))
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        c.get("/")  # the form cookie
        yield c


def token(client) -> str:
    return client.cookies.get("referee-form")


def new_game(client, title: str, game: str = "speicherstadt", seats=(("beige", "Ann"), ("orange", "Ben"))) -> str:
    answer = client.post("/new", data={"form": token(client), "title": title, "game": game, "colour": [c for c, _ in seats], "name": [n for _, n in seats]}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return answer.headers["location"]


def version_of(page: str) -> int:
    return int(re.search(r'data-version="(\d+)"', page).group(1))


def enter(client, address: str, line: str, version: int | None = None, **extra):
    if version is None:
        version = version_of(client.get(address).text)
    return client.post(address + "/enter", data={"form": token(client), "version": str(version), "line": line}, headers={"X-Partial": "1", **extra})


def test_a_tapped_move_is_in_the_file_before_the_answer(client, folder):
    address = new_game(client, "kept")
    answer = enter(client, address, "reveal carpet-trader")
    assert answer.status_code == 200
    text = (folder / "kept.log").read_text("utf-8")
    assert text.endswith("reveal carpet-trader\n")
    assert check_bytes(text.encode(), "kept.log", [], open_end=True).status == "legal"
    assert "reveal carpet-trader" in client.get(address + "/record").text


def test_a_move_the_rules_refuse_is_not_written_and_a_ruling_is_offered(client, folder):
    address = new_game(client, "refused")
    before = (folder / "refused.log").read_text("utf-8")
    enter(client, address, "reveal carpet-trader")
    answer = enter(client, address, "orange: place 1")  # beige places first
    assert answer.status_code == 422
    assert "error[" in answer.text and "is not recorded" in answer.text
    assert "ruling: let it stand" in answer.text
    assert (folder / "refused.log").read_text("utf-8") == before + "reveal carpet-trader\n"
    decided = enter(client, address, "ruling accept")  # the table lets it stand
    assert decided.status_code == 200
    assert (folder / "refused.log").read_text("utf-8").endswith("orange: place 1\nruling accept\n")


def test_a_record_that_does_not_replay_is_a_message_not_a_crash(client, folder):
    (folder / "broken.log").write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\n\nbeige: fly to the moon\n', encoding="utf-8")
    answer = client.get("/g/broken.log")
    assert answer.status_code == 400 and "Traceback" not in answer.text and "broken.log" in answer.text


def test_a_page_of_another_site_pointed_at_this_machine_is_refused(folder):
    app = create_app(Settings(folder, rate=1000, burst=1000))
    with TestClient(app, base_url="http://attacker.example:8765") as c:
        assert c.get("/").status_code == 421


def test_a_tap_on_an_old_version_is_refused(client, folder):
    address = new_game(client, "stale")
    seen = version_of(client.get(address).text)
    assert enter(client, address, "reveal carpet-trader", seen).status_code == 200
    answer = enter(client, address, "reveal coffee-roaster", seen)
    assert answer.status_code == 409 and "another phone moved first" in answer.text
    assert "coffee-roaster" not in (folder / "stale.log").read_text("utf-8")


def test_a_form_without_its_token_or_from_another_site_is_refused(client, folder):
    address = new_game(client, "forged")
    before = (folder / "forged.log").read_text("utf-8")
    no_token = client.post(address + "/enter", data={"version": "0", "line": "reveal carpet-trader"})
    assert no_token.status_code == 403
    elsewhere = client.post(address + "/enter", data={"form": token(client), "version": "0", "line": "reveal carpet-trader"}, headers={"Origin": "http://evil.example"})
    assert elsewhere.status_code == 403
    assert (folder / "forged.log").read_text("utf-8") == before


@pytest.mark.parametrize("path", ["/g/..%2F..%2Fetc%2Fpasswd", "/g/nothing.log", "/g/.referee-serve-codes.json", "/g/a.log/explain?who=x", "/nowhere"])
def test_no_path_outside_the_folder_is_served(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert "Traceback" not in answer.text


def test_bad_input_gets_a_4xx_with_a_message_never_a_500(client):
    address = new_game(client, "bad")
    cases = [
        client.post(address + "/enter", data={"form": token(client), "version": "x", "line": "reveal carpet-trader"}),
        client.post(address + "/enter", data={"form": token(client), "version": "0"}),
        client.post(address + "/enter", content=b"form=" + token(client).encode() + b"&line=%ff%fe", headers={"Content-Type": "application/x-www-form-urlencoded"}),
        client.post(address + "/enter", content=b"x" * 20000, headers={"Content-Type": "application/x-www-form-urlencoded"}),
        client.get(address + "/explain?who=beige&figure=nonsense"),
        client.get(address + "?text=" + "%00" * 50),
        client.post("/new", data={"form": token(client), "game": "chess", "colour": ["white"], "name": [""]}),
        client.post("/new", data={"form": token(client), "game": "canterbury", "colour": [""], "name": [""]}),
        client.post("/new", data={"form": token(client), "game": "canterbury", "colour": ["blue"], "name": [""], "variant": ["../../etc/x"]}),
        client.request("PUT", address + "/enter"),
    ]
    for answer in cases:
        assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
        assert "Traceback" not in answer.text
    assert cases[3].status_code == 413


def test_undo_takes_the_last_line_back(client, folder):
    address = new_game(client, "undone")
    enter(client, address, "reveal carpet-trader")
    answer = client.post(address + "/undo", data={"form": token(client), "version": str(version_of(client.get(address).text))}, headers={"X-Partial": "1"})
    assert answer.status_code == 200 and "took back line" in answer.text
    assert "carpet" not in (folder / "undone.log").read_text("utf-8")


def test_a_figure_explains_itself(client):
    address = new_game(client, "explained")
    enter(client, address, "reveal carpet-trader")
    answer = client.get(address + "/explain?who=beige&figure=coins")
    assert answer.status_code == 200 and "coins" in answer.text


def test_exports_of_a_finished_game(client, folder):
    from referee.lab.random_game import play_game

    record = play_game("speicherstadt", 2, seed=5)
    (folder / "finished.log").write_text(record, encoding="utf-8")
    page = client.get("/g/finished.log")
    assert page.status_code == 200 and "Final standings" in page.text
    csv = client.get("/g/finished.log/scores.csv").text.splitlines()
    assert csv[0].startswith("rank,colour,name,total") and len(csv) == 3
    play = json.loads(client.get("/g/finished.log/bgstats.json").text)
    scores = play["plays"][0]["playerScores"]
    assert sorted(s["score"] for s in scores) == sorted(record.rsplit("result ", 1)[1].split()[1::2][i].rstrip(",") for i in range(2))
    assert sum(s["winner"] for s in scores) >= 1
    assert "<html" in client.get("/g/finished.log/replay").text.lower()


def test_a_file_written_beside_the_server_is_read_again(client, folder):
    address = new_game(client, "beside")
    client.get(address)
    with open(folder / "beside.log", "a", encoding="utf-8") as fh:
        fh.write("reveal carpet-trader\n")
    page = client.get(address).text
    assert "reveal carpet-trader" in page and "reveal coffee-roaster" in page  # the position after it


def test_requests_are_bounded_in_rate(tmp_path):
    app = create_app(Settings(tmp_path, rate=1, burst=3))
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        codes = [c.get("/").status_code for _ in range(6)]
    assert codes[:3] == [200, 200, 200] and 429 in codes[3:]


def test_off_localhost_every_game_needs_its_code(tmp_path):
    app = create_app(Settings(tmp_path, host="0.0.0.0", rate=1000, burst=1000))
    tables: Tables = app.state.tables
    with TestClient(app, base_url="http://192.0.2.10:8765") as c:
        assert c.get("/").status_code == 403
        code = app.state.settings.server_code
        assert c.get(f"/?join={code}").status_code == 200
        answer = c.post("/new", data={"form": c.cookies.get("referee-form"), "game": "canterbury", "colour": ["blue", "red"], "name": ["", ""]}, follow_redirects=False)
        assert answer.status_code == 303 and "join=" in answer.headers["location"]
    with TestClient(app, base_url="http://192.0.2.10:8765") as stranger:
        assert stranger.get("/g/canterbury.log").status_code == 403
        assert stranger.get("/g/canterbury.log?join=wrong").status_code == 403
        assert stranger.get(f"/g/canterbury.log?join={tables.code_of('canterbury.log')}").status_code == 200
        assert stranger.get("/g/canterbury.log").status_code == 200  # the code kept in a cookie
        assert stranger.get("/").status_code == 403  # one game's code opens that game only


def test_most_moves_take_one_tap(folder):
    tables = Tables(folder)
    start = tables.new_game("menus", "speicherstadt", "beige, orange, purple", None, [])
    menu = taps.menu(start.recording, "")
    whole = [b.text for b in menu.buttons if b.enters]
    assert "reveal carpet-trader" in whole and all(t.startswith("reveal ") for t in whole)
    assert "reveal fireman 3" in whole  # a value of a few is a button of its own, under "fireman"
    # a contract's goods are picked two at a time, as the table sees them, then the rest at once
    contract = taps.menu(start.recording, "reveal contract ")
    assert {b.label for b in contract.buttons} >= {"saffron tea", "tea tea"} and not contract.can_enter
    assert not any(b.enters for b in contract.buttons)
    two = taps.menu(start.recording, "reveal contract saffron tea ")
    assert two.can_enter and {(b.label, b.enters) for b in two.buttons} == {("tea", True), ("tea tea", True)}
    canterbury = tables.new_game("menus", "canterbury", "blue, red", None, [])
    first = taps.menu(canterbury.recording, "")
    assert first.text == "blue: full build "  # the only words on are taken without a tap
    assert {b.label for b in first.buttons} >= {"well", "garden", "fountain"}


def speicherstadt_at(tables: Tables, title: str, players: int, seed: int, before: str):
    """A table holding a random game's lines up to the first one that is `before`."""
    from referee.lab.random_game import play_game

    record = play_game("speicherstadt", players, seed=seed)
    lines = [line for line in record.split("\n") if line.strip() and not line.startswith("[")]
    seats = record.split('[Players "')[1].split('"')[0]
    table = tables.new_game(title, "speicherstadt", seats, None, [])
    n = lines.index(before)
    assert table.enter(lines[:n], table.version)[0].accepted
    return table


def test_a_ship_with_its_cubes_is_one_tap_and_a_fire_is_typed_among_the_reveals(client):
    """A ship's cubes are what the table sees of the card: each way the bag still allows is a
    button among the reveals, and a fire's points are typed in the reveals' own menu."""
    from itertools import combinations_with_replacement

    table = speicherstadt_at(client.app.state.tables, "reveals", 5, 5, "reveal fire 4")
    menu = taps.menu(table.recording, "")
    ships = {b.text for b in menu.buttons if b.enters and b.text.startswith("reveal ship ")}
    bag = table.recording.state.bag
    allowed = {"reveal ship " + " ".join(way) for way in combinations_with_replacement(sorted(g for g in bag if bag[g]), 3) if all(bag[g] >= way.count(g) for g in way)}
    assert ships == allowed and len(ships) > 10
    assert all(taps._trial(table.recording, [line]) is not None for line in ships)
    assert (menu.free, menu.before_free, menu.free_label) == ("<points>", "reveal fire ", "fire <points>")
    assert not any(b.text.startswith("reveal fire ") for b in menu.buttons)  # the field stands for the word
    assert len(menu.buttons) <= taps.MOST_SPREAD
    page = client.get(f"/g/{table.path.name}").text
    assert 'name="prefix" value="reveal fire "' in page and "fire &lt;points&gt;" in page
    answer = client.post(f"/g/{table.path.name}/enter", data={"form": token(client), "version": str(version_of(page)), "prefix": "reveal fire ", "fill": "4"}, headers={"X-Partial": "1"})
    assert answer.status_code == 200 and body(table.path)[-1] == "reveal fire 4"


def test_every_players_loading_move_is_one_tap(folder):
    """In Loading the players move goods at the same time: the menu shows every one's moves,
    the one who moved last first, each under its player and action."""
    table = speicherstadt_at(Tables(folder), "loading", 5, 5, "purple: contract 2 saffron")
    menu = taps.menu(table.recording, "")
    assert menu.text == "blue: "  # blue moved last
    bundles = [b.text for b in menu.buttons if b.group and b.group.endswith(", all at once")]
    whole = [b.text for b in menu.buttons if b.enters and b.text not in bundles]
    assert sorted(whole) == sorted(table.recording.hints()) and len(whole) + len(bundles) == len(menu.buttons)
    assert whole[0].startswith("blue: ") and "purple: contract 2 saffron" in whole
    headings = [heading for heading, _ in menu.groups]
    assert "purple: contract" in headings and "purple: hall exchange" in headings
    labels = {b.label for heading, buttons in menu.groups if heading == "purple: contract" for b in buttons}
    assert labels == {"1 coffee", "2 coffee", "1 saffron", "2 saffron"}


def body(path: Path) -> list[str]:
    return [line for line in path.read_text("utf-8").split("\n") if line.strip() and not line.startswith("[")]


@pytest.mark.parametrize("players", [3, 5])  # the fewest players' rounds are the shortest
def test_a_speicherstadt_round_takes_at_most_40_taps(folder, players):
    """A random game (`referee play`) entered by taps, as a phone enters it: every round,
    from the card reveals to the checkpoint that ends it, takes at most 40 taps, and the
    record file is the game's record line for line (lines the rules leave no choice about
    are entered by themselves after the tap before them)."""
    from referee.lab.random_game import play_game

    record = play_game("speicherstadt", players, seed=players)
    rounds = round_taps.round_taps(round_taps.entered_by_taps(round_taps.new_table(folder, record, []), round_taps.record_lines(record)))
    most = max(taps for taps, _ in rounds.values())
    assert len(rounds) >= 3 and 0 < most <= 40, rounds


@pytest.mark.parametrize("box", [False, True], ids=["goods-unknown", "goods-from-the-box"])
def test_a_round_of_five_players_who_play_to_win_takes_at_most_40_taps(folder, box):
    """Five players who choose their moves (the lab's greedy agents, written down as
    `referee lab --records-out` writes them), entered by taps: every round at most 40 taps,
    whether a contract's goods take two taps (no source gives them) or one (a group's box
    file gives them, as `referee box --infer` reads them off a game). Random play writes
    lines a table needs no tap for (cubes spoiled by hand, which spoil by themselves)."""
    from referee.lab.runs import Task, play_task

    variants = [str(KNOWN_CONTRACTS)] if box else []
    record = play_task(Task("speicherstadt", 5, tuple(variants), ("greedy",) * 5, 1, 0, record=True)).record
    steps = list(round_taps.entered_by_taps(round_taps.new_table(folder, record, variants), round_taps.record_lines(record)))
    assert sum(line.startswith("reveal contract ") for step in steps for line in step.lines) == 10
    tapped = {step.taps for step in steps if step.lines[0].startswith("reveal contract ")}  # the others: the only card left
    assert tapped == ({1} if box else {2})
    rounds = round_taps.round_taps(iter(steps))
    assert len(rounds) >= 8 and max(taps for taps, _ in rounds.values()) <= 40, rounds


def test_goods_a_player_moves_the_same_way_are_one_tap_all_at_once(folder):
    """The rulebook's example puts a rubber and a tea on one contract in one line: where a
    player's moves differ in their good only, the menu also offers them joined, one tap,
    where the rules take the joined line (one contract takes every good it still needs, a
    trader every cube of its good)."""
    example = (Path(__file__).resolve().parents[1] / "specs" / "speicherstadt" / "examples" / "unloading-two-ships.log").read_text(encoding="utf-8")
    lines = round_taps.record_lines(example)
    table = round_taps.new_table(folder, example, [])
    assert table.enter(lines[: lines.index("blue: contract 2 rubber tea")], table.version)[0].accepted
    bundles = {b.text: b for b in taps.menu(table.recording, "").buttons if b.group and b.group.endswith(", all at once")}
    singles = [line for line in table.recording.hints() if line.startswith("blue: contract 2 ")]
    joined = "blue: contract 2 " + " ".join(sorted(line.split()[-1] for line in singles))
    assert len(singles) > 1 and joined in bundles and bundles[joined].enters
    assert "blue: sell tea tea" in bundles  # blue unloaded two teas and owns the tea taster: both at once
    assert all(taps._trial(table.recording, [line]) is not None for line in bundles)
    assert table.enter([joined], table.version)[0].accepted
    assert not [line for line in table.recording.hints() if line.startswith("blue: contract 2 ")]  # the contract took all it could


def test_two_taps_at_once_never_both_apply(folder):
    import threading

    table = Tables(folder).new_game("race", "speicherstadt", "beige, orange", None, [])
    seen = table.version
    results, go = [], threading.Barrier(2)

    def tap(line):
        go.wait()
        results.append(table.enter([line], seen))

    threads = [threading.Thread(target=tap, args=(line,)) for line in ("reveal carpet-trader", "reveal coffee-roaster")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcome.accepted for outcome, _ in results) == [False, True]
    assert [stale for outcome, stale in results if not outcome.accepted] == [True]
    assert len([line for line in table.path.read_text("utf-8").split("\n") if line.startswith("reveal")]) == 1


def test_an_event_stream_tells_each_move_and_ends_when_the_phone_leaves(folder):
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    app = create_app(Settings(folder, rate=1000, burst=1000))
    table = app.state.tables.new_game("listened", "speicherstadt", "beige, orange", None, [])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        seen = []
        with httpx.stream("GET", f"http://127.0.0.1:{port}/g/listened.log/events", timeout=5) as events:
            for line in events.iter_lines():
                if line.startswith("data: "):
                    seen.append(int(line[6:]))
                    if len(seen) == 1:
                        started = time.monotonic()
                        table.enter(["reveal carpet-trader"], table.version)
                    else:
                        break
            assert seen == [0, 1] and time.monotonic() - started < 1.0  # within a second of the move
        deadline = time.monotonic() + 3
        while app.state.listeners["open"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.state.listeners["open"] == 0
    finally:
        server.should_exit = True
        thread.join(5)


def test_a_picture_written_from_what_it_kept_is_the_drawing_byte_for_byte(folder):
    """The server writes a position's picture keeping the text of the elements it wrote
    before (most of a picture does not change from a move to the next): the text is the
    drawing's own (`Drawing.tostring`), position after position, for every game."""
    from referee.lab.random_game import play_game
    from referee.server.pictures import Writer

    writer = Writer()
    for game in ("speicherstadt", "hamburgum", "canterbury"):
        record = play_game(game, 2, seed=3)
        lines = [line for line in record.split("\n") if line.strip() and not line.startswith("[")][:30]
        seats = record.split('[Players "')[1].split('"')[0]
        table = Tables(folder).new_game(f"pictures-{game}", game, seats, None, [])
        for n, line in enumerate(lines):
            if len(body(table.path)) > n:
                continue  # a line the rules left no choice about, entered with the one before
            assert table.enter([line], table.version)[0].accepted
            if n % 6 == 0:
                state = table.recording.state
                drawing = state.game.draw(state, "")
                assert writer.tostring(drawing) == drawing.tostring()


def test_pages_speak_the_browsers_language_or_the_switchs(client):
    """A page is in the first language of the browser's that the referee speaks; the switch
    (`?lang=`) wins and is kept for the phone's next pages."""
    with TestClient(client.app, base_url="http://127.0.0.1:8765") as browser:  # one that never used the switch
        assert "<h1>Games</h1>" in browser.get("/", headers={"Accept-Language": "fr-FR, en;q=0.5"}).text
        hungarian = browser.get("/", headers={"Accept-Language": "fr;q=0.9, hu-HU;q=0.8, de;q=0.7"}).text
        assert '<html lang="hu">' in hungarian and "<h1>Játszmák</h1>" in hungarian
    with TestClient(client.app, base_url="http://127.0.0.1:8765") as phone:
        assert "<h1>Partien</h1>" in phone.get("/?lang=de", headers={"Accept-Language": "hu"}).text
        address = new_game(phone, "sprache")
        page = phone.get(address, headers={"Accept-Language": "hu"}).text
        assert "Letzte Zeile zurücknehmen".lower() in page.lower() and "another phone" not in page
        stale = enter(phone, address, "reveal carpet-trader", version=99)
        assert stale.status_code == 409 and "ein anderes Telefon war schneller" in stale.text


def test_every_word_of_the_templates_is_in_the_catalogues():
    import re

    from babel.messages.pofile import read_po

    from referee.i18n import catalogue

    folder = Path(__file__).resolve().parents[1] / "referee" / "server" / "templates"
    said = {m for page in folder.glob("*.html") for m in re.findall(r'_\("([^"]*)"\)', page.read_text("utf-8"))}
    with open(Path(catalogue.__file__).parent / "referee.pot", "rb") as f:
        extracted = {m.id for m in read_po(f) if m.id}
    assert said and said <= extracted


def test_one_tap_enters_several_lines(client, folder):
    address = new_game(client, "batch")
    version = version_of(client.get(address).text)
    answer = client.post(address + "/enter", data={"form": token(client), "version": str(version), "batch": "reveal carpet-trader\nreveal coffee-roaster"}, headers={"X-Partial": "1"})
    assert answer.status_code == 200
    assert body(folder / "batch.log") == ["reveal carpet-trader", "reveal coffee-roaster"]


def test_every_turn_of_civitas_hamburgum_is_tapped_word_by_word(folder):
    """Civitas Hamburgum lists one step of each kind of turn; the page completes the rest
    word by word (the game's `next_words`): every turn of a random game (goods sold and the
    rest to the bank, donations and tokens scored, houses in a row) is entered by taps, and
    every whole move a button offers on the way is one the rules take."""
    import re

    from referee.lab.random_game import play_game

    record = play_game("hamburgum", 2, seed=0)
    lines = [line for line in record.split("\n") if line.strip() and not line.startswith("[")][:60]
    seats = record.split('[Players "')[1].split('"')[0]
    table = Tables(folder).new_game("turns", "hamburgum", seats, None, [])
    kinds = set()
    for line in lines:
        if line.startswith("check "):
            assert table.enter([line], table.version)[0].accepted
            continue
        target = re.sub(r"^(\S+: (?:beer|sugar|cloth)) \d+$", r"\1", line)  # the yield a record may state is a check, not a choice
        text = ""
        for _ in range(24):
            menu = taps.menu(table.recording, text)
            text = menu.text
            for button in menu.buttons:
                if button.enters:
                    assert taps._trial(table.recording, [button.text]) is not None, button.text
            if menu.can_enter and text.strip() == target:
                break
            leading = [b for b in menu.buttons if (b.enters and b.text == target) or (not b.enters and target.startswith(b.text))]
            assert leading, f"no button leads to {target!r} from {text!r}"
            text = max(leading, key=lambda b: len(b.text)).text
            if text == target:
                break
        else:
            raise AssertionError(f"{target!r} takes more than 24 taps")
        assert table.enter([line], table.version)[0].accepted
        kinds |= {kind for kind, words in TURN_KINDS.items() if re.search(words, line)}
    assert kinds == set(TURN_KINDS), kinds  # the game has turns of every kind, so they all were tapped


TURN_KINDS = {"sale": r" trade sell ", "sale and bank": r", bank ", "purchase": r" buy ", "donation and score": r"donate .*, score ", "houses in a row": r" at .*, .* at "}


def test_a_picture_is_drawn_in_the_language_of_the_phone_that_asks(client):
    """Two phones on one game in two languages: each is shown the position's picture with
    its own language's labels, although the picture of a version is drawn once per language."""
    address = new_game(client, "bilder", game="hamburgum", seats=(("red", "Ann"), ("blue", "Ben")))
    pages = {lang: client.get(f"{address}?lang={lang}").text for lang in ("de", "hu", "en")}
    pictures = {}
    for lang, page in pages.items():
        src = re.search(r'src="([^"]*picture\.svg[^"]*)"', page).group(1).replace("&amp;", "&")
        assert f"lang={lang}" in src
        pictures[lang] = client.get(src).text
    with speaking("de"):
        german = translated("money")
    assert german != "money" and german in pictures["de"] and german not in pictures["en"]
    assert len({pictures["de"], pictures["hu"], pictures["en"]}) == 3


def test_a_checkpoint_confirmed_enters_no_choice_and_is_not_offered_again(folder):
    """The confirmation of a Civitas Hamburgum checkpoint enters the checkpoint only (the turn
    after it is the table's choice among many), and once it is entered it is not offered
    again before the next move."""
    from referee.lab.random_game import play_game

    record = play_game("hamburgum", 2, seed=1)
    lines = [line for line in record.split("\n") if line.strip() and not line.startswith("[")]
    table = Tables(folder).new_game("offer", "hamburgum", record.split('[Players "')[1].split('"')[0], None, [])
    first = next(i for i, line in enumerate(lines) if line.startswith("check "))
    assert table.enter(lines[:first], table.version)[0].accepted
    offer, then = taps.checkpoint(table.recording)
    assert offer == [line for line in lines[first : first + 4] if line.startswith("check ")][: len(offer)] and offer
    assert then is None and len(table.recording.hints()) > 1
    assert table.enter(offer, table.version)[0].accepted
    assert taps.checkpoint(table.recording) == ([], None)


def test_a_word_that_leads_to_a_typed_figure_is_a_menu_not_an_error(client):
    """At the last fire of The Speicherstadt the reveals' only way on is its points, typed: the
    menu after `reveal` asks for them (200), it does not send the phone back to the start."""
    from referee.lab.random_game import play_game

    record = play_game("speicherstadt", 2, seed=3)
    lines = [line for line in record.split("\n") if line.strip() and not line.startswith("[")]
    table = client.app.state.tables.new_game("last fire", "speicherstadt", record.split('[Players "')[1].split('"')[0], None, [])
    last = lines.index("reveal fire 5")
    assert lines[last - 1].startswith("check ") and table.enter(lines[:last], table.version)[0].accepted
    answer = client.get(f"/g/{table.path.name}", params={"text": "reveal "}, headers={"X-Partial": "1"})
    assert answer.status_code == 200 and 'name="prefix" value="reveal fire "' in answer.text


KNOWN_CONTRACTS = Path(__file__).parent / "speicherstadt" / "known-contracts.yaml"  # every contract card's goods, as a box file gives them


def test_a_contract_whose_goods_the_box_gives_is_one_tap(folder):
    """Where the data gives each contract card's goods (a group's box file), the reveals list
    the contracts left in the season's stack, each one tap; one revealed is no longer offered."""
    table = Tables(folder).new_game("contracts", "speicherstadt", "beige, orange, purple", None, [str(KNOWN_CONTRACTS)])

    def contracts() -> set[str]:
        return {b.text for b in taps.menu(table.recording, "").buttons if b.text.startswith("reveal contract")}

    winter = {"reveal contract coffee tea", "reveal contract carpet saffron", "reveal contract coffee rubber tea"}  # goods in the notation's order
    assert contracts() == winter and all(b.enters for b in taps.menu(table.recording, "").buttons if b.text in winter)
    assert table.enter(["reveal contract carpet saffron"], table.version)[0].accepted
    assert contracts() == winter - {"reveal contract carpet saffron"}
    assert table.enter(["reveal contract coffee rubber tea"], table.version)[0].accepted  # listed [rubber, coffee, tea]
    assert contracts() == {"reveal contract coffee tea"}
