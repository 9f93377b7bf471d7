"""`referee serve` in a real browser: Debian's headless Chromium, emulating a phone.

One server and one browser serve the whole module. A whole random game (`referee play`) of each
game is entered by taps and the record file must hold its lines exactly; a second browser sees the
first one's moves arrive by themselves; a server killed with SIGKILL mid-game and started
again has lost nothing; a server on another address refuses a request without the join
code; and a script in a player's name never runs. Screenshots go to `artifacts/`.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from referee.lab.random_game import play_game
from tests.browser import chromium

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
PHONE = {
    "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2},
    "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
}
WAIT = 10.0  # seconds a page may take to answer a tap, at most

pytest.importorskip("starlette", reason="needs the serve extra")
pytest.importorskip("uvicorn", reason="needs the serve extra")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Server:
    """`referee serve` in a process of its own, on a folder and a port."""

    def __init__(self, folder: Path, host: str = "127.0.0.1", port: int | None = None):
        self.folder, self.host = folder, host
        self.port = port or free_port(host)
        self.base = f"http://{host}:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee", "serve", "--games", str(folder), "--host", host, "--port", str(self.port), "--rate", "200"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((host, self.port), timeout=0.5):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise AssertionError(f"referee serve stopped: {self.process.stdout.read()}") from None
                time.sleep(0.1)
        raise AssertionError("referee serve did not start listening")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def server(folder):
    running = Server(folder)
    yield running
    running.stop()


def new_browser(tmp_path_factory):
    """A phone's browser that loads no pictures: a position's picture costs the browser more
    than the rest of a tap, and the pictures are tested where they are drawn (test_serve.py)."""
    return chromium(tmp_path_factory.mktemp("chromium"), "--blink-settings=imagesEnabled=false", phone=PHONE)


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    driver = new_browser(tmp_path_factory)
    yield driver
    driver.quit()


# --- what a phone does ----------------------------------------------------------------------


def start_game(driver, base: str, title: str, game: str, seats: list[tuple[str, str]], variant: str = "") -> str:
    """Fill in the new-game form and return the game's address."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(base + "/")
    driver.find_element(By.NAME, "title").send_keys(title)
    Select(driver.find_element(By.NAME, "game")).select_by_value(game)
    if variant:
        Select(driver.find_element(By.NAME, "variant")).select_by_value(variant)
    for field, (colour, name) in zip(zip(driver.find_elements(By.NAME, "colour"), driver.find_elements(By.NAME, "name")), seats):
        field[0].send_keys(colour)
        field[1].send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "form.new button[type=submit]").click()
    wait_for(driver, lambda d: "/g/" in d.current_url)
    return driver.current_url.split("?")[0]


def wait_for(driver, condition, timeout: float = WAIT):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition)


# A finger's tap is three calls of the browser: ARM (the element scrolled into view, and the
# point a finger lands on), a touch pointer's down and up there (W3C actions: the browser makes
# the tap a click, as on a phone), and SWAPPED, which waits in the page for the answer to be
# swapped in and reads it. chromedriver's element click instead waits 40 ms before every touch in
# a phone's emulation and checks the element several times over, and a wait for the old page to
# go stale polls from Python: together more than half of a tap's time. ARM checks what that click
# checks: that the element is shown and that a finger at the centre of what shows of it touches
# it. A whole game's hundreds of taps are quick taps: ARM's checks, the element's click and the
# wait for the answer in one call (TAPPED); the touch itself is tested by the finger's taps.
ARM = """
var element = typeof arguments[0] === 'string' ? document.querySelectorAll(arguments[0])[arguments[1]] : arguments[0];
if (!element) return [null, 'nothing on the page is ' + arguments[0] + ' #' + arguments[1]];
element.scrollIntoView({block: 'center', inline: 'center'});
var box = element.getClientRects()[0];
if (!box) return [null, 'not shown: ' + element.outerHTML.slice(0, 120)];
var left = Math.max(0, box.left), right = Math.min(window.innerWidth, box.right);
var top = Math.max(0, box.top), bottom = Math.min(window.innerHeight, box.bottom);
var x = Math.floor((left + right) / 2), y = Math.floor((top + bottom) / 2), there = document.elementFromPoint(x, y);
if (!there || !element.contains(there)) return [null, 'a finger there touches ' + (there ? there.outerHTML.slice(0, 120) : 'nothing') + ', not ' + element.outerHTML.slice(0, 120)];
window.refereeTapped = document.querySelector('#play .state');
return [[x, y], null];
"""
SHOWN = """
var root = document.getElementById('play'), state = root.querySelector('.state');
return {
  status: root.getAttribute('data-status'), enter: root.querySelectorAll('.moves button.enter').length > 0, version: state ? Number(state.getAttribute('data-version')) : -1, text: state && state.getAttribute('data-text'),
  offered: Array.from(root.querySelectorAll('.moves [data-move]')).map(function (e) { return [e.tagName, e.getAttribute('data-move')]; }),
  checkpoint: Array.from(root.querySelectorAll('form.checkpoint input[name=line]')).map(function (e) { return e.value; }),
  free: (root.querySelector('.moves input[name=prefix]') || {}).value || null,
  recent: Array.from(root.querySelectorAll('.recent li')).map(function (e) { return e.textContent; })
};
"""
SWAPPED = (
    """
var done = arguments[arguments.length - 1], before = window.refereeTapped, root = document.getElementById('play');
function shown() {"""
    + SHOWN
    + """}
if (!before || !before.isConnected) return done(shown());
var timer = setTimeout(function () { watch.disconnect(); done(null); }, arguments[0]);
var watch = new MutationObserver(function () {
  if (before.isConnected) return;
  watch.disconnect(); clearTimeout(timer); done(shown());
});
watch.observe(root, {childList: true});
"""
)


TAPPED = (
    """
var done = arguments[arguments.length - 1];
var armed = (function () {"""
    + ARM
    + """}).apply(null, arguments);
if (armed[1] !== null) return done({problem: armed[1]});
var element = typeof arguments[0] === 'string' ? document.querySelectorAll(arguments[0])[arguments[1]] : arguments[0];
var wait = arguments[2], before = window.refereeTapped, root = document.getElementById('play');
function shown() {"""
    + SHOWN
    + """}
var timer = setTimeout(function () { watch.disconnect(); done(null); }, wait);
var watch = new MutationObserver(function () {
  if (before.isConnected) return;
  watch.disconnect(); clearTimeout(timer); done(shown());
});
watch.observe(root, {childList: true});
element.click();
"""
)


def shown(driver) -> dict:
    """What the play part of the page shows, read in one step (the page may be swapped): the
    status of the answer swapped in last, the version (-1 where the page shows none), the move
    begun, whether it can be entered, the moves offered (tag and move) and the lines of a
    checkpoint offered."""
    return driver.execute_script(SHOWN)


def tap(driver, target, index: int = 0, finger: bool = False) -> dict:
    """Tap a button or a word (an element, or the `index`th of those a CSS selector names) and
    wait until the page has swapped in the answer; returns what the page shows then (see
    `shown`). With `finger`, a touch pointer taps it, as on a phone; else it is clicked where a
    finger would find it."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    if not finger:
        after = driver.execute_async_script(TAPPED, target, index, int(WAIT * 1000))
        assert after is not None, f"the page did not swap in an answer within {WAIT} s"
        assert "problem" not in after, after["problem"]
        return after
    where, problem = driver.execute_script(ARM, target, index)
    assert problem is None, problem
    finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=0)
    finger.pointer_action.move_to_location(*where).pointer_down().pointer_up()
    finger.perform()
    after = driver.execute_async_script(SWAPPED, int(WAIT * 1000))
    assert after is not None, f"the page did not swap in an answer within {WAIT} s"
    return after


def version(driver) -> int:
    """The version of the game the page shows (read in one step: the page may be swapped)."""
    return shown(driver)["version"]


MOVES = "#play .moves [data-move]"
STATED = re.compile(r"^\S+: (?:beer|sugar|cloth) \d+$")  # a Civitas Hamburgum yield the record states


def enter_line(driver, lines: list[str], now: dict, finger: bool = False) -> tuple[int, dict]:
    """Enter the first of `lines` (the record's lines still to come) by taps, as a person
    would: the whole move where it is a button (or a button of several lines, where those are
    the lines to come), the value typed where the page asks for one, else the word that leads
    to it, one after another, from what the page shows `now`. Every tap must be answered with
    200. Returns the taps it took and what the page shows then. (What the page shows is read in
    one script call: a call per button would cost more than the taps.)"""
    from selenium.webdriver.common.by import By

    target, taps = lines[0], 0
    for _ in range(40):
        text, offered = now["text"], now["offered"]
        if text.strip() == target:
            assert now["enter"], f"{target!r} is whole but no enter button is offered"
            now = tap(driver, "#play .moves button.enter", finger=finger)
            assert now["status"] == "200", (target, now)
            return taps + 1, now
        free = now["free"]
        if free is not None and target.startswith(free) and " " not in target[len(free) :]:
            driver.find_element(By.CSS_SELECTOR, "#play .moves input[name=fill]").send_keys(target[len(free) :])
            now = tap(driver, "#enter-free", finger=finger)
            assert now["status"] == "200", (target, now)
            return taps + 1, now
        best, best_text = None, ""
        for index, (tag, move) in enumerate(offered):
            whole = tag.lower() == "button"
            several = move.split(" / ")
            if whole and len(several) > 1 and several == lines[: len(several)]:
                best, best_text = index, target
                break
            if (whole and move == target) or (not whole and (target.startswith(move) or target == move.strip())):
                if len(move) > len(best_text):
                    best, best_text = index, move
        if best is None and STATED.match(target):  # a figure the table may state: typed, as a phone's player would
            driver.execute_script("document.querySelector('#play details.typed').open = true")
            driver.find_element(By.CSS_SELECTOR, "#play details.typed input[name=line]").send_keys(target)
            now = tap(driver, "#play details.typed button", finger=finger)
            assert now["status"] == "200", (target, now)
            return taps + 1, now
        assert best is not None, f"no button leads to {target!r} from {text!r}"
        now = tap(driver, MOVES, best, finger=finger)
        assert now["status"] == "200", (target, best_text, now)
        taps += 1
        if best_text == target:  # a whole move's button: the tap entered it
            return taps, now
    raise AssertionError(f"{target!r} took more than 40 taps")


def body_lines(text: str) -> list[str]:
    """A record's lines after its header, blank lines left out."""
    return [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith("[")]


# --- the tests ------------------------------------------------------------------------------


def kept(lines: list[str], entered: int, recent: list[str]) -> int:
    """How many of the record's lines the game holds after a tap that entered the first
    `entered`: the server enters by itself a line the rules leave no choice about (a pass when
    a player cannot pay), read off the last lines the page shows."""
    for n in range(min(len(lines), entered + 8), entered - 1, -1):
        if recent and lines[:n][-len(recent) :] == recent:
            return n
    return entered


WHOLE_GAMES = [("canterbury", 2, 11), ("speicherstadt", 2, 3), ("hamburgum", 2, 1)]


@pytest.mark.parametrize("game, players, seed", WHOLE_GAMES, ids=[game for game, _, _ in WHOLE_GAMES])
def test_a_whole_random_game_entered_by_taps_gives_the_same_record(server, phone, folder, game, players, seed):
    from selenium.webdriver.common.by import By

    record = play_game(game, players, seed=seed)
    expected = body_lines(record)
    seats = [(colour.strip(), "") for colour in record.split('[Players "')[1].split('"')[0].split(",")]
    address = start_game(phone, server.base, f"random {game}", game, seats)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.save_screenshot(str(ARTIFACTS / f"serve-{game}-start.png"))
    i, taps, checkpoints = 0, 0, 0
    now = shown(phone)
    while i < len(expected):
        line = expected[i]
        if line.startswith("check "):
            offered = now["checkpoint"]
            assert offered == expected[i : i + len(offered)] and offered, (offered, expected[i : i + 4])
            now = tap(phone, "#confirm-checkpoint")
            assert now["status"] == "200", (offered, now)
            taps, checkpoints = taps + 1, checkpoints + 1
            i = kept(expected, i + len(offered), now["recent"])
            continue
        took, now = enter_line(phone, expected[i:], now, finger=i < 12)  # the first round by a finger
        taps += took
        i = kept(expected, i + 1, now["recent"])
        if i == 12:
            phone.save_screenshot(str(ARTIFACTS / f"serve-{game}-round-2.png"))
    written = (folder / address.rsplit("/", 1)[1]).read_text("utf-8")
    assert body_lines(written) == expected
    assert "Final standings" in phone.page_source
    phone.save_screenshot(str(ARTIFACTS / f"serve-{game}-end.png"))
    assert taps / checkpoints <= 40  # a round's moves and its checkpoint, in taps
    picture = phone.find_element(By.CSS_SELECTOR, "#play img.position").get_attribute("src")  # pictures are not loaded: fetched here
    assert b"<svg" in urllib.request.urlopen(picture).read()[:400]
    csv = urllib.request.urlopen(address + "/scores.csv").read().decode()
    assert csv.splitlines()[0].startswith("rank,colour,name,total")


def test_two_phones_see_each_others_moves(server, phone, tmp_path_factory):
    from selenium.webdriver.common.by import By

    address = start_game(phone, server.base, "two phones", "speicherstadt", [("beige", "Ann"), ("orange", "Ben")])
    other = new_browser(tmp_path_factory)
    try:
        other.get(address)
        seen = version(other)
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"), finger=True)
        wait_for(other, lambda d: version(d) > seen, timeout=3)  # pushed, within a second or two
        assert "reveal" in other.find_element(By.CSS_SELECTOR, "#play .recent").text
        seen = version(phone)
        button = other.find_element(By.CSS_SELECTOR, "#play .moves button.move")
        tap(other, button, finger=True)
        wait_for(phone, lambda d: version(d) > seen, timeout=3)
        assert phone.find_element(By.CSS_SELECTOR, "#play .recent").text == other.find_element(By.CSS_SELECTOR, "#play .recent").text
        # a tap on a page that is out of step is refused, and the page shows the game as it is
        stale = version(other)
        phone.execute_script("document.querySelectorAll('#play input[name=version]').forEach(function (e) { e.value = '0'; })")
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"), finger=True)
        assert "another phone moved first" in phone.find_element(By.CSS_SELECTOR, "#play").text
        assert version(phone) == stale
    finally:
        other.quit()


def test_a_killed_server_loses_nothing(phone, tmp_path_factory):
    from selenium.webdriver.common.by import By

    games = tmp_path_factory.mktemp("killed")
    first = Server(games)
    try:
        address = start_game(phone, first.base, "killed", "speicherstadt", [("beige", ""), ("orange", "")])
        for _ in range(3):
            tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"), finger=True)
        told = phone.find_element(By.CSS_SELECTOR, "#play .recent").text.split("\n")
    finally:
        first.kill()
    path = games / address.rsplit("/", 1)[1]
    assert body_lines(path.read_text("utf-8"))[-3:] == told[-3:]
    second = Server(games, port=first.port)
    try:
        phone.get(address)
        assert phone.find_element(By.CSS_SELECTOR, "#play .recent").text.split("\n")[-3:] == told[-3:]
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"), finger=True)
        assert len(body_lines(path.read_text("utf-8"))) == 4
    finally:
        second.stop()


def test_off_localhost_a_request_without_the_join_code_is_refused(tmp_path_factory):
    host = "127.0.0.2"  # the loopback range, but not this machine's own name for itself
    try:
        with socket.socket() as s:
            s.bind((host, 0))
    except OSError:
        pytest.skip(f"{host} cannot be bound here")
    games = tmp_path_factory.mktemp("shared")
    running = Server(games, host=host)
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(running.base + "/")
        assert refused.value.code == 403
        code = (games / ".referee-serve-server-code").read_text().strip()
        assert len(code) >= 16
        with urllib.request.urlopen(f"{running.base}/?join={code}") as page:
            assert page.status == 200
        with pytest.raises(urllib.error.HTTPError) as wrong:
            urllib.request.urlopen(f"{running.base}/?join={code[:-1]}x")
        assert wrong.value.code == 403
    finally:
        running.stop()


def test_a_script_in_a_players_name_does_not_run(server, phone):
    from selenium.webdriver.common.by import By

    image, script = "<img src=x onerror=window.pwned=1>", "<script>window.pwned=2</script>"
    start_game(phone, server.base, "names", "canterbury", [("blue", image), ("red", script)])
    phone.get(phone.current_url)  # the page drawn afresh, not only the answer to the form
    assert phone.execute_script("return window.pwned === undefined")
    assert phone.find_elements(By.CSS_SELECTOR, "#play img:not(.position)") == []  # shown as text, never made an element
    shown = phone.find_element(By.CSS_SELECTOR, "#play .seats").text
    assert image in shown and script in shown
