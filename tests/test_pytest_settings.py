"""The README's test command tells why a test was skipped, so a machine without chromium
shows "needs chromium" in the summary rather than a bare count."""

import subprocess
import sys
from pathlib import Path

import tests.browser as site_tests

ROOT = Path(__file__).resolve().parents[1]


def test_skipped_tests_say_why_in_the_summary(tmp_path):
    (tmp_path / "test_skip.py").write_text("import pytest\n\ndef test_a():\n    pytest.skip('needs chromium')\n", encoding="utf-8")
    # the project's own settings (pyproject.toml), as `python -m pytest` in the checkout reads
    # them; in one process (-n 0), as the summary is the same and starting workers takes seconds
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-n", "0", str(tmp_path / "test_skip.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SKIPPED [1]" in result.stdout and "needs chromium" in result.stdout, result.stdout


def test_without_chromium_the_browser_tests_say_they_need_it(monkeypatch):
    monkeypatch.setattr(site_tests, "CHROMIUM", "/nonexistent/chromium")
    assert site_tests.missing_browser().startswith("needs chromium")
