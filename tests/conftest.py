"""The test session keeps its caches (grammar tables, validated specs) in a folder of its own,
removed at the end, so that tests neither read a user's cache nor leave files in it."""

from __future__ import annotations

import os
import shutil
import tempfile

_made: list[str] = []


def pytest_configure(config):
    # the tests read the referee's English; a Hungarian or German locale of the machine
    # would otherwise choose the language (tests of the locale pass their own environment)
    os.environ["LANGUAGE"] = "en"
    if "REFEREE_CACHE" not in os.environ:
        folder = tempfile.mkdtemp(prefix="referee-test-cache-")
        _made.append(folder)
        os.environ["REFEREE_CACHE"] = folder


def pytest_unconfigure(config):
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("REFEREE_CACHE") == folder:
            del os.environ["REFEREE_CACHE"]
