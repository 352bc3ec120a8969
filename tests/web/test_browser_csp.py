"""The app runs under the server's Content-Security-Policy (issue 14), and a violation of it
is caught: the shared browser fixture fails every browser test during which a page broke the
policy (tests/web/conftest.py)."""

from __future__ import annotations

from typing import Any

from .serving import LiveServer


def test_the_lobby_runs_under_the_policy_and_a_violation_is_caught(browser: Any,
                                                                   live: LiveServer) -> None:
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    response = page.goto(live.url)
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    page.wait_for_selector(".lobby")
    assert browser.violations == []
    # what the policy forbids: an inline style attribute and an inline script are refused
    # (each violation is reported as an event: waited for, both)
    def reported(directive: str) -> Any:
        return page.context.expect_console_message(  # after the fixture has counted it
            lambda message: "CSP violation" in message.text and directive in message.text)

    with reported("style-src"), reported("script-src"):
        page.evaluate("""() => {
          document.body.setAttribute('style', 'outline: 3px solid red');
          const s = document.createElement('script');
          s.textContent = 'window.__inline = true';
          document.body.appendChild(s);
        }""")
    assert page.evaluate("() => window.__inline === undefined")
    assert page.evaluate("() => getComputedStyle(document.body).outlineStyle") != "solid"
    caught, browser.violations[:] = list(browser.violations), []
    assert any("style-src" in v for v in caught), caught
    assert any("script-src" in v for v in caught), caught
    page.context.close()
