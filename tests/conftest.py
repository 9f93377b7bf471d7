"""The test session keeps its caches (grammar tables, validated specs) in a folder of its own,
removed at the end, so that tests neither read a user's cache nor leave files in it; so is
its configuration folder, so that no user's box file (`referee box --use`) changes a verdict."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

_made: list[str] = []


def pytest_configure(config):
    # the tests read the referee's English; a Hungarian or German locale of the machine
    # would otherwise choose the language (tests of the locale pass their own environment)
    os.environ["LANGUAGE"] = "en"
    # compiled modules are kept, whatever the machine's environment asks (PYTHONDONTWRITEBYTECODE):
    # the session starts many `python -m referee` processes, and its workers each import the
    # tests, which would otherwise compile the package and rewrite every test module each time
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    if "REFEREE_CACHE" not in os.environ:
        folder = tempfile.mkdtemp(prefix="referee-test-cache-")
        _made.append(folder)
        os.environ["REFEREE_CACHE"] = folder
    if "REFEREE_TEST_SITE" not in os.environ:  # set by the controller, inherited by the workers
        folder = tempfile.mkdtemp(prefix="referee-test-site-")
        _made.append(folder)
        os.environ["REFEREE_TEST_SITE"] = folder
    if "XDG_CONFIG_HOME" not in os.environ or not os.environ.get("REFEREE_TEST_KEEP_CONFIG"):
        folder = tempfile.mkdtemp(prefix="referee-test-config-")
        _made.append(folder)
        os.environ["XDG_CONFIG_HOME"] = folder


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than the machine has processors. Many tests spend much of
    their time waiting (for a browser, a server, a process they started, the site's build),
    and the extra worker runs tests meanwhile: on the project's 2 processors the suite took
    297 s with 3 workers, 335 s with 2 (3 December 2026)."""
    return (os.cpu_count() or 1) + 1


def pytest_unconfigure(config):
    for folder in _made:
        if os.environ.get("REFEREE_TEST_SITE") == folder:  # the session's end: a build still running is stopped
            from tests.built_site import stop_background_build

            stop_background_build(Path(folder))
        shutil.rmtree(folder, ignore_errors=True)
        for name in ("REFEREE_CACHE", "XDG_CONFIG_HOME", "REFEREE_TEST_SITE"):
            if os.environ.get(name) == folder:
                del os.environ[name]


@pytest.fixture(scope="session")
def site():
    """The site built once for the whole session (by every pytest-xdist worker together),
    shared by every test that reads it; see tests/built_site.py."""
    from tests.built_site import session_site

    return session_site(Path(os.environ["REFEREE_TEST_SITE"]))


def pytest_collection_finish(session):
    """A session that will read the site starts building it now, beside the other tests (over a
    minute of processor time that would otherwise hold up the first test to need it)."""
    if any("site" in getattr(item, "fixturenames", ()) for item in session.items):
        from tests.built_site import start_background_build

        start_background_build(Path(os.environ["REFEREE_TEST_SITE"]))
