"""Fixtures of the browser tests: a real table server, Debian's chromium through Playwright.

The browser tests skip (with the reason) only when chromium is missing; ``.ci/run`` installs
it (``.ci/install-chromium``) and sets ``CHICAGO_REQUIRE_CHROMIUM`` so that CI fails instead.
``CHICAGO_CHROMIUM`` may name another chromium binary. Screenshots go to ``tests/artifacts/``
(ignored by git).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .serving import LiveServer

CHROMIUM = (os.environ.get("CHICAGO_CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def _chromium_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return (f"chromium not found at {CHROMIUM} (install it: apt-get install -y chromium; "
                ".ci/run does)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright for Python is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A table server with a fresh database, for the tests of one module."""
    server = LiveServer(tmp_path_factory.mktemp("web-db")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright."""
    reason = _chromium_missing()
    if reason:
        if os.environ.get("CHICAGO_REQUIRE_CHROMIUM"):  # set by .ci/run, which installs it
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
