"""The test session keeps its caches (grammar tables, validated specs) in a folder of its own,
removed at the end, so that tests neither read a user's cache nor leave files in it; so is
its configuration folder, so that no user's box file (`referee box --use`) changes a verdict."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile

import pytest

_made: list[str] = []


def pytest_configure(config):
    # the tests read the referee's English; a Hungarian or German locale of the machine
    # would otherwise choose the language (tests of the locale pass their own environment)
    os.environ["LANGUAGE"] = "en"
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
def site(tmp_path_factory, worker_id):
    """The site built once for the whole session, shared by every test that reads it: with
    pytest-xdist, by every worker too (the first to need it builds it in the session's
    common folder while the others wait; a build takes over a minute of processor time)."""
    from tests.built_site import mkdocs_build

    if worker_id == "master":
        dest = tmp_path_factory.mktemp("site")
        result = mkdocs_build(dest)
        assert result.returncode == 0, result.stdout + result.stderr
        return dest
    common = tmp_path_factory.getbasetemp().parent  # the session's, above each worker's own
    dest, failed = common / "site", common / "site-failed.txt"
    with open(common / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (common / "site-built").is_file() and not failed.is_file():
            result = mkdocs_build(dest)
            if result.returncode != 0:
                failed.write_text(result.stdout + result.stderr, encoding="utf-8")
            else:
                (common / "site-built").write_text("", encoding="utf-8")
    assert not failed.is_file(), failed.read_text(encoding="utf-8")
    return dest
