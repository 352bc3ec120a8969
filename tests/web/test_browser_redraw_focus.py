"""The keyboard focus stays where it was when news from the server draws a page anew.

Pages are drawn anew whole when news arrives: the lobby (here: how many wait in the pairing
queue Anna is in, which changes when Bo takes or gives up his place through the real
server), the table (a seat taken by someone else), the invitations (another invitation
comes). A control without an id (Follow in "People online", Join of an open table, Decline
of an invitation) used to lose the focus to the page's body then, and an Enter pressed just
after did nothing; and the table put it back on the first control of the same action (Join
of another seat). Each person goes by keyboard (Tab to the control); each redraw is waited
for by the change it shows, never by a time. The lobby passes axe with the focus kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .axe import assert_accessible
from .driver import api
from .serving import LiveServer, until

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("lobby-focus-db")).start()
    yield server
    server.stop()


def _as(live: LiveServer, secret: str, method: str, path: str, body: Any = None) -> Any:
    return api(live, method, path, body, profile=secret)


def _lobby(context: Any, live: LiveServer, who: dict[str, Any]) -> Any:
    """A lobby page of a profile, queued for four-player pagat with no bots ever."""
    page = context.new_page()
    profile = json.dumps(json.dumps({**who["profile"], "secret": who["secret"]}))
    page.add_init_script(f"localStorage.setItem('chicago.profile', {profile});")
    page.goto(live.url)
    page.wait_for_selector("#pair-form")
    page.check("input[name=p-wait][data-wait='null']")  # never bots: no clock in the test
    return page


def _queue(page: Any) -> None:
    page.click("[data-action=pair]")
    page.wait_for_selector("[data-pairing=queued] [data-action=pair-leave]")


def _waiting(page: Any, count: int) -> None:
    """The lobby drawn with `count` people in the queue (a redraw when the count changed)."""
    page.wait_for_function(
        "(n) => { const s = document.querySelector('[data-pairing=queued] [role=status]');"
        " return s && s.textContent.includes(`: ${n} `); }", arg=count)


def _tab_to(page: Any, reached: str) -> None:
    """Press Tab until the focused element satisfies `reached` (JS, given the element)."""
    test = f"() => {{ const el = document.activeElement; return Boolean(el && ({reached})); }}"
    for _ in range(200):
        if page.evaluate(test):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {reached}")


def _focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement.outerHTML.slice(0, 120)"))


def test_follow_and_join_keep_the_focus_when_queue_news_redraws_the_lobby(
        browser: Any, live: LiveServer) -> None:
    anna = api(live, "POST", "api/profiles", {"name": "Anna"})
    bo = api(live, "POST", "api/profiles", {"name": "Bo"})
    bo_id = bo["profile"]["id"]
    _as(live, bo["secret"], "PUT", "api/profiles/me/online", {"show": True})
    table = api(live, "POST", "api/tables", {"seats": ["open", "open", "bot:basic"],
                                             "name": "Öppet bord", "bot_delay": 0.2})
    desk = browser.new_context(viewport={"width": 1100, "height": 850}, locale="en-GB")
    other = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    bo_page = _lobby(other, live, bo)
    anna_page = _lobby(desk, live, anna)
    _queue(anna_page)
    _waiting(anna_page, 1)
    follow = f"[data-testid=people-online] [data-action=follow][data-profile='{bo_id}']"
    anna_page.wait_for_selector(follow)
    anna_page.wait_for_selector(f".open-tables li[data-table='{table['id']}']")

    # Follow (no id): Bo takes a place in the queue, Anna's lobby is drawn with 2 waiting
    _tab_to(anna_page, f"el.matches({json.dumps(follow)})")
    _queue(bo_page)
    _waiting(anna_page, 2)
    assert anna_page.evaluate(f"document.activeElement.matches({json.dumps(follow)})"), \
        f"focus lost by the redraw: {_focused(anna_page)}"
    anna_page.keyboard.press("Enter")
    anna_page.wait_for_selector(f"[data-testid=following] li[data-profile='{bo_id}']")
    assert until(lambda: _as(live, anna["secret"], "GET", "api/people")["following"],
                 "Anna follows Bo")[0]["profile"] == bo_id

    # Join of an open table (a link without an id): Bo gives his place up, 1 waiting again
    join = f"a[href='#/table/{table['id']}']"
    _tab_to(anna_page, f"el.matches({json.dumps(join)}) && el.closest('.open-tables')")
    bo_page.click("[data-action=pair-leave]")
    _waiting(anna_page, 1)
    assert anna_page.evaluate(f"document.activeElement.matches({json.dumps(join)})"), \
        f"focus lost by the redraw: {_focused(anna_page)}"
    assert_accessible(anna_page, "the lobby drawn anew, the focus kept on Join")
    anna_page.keyboard.press("Enter")
    anna_page.wait_for_function(f"() => location.hash === '#/table/{table['id']}'")
    anna_page.wait_for_selector(".table-page")
    desk.close()
    other.close()


def test_join_of_a_seat_keeps_its_seat_when_another_takes_a_seat(
        browser: Any, live: LiveServer) -> None:
    """The table drawn anew (Cy sits) while Dag's focus is on Join of the third seat: the
    focus stays on that seat's Join, not on the first Join left, and Enter seats him there."""
    table = api(live, "POST", "api/tables", {"seats": ["open", "open", "open", "bot:basic"],
                                             "name": "Fyra", "bot_delay": 0.2})
    context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.add_init_script("localStorage.setItem('chicago.name', JSON.stringify('Dag'));")
    page.goto(f"{live.url}#/table/{table['id']}")
    third = "button[data-action=join][data-seat='2']"
    page.wait_for_selector(third)
    _tab_to(page, f"el.matches({json.dumps(third)})")
    api(live, "POST", f"api/tables/{table['id']}/join", {"seat": 1, "name": "Cy"})
    page.wait_for_selector("[data-action=join][data-seat='1']", state="detached")
    assert page.evaluate(f"document.activeElement.matches({json.dumps(third)})"), \
        f"focus not on the third seat's Join after the redraw: {_focused(page)}"
    page.keyboard.press("Enter")
    seats = until(lambda: [s for s in api(live, "GET", f"api/tables/{table['id']}")["seats"]
                           if s.get("name") == "Dag"], "Dag seated")
    assert [s["seat"] for s in seats] == [2]
    context.close()


def test_decline_keeps_its_invitation_when_another_invitation_comes(
        browser: Any, live: LiveServer) -> None:
    """Eva declines Fia's first invitation by keyboard; the second one comes between her Tab
    and her Enter (the invitations drawn anew): the first is declined, the second stays."""
    eva = api(live, "POST", "api/profiles", {"name": "Eva"})
    fia = api(live, "POST", "api/profiles", {"name": "Fia"})
    _as(live, eva["secret"], "PUT", "api/profiles/me/online", {"show": True})
    tables = []
    for name in ("Första", "Andra"):
        made = api(live, "POST", "api/tables", {"seats": ["open", "open", "bot:basic"],
                                                "name": name, "bot_delay": 0.2})
        _as(live, fia["secret"], "POST", f"api/tables/{made['id']}/join", {"seat": 0})
        tables.append(made["id"])
    context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    page = _lobby(context, live, eva)
    until(lambda: any(p["profile"] == eva["profile"]["id"]
                      for p in _as(live, fia["secret"], "GET", "api/people")["online"]),
          "Eva online")
    first = _as(live, fia["secret"], "POST", f"api/tables/{tables[0]}/invite",
                {"profile": eva["profile"]["id"]})["invite"]["id"]
    decline = f"#invites [data-invite='{first}'] [data-action=invite-decline]"
    page.wait_for_selector(decline)
    _tab_to(page, f"el.matches({json.dumps(decline)})")
    _as(live, fia["secret"], "POST", f"api/tables/{tables[1]}/invite",
        {"profile": eva["profile"]["id"]})
    page.wait_for_function("() => document.querySelectorAll('#invites .invite-card').length === 2")
    assert page.evaluate(f"document.activeElement.matches({json.dumps(decline)})"), \
        f"focus lost by the redraw: {_focused(page)}"
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#invites [data-invite='{first}']", state="detached")
    left = _as(live, fia["secret"], "GET", "api/invites")["sent"]
    assert [i["table"] for i in left] == [tables[1]]
    context.close()


def test_follow_on_a_profile_page_keeps_the_focus_when_the_language_changes(
        browser: Any, live: LiveServer) -> None:
    """Every page is drawn anew in the other language: a profile page too. The switch is
    pressed by a script (its click() leaves the focus where it is, as news would), and the
    focus stays on Follow, now in Swedish; Enter follows, and the focus goes to Unfollow,
    the button Follow turned into."""
    gun = api(live, "POST", "api/profiles", {"name": "Gun"})
    hal = api(live, "POST", "api/profiles", {"name": "Hal"})
    hal_id = hal["profile"]["id"]
    context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    page = _lobby(context, live, gun)
    page.goto(f"{live.url}#/profile/{hal_id}")
    follow = f"button[data-action=follow][data-profile='{hal_id}']"
    page.wait_for_selector(follow)
    english = page.inner_text(follow)
    _tab_to(page, f"el.matches({json.dumps(follow)})")
    page.evaluate("document.querySelector('#lang-switch [data-lang=sv]').click()")
    page.wait_for_function(f"(was) => document.querySelector({json.dumps(follow)})"
                           ".textContent !== was", arg=english)
    assert page.evaluate(f"document.activeElement.matches({json.dumps(follow)})"), \
        f"focus lost by the redraw: {_focused(page)}"
    page.keyboard.press("Enter")
    unfollow = f"button[data-action=unfollow][data-profile='{hal_id}']"
    page.wait_for_selector(unfollow)
    assert page.evaluate(f"document.activeElement.matches({json.dumps(unfollow)})"), \
        f"focus not on Unfollow after Follow: {_focused(page)}"
    assert [p["profile"] for p in _as(live, gun["secret"], "GET", "api/people")["following"]] \
        == [hal_id]
    context.close()
