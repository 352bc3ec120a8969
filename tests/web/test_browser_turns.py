"""Correspondence games and the notices that it is your turn, in real browsers (issue 26).

A table of one day per move between Anna (a profile, desktop, English) and Bo (a guest, phone,
Swedish), both on "Your games". The server's clock is moved forward a day at a time (never
slept on): each time the stand-in moves for the person whose day ran out, the turn passes,
and the other's page says so at once: the badge of "Your games", the tab's title and the
list; Bo's tab, hidden and allowed to notify, gets a notification of the browser
(the Notification API, recorded by a wrapper around it).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from chicago.server.clock import ShiftedClock

from .driver import HIDDEN_AND_RECORDED, api
from .serving import LiveServer, until

pytestmark = pytest.mark.timeout(300)

DAY = 86400



@pytest.fixture(scope="module")
def clock() -> ShiftedClock:
    return ShiftedClock()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, clock: ShiftedClock) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("turns-db"), clock=clock).start()
    yield server
    server.stop()


def _page(context: Any, live: LiveServer, storage: dict[str, Any], init: str = "") -> Any:
    page = context.new_page()
    script = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(json.dumps(v))});"
                     for k, v in storage.items())
    page.add_init_script(script + init)
    page.goto(f"{live.url}#/turns")
    page.wait_for_selector(".turns h1")
    return page


def _moved_on(live: LiveServer, table_id: str, seq: int) -> dict[str, Any] | None:
    """The table once a change after ``seq`` is stored and a person is to act whose day
    runs (nothing moves until the clock does), else None: a seat away (its third day in a
    row) is played on at once by its stand-in, which is waited for too.

    Asked from here, not from a page: Playwright's ``wait_for_function`` does not await an
    async predicate (the promise it returns is truthy, so the wait ended at once with the
    answer of a fetch made before the stand-in moved, read as seat 0 half the time)."""
    table: dict[str, Any] = api(live, "GET", f"api/tables/{table_id}")
    to_act = table["to_act"]
    if table["seq"] > seq and to_act is not None and not table["seats"][to_act]["away"]:
        return table
    return None


def _badge(page: Any) -> str:
    return str(page.evaluate("document.getElementById('turns-badge').hidden ? '' : "
                             "document.getElementById('turns-badge').textContent"))


def test_a_correspondence_game_moves_on_by_days_and_each_is_told(
        browser: Any, live: LiveServer, clock: ShiftedClock) -> None:
    made = api(live, "POST", "api/profiles", {"name": "Anna"})
    table = api(live, "POST", "api/tables", {"seats": ["open", "open"], "clock_days": 1,
                                             "name": "Letters"})
    import urllib.request

    request = urllib.request.Request(
        f"{live.url}api/tables/{table['id']}/join", data=b'{"seat": 0}', method="POST",
        headers={"Content-Type": "application/json", "X-Chicago-Profile": made["secret"]})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
    bo = api(live, "POST", f"api/tables/{table['id']}/join", {"seat": 1, "name": "Bo"})
    desk = browser.new_context(viewport={"width": 1100, "height": 850}, locale="en-GB")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                is_mobile=True, has_touch=True)
    phone.grant_permissions(["notifications"], origin=live.url.rstrip("/"))
    anna_page = _page(desk, live, {"chicago.profile": {**made["profile"],
                                                       "secret": made["secret"]}})
    bo_page = _page(phone, live, {"chicago.seats": {table["id"]: {
        "token": bo["token"], "seat": 1, "name": "Letters", "joined": 1}}},
        HIDDEN_AND_RECORDED)
    pages = {0: anna_page, 1: bo_page}
    seat = api(live, "GET", f"api/tables/{table['id']}")["to_act"]
    pages[seat].wait_for_function(
        "() => document.getElementById('turns-badge').textContent === '1'")
    assert pages[seat].title().startswith("(1) ")
    assert pages[seat].locator("[data-testid=turns] li", has_text="Letters").count() == 1
    assert _badge(pages[1 - seat]) == "" and not pages[1 - seat].title().startswith("(")
    told = {0: 0, 1: 0}
    for _ in range(12):  # a day at a time until each has been told of a turn of theirs
        if all(told.values()):
            break
        before = api(live, "GET", f"api/tables/{table['id']}")
        clock.advance(DAY + 1)  # the day of the seat to act runs out: its stand-in moves
        moved = until(functools.partial(_moved_on, live, table["id"], before["seq"]),
                      "the stand-in to move and a person's day to run")
        seat = int(moved["to_act"])
        pages[seat].wait_for_function(
            "() => document.getElementById('turns-badge').textContent === '1'")
        pages[1 - seat].wait_for_function(
            "() => document.getElementById('turns-badge').hidden")
        told[seat] += 1
    assert all(told.values()), told
    notes = bo_page.evaluate("window.__notes")
    assert notes and notes[0] == {"title": "Din tur i Chicago",
                                  "body": "Det är din tur vid Letters."}
    assert anna_page.evaluate("window.__notes === undefined")  # Anna's tab is not hidden
    assert bo_page.locator("[data-testid=turns] li").count() == (1 if seat == 1 else 0)
    desk.close()
    phone.close()
