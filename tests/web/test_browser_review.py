"""The replay page's Review view in chromium (issue 17): the game-over window links the
player's review, which opens on the replay of that seat once the server made it; a row jumps
the replay to its step (a click, Enter, Space, the arrow keys); the biggest mistakes come
first; the progress shows until it is ready, with an estimate of the time left from the pace
of the review (on the page's clock, which the test moves); in Swedish on a 390x844 screen it
fits without sideways scrolling; and it shows no card but the reviewed seat's own."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from chicago.review import Review
from chicago.server.replay_pages import replay_steps

from .driver import Player, api, game_over, seated_page
from .serving import LiveServer

READY_MS = 120_000  # the longest wait for a review (only a hang reaches it)


def _index_of(record: dict[str, Any], view: int | str, number: int) -> int:
    """The replay's global step index of the record's action ``number``."""
    steps = [s for deal in replay_steps(record, view) for s in deal]
    return next(s["index"] for s in steps if s["number"] == number)


def _ready(page: Any) -> None:
    page.wait_for_selector("[data-testid=review][data-status=ready]", timeout=READY_MS)


def test_the_game_over_window_links_my_review_which_jumps_to_its_steps(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, table_id, seat = seated_page(context, live, ["bot:basic", "open", "bot:random"],
                                       rules={"max_deals": 1})
    player = Player(page, live)
    assert player.play_deal() == "over"
    link = page.locator("[data-dialog=game-over] [data-action=review]")
    expect(link).to_have_attribute("href", f"#/replay/{table_id}/1?review={seat}")
    expect(link).to_have_text("Review my game")
    link.click()
    _ready(page)
    root = page.locator(".replay-page")
    expect(root).to_have_attribute("data-view", str(seat))  # as the reviewed seat saw it
    answer = api(live, "GET", f"api/games/{table_id}/1/reviews/{seat}")
    review = Review.from_json(answer["review"])
    record = api(live, "GET", f"api/games/{table_id}/1")["record"]
    panel = page.locator("[data-testid=review]")
    expect(panel).to_have_attribute("data-seat", str(seat))
    rows = panel.locator(".review-all .review-row")
    expect(rows).to_have_count(len(review.decisions))
    biggest = panel.locator(".review-biggest .review-row")
    assert [int(s) for s in biggest.evaluate_all("els => els.map(e => e.dataset.step)")] \
        == list(review.summary.biggest)
    shown = float(panel.locator("[data-testid=accuracy]").inner_text())  # the page rounds
    assert abs(shown - review.summary.accuracy) <= 0.05 + 1e-9  # its decimal text half up

    # A click jumps the replay to the decision's step; its row is marked and its choices show.
    last = review.decisions[-1]
    rows.last.click()
    expect(root).to_have_attribute("data-index", str(_index_of(record, seat, last.step)))
    expect(rows.last).to_have_attribute("aria-current", "step")
    current = panel.locator("[data-testid=review-current]")
    expect(current).to_have_attribute("data-step", str(last.step))
    expect(current.locator("table.review-alts tbody tr")).to_have_count(len(last.alternatives))
    page.screenshot(path=str(artifacts / "review-desktop.png"), full_page=True)

    # The keyboard: ↑ to the row before (and its step), Enter and Space on a focused row.
    rows.last.press("ArrowUp")
    before = review.decisions[-2]
    expect(root).to_have_attribute("data-index", str(_index_of(record, seat, before.step)))
    expect(rows.nth(len(review.decisions) - 2)).to_be_focused()
    rows.first.focus()
    page.keyboard.press("Enter")
    expect(root).to_have_attribute("data-index",
                                   str(_index_of(record, seat, review.decisions[0].step)))
    rows.nth(1).focus()
    page.keyboard.press(" ")
    expect(root).to_have_attribute("data-index",
                                   str(_index_of(record, seat, review.decisions[1].step)))
    page.keyboard.press("ArrowDown")
    expect(rows.nth(2)).to_be_focused()

    # Only the seat's own cards: every card in the panel was in its hand in this game.
    held = {c for deal in replay_steps(record, seat) for s in deal
            for c in s["state"].get("hand", [])}
    shown = set(panel.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown and shown <= held

    # Closing the view keeps the replay; the address says which review is open.
    assert page.url.endswith(f"?review={seat}")
    page.click(".replay-controls [data-action=review]")
    expect(panel).to_have_count(0)
    assert page.url.endswith(f"#/replay/{table_id}/1")
    context.close()


def test_a_bots_review_in_swedish_on_a_phone(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    table = api(live, "POST", "api/tables", {"seats": ["bot:basic", "bot:random"],
                                             "bot_delay": 0.0, "rules": {"max_deals": 1}})
    game_over(live, table["id"])
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE",
                                  has_touch=True)
    page = context.new_page()
    # The first two answers say the review is under way (as a long one would be): the page
    # shows how far it got and asks again, then the real answers follow.
    under_way = {"table": table["id"], "game": 1, "seat": 1, "status": "running",
                 "level": "expert", "done": 3, "total": 12, "ahead": None, "accuracy": None,
                 "loss": None, "error": None, "review": None}
    faked: list[str] = []

    def slow(route: Any) -> None:
        if route.request.method == "GET" and len(faked) < 2:
            faked.append(route.request.url)
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps(under_way))
        else:
            route.continue_()

    page.route(f"**/api/games/{table['id']}/1/reviews/1", slow)
    page.goto(f"{live.url}#/replay/{table['id']}/1?review=1")  # asked for by the page
    panel = page.locator("[data-testid=review]")
    expect(panel.locator("h2")).to_have_text("Analys")
    expect(panel.locator(".review-status")).to_contain_text("Analyserar: 3 av 12 beslut.")
    expect(panel.locator("progress")).to_have_attribute("value", "3")
    expect(panel.locator("progress")).to_have_attribute("max", "12")
    _ready(page)  # the page went on asking, asked for the review (POST), and it came
    assert len(faked) == 2
    expect(panel.locator("h3").nth(-1)).to_have_text("Alla beslut")
    grades = {"best": "Bäst", "good": "Bra", "inaccuracy": "Inexakthet", "mistake": "Misstag",
              "blunder": "Blunder"}
    review = Review.from_json(api(live, "GET", f"api/games/{table['id']}/1/reviews/1")["review"])
    first = review.decisions[0]
    row = panel.locator(".review-all .review-row").first
    expect(row.locator(".grade")).to_have_text(grades[first.grade.value])
    expect(row.locator(".review-where")).to_contain_text(f"Giv {first.deal} · ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    record = api(live, "GET", f"api/games/{table['id']}/1")["record"]
    row.tap()
    root = page.locator(".replay-page")
    expect(root).to_have_attribute("data-index", str(_index_of(record, 1, first.step)))
    expect(panel.locator("[data-testid=review-current] h3")).to_contain_text("Valen")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "review-phone-sv.png"), full_page=True)
    context.close()


def test_the_estimate_comes_from_the_pace_of_the_review_on_the_pages_clock(
    browser: Any, live: LiveServer
) -> None:
    """Issue 25: a review under way shows an estimate of the time left, from the decisions
    judged since the first answer that said it was running over the time since. The page's
    clock is Playwright's (paused; moved by the test), so the estimate depends on the work
    reported alone, never on how fast this machine is."""
    table = api(live, "POST", "api/tables", {"seats": ["bot:basic", "bot:random"],
                                             "bot_delay": 0.0, "rules": {"max_deals": 1}})
    game_over(live, table["id"])
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.clock.install()
    page.clock.pause_at(datetime.now(UTC) + timedelta(days=1))  # time stands still
    answers = [3, 6, 9]  # decisions judged, answer after answer (then the last again)
    asked: list[int] = []

    def under_way(route: Any) -> None:
        if route.request.method != "GET":
            route.abort()
            return
        done = answers[min(len(asked), len(answers) - 1)]
        asked.append(done)
        route.fulfill(status=200, content_type="application/json", body=json.dumps({
            "table": table["id"], "game": 1, "seat": 1, "status": "running",
            "level": "expert", "done": done, "total": 12, "ahead": None, "accuracy": None,
            "loss": None, "error": None, "review": None}))

    page.route(f"**/api/games/{table['id']}/1/reviews/1", under_way)
    page.goto(f"{live.url}#/replay/{table['id']}/1?review=1")
    status = page.locator("[data-testid=review] .review-status")
    eta = page.locator("[data-testid=review-eta]")
    expect(status).to_contain_text("3 of 12")
    expect(eta).to_have_count(0)  # no pace yet: one answer
    # 30 s later (the page's clock) 6 are done: 3 in 30 s, so the 6 left take 60 s.
    page.clock.fast_forward(30_000)
    expect(status).to_contain_text("6 of 12")
    expect(eta).to_have_text("About 1:00 left.")
    # 60 s after that 9 are done: 6 in 90 s since the first answer, so 3 left take 45 s.
    page.clock.fast_forward(60_000)
    expect(status).to_contain_text("9 of 12")
    expect(eta).to_have_text("About 0:45 left.")
    assert asked == [3, 6, 9]
    context.close()
