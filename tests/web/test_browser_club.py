"""Club play in a real browser (docs/CLUB.md): an organizer creates a tournament through
the form, two people make profiles and join it (one on a phone-sized screen in Swedish),
the organizer starts it, both play their tables through the page, and the organizer's
tournament page updates by itself to the final standings; the profile page then shows the
game and the rating chart; no page scrolls sideways on the phone."""

from __future__ import annotations

from typing import Any

import pytest

from .driver import WAIT_MS, Player, progress_marks, wait_for_progress
from .serving import LiveServer

pytestmark = pytest.mark.timeout(300)

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def _make_profile(page: Any, live: LiveServer, name: str) -> None:
    page.goto(f"{live.url}#/profile")
    page.fill("#profile-name", name)
    page.click("[data-action=create-profile]")
    page.wait_for_selector("[data-club=profile]")


def _join(page: Any, live: LiveServer, tid: str) -> None:
    page.goto(f"{live.url}#/tournament/{tid}")
    page.click("[data-action=join-tournament]")
    page.wait_for_selector("[data-joined]")


def _take_my_table(page: Any, live: LiveServer, name: str) -> Player:
    page.wait_for_selector("[data-action=my-table]", timeout=WAIT_MS)
    page.click("[data-action=my-table]")
    page.wait_for_selector(".table-page")
    return Player(page, live, name=name)


def _three_browsers(browser: Any) -> tuple[Any, Any, Any]:
    """The organizer's desk (English), a phone (Swedish) and another player's (English)."""
    desk = browser.new_context(viewport={"width": 1100, "height": 850}, locale="en-GB")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                is_mobile=True, has_touch=True)
    other = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    return desk, phone, other


_NOW_JS = """() => {
  if (document.querySelector('[data-dialog=game-over]')) return 'over';
  if (document.querySelector('.deal-summary [data-action=continue]:not([disabled])'))
    return 'summary';
  const p = document.querySelector('.table-page');
  const tb = window.chicago && window.chicago.table;
  return p && p.dataset.myTurn === '1' && tb && !tb.pending ? 'turn' : '';
}"""
"""What a player must do now, at once ('' for nothing): the look of :meth:`Player.state`
without its wait."""


def _play_all(players: list[Player]) -> None:
    """Play every player's turns until each one's game is over (they may share a table, so
    nobody waits for the other: each is looked at in turn; when nobody may act, wait for
    any of their pages to change)."""
    done: set[int] = set()
    while len(done) < len(players):
        marks = progress_marks(players)
        moved = False
        for index, player in enumerate(players):
            if index in done:
                continue
            what = player.page.evaluate(_NOW_JS)
            if what == "over":
                done.add(index)
            elif what == "turn":
                player.act()
            elif what == "summary":  # a deal's summary before the game's end: go on
                player.page.click(".deal-summary [data-action=continue]")
            moved = moved or bool(what)
        if not moved:
            wait_for_progress(players, marks)
    assert all(p.leak_checks > 0 for p in players)


def test_a_tournament_in_the_browser(browser: Any, live: LiveServer, artifacts: Any) -> None:
    desk, phone, other = _three_browsers(browser)
    try:
        organizer = desk.new_page()
        organizer.goto(f"{live.url}#/tournaments")
        organizer.wait_for_selector("#tournament-form")
        organizer.fill("#t-name", "Club night")
        organizer.fill("#t-tables", "2")
        organizer.fill("#t-table_size", "2")
        organizer.fill("#t-rounds", "1")
        organizer.fill("#t-deals", "1")
        organizer.select_option("#t-bot", "basic")
        organizer.click("[data-action=create-tournament]")
        organizer.wait_for_selector("[data-club=tournament][data-status=registering]")
        assert organizer.locator("[data-organizer]").count() == 1
        tid = organizer.url.rsplit("/", 1)[1]

        anna = phone.new_page()
        _make_profile(anna, live, "Anna")
        anna.goto(f"{live.url}#/tournament/{tid}")
        assert anna.locator("[data-action=join-tournament]").inner_text() == \
            "Gå med i turneringen"
        assert "Tar emot spelare" in anna.inner_text(".tour-status")
        assert anna.locator("[data-organizer]").count() == 0  # not the organizer's browser
        assert anna.evaluate(NO_SIDEWAYS), "the tournament page scrolls sideways on a phone"
        _join(anna, live, tid)
        assert anna.inner_text("[data-joined]") == "Du är med."
        bo = other.new_page()
        _make_profile(bo, live, "Bo")
        _join(bo, live, tid)

        # the organizer's page shows both entrants by itself, then starts round one
        organizer.wait_for_function(
            "() => document.querySelectorAll('[data-entrant]').length === 2", timeout=WAIT_MS)
        organizer.click("[data-action=start-tournament]")
        organizer.wait_for_selector("[data-club=tournament][data-status=playing]")
        assert organizer.locator("[data-standings]").count() == 1
        assert organizer.locator("[data-round-number='1'] [data-table]").count() == 2

        _play_all([_take_my_table(anna, live, "anna"), _take_my_table(bo, live, "bo")])

        organizer.wait_for_selector("[data-club=tournament][data-status=finished]",
                                    timeout=WAIT_MS)
        rows = organizer.locator(".standings tbody tr")
        assert rows.count() == 4
        assert "Final result" in organizer.inner_text(".standings h2")
        assert organizer.locator("[data-round-number='1'] a[download]").count() == 2
        organizer.screenshot(path=str(artifacts / "club-tournament-final.png"), full_page=True)

        # the profile page: the game counted, the rating history drawn as inline SVG (the
        # server applies the ratings just after the tournament's end is stored; applying
        # what is pending now waits for that, without a reload every so often)
        live.call(live.app.state.club.apply_ratings)
        anna.goto(f"{live.url}#/profile")
        anna.wait_for_selector("[data-club=profile] [data-stat=games]")
        anna.locator(".rating-chart svg polyline").wait_for()
        assert anna.inner_text("[data-stat=games]") == "1"
        assert anna.locator("[data-game] a.button").count() >= 1  # the replay link
        assert anna.evaluate(NO_SIDEWAYS), "the profile page scrolls sideways on a phone"
        anna.screenshot(path=str(artifacts / "club-profile-phone-sv.png"), full_page=True)
        anna.goto(f"{live.url}#/leaderboard")
        anna.wait_for_selector("[data-participant]")
        assert "Topplista" in anna.inner_text("h1")
        assert anna.evaluate(NO_SIDEWAYS), "the leaderboard scrolls sideways on a phone"
        anna.goto(f"{live.url}#/tournament/{tid}")
        anna.wait_for_selector("[data-club=tournament][data-status=finished]")
        assert "Slutresultat" in anna.inner_text(".standings h2")
        anna.screenshot(path=str(artifacts / "club-tournament-phone-sv.png"), full_page=True)
        assert anna.evaluate(NO_SIDEWAYS)
    finally:
        for context in (desk, phone, other):
            context.close()


def test_a_sign_in_link_carries_the_profile_and_signing_out_everywhere_ends_it(
        browser: Any, live: LiveServer) -> None:
    first = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    second = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    try:
        page = first.new_page()
        _make_profile(page, live, "Cilla")
        page.click("[data-action=show-link]")
        link = page.input_value("#signin-link")
        assert "#/signin/" in link
        other = second.new_page()
        other.goto(link)
        other.wait_for_selector("[data-club=profile]")
        assert other.inner_text("h1") == "Cilla"
        assert "#/signin/" not in other.url  # the secret left the address bar
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("[data-action=rotate]")
        page.wait_for_selector(".notice.info:not([hidden])")
        again = second.new_page()
        again.goto(link)  # the old link no longer signs in
        again.wait_for_selector(".notice.error:not([hidden])")
        assert "sign in" in again.inner_text(".notice").lower()
    finally:
        first.close()
        second.close()


def test_a_name_another_profile_has_is_refused_in_the_players_language(
        browser: Any, live: LiveServer) -> None:
    """docs/CLUB.md "Players": one profile a name. A second browser asking for "dag"
    (Swedish, a phone) after "Dag" was made is told the name is taken, in Swedish; it stays
    without a profile, on the form with its name, and another name makes one."""
    first = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    second = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                 is_mobile=True, has_touch=True)
    try:
        _make_profile(first.new_page(), live, "Dag")
        page = second.new_page()
        page.goto(f"{live.url}#/profile")
        page.fill("#profile-name", "  dag ")
        page.click("[data-action=create-profile]")
        page.wait_for_selector(".notice.error:not([hidden])")
        assert page.inner_text(".notice.error .notice-text").startswith(
            "En annan profil har redan det namnet")
        assert page.locator("[data-club=profile]").count() == 0
        assert page.input_value("#profile-name") == "  dag "
        assert page.evaluate("document.activeElement.id") == "profile-name"
        assert page.evaluate("localStorage.length === 0 || !JSON.stringify(localStorage)"
                             ".includes('secret')")
        page.fill("#profile-name", "Dag Ö")
        page.click("[data-action=create-profile]")
        page.wait_for_selector("[data-club=profile]")
        assert page.inner_text("h1") == "Dag Ö"
    finally:
        first.close()
        second.close()


def _create(page: Any, live: LiveServer, name: str, rounds: int = 1) -> str:
    """The organizer's browser creates a tournament through the form: its id."""
    page.goto(f"{live.url}#/tournaments")
    page.wait_for_selector("#tournament-form")
    page.fill("#t-name", name)
    page.fill("#t-tables", "2")
    page.fill("#t-table_size", "2")
    page.fill("#t-rounds", str(rounds))
    page.fill("#t-deals", "1")
    page.click("[data-action=create-tournament]")
    page.wait_for_selector("[data-club=tournament][data-status=registering]")
    tid: str = page.url.rsplit("/", 1)[1]
    return tid


def _notice(page: Any) -> str:
    text: str = page.inner_text(".notice.info:not([hidden]) .notice-text")
    return text


def _entrant_count(page: Any, count: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-entrant]').length === {count}",
        timeout=WAIT_MS)


def _wait_for_text(page: Any, selector: str, text: str) -> None:
    """Wait until the element shows ``text`` (a DOM change), as long as the suite waits for
    any event."""
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.innerText || '').includes(t)",
        arg=[selector, text], timeout=WAIT_MS)


def test_the_organizer_removes_a_no_show_a_player_leaves_and_tournaments_end_early_or_are_cancelled(
        browser: Any, live: LiveServer, artifacts: Any) -> None:
    """The organizer (English) removes a no-show with the Remove control beside the entrant;
    a player (Swedish, phone) leaves with "Lämna turneringen"; each asks first and says what
    it did. The organizer starts, then ends the tournament after this round (the page says
    so, the control goes). A second tournament is cancelled: the player's page shows it
    cancelled, with no join button, and the list says so."""
    desk, phone, other = _three_browsers(browser)
    try:
        organizer = desk.new_page()
        asked: list[str] = []

        def accept(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        organizer.on("dialog", accept)
        tid = _create(organizer, live, "Friday cup", rounds=3)
        anna = phone.new_page()
        anna.on("dialog", accept)
        _make_profile(anna, live, "Alva")
        _join(anna, live, tid)
        bo = other.new_page()
        _make_profile(bo, live, "Erik")
        _join(bo, live, tid)

        # a player leaves (in Swedish): asked first, told after, and may join again
        anna.click("[data-action=leave-tournament]")
        anna.wait_for_selector("[data-action=join-tournament]")
        assert asked[-1].startswith("Lämna turneringen?")
        assert anna.locator("[data-action=leave-tournament]").count() == 0
        assert _notice(anna) == "Du har lämnat turneringen."
        assert anna.evaluate(NO_SIDEWAYS)
        _join(anna, live, tid)

        # the organizer removes Erik (a no-show) with the control beside his name
        _entrant_count(organizer, 2)
        organizer.screenshot(path=str(artifacts / "club-tournament-organizer.png"))
        bo_row = organizer.locator("[data-entrant]", has_text="Erik")
        bo_id = bo_row.get_attribute("data-entrant")
        bo_row.locator("[data-action=remove-entrant]").click()
        organizer.wait_for_selector(f"[data-entrant={bo_id}]", state="detached")
        assert asked[-1] == "Remove Erik from the tournament?"
        assert _notice(organizer) == "Erik is no longer in the tournament."
        assert organizer.locator("[data-entrant]").count() == 1
        assert anna.locator("[data-action=remove-entrant]").count() == 0  # not hers
        bo.reload()
        bo.wait_for_selector("[data-action=join-tournament]")

        # started, then ended after this round
        organizer.click("[data-action=start-tournament]")
        organizer.wait_for_selector("[data-club=tournament][data-status=playing]")
        assert organizer.locator("[data-action=cancel-tournament]").count() == 0
        organizer.click("[data-action=end-after-round]")
        organizer.wait_for_selector("[data-action=end-after-round]", state="detached")
        assert asked[-1].startswith("End the tournament after round 1?")
        assert _notice(organizer) == "The tournament ends after round 1."
        assert "ends the tournament after round 1" in organizer.inner_text(".tour-status")
        anna.goto(f"{live.url}#/tournament/{tid}")
        # her page shows the tournament already: wait for the change the organizer made to
        # reach it (the page asks again every few seconds), not for a poll period
        _wait_for_text(anna, ".tour-status", "Arrangören avslutar turneringen efter rond 1.")
        assert "rond 1 av 1" in anna.inner_text(".tour-status").lower()

        # another tournament, cancelled before its start
        second = _create(organizer, live, "Saturday cup")
        organizer.click("[data-action=cancel-tournament]")
        organizer.wait_for_selector("[data-club=tournament][data-status=cancelled]")
        assert asked[-1].startswith("Cancel the tournament?")
        assert _notice(organizer) == "The tournament is cancelled."
        assert organizer.locator("[data-organizer] button").count() == 0
        anna.goto(f"{live.url}#/tournament/{second}")
        anna.wait_for_selector("[data-club=tournament][data-status=cancelled]")
        assert anna.inner_text(".tour-status") == "Arrangören har ställt in turneringen."
        assert anna.locator("[data-action=join-tournament]").count() == 0
        anna.screenshot(path=str(artifacts / "club-tournament-cancelled-sv.png"), full_page=True)
        anna.goto(f"{live.url}#/tournaments")
        anna.wait_for_selector(f"[data-tournament='{second}']")
        assert "inställd" in anna.inner_text(f"[data-tournament='{second}']")
    finally:
        for context in (desk, phone, other):
            context.close()


def _profile_seat_page(context: Any, live: LiveServer, secret: str) -> tuple[Any, str]:
    """A table of the profile and a slow bot, open in a new page that holds the profile's
    seat token as the app keeps it."""
    import json
    import urllib.request

    from .driver import api

    table = api(live, "POST", "api/tables", {"seats": ["open", "bot:random"], "bot_delay": 5})
    request = urllib.request.Request(
        f"{live.url}api/tables/{table['id']}/join", data=b"{}", method="POST",
        headers={"Content-Type": "application/json", "X-Chicago-Profile": secret})
    with urllib.request.urlopen(request, timeout=30) as response:
        joined = json.loads(response.read())
    saved = {table["id"]: {"token": joined["token"], "seat": joined["seat"], "name": "",
                           "joined": 1}}
    page = context.new_page()
    page.add_init_script(
        f"localStorage.setItem('chicago.seats', {json.dumps(json.dumps(saved))});")
    page.goto(f"{live.url}#/table/{table['id']}")
    page.wait_for_selector(".conn[data-status=open]")
    return page, table["id"]


def test_a_seat_taken_elsewhere_or_signed_out_everywhere_says_so_in_words(
        browser: Any, live: LiveServer) -> None:
    """Issue 23: the server closes a revoked seat token's socket; the page says why in the
    player's words, forgets the dead token and does not reconnect with it."""
    import urllib.request

    from .driver import api

    def post(path: str, secret: str) -> Any:
        import json

        request = urllib.request.Request(f"{live.url}{path}", data=b"", method="POST",
                                         headers={"X-Chicago-Profile": secret})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    secret = api(live, "POST", "api/profiles", {"name": "Dora"})["secret"]
    english = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    swedish = browser.new_context(viewport={"width": 1000, "height": 800}, locale="sv-SE")
    try:
        page, table_id = _profile_seat_page(english, live, secret)
        post(f"api/tables/{table_id}/claim", secret)  # the seat, taken on another device
        page.wait_for_selector(".conn[data-status=claimed]")
        assert "taken on another device" in page.inner_text(".conn")
        stored = page.evaluate("localStorage.getItem('chicago.seats')")
        assert table_id not in (stored or "")

        other, _ = _profile_seat_page(swedish, live, secret)
        post("api/profiles/me/rotate", secret)  # sign out everywhere
        other.wait_for_selector(".conn[data-status=signed_out]")
        assert "loggades ut på en annan enhet" in other.inner_text(".conn")
    finally:
        english.close()
        swedish.close()
