"""Play now with people, in real browsers (issue 26): three people in three browsers (a
desktop in English, a phone in Swedish, and one by keyboard alone) queue for a four-player
pagat table with bots after a minute; each sees how many wait; the server's clock is moved
past the minute (never slept on), and all three are taken to their seats at one table whose
fourth seat a bot took. The queued panel passes axe, and the phone page never scrolls
sideways."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from chicago.server.clock import ShiftedClock

from .axe import assert_accessible
from .driver import api
from .serving import LiveServer

pytestmark = pytest.mark.timeout(300)

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def clock() -> ShiftedClock:
    return ShiftedClock()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, clock: ShiftedClock) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("pairing-db"), clock=clock).start()
    yield server
    server.stop()


def _lobby(context: Any, live: LiveServer, name: str) -> Any:
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('chicago.name', {json.dumps(json.dumps(name))});")
    page.goto(live.url)
    page.wait_for_selector("#pair-form")
    return page


def _waiting(page: Any, count: int) -> None:
    page.wait_for_function(
        "(n) => { const s = document.querySelector('[data-pairing=queued] [role=status]');"
        " return s && s.textContent.includes(`: ${n} `); }", arg=count)


def test_three_people_are_paired_and_a_bot_takes_the_fourth_seat(
        browser: Any, live: LiveServer, clock: ShiftedClock) -> None:
    desk = browser.new_context(viewport={"width": 1100, "height": 850}, locale="en-GB")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                is_mobile=True, has_touch=True)
    keys = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    anna, bo, cy = _lobby(desk, live, "Anna"), _lobby(phone, live, "Bo"), _lobby(keys, live, "Cy")
    assert bo.locator("#pair-title").inner_text() == "Spela nu med andra"
    assert anna.locator("input[name=p-wait][data-wait='60']").is_checked()
    anna.click("[data-action=pair]")
    _waiting(anna, 1)
    bo.click("[data-action=pair]")
    _waiting(bo, 2)
    cy.focus("#p-preset")  # Cy by keyboard alone: the fields, then the button
    for _ in range(20):
        if cy.evaluate("document.activeElement.dataset.action") == "pair":
            break
        cy.keyboard.press("Tab")
    cy.keyboard.press("Enter")
    for page in (anna, bo, cy):
        _waiting(page, 3)
    assert "väntar i den här kön" in bo.locator("[data-pairing=queued] [role=status]").inner_text()
    assert bo.evaluate(NO_SIDEWAYS)
    assert_accessible(anna, "the lobby with a place in the queue")
    assert_accessible(bo, "the lobby with a place in the queue, on a phone in Swedish")
    queues = api(live, "GET", "api/pairing")["queues"]
    assert queues == [{"preset": "pagat", "players": 4, "rated": False, "waiting": 3}]
    clock.advance(61)  # past the minute each chose: a bot takes the fourth seat
    for page in (anna, bo, cy):
        page.wait_for_function("() => location.hash.startsWith('#/table/')")
        page.wait_for_selector(".table, .board, [data-seat]")
    tables = {page.evaluate("location.hash.split('/')[2]") for page in (anna, bo, cy)}
    assert len(tables) == 1
    table = api(live, "GET", f"api/tables/{tables.pop()}")
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "human", "bot"]
    assert sorted(s["name"] for s in table["seats"][:3]) == ["Anna", "Bo", "Cy"]
    assert api(live, "GET", "api/pairing")["queues"] == []
    for context in (desk, phone, keys):
        context.close()


def test_leaving_the_queue_and_a_reload_keeps_the_place(browser: Any, live: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    page = _lobby(context, live, "Dag")
    page.check("input[name=p-wait][data-wait='null']")
    page.select_option("#p-players", "2")
    page.click("[data-action=pair]")
    _waiting(page, 1)
    page.reload()  # the tab keeps its ticket: the place comes back
    _waiting(page, 1)
    page.click("[data-action=pair-leave]")
    page.wait_for_selector("#pair-form")
    assert [q for q in api(live, "GET", "api/pairing")["queues"] if q["players"] == 2] == []
    context.close()
