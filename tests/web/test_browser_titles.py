"""Every page of the browser app names the tab, and the top navigation marks where you are.

WCAG 2.4.2 (Page Titled): the app is one page with a hash router, and every route used to
leave the tab's title as the app's name alone ("Chicago"), so the tabs of a person with the
lobby, a table and the help open read the same, and a screen reader said nothing on a route
change. Now each route's title is "<page> – Chicago" in the current language, after the
count of tables waiting for you ("(1) Finished games – Chicago"), made in one place
(js/site.js). WCAG 1.3.1 / 2.4.8: the link of the top navigation that leads to the page shown
carries ``aria-current="page"`` (and no other link does; a table, which no link leads to,
marks none), shown by weight and an underline rather than a colour.

The titles are generic: a name someone typed (a table's) never reaches the tab's title.
Every wait is on a condition of the page (Playwright's ``expect``), never on a time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import chicago

from .driver import api
from .serving import LiveServer

pytestmark = pytest.mark.timeout(180)

NAV = "header.topbar nav"
"""The app's top navigation (index.html)."""

NAV_PAGES = [
    ("#/", "Lobby", "Lobby"),
    ("#/turns", "Your games", "Dina partier"),
    ("#/games", "Finished games", "Spelade partier"),
    ("#/tournaments", "Tournaments", "Turneringar"),
    ("#/leaderboard", "Leaderboard", "Topplista"),
    ("#/profile", "Profile", "Profil"),
    ("#/practice", "Practise", "Öva"),
    ("#/help", "How to play", "Så spelar man"),
]
"""Each link of the navigation: its route and the page's name in English and Swedish."""


STATIC = Path(chicago.__file__).parent / "web" / "static"

_STYLE = """(link) => {
  const s = getComputedStyle(link);
  return [Number(s.fontWeight), s.textDecorationLine, s.textDecorationThickness];
}"""


def _context(browser: Any, lang: str = "en", storage: dict[str, Any] | None = None) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 800},
                                  locale="sv-SE" if lang == "sv" else "en-GB")
    # the language is a plain string in storage; the rest are JSON, as store.js keeps them
    saved = {"chicago.lang": lang} | {k: json.dumps(v) for k, v in (storage or {}).items()}
    context.add_init_script("".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});"
                                    for k, v in saved.items()))
    return context


def _current(page: Any, route: str | None) -> None:
    """The navigation marks the link to ``route`` as the current page, and no other (none at
    all when ``route`` is None)."""
    marked = page.locator(f"{NAV} [aria-current]")
    if route is None:
        expect(marked).to_have_count(0)
        return
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("href", route)
    expect(marked).to_have_attribute("aria-current", "page")


def _switch(page: Any, lang: str) -> None:
    """Choose the language with the keyboard (the switch of the top bar)."""
    page.focus(f"[data-lang={lang}]")
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_page_of_the_navigation_names_the_tab_and_is_marked_current(
        browser: Any, live: LiveServer, lang: str) -> None:
    """Each link of the navigation followed in turn (a route change within the app, as a
    click makes it): the tab's title names the page, the link is the one marked."""
    context = _context(browser, lang)
    page = context.new_page()
    page.goto(live.url)
    expect(page).to_have_title("Lobby – Chicago")
    _current(page, "#/")
    for route, english, swedish in NAV_PAGES[1:] + NAV_PAGES[:1]:
        page.click(f'{NAV} a[href="{route}"]')
        expect(page).to_have_title(f"{english if lang == 'en' else swedish} – Chicago")
        _current(page, route)
    context.close()


@pytest.mark.parametrize(("route", "english"), [(r, e) for r, e, _ in NAV_PAGES])
def test_each_page_of_the_navigation_opened_by_its_address(
        browser: Any, live: LiveServer, route: str, english: str) -> None:
    """A page loaded from its address (a bookmark, a reload) has its title and mark from the
    start, not only after a route change."""
    context = _context(browser)
    page = context.new_page()
    page.goto(f"{live.url}{route}")
    expect(page).to_have_title(f"{english} – Chicago")
    _current(page, route)
    context.close()


def test_a_language_switch_and_a_route_change_update_the_title_and_the_mark(
        browser: Any, live: LiveServer) -> None:
    context = _context(browser)
    page = context.new_page()
    page.goto(f"{live.url}#/games")
    expect(page).to_have_title("Finished games – Chicago")
    _current(page, "#/games")
    page.click("[data-lang=sv]")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page).to_have_title("Spelade partier – Chicago")
    _current(page, "#/games")
    page.click(f'{NAV} a[href="#/help"]')
    expect(page).to_have_title("Så spelar man – Chicago")
    _current(page, "#/help")
    page.goto(f"{live.url}#/leaderboard")  # by address, not by the navigation
    expect(page).to_have_title("Topplista – Chicago")
    _current(page, "#/leaderboard")
    page.click("[data-lang=en]")
    expect(page).to_have_title("Leaderboard – Chicago")
    _current(page, "#/leaderboard")
    page.go_back()  # the browser's history is a route change too
    expect(page).to_have_title("How to play – Chicago")
    _current(page, "#/help")
    context.close()


def test_pages_without_a_link_have_their_own_title_and_mark_no_link(
        browser: Any, live: LiveServer) -> None:
    """A table, a spectator's table, a replay, another's profile, a tournament, a sign-in
    link and a mail link: a title of their own in both languages, and the navigation marks
    nothing (no link leads there). The table's name, typed by its maker, stays out of the
    title; so do the secrets in a sign-in or mail link's address."""
    made = api(live, "POST", "api/profiles", {"name": "Someone"})
    table = api(live, "POST", "api/tables", {"seats": ["open", "open"], "clock_days": 1,
                                             "name": "Private Letters"})
    pages = [
        (f"#/table/{table['id']}", "Table", "Bord"),
        (f"#/watch/{table['id']}", "Watching a table", "Titta på ett bord"),
        (f"#/replay/{table['id']}/1", "Replay", "Repris"),
        (f"#/profile/{made['profile']['id']}", "A player’s profile", "En spelares profil"),
        ("#/tournament/nosuchtournament", "Tournament", "Turnering"),
        ("#/signin/secret-sign-in-token", "Sign in", "Logga in"),
        ("#/confirm/secret-mail-token", "Notices by mail", "Meddelanden via e-post"),
        ("#/unsubscribe/secret-mail-token", "Notices by mail", "Meddelanden via e-post"),
    ]
    context = _context(browser)
    page = context.new_page()
    page.goto(f"{live.url}#/help")
    _current(page, "#/help")
    for route, english, swedish in pages:
        page.goto(f"{live.url}{route}")
        expect(page).to_have_title(f"{english} – Chicago")
        _current(page, None)
        _switch(page, "sv")  # by the keyboard: a page's error notice may cover the switch
        expect(page).to_have_title(f"{swedish} – Chicago")
        _current(page, None)
        _switch(page, "en")
        expect(page).to_have_title(f"{english} – Chicago")
        title = page.title()
        assert "Private" not in title and "secret" not in title, title
    context.close()


@pytest.mark.parametrize("route", [
    "#/nosuchpage", "#/table", "#/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "#/../../etc/passwd",
    "#/help/extra/parts", "#/leaderboard/%E2%80%AEevil",
])
def test_a_hostile_or_unknown_address_gives_a_known_title(
        browser: Any, live: LiveServer, route: str) -> None:
    """Nothing of the address itself reaches the title: an unknown route is the lobby (as the
    router draws it), a known one its page, whatever follows it."""
    context = _context(browser)
    page = context.new_page()
    page.goto(f"{live.url}{route}")
    expected = {"#/help/extra/parts": ("How to play", "#/help"),
                "#/leaderboard/%E2%80%AEevil": ("Leaderboard", "#/leaderboard")}.get(
        route, ("Lobby", "#/"))
    expect(page).to_have_title(f"{expected[0]} – Chicago")
    _current(page, expected[1])
    context.close()


def test_the_count_of_tables_waiting_comes_before_the_page_name(
        browser: Any, live: LiveServer) -> None:
    """The "(n) " of the tables where it is your turn (tests/web/test_browser_turns.py checks
    that it comes and goes) stays in front of each page's name and follows the language."""
    table = api(live, "POST", "api/tables", {"seats": ["open", "open"], "clock_days": 1})
    tokens = {seat: api(live, "POST", f"api/tables/{table['id']}/join", {"seat": seat})["token"]
              for seat in (0, 1)}
    # this browser holds the seat to act (the server deals once both seats are taken)
    to_act = int(api(live, "GET", f"api/tables/{table['id']}")["to_act"])
    held = {table["id"]: {"token": tokens[to_act], "seat": to_act, "name": "", "joined": 1}}
    context = _context(browser, storage={"chicago.seats": held})
    page = context.new_page()
    page.goto(f"{live.url}#/games")
    page.wait_for_function("() => document.getElementById('turns-badge').textContent === '1'")
    expect(page).to_have_title("(1) Finished games – Chicago")
    page.click(f'{NAV} a[href="#/help"]')
    expect(page).to_have_title("(1) How to play – Chicago")
    page.click("[data-lang=sv]")
    expect(page).to_have_title("(1) Så spelar man – Chicago")
    context.close()


def test_the_current_link_is_shown_by_more_than_colour(browser: Any, live: LiveServer) -> None:
    """The marked link is bold and underlined (WCAG 1.4.1: not a colour alone); the others
    are neither (they are underlined only under the pointer or the keyboard's focus)."""
    context = _context(browser)
    page = context.new_page()
    page.goto(f"{live.url}#/games")
    _current(page, "#/games")
    page.mouse.move(0, 700)  # the pointer on no link
    page.focus("#app")
    weight, line, _ = page.locator(f'{NAV} a[href="#/games"]').evaluate(_STYLE)
    assert weight >= 700 and "underline" in line, (weight, line)
    weight, line, _ = page.locator(f'{NAV} a[href="#/help"]').evaluate(_STYLE)
    assert weight < 700 and "underline" not in line, (weight, line)
    context.close()


def test_only_site_js_writes_the_title() -> None:
    """One place makes the tab's title (the count, the page, the app): every other module
    names its page through the router, never by writing ``document.title`` itself."""
    writers = sorted(path.name for path in (STATIC / "js").glob("*.js")
                     if re.search(r"document\.title\s*=(?!=)", path.read_text(encoding="utf-8")))
    assert writers == ["site.js"], writers


def test_your_own_profile_by_its_id_is_the_profile_of_the_navigation(
        browser: Any, live: LiveServer) -> None:
    """``#/profile/ID`` with this browser's own profile is the page "Profile" leads to (the
    router draws it as yours); with another's id it is another page, marked nowhere."""
    mine = api(live, "POST", "api/profiles", {"name": "Mine"})
    other = api(live, "POST", "api/profiles", {"name": "Other"})
    context = _context(browser, storage={"chicago.profile": {**mine["profile"],
                                                             "secret": mine["secret"]}})
    page = context.new_page()
    page.goto(f"{live.url}#/profile/{mine['profile']['id']}")
    expect(page).to_have_title("Profile – Chicago")
    _current(page, "#/profile")
    page.goto(f"{live.url}#/profile/{other['profile']['id']}")
    expect(page).to_have_title("A player’s profile – Chicago")
    _current(page, None)
    context.close()
