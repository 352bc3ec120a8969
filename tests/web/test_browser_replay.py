"""The replay page of a finished game, in chromium: stepping, perspectives, downloads."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from chicago.web.replay import replay_steps

from .driver import api
from .serving import LiveServer


def _finished_game(live: LiveServer) -> tuple[str, dict[str, Any]]:
    """A bot match (two deals) played to the end on the server; returns its table and record."""
    table = api(live, "POST", "api/tables", {
        "name": "Bot match", "seats": ["bot:basic", "bot:random", "bot:basic"],
        "bot_delay": 0.0, "rules": {"max_deals": 2},
    })
    for _ in range(600):
        if api(live, "GET", f"api/tables/{table['id']}")["status"] == "finished":
            break
        time.sleep(0.05)
    record = api(live, "GET", f"api/games/{table['id']}/1")["record"]
    return table["id"], record


def test_replay_steps_views_and_downloads(
    browser: Any, live: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    table_id, record = _finished_game(live)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    # Listed among finished games, with a link to the replay.
    page.goto(f"{live.url}#/games")
    page.locator(f"[data-game='{table_id}/1'] a").click()
    page.wait_for_selector(".replay-page")
    root = page.locator(".replay-page")
    expect(root).to_have_attribute("data-index", "0")
    total = sum(len(d) for d in replay_steps(record, "all"))
    assert page.locator("[data-testid=position]").inner_text().endswith(f"Step 1 of {total}")

    # Forward and back with buttons and keys.
    for _ in range(6):
        page.click("[data-action=next]")
    expect(root).to_have_attribute("data-index", "6")
    page.click("[data-action=prev]")
    expect(root).to_have_attribute("data-index", "5")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(root).to_have_attribute("data-index", "7")
    page.keyboard.press("ArrowLeft")
    expect(root).to_have_attribute("data-index", "6")

    # All cards face up: every hand of this step is on the page.
    steps = [s for deal in replay_steps(record, "all") for s in deal]
    hands = steps[6]["state"]["hands"]
    on_page = set(page.eval_on_selector_all(".board [data-card]",
                                            "els => els.map(e => e.dataset.card)"))
    assert {c for cards in hands.values() for c in cards} <= on_page
    page.screenshot(path=str(artifacts / "replay-all.png"), full_page=True)

    # As seat 0 saw it: its own cards only, the others' hands stay hidden.
    page.select_option("#replay-view", "0")
    expect(root).to_have_attribute("data-view", "0")
    expect(root).to_have_attribute("data-index", "6")
    on_page = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    state = steps[6]["state"]
    shown = {c for cards in state["shown"].values() for c in cards}
    others = {c for s, cards in hands.items() if s != "0" for c in cards} - shown
    assert set(hands["0"]) <= on_page
    assert not others & on_page
    page.screenshot(path=str(artifacts / "replay-seat0.png"), full_page=True)

    # The end of the deal is its own step: the last trick and showdown in words.
    page.click("[data-action=next-deal]")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".deal-summary h2")).to_have_text("Deal 1 is over")
    page.keyboard.press("End")
    expect(root).to_have_attribute("data-index", str(total - 1))
    expect(page.locator(".settlement")).to_have_count(1)
    page.keyboard.press("Home")
    expect(root).to_have_attribute("data-index", "0")

    # Downloads: the JSON record and the text notation.
    with page.expect_download() as info:
        page.click("[data-action=download-json]")
    path = tmp_path / "record.json"
    info.value.save_as(path)
    assert json.loads(path.read_text()) == record
    with page.expect_download() as info:
        page.click("[data-action=download-text]")
    path = tmp_path / "record.txt"
    info.value.save_as(path)
    text = path.read_text()
    first_seat, first_action = record["actions"][0]
    assert '[Players "3"]' in text and f"{first_seat}: {first_action}" in text
    context.close()
