"""The test session keeps its caches (grammar tables, validated specs) in a folder of its own,
removed at the end, so that tests neither read a user's cache nor leave files in it; so is
its configuration folder, so that no user's box file (`referee box --use`) changes a verdict."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_made: list[str] = []


def pytest_configure(config):
    if "REFEREE_CACHE" not in os.environ:
        folder = tempfile.mkdtemp(prefix="referee-test-cache-")
        _made.append(folder)
        os.environ["REFEREE_CACHE"] = folder
    if "XDG_CONFIG_HOME" not in os.environ or not os.environ.get("REFEREE_TEST_KEEP_CONFIG"):
        folder = tempfile.mkdtemp(prefix="referee-test-config-")
        _made.append(folder)
        os.environ["XDG_CONFIG_HOME"] = folder


def pytest_unconfigure(config):
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
        for name in ("REFEREE_CACHE", "XDG_CONFIG_HOME"):
            if os.environ.get(name) == folder:
                del os.environ[name]


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The site built once for the whole session, shared by every test that reads it."""
    from tests.built_site import mkdocs_build

    dest = tmp_path_factory.mktemp("site")
    result = mkdocs_build(dest)
    assert result.returncode == 0, result.stdout + result.stderr
    return dest
