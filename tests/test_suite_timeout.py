"""The suite's own timeout cannot be swallowed.

pytest-timeout's default SIGALRM raises its failure wherever the test happens to be; when
that is inside a gc callback (hypothesis installs one for every test), Python prints the
exception as "ignored" and the test goes on to pass. One CI run had a 600 s timeout end that
way. The suite's configuration (pyproject.toml) uses the watchdog thread instead; this test
runs a test that overruns its timeout inside a gc callback under that configuration and
checks that it fails.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OVERRUN = '''
import gc
import time

import pytest


@pytest.mark.timeout(1)
def test_overruns_inside_a_gc_callback():
    def slow(phase, info):
        if phase == "start":
            end = time.monotonic() + 5
            while time.monotonic() < end:
                pass
    gc.callbacks.append(slow)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(slow)
'''


def test_a_timeout_inside_a_gc_callback_fails_the_test(tmp_path: Path) -> None:
    """The overrunning test fails (its run exits non-zero, naming the timeout) under the
    suite's configuration; with SIGALRM it would pass."""
    (tmp_path / "test_overrun.py").write_text(OVERRUN)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         str(tmp_path / "test_overrun.py")],
        capture_output=True, text=True, cwd=tmp_path, check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "Timeout" in output, output
    assert "1 passed" not in output, output
