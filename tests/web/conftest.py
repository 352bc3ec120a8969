"""Fixtures of the browser tests: a real table server, Debian's chromium through Playwright.

The browser tests skip (with the reason) only when chromium is missing; ``.ci/run`` installs
it (``.ci/install-chromium``) and sets ``CHICAGO_REQUIRE_CHROMIUM`` so that CI fails instead.
The server sends its Content-Security-Policy as always; every page the tests open reports
each violation of it to the console, and a test during which one was reported fails
(:class:`CheckedBrowser`).
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


CSP_REPORTER = """document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')
    + ' at ' + (e.sourceFile || document.location.href) + ':' + e.lineNumber);
});"""
"""Runs in every page before its own scripts: a violation of the page's policy becomes a
console error the tests see (chromium's own message about it does not always reach them)."""


class CheckedBrowser:
    """The browser, whose every context reports violations of the Content-Security-Policy
    (:data:`CSP_REPORTER`) into :attr:`violations`; anything else is the browser's own."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.violations: list[str] = []

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.add_init_script(CSP_REPORTER)
        context.on("console", self._console)
        return context

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def _console(self, message: Any) -> None:
        text = message.text
        if "CSP violation" in text or "Content Security Policy" in text:
            self.violations.append(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def no_csp_violations(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test fails when a page broke the server's Content-Security-Policy."""
    if "browser" not in request.fixturenames:
        yield
        return
    checked: CheckedBrowser = request.getfixturevalue("browser")
    checked.violations.clear()
    yield
    found, checked.violations[:] = list(checked.violations), []
    assert not found, f"Content-Security-Policy violations: {found}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright (a :class:`CheckedBrowser`)."""
    reason = _chromium_missing()
    if reason:
        if os.environ.get("CHICAGO_REQUIRE_CHROMIUM"):  # set by .ci/run, which installs it
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield CheckedBrowser(chromium)
        chromium.close()


@pytest.fixture(scope="module")
def page(browser: Any, live: LiveServer) -> Iterator[Any]:
    """The lobby in English in a page of its own, for tests that run the app's modules."""
    context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.goto(live.url)
    page.wait_for_selector("[data-action=quick-play]")
    yield page
    context.close()
