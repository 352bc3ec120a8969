"""The replay page of a finished game, in chromium: stepping, perspectives, downloads."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from websockets.sync.client import connect

from chicago.server.replay_pages import replay_steps

from .driver import api, card_text, game_over
from .serving import LiveServer


def _finished_game(live: LiveServer) -> tuple[str, dict[str, Any]]:
    """A bot match (two deals) played to the end on the server; returns its table and record."""
    table = api(live, "POST", "api/tables", {
        "name": "Bot match", "seats": ["bot:basic", "bot:random", "bot:basic"],
        "bot_delay": 0.0, "rules": {"max_deals": 2},
    })
    game_over(live, table["id"])
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


def _swedish_lobby_row(browser: Any, live: LiveServer, table_id: str) -> tuple[Any, Any, str]:
    """A Swedish page on the lobby: its context, the page and the text of the finished game's
    row (the first game of ``table_id``)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE")
    page = context.new_page()
    page.goto(live.url)
    row = page.locator(f".finished [data-game='{table_id}/1']")
    row.wait_for()
    return context, page, row.inner_text()


SV_CATA = {"PAIR": "ett par", "TWO_PAIR": "två par", "THREE_OF_A_KIND": "triss",
           "STRAIGHT": "en stege", "FLUSH": "en färg", "FULL_HOUSE": "en kåk",
           "FOUR_OF_A_KIND": "fyrtal", "STRAIGHT_FLUSH": "en färgstege",
           "ROYAL_FLUSH": "en royal flush"}


def _contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two CSS rgb() colours."""
    def luminance(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_replay_in_swedish_tells_each_step_in_words_and_the_result_is_readable(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    table_id, record = _finished_game(live)
    context, page, text = _swedish_lobby_row(browser, live, table_id)
    # The list of finished games names bots as the table does, with their level.
    assert "Dator 1 (Bosse)" in text and "Dator 2 (Rut)" in text and "Dator 3 (Bosse)" in text
    assert "basic" not in text and "random" not in text
    page.goto(f"{live.url}#/replay/{table_id}/1")
    page.wait_for_selector(".replay-page")
    root = page.locator(".replay-page")
    names = ["Dator 1", "Dator 2", "Dator 3"]
    steps = replay_steps(record, "all")[0]
    checked = set()
    for i, step in enumerate(steps):
        expect(root).to_have_attribute("data-index", str(i))
        heading = page.locator("[data-testid=step]").inner_text()
        # never the notation: no English keyword, no card code
        assert not re.search(r"\b(announce|play|discard|keep|pass|accept|reject)\b", heading)
        assert not re.search(r"\b[2-9TJQKA][cdhs]\b", heading), heading
        action, who = step["action"] or "", names[step["seat"]] if step["seat"] is not None else ""
        if action.startswith("play "):
            assert heading == f"{who} spelar {card_text(action[5:])}."
            checked.add("play")
        elif action.startswith("announce "):
            cat = action[9:].upper().replace(" ", "_")
            assert heading == f"{who} säger {SV_CATA[cat]}."
            checked.add("announce")
        elif action == "pass":
            assert heading == f"{who} passar."
            checked.add("pass")
        elif action.startswith("discard "):
            cards = " ".join(card_text(c) for c in action.split()[1:])
            assert heading == f"{who} slänger {cards}."
            checked.add("discard")
        elif step["seat"] is None:
            assert heading == f"Giv {step['deal']} delas ut."
        page.keyboard.press("ArrowRight")
    # Every seat is asked in every scoring round (R-ANN-1), so a game's steps hold plays and
    # answers (passes or announcements) whatever the bots' cards were: the game is unseeded.
    assert "play" in checked and checked & {"pass", "announce"}, checked
    page.screenshot(path=str(artifacts / "replay-sv.png"), full_page=True)

    # The final result sits on paper, its colours readable.
    page.keyboard.press("End")
    panel = page.locator(".center .result-panel")
    panel.wait_for()
    colours = page.evaluate("""() => {
      const panel = document.querySelector('.center .result-panel');
      const style = (sel) => getComputedStyle(panel.querySelector(sel)).color;
      return { bg: getComputedStyle(panel).backgroundColor, winner: style('tr.winner th'),
               loss: style('td.neg'), text: getComputedStyle(panel).color };
    }""")
    assert colours["bg"] == "rgb(251, 250, 246)"
    for key in ("winner", "loss", "text"):
        assert _contrast(colours[key], colours["bg"]) >= 4.5, (key, colours)
    assert panel.locator("h2").inner_text() == "Partiet är slut"
    panel.screenshot(path=str(artifacts / "replay-result-sv.png"))
    context.close()


def _play_seat(live: LiveServer, table_id: str, token: str, seed: int) -> None:
    """Play one seat over a websocket with random legal actions until the game is over."""
    rng = random.Random(seed)
    url = live.url.replace("http://", "ws://") + f"ws/{table_id}"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        view: dict[str, Any] = {}
        seq = 0
        while True:
            frame = json.loads(ws.recv(60))
            seq = max(seq, frame.get("seq", 0))
            if frame["type"] == "snapshot":
                view = frame["view"]
            elif frame["type"] == "update" and frame["state"] is not None:
                view.update(frame["state"])
            elif frame["type"] == "game_over":
                return
            if frame["type"] in ("snapshot", "update") and view.get("over"):
                return
            if frame["type"] in ("snapshot", "update", "seats") and view.get("legal_actions"):
                ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal_actions"]),
                                    "seq": seq}))


def test_finished_games_tell_a_person_called_basic_from_a_bot(
    browser: Any, live: LiveServer
) -> None:
    """Seat 1 is a person who called themselves "basic", seat 2 a person who gave no name:
    the lists of finished games and the replay name them as people (from the summary's
    seats), in the page's language."""
    table = api(live, "POST", "api/tables", {
        "name": "People", "seats": ["bot:basic", "open", "open"], "bot_delay": 0.0,
        "rules": {"max_deals": 1}})
    table_id = table["id"]
    tokens = [api(live, "POST", f"api/tables/{table_id}/join", body)["token"]
              for body in ({"seat": 1, "name": "basic"}, {"seat": 2})]
    threads = [threading.Thread(target=_play_seat, args=(live, table_id, token, seat))
               for seat, token in enumerate(tokens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert api(live, "GET", f"api/tables/{table_id}")["status"] == "finished"
    context, page, text = _swedish_lobby_row(browser, live, table_id)
    assert "Dator 1 (Bosse)" in text and "basic" in text and "Spelare 3" in text
    assert "Dator 2" not in text and "Player" not in text
    page.goto(f"{live.url}#/games")
    all_games = page.locator(f".rows.games [data-game='{table_id}/1']")
    all_games.wait_for()
    assert all_games.inner_text() == text
    page.goto(f"{live.url}#/replay/{table_id}/1")
    page.wait_for_selector(".replay-page")
    names = page.locator(".replay-page .seat-name .name-text").all_inner_texts()
    assert sorted(names) == ["Dator 1", "Spelare 3", "basic"]
    context.close()
