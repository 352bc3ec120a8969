"""The Review view in chromium (issue 25): the game graph (an SVG chart of every seat's score
with the reviewed seat's points lost marked), the reason of a decision and the accuracy's
scale, and a row's click that keeps the board and the row on the screen at 1280x900."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from chicago.review import Review

from .driver import api
from .review_support import finished_bot_game
from .serving import LiveServer

READY_MS = 120_000  # the longest wait for a review (only a hang reaches it)


def _in_view(box: dict[str, float], height: int) -> bool:
    return box["y"] >= -0.5 and box["y"] + box["height"] <= height + 0.5


def test_graph_reason_scale_and_a_row_click_at_1280x900(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    table_id = finished_bot_game(live, ["bot:basic", "bot:random", "bot:basic"], 3)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live.url}#/replay/{table_id}/1")
    # the replay page alone: the graph of the three seats' scores, no marks
    graph = page.locator("[data-testid=score-graph]")
    expect(graph.locator("polyline.graph-line")).to_have_count(3)
    expect(graph.locator("circle.graph-loss")).to_have_count(0)

    page.goto(f"{live.url}#/replay/{table_id}/1?review=1")
    page.wait_for_selector("[data-testid=review][data-status=ready]", timeout=READY_MS)
    review = Review.from_json(api(live, "GET", f"api/games/{table_id}/1/reviews/1")["review"])
    panel = page.locator("[data-testid=review]")
    marked = [d for d in review.summary.deals if d.loss > 0.5]
    expect(panel.locator("[data-testid=score-graph] circle.graph-loss")).to_have_count(len(marked))
    record = api(live, "GET", f"api/games/{table_id}/1")["record"]
    final = [int(s) for s in record["result"]["scores"]] if isinstance(
        record.get("result"), dict) else None
    if final is not None:
        legend = panel.locator(".graph-legend li")
        for seat, score in enumerate(final):
            expect(legend.nth(seat)).to_contain_text(str(score))
    expect(panel.locator("[data-testid=accuracy-scale]")).to_contain_text(
        "the expert bot plays about 98")

    # The last row of every decision, far down the list: after the click the board and the
    # row are both on the screen, and the choices say why.
    rows = panel.locator(".review-all .review-row")
    expect(rows).to_have_count(len(review.decisions))
    last = review.decisions[-1]
    rows.last.scroll_into_view_if_needed()
    rows.last.click()
    expect(rows.last).to_have_attribute("aria-current", "step")
    current = panel.locator("[data-testid=review-current]")
    expect(current).to_have_attribute("data-step", str(last.step))
    expect(current.locator("[data-testid=review-reason]")).not_to_be_empty()
    board = page.locator(".replay-page .board")
    page.wait_for_function("() => !document.querySelector('.replay-page') || true")
    board_box, row_box = board.bounding_box(), rows.last.bounding_box()
    assert board_box is not None and row_box is not None
    assert _in_view(board_box, 900), board_box
    assert _in_view(row_box, 900), row_box
    page.screenshot(path=str(artifacts / "review-row-click-1280.png"))

    # a row of the biggest mistakes near the top, then the last again: still both in sight
    for index in (0, len(review.decisions) - 1):
        rows.nth(index).click()
        expect(rows.nth(index)).to_have_attribute("aria-current", "step")
        board_box, row_box = board.bounding_box(), rows.nth(index).bounding_box()
        assert board_box is not None and row_box is not None
        assert _in_view(board_box, 900) and _in_view(row_box, 900), (board_box, row_box)
    context.close()
