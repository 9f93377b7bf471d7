"""Debian's chromium, driven by selenium, for the tests that look at pages as a person does,
and a folder of built pages served on this machine for them."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# Headless, and nothing beyond this machine: any address but loopback goes to a proxy that is
# not there (a test of pages opened from disk adds --proxy-bypass-list=<-loopback>: none at all).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--proxy-server=http://127.0.0.1:9",
)


def missing_browser() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs chromium driven by selenium (pip install -e '.[test]')"
    if not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()):
        return "needs chromium (Debian's chromium and chromium-driver packages)"
    return None


def chromium(profile: Path, *flags: str, phone: dict | None = None):
    """A new headless chromium with its own empty profile; `phone` emulates a phone's screen
    (chromium's mobileEmulation settings). Skips the test where there is no browser."""
    reason = missing_browser()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if phone is not None:
        options.add_experimental_option("mobileEmulation", phone)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def serve_folder(folder: Path) -> http.server.ThreadingHTTPServer:
    """The folder served on a free port of this machine, quietly, until `shutdown()`."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
