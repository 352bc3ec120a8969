"""The app's pages one after another, in a real browser: a page that is left draws nothing
more, and the skip link moves the focus without leaving the page.

The first test is the cause of a failure of the accessibility test on a busy machine (CI,
2026-12-07): it opened "Finished games", then "Your games", and waited in vain for the
heading of "Your games". The list of finished games had come after the page was left, and
the games page drew itself over "Your games". Here the list is held back until the next page
shows, so the test does not depend on the machine's speed.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .serving import LiveServer

pytestmark = pytest.mark.timeout(120)

GAMES = "**/api/games?limit=*"


def test_a_page_left_before_its_answer_came_draws_nothing_over_the_next(
    browser: Any, live: LiveServer
) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(GAMES, hold_the_first)
    with page.expect_request(GAMES):
        page.goto(f"{live.url}#/games")
    expect(page.locator("#app h1")).to_have_text("Finished games")
    page.goto(f"{live.url}#/turns")
    heading = page.locator("#app h1")
    expect(heading).to_have_text("Your games")
    for _ in range(500):  # the route's handler runs when Playwright next hears the page
        if held:
            break
        page.evaluate("0")
    assert held, "the list of finished games was never asked for"
    with page.expect_response(GAMES):
        held[0].continue_()
    # One more list asked for and read by the page itself: by the time it is read, the
    # first answer (already in) has been read and handled too.
    page.evaluate("() => fetch('api/games?limit=1').then((r) => r.json())"
                  ".then(() => new Promise((done) => setTimeout(done, 0)))")
    expect(heading).to_have_count(1)
    expect(heading).to_have_text("Your games")
    expect(page.locator("#app [data-action=more-games]")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("route", ["#/help", "#/games"])
def test_the_skip_link_moves_the_focus_to_the_page_and_stays_on_it(
    browser: Any, live: LiveServer, route: str
) -> None:
    """The first link of every page ("Skip to the game", WCAG 2.4.1) takes the keyboard past
    the header to the page itself; it must not be read as a route (``#app`` is no page, and
    was the lobby)."""
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.goto(f"{live.url}{route}")
    heading = page.locator("#app h1").first
    expect(heading).to_be_visible()
    before = heading.text_content()
    page.keyboard.press("Tab")
    expect(page.locator("a.skip")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#app")).to_be_focused()
    assert page.evaluate("location.hash") == route
    expect(page.locator("body")).not_to_have_attribute("data-page", "lobby")
    expect(heading).to_have_text(before or "")
    context.close()
