"""Who is online, follows and invitations in real browsers (issue 26; docs/PROTOCOL.md,
"People"). Anna (desktop, English) and Bo (a phone, Swedish, his tab hidden and allowed to
notify) have profiles. Bo chooses "Show me as online" in his lobby; Anna's lobby shows him
online, she follows him there, and "People you follow" shows him online (his profile page
has the button to stop following, and to follow again). At her table she
invites him: his page shows the invitation with Join and Decline at once (and his browser a
notification, recorded by a wrapper around the Notification API); he joins and sits. Then a
second invitation, which he declines, and Anna's page says so. Every wait is for a change of
a page or of the server, never a time; the pages are checked with axe.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .axe import assert_accessible
from .driver import HIDDEN_AND_RECORDED, api, in_view_and_on_top
from .serving import LiveServer, until

pytestmark = pytest.mark.timeout(300)



@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("people-db")).start()
    yield server
    server.stop()


def _as(live: LiveServer, secret: str, method: str, path: str, body: Any = None) -> Any:
    return api(live, method, path, body, profile=secret)


def _table(live: LiveServer, anna: dict[str, Any], name: str) -> tuple[str, str]:
    """A table of Anna (seat 0), an open seat and a bot: (id, Anna's token)."""
    table = api(live, "POST", "api/tables", {"seats": ["open", "open", "bot:basic"],
                                             "name": name, "bot_delay": 0.2})
    joined = _as(live, anna["secret"], "POST", f"api/tables/{table['id']}/join", {"seat": 0})
    return table["id"], joined["token"]


def _page(context: Any, live: LiveServer, storage: dict[str, Any], init: str = "") -> Any:
    page = context.new_page()
    script = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(json.dumps(v))});"
                     for k, v in storage.items())
    page.add_init_script(script + init)
    page.goto(live.url)
    page.wait_for_selector("[data-testid=people] h2")
    return page


def test_anna_sees_bo_online_follows_and_invites_him_he_joins_then_declines(
        browser: Any, live: LiveServer) -> None:
    anna = api(live, "POST", "api/profiles", {"name": "Anna"})
    bo = api(live, "POST", "api/profiles", {"name": "Bo"})
    bo_id = bo["profile"]["id"]
    first, anna_token = _table(live, anna, "Kvällsbordet")
    second, second_token = _table(live, anna, "Morgonbordet")
    desk = browser.new_context(viewport={"width": 1100, "height": 850}, locale="en-GB")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                is_mobile=True, has_touch=True)
    phone.grant_permissions(["notifications"], origin=live.url.rstrip("/"))
    bo_page = _page(phone, live, {"chicago.profile": {**bo["profile"], "secret": bo["secret"]}},
                    HIDDEN_AND_RECORDED)
    bo_page.wait_for_selector("#show-online")
    assert not bo_page.is_checked("#show-online")  # off until he says so
    bo_page.check("#show-online")
    until(lambda: _as(live, bo["secret"], "GET", "api/profiles/me/online")["show"],
          "Bo's choice stored")
    anna_page = _page(desk, live, {
        "chicago.profile": {**anna["profile"], "secret": anna["secret"]},
        "chicago.seats": {first: {"token": anna_token, "seat": 0, "name": "Kvällsbordet",
                                  "joined": 1},
                          second: {"token": second_token, "seat": 0, "name": "Morgonbordet",
                                   "joined": 2}}})
    row = f"[data-testid=people-online] li[data-profile='{bo_id}']"
    anna_page.wait_for_selector(row)
    assert_accessible(anna_page, "the lobby with people online")
    anna_page.click(f"{row} [data-action=follow]")
    anna_page.wait_for_selector(f"[data-testid=following] li[data-profile='{bo_id}']"
                                "[data-online=true]")
    assert _as(live, anna["secret"], "GET", "api/people")["following"][0]["profile"] == bo_id
    anna_page.goto(f"{live.url}#/profile/{bo_id}")  # his profile page says so, and undoes it
    anna_page.click(f"[data-action=unfollow][data-profile='{bo_id}']")
    anna_page.click(f"[data-action=follow][data-profile='{bo_id}']")
    anna_page.wait_for_selector(f"[data-action=unfollow][data-profile='{bo_id}']")
    assert _as(live, anna["secret"], "GET", "api/people")["following"][0]["profile"] == bo_id

    # the invitation, by keyboard: Bo's page shows it, his hidden tab notifies
    anna_page.goto(f"{live.url}#/table/{first}")
    invite = ("[data-testid=invite-people][data-table='{}'] "
              f"[data-action=invite-profile][data-profile='{bo_id}']")
    anna_page.wait_for_selector(invite.format(first))
    anna_page.focus(invite.format(first))
    # news of people redraws the panel between her focus and her Enter (as it did once in
    # CI, under load, and the Enter went nowhere): the focus stays on Bo's button
    anna_page.evaluate("() => window.chicago.table.invitePanel.render()")
    anna_page.keyboard.press("Enter")
    anna_page.wait_for_selector("[data-testid=invited]")
    assert_accessible(anna_page, "the table with people to invite")
    card = bo_page.wait_for_selector("#invites .invite-card")
    assert card.inner_text().startswith("Anna bjuder in dig till Kvällsbordet.")
    notes = bo_page.evaluate("window.__notes")
    assert {"title": "En inbjudan till Chicago",
            "body": "Anna bjuder in dig till Kvällsbordet."} in notes
    assert_accessible(bo_page, "a page with an invitation")
    for button in ("invite-join", "invite-decline"):  # on the phone, in view at once
        in_view_and_on_top(bo_page, f"#invites [data-action={button}]")
    bo_page.click("#invites [data-action=invite-join]")
    bo_page.wait_for_function(f"() => location.hash === '#/table/{first}'")
    bo_page.click("[data-action=join][data-seat='1']")
    seated = until(lambda: api(live, "GET", f"api/tables/{first}")["seats"][1]["profile"],
                   "Bo seated")
    assert seated == bo_id
    bo_page.wait_for_selector("#invites", state="hidden")

    # a second invitation, which Bo declines: Anna's page says so
    anna_page.goto(f"{live.url}#/table/{second}")
    anna_page.click(invite.format(second))  # (found again if the list is drawn anew)
    bo_page.locator("#invites .invite-card", has_text="Morgonbordet").wait_for()
    bo_page.click("#invites [data-action=invite-decline]")
    anna_page.wait_for_selector(".notice-text", state="attached")
    anna_page.wait_for_function(
        "() => document.querySelector('.notice-text')?.textContent === "
        "'Bo declined your invitation.'")
    bo_page.wait_for_selector("#invites", state="hidden")
    assert api(live, "GET", f"api/tables/{second}")["seats"][1]["kind"] == "open"
    desk.close()
    phone.close()
