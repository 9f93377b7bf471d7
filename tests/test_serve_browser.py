"""`referee serve` in a real browser: Debian's headless Chromium, emulating a phone.

One server and one browser serve the whole module. A whole random game (`referee play`) is
entered by taps and the record file must hold its lines exactly; a second browser sees the
first one's moves arrive by themselves; a server killed with SIGKILL mid-game and started
again has lost nothing; a server on another address refuses a request without the join
code; and a script in a player's name never runs. Screenshots go to `artifacts/`.
"""

from __future__ import annotations

import os
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
            [sys.executable, "-m", "referee", "serve", "--games", str(folder), "--host", host, "--port", str(self.port)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
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
    return chromium(tmp_path_factory.mktemp("chromium"), phone=PHONE)


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


def state_of(driver):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, "#play .state")


def tap(driver, element) -> None:
    """Tap a button or a word and wait until the page has swapped in the answer."""
    from selenium.webdriver.support import expected_conditions as EC

    old = state_of(driver)
    element.click()
    wait_for(driver, EC.staleness_of(old))


def version(driver) -> int:
    """The version of the game the page shows (read in one step: the page may be swapped)."""
    return int(driver.execute_script("var s = document.querySelector('#play .state'); return s ? s.getAttribute('data-version') : '-1'"))


MOVES = "#play .moves [data-move]"


def enter_line(driver, target: str) -> int:
    """Enter one line of a record by taps, as a person would: the whole move where it is a
    button, else the word that leads to it, one after another. Returns the taps it took.
    (The buttons are read in one script call: a call per button would cost more than the taps.)"""
    from selenium.webdriver.common.by import By

    taps = 0
    for _ in range(40):
        text, offered = driver.execute_script(
            "var s = document.querySelector('#play .state');"
            f"return [s.getAttribute('data-text'), Array.from(document.querySelectorAll('{MOVES}')).map(function (e) {{ return [e.tagName, e.getAttribute('data-move')]; }})];"
        )
        if text.strip() == target:
            buttons = driver.find_elements(By.CSS_SELECTOR, "#play .moves button.enter")
            assert buttons, f"{target!r} is whole but no enter button is offered"
            tap(driver, buttons[0])
            return taps + 1
        best, best_text = None, ""
        for index, (tag, move) in enumerate(offered):
            whole = tag.lower() == "button"
            if (whole and move == target) or (not whole and (target.startswith(move) or target == move.strip())):
                if len(move) > len(best_text):
                    best, best_text = index, move
        assert best is not None, f"no button leads to {target!r} from {text!r}"
        tap(driver, driver.execute_script(f"return document.querySelectorAll('{MOVES}')[{best}]"))
        taps += 1
        if best_text == target:  # a whole move's button: the tap entered it
            return taps
    raise AssertionError(f"{target!r} took more than 40 taps")


def body_lines(text: str) -> list[str]:
    """A record's lines after its header, blank lines left out."""
    return [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith("[")]


# --- the tests ------------------------------------------------------------------------------


def test_a_whole_random_game_entered_by_taps_gives_the_same_record(server, phone, folder):
    from selenium.webdriver.common.by import By

    record = play_game("canterbury", 2, seed=11)
    expected = body_lines(record)
    seats = [(colour.strip(), "") for colour in record.split('[Players "')[1].split('"')[0].split(",")]
    address = start_game(phone, server.base, "random canterbury", "canterbury", seats)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.save_screenshot(str(ARTIFACTS / "serve-canterbury-start.png"))
    i, taps, checkpoints = 0, 0, 0
    while i < len(expected):
        line = expected[i]
        if line.startswith("check "):
            offered = [e.get_attribute("value") for e in phone.find_elements(By.CSS_SELECTOR, "#play form.checkpoint input[name=line]")]
            assert offered == expected[i : i + len(offered)] and offered, (offered, expected[i : i + 4])
            tap(phone, phone.find_element(By.ID, "confirm-checkpoint"))
            i, taps, checkpoints = i + len(offered), taps + 1, checkpoints + 1
            continue
        taps += enter_line(phone, line)
        i += 1
        if i == 12:
            phone.save_screenshot(str(ARTIFACTS / "serve-canterbury-round-2.png"))
    written = (folder / address.rsplit("/", 1)[1]).read_text("utf-8")
    assert body_lines(written) == expected
    assert "Final standings" in phone.page_source
    phone.save_screenshot(str(ARTIFACTS / "serve-canterbury-end.png"))
    assert taps / checkpoints < 40  # a round's moves and its checkpoint, in taps
    csv = urllib.request.urlopen(address + "/scores.csv").read().decode()
    assert csv.splitlines()[0].startswith("rank,colour,name,total")


def test_two_phones_see_each_others_moves(server, phone, tmp_path_factory):
    from selenium.webdriver.common.by import By

    address = start_game(phone, server.base, "two phones", "speicherstadt", [("beige", "Ann"), ("orange", "Ben")])
    other = new_browser(tmp_path_factory)
    try:
        other.get(address)
        seen = version(other)
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"))
        wait_for(other, lambda d: version(d) > seen, timeout=3)  # pushed, within a second or two
        assert "reveal" in other.find_element(By.CSS_SELECTOR, "#play .recent").text
        seen = version(phone)
        button = other.find_element(By.CSS_SELECTOR, "#play .moves button.move")
        tap(other, button)
        wait_for(phone, lambda d: version(d) > seen, timeout=3)
        assert phone.find_element(By.CSS_SELECTOR, "#play .recent").text == other.find_element(By.CSS_SELECTOR, "#play .recent").text
        # a tap on a page that is out of step is refused, and the page shows the game as it is
        stale = version(other)
        phone.execute_script("document.querySelectorAll('#play input[name=version]').forEach(function (e) { e.value = '0'; })")
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"))
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
            tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"))
        told = phone.find_element(By.CSS_SELECTOR, "#play .recent").text.split("\n")
    finally:
        first.kill()
    path = games / address.rsplit("/", 1)[1]
    assert body_lines(path.read_text("utf-8"))[-3:] == told[-3:]
    second = Server(games, port=first.port)
    try:
        phone.get(address)
        assert phone.find_element(By.CSS_SELECTOR, "#play .recent").text.split("\n")[-3:] == told[-3:]
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#play .moves button.move"))
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
