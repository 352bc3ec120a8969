"""Issue 27: no WCAG 2.1 A/AA violation on any page, in English and in Swedish (axe-core),
and tournament standings readable on a phone without a hidden sideways scroll.

axe runs in each page as a person reaches it: the lobby; a table in each phase (an exchange
with the hint and the keys, a scoring round, the tricks, a trick at rest, the previous
trick, the table without its server, the pause with the deal's summary, the scores and the
rules, the game over); the replay and the review of the game; a profile, the leaderboard,
the tournaments, a tournament and its standings; the help page, the finished games and Your
games (issue 26). The guided game and the offline page are checked in their own tests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .axe import assert_accessible
from .driver import Player, api, seated_page
from .serving import LiveServer

READY_MS = 120_000  # the longest wait for a review (only a hang reaches it)

_STANDINGS = """async ([data]) => {
  const { TournamentPage } = await import('./js/tournament.js');
  const root = document.getElementById('app');
  const page = new TournamentPage(root, data.id);
  page.data = data;
  page.render();
}"""

# Whether any cell of the standings is outside the screen, and any element of them scrolls
# sideways (a hidden scroll: content wider than its box).
_STANDINGS_FIT = """() => {
  const section = document.querySelector('.standings');
  const out = [];
  for (const cell of section.querySelectorAll('tbody td, tbody th')) {
    const r = cell.getBoundingClientRect();
    const outside = r.width <= 0 || r.left < 0 || r.right > window.innerWidth;
    if (outside) out.push('outside: ' + cell.textContent);
  }
  for (const el of [section, ...section.querySelectorAll('*')]) {
    // (the column heads are there for screen readers only: one pixel, clipped)
    if (el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1
        && getComputedStyle(el).overflowX !== 'visible')
      out.push('scrolls sideways: ' + el.tagName + '.' + el.className);
  }
  return out;
}"""


def _standings_data() -> dict[str, Any]:
    """A finished duplicate tournament of eight, with long names and every column filled."""
    names = ["Anna-Karin Lindqvist", "Bo", "Christoffer Johansson", "Dagny", "Eskil Ångström",
             "Fia", "Gunnar", "Hedvig Wallenberg"]
    entrants = [{"id": f"e{i}", "name": n, "profile": f"p{i}", "rating": 2.5 - i}
                for i, n in enumerate(names)]
    standings = [{"rank": i + 1, "entrant": e, "game_points": 7 - i, "duplicate": 62.5 - 3 * i,
                  "matchpoints": 12.5 - i, "comparisons": 20, "score": 120 - 9 * i,
                  "wins": 3 - i // 3, "rating": -0.4 + 0.3 * i} for i, e in enumerate(entrants)]
    return {"id": "t1", "name": "Klubbkväll", "ladder": "pagat/4", "status": "finished",
            "final": True, "round": 3, "rounds": 3, "tables": 2, "table_size": 4,
            "seats": 8, "duplicate": True, "spec": {"deals": 3, "rounds": 3, "rules": {}},
            "entrants": entrants, "standings": standings, "rounds_played": [],
            "ends_after": None}


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_standings_on_a_phone_have_no_hidden_scroll(
    browser: Any, live: LiveServer, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_init_script(f"localStorage.setItem('chicago.lang', '{lang}')")
    page = context.new_page()
    page.goto(f"{live.url}#/games")
    page.wait_for_selector(".panel h1")
    page.evaluate(_STANDINGS, [_standings_data()])
    page.wait_for_selector(".standings tbody tr")
    assert page.evaluate(_STANDINGS_FIT) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # every number is labelled where it is shown
    labels = page.locator(".standings tbody tr").first.locator("td[data-label]").evaluate_all(
        "els => els.map(e => getComputedStyle(e, '::before').content)")
    assert any("Rating" in label for label in labels), labels  # the same word in Swedish
    assert len(labels) == 5  # game points, duplicate, points, wins, rating
    assert_accessible(page, f"tournament standings on a phone ({lang})")
    page.set_viewport_size({"width": 1280, "height": 900})  # a table again on a wide screen
    assert page.locator(".standings thead th").first.is_visible()
    assert page.evaluate(_STANDINGS_FIT) == []
    context.close()


def _check(page: Any, where: str, lang: str) -> None:
    assert_accessible(page, f"{where} ({lang})")


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_no_accessibility_violation_on_any_page(
    browser: Any, live: LiveServer, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  locale="sv-SE" if lang == "sv" else "en-GB")
    context.add_init_script(f"localStorage.setItem('chicago.lang', '{lang}')")
    page, table_id, seat = seated_page(context, live, ["open", "bot:basic", "bot:basic",
                                                       "bot:basic"],
                                       rules={"max_deals": 2})  # the pause: 120 s
    player = Player(page, live)
    assert player.state() == "turn"
    _check(page, "a table: the first exchange", lang)
    page.keyboard.press("h")
    page.wait_for_selector("[data-dialog=hint] table.odds")
    _check(page, "the hint", lang)
    page.keyboard.press("Escape")
    for key, dialog in (("?", "keys"), ("s", "scores")):
        page.keyboard.press(key)
        page.wait_for_selector(f"[data-dialog={dialog}]")
        _check(page, f"the {dialog} window", lang)
        page.keyboard.press("Escape")
    page.click("[data-action=rules]")
    page.wait_for_selector("[data-dialog=rules]")
    _check(page, "the rules window", lang)
    page.keyboard.press("Escape")

    checked: set[str] = set()
    while (state := player.state()) == "turn":
        phase = page.get_attribute(".table-page", "data-phase")
        many = len(player.view()["legal_actions"]) > 1
        if phase not in checked and many:
            checked.add(phase)
            _check(page, f"a table: {phase}", lang)
        if phase == "play" and "rest" not in checked and page.evaluate(
                "Boolean(window.chicago.table.rest)"):
            checked.add("rest")
            _check(page, "a trick at rest", lang)
        if phase == "play" and player.view()["tricks"] and "previous" not in checked:
            checked.add("previous")
            page.keyboard.press("l")
            page.wait_for_selector("[data-dialog=last-trick]")
            _check(page, "the previous trick", lang)
            page.keyboard.press("Escape")
            page.evaluate("window.chicago.drop(3600000)")
            page.wait_for_selector(".prompt.offline")
            _check(page, "a table without its server", lang)
            page.evaluate("window.chicago.reconnect()")
            page.wait_for_selector(".prompt.your-turn")
        player.act()
    assert state == "summary"
    assert {"exchange", "play"} <= checked, checked
    _check(page, "the pause with the deal's summary", lang)
    page.click("[data-action=continue]")
    assert player.play_deal() == "over"
    page.wait_for_selector("[data-dialog=game-over]")
    _check(page, "the game over", lang)

    page.goto(f"{live.url}#/replay/{table_id}/1")
    page.wait_for_selector(".replay-page")
    _check(page, "the replay", lang)
    page.keyboard.press("End")
    page.wait_for_selector("[data-action=next][disabled]")
    _check(page, "the replay's last step", lang)
    page.goto(f"{live.url}#/replay/{table_id}/1?review={seat}")
    page.wait_for_selector("[data-testid=review][data-status=ready]", timeout=READY_MS)
    _check(page, "the review", lang)

    made = api(live, "POST", "api/profiles", {"name": f"Tester {lang}"})
    me = {"id": made["profile"]["id"], "name": made["profile"]["name"], "secret": made["secret"]}
    page.evaluate("(p) => localStorage.setItem('chicago.profile', JSON.stringify(p))", me)
    tour = api(live, "POST", "api/tournaments", {"name": f"Klubb {lang}", "tables": 1,
                                                  "rounds": 1, "deals": 1})
    for route, ready, where in (
        ("#/", "[data-action=quick-play]", "the lobby"),
        ("#/games", ".panel h1", "the finished games"),
        ("#/turns", ".panel.turns h1", "your games"),
        ("#/help", ".help .scoring-hand", "the help page"),
        ("#/profile", "[data-club=profile] .stats", "a profile"),
        ("#/leaderboard", "[data-club=leaderboard] .ladders, [data-club=leaderboard] .muted",
         "the leaderboard"),
        ("#/tournaments", "#tournament-form", "the tournaments"),
        (f"#/tournament/{tour['tournament']['id']}", "[data-club=tournament]", "a tournament"),
    ):
        page.goto(f"{live.url}{route}")
        page.wait_for_selector(ready)
        page.wait_for_selector(".loading", state="detached")
        _check(page, where, lang)
    context.close()


def test_the_axe_helper_finds_a_violation(page: Any) -> None:
    """The check is real: an image without a name in the page is reported. The image goes
    straight into the body, not into ``#app``: the lobby may render ``#app`` again (its
    lists arrive after the page shows), which would take the image away before axe runs."""
    page.evaluate("""() => {
      const img = document.createElement('img');
      img.src = 'favicon.svg';
      img.id = 'unnamed-image';
      document.body.appendChild(img);
    }""")
    with pytest.raises(AssertionError, match="image-alt"):
        assert_accessible(page, "a page with an unnamed image")
    page.evaluate("document.getElementById('unnamed-image').remove()")
    assert json.dumps(page.evaluate("1")) == "1"
