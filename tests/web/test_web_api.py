"""The browser app's server side: replay steps, the hint's odds, the static files (no browser).

Replays are checked for leaks the way the table is: a seat's steps never name a card that
seat had not seen by then (R-EX-3: which cards were exchanged is private).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from chicago import Game, Rules
from chicago.server import Settings, create_app, web_api
from chicago.server.hints import odds_answer
from chicago.server.replay_pages import parse_perspective, replay_page, replay_steps
from chicago.tui.lang import catalogue
from chicago.web import STATIC_DIR

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def _played(rules: Rules, players: int, seed: int) -> Game:
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


RULE_SETS = [
    Rules.preset("pagat", max_deals=2),
    Rules.preset("wikipedia-42", max_deals=2).with_variations("V-QUADS-RESET", "V-REDEAL-LOW"),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["pagat", "wikipedia-42+quads+redeal"])
def test_replay_steps_of_a_seat_never_name_an_unseen_card(rules: Rules) -> None:
    """R-EX-3, R-TRICK-5: a seat's replay holds only its own cards and public ones."""
    for seed in range(3):
        game = _played(rules, 4, seed)
        record = game.record()
        for seat in (0, 2, "public"):
            known: set[str] = set()
            for deal in replay_steps(record, seat):
                for step in deal:
                    known.update(CARD.findall(json.dumps(step["events"])))
                    known.update(step["state"].get("hand", []))
                    named = set(CARD.findall(json.dumps(step)))
                    assert named <= known, (seat, step["index"], named - known)
                    if seat == "public":
                        assert step["state"]["hand"] == []


def test_replay_steps_cover_every_action_and_split_deal_ends() -> None:
    game = _played(Rules.preset("pagat", max_deals=3), 3, 11)
    record = game.record()
    deals = replay_steps(record, "all")
    steps = [s for d in deals for s in d]
    assert [s["index"] for s in steps] == list(range(len(steps)))
    acted = [s for s in steps if s["seat"] is not None]
    assert [[s["seat"], s["action"]] for s in acted] == record["actions"]
    assert [s["number"] for s in acted] == list(range(1, len(record["actions"]) + 1))
    assert {s["number"] for s in steps if s["seat"] is None} == {None}
    assert len(deals) == game.deal_number == 3
    assert len(steps) == 1 + len(record["actions"]) + (len(deals) - 1)
    for deal in deals[:-1]:
        closing = deal[-1]["state"]
        end = next(e for e in deal[-1]["events"] if e["type"] == "deal_end")
        assert closing["phase"] == "deal over" and closing["scores"] == end["scores"]
        assert closing["to_act"] is None
        if closing["trick_number"] == 5:
            assert len(closing["trick"]) == 3  # the last trick stays on the table
        # the hands as the deal leaves them: what a seat holds is what it has not played
        # (the view's hand_sizes, kept up to date by the closing step too)
        assert closing["hand_sizes"] == [len(closing["hands"][str(s)]) for s in range(3)]
        assert closing["hand_sizes"] == [5 - len(p) for p in closing["played"]] or \
            closing["trick_number"] == 0
    final = steps[-1]["state"]
    assert final["over"] and final["scores"] == list(game.scores)
    assert set(steps[0]["state"]["hands"]) == {"0", "1", "2"}


def test_replay_hides_other_seats_discards_but_not_ones_own() -> None:
    """R-EX-3: how many cards were exchanged is public, which ones only the player knows."""
    game = _played(Rules.preset("pagat", max_deals=1), 3, 4)
    record = game.record()
    for seat in range(3):
        for step in replay_steps(record, seat)[0]:
            if step["seat"] is not None and step["seat"] != seat:
                action = record["actions"][step["index"] - 1][1]
                hidden = action.startswith(("discard", "one up"))
                assert (step["action"] is None) == hidden


def test_replay_page_and_perspective_errors() -> None:
    record = _played(Rules.preset("pagat", max_deals=2), 4, 2).record()
    page = replay_page(record, "all", 2)
    assert page["deal"] == 2 and [d["deal"] for d in page["deals"]] == [1, 2]
    assert page["total"] == sum(d["steps"] for d in page["deals"])
    assert page["deals"][1]["first"] == page["deals"][0]["steps"]
    with pytest.raises(ValueError, match="deal must be 1-2"):
        replay_page(record, "all", 3)
    assert parse_perspective("spectator", 4) == "public"
    assert parse_perspective("3", 4) == 3
    for bad in ("4", "-1", "seat"):
        with pytest.raises(ValueError):
            parse_perspective(bad, 4)


def test_odds_answer_matches_the_exact_odds() -> None:
    answer = odds_answer(["Ah", "Kh", "Qh", "Jh", "2c"], ["3c"], {"preset_name": "pagat"}, top=3)
    assert answer["holds"][0]["keep"] == ["Ah", "Kh", "Qh", "Jh"]
    assert answer["holds"][0]["probabilities"]["ROYAL_FLUSH"] == round(1 / 46, 6)
    assert answer["categories"][0] == "ROYAL_FLUSH" and len(answer["holds"]) == 3
    wiki = odds_answer(["Ah", "Kh", "Qh", "Jh", "2c"], [], {"preset_name": "wikipedia"})
    assert "ROYAL_FLUSH" not in wiki["categories"]
    with pytest.raises(ValueError, match="5 cards"):
        odds_answer(["Ah", "Kh"], [], None)


# ---------------------------------------------------------------------- HTTP
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    web_api.install(app)
    web_api.install(app)  # twice changes nothing
    with TestClient(app) as test_client:
        yield test_client


def _finished_table(client: TestClient) -> str:
    response = client.post("/api/tables", json={
        "seats": ["bot:random", "bot:random", "bot:random"], "bot_delay": 0,
        "rules": {"max_deals": 1}})
    assert response.status_code == 201
    table: str = response.json()["id"]
    # a spectator's socket is told the game ended (its game_over frame, or the snapshot of
    # a table already finished): the event, not the status asked for again and again
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello"})
        while True:
            frame = ws.receive_json()
            if frame["type"] == "game_over" or (
                    frame["type"] == "snapshot" and frame["table"]["status"] == "finished"):
                return table


def _error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code
    message: str = error["message"]
    return message


def test_http_replay_record_and_odds(client: TestClient) -> None:
    table = _finished_table(client)
    page = client.get(f"/api/web/replay/{table}/1", params={"view": "1", "deal": 1})
    assert page.status_code == 200
    data = page.json()
    assert data["perspective"] == 1 and data["steps"][0]["state"]["seat"] == 1
    assert data["names"] == ["random", "random", "random"]
    assert client.get(f"/api/web/replay/{table}/1").json()["perspective"] == "all"
    assert "seat must be" in _error(
        client.get(f"/api/web/replay/{table}/1", params={"view": "7"}), 400, "bad_request")
    assert "deal must be" in _error(
        client.get(f"/api/web/replay/{table}/1", params={"deal": 9}), 400, "bad_request")
    _error(client.get(f"/api/web/replay/{table}/2"), 404, "unknown_game")
    saved = client.get(f"/api/web/record/{table}/1")
    assert saved.status_code == 200
    assert "attachment" in saved.headers["content-disposition"]
    assert saved.json() == client.get(f"/api/games/{table}/1").json()["record"]

    odds = client.post("/api/web/odds", json={"hand": ["7d", "7h", "2c", "Ks", "As"]})
    assert odds.status_code == 200 and odds.json()["holds"][0]["keep"] == ["7d", "7h"]
    assert "bad hand" in _error(client.post("/api/web/odds", json={
        "hand": ["7d", "7h", "2c", "Ks", "Zz"]}), 400, "bad_request")
    assert "unknown rule option" in _error(client.post("/api/web/odds", json={
        "hand": ["7d", "7h", "2c", "Ks", "As"], "rules": {"nonsense": 1}}), 400, "bad_rules")
    _error(client.post("/api/web/odds", json={"hand": ["7d"]}), 400, "bad_request")


def test_static_app_is_served_and_self_contained(client: TestClient) -> None:
    index = client.get("/")
    # (the page names its modules under the app's version: chicago.server.static)
    assert index.status_code == 200 and re.search(
        r'<script type="module" src="(v/[0-9a-f]+/)?js/app\.js">', index.text)
    script = client.get("/js/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    files = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file())
    assert files, "the app has files"
    for path in files:
        if path.suffix == ".png":  # the installed app's icons, drawn from its own SVG ones
            assert path.parent.name == "icons", path  # (scripts/make_icons.py)
            continue
        text = path.read_text(encoding="utf-8")
        # No downloads from elsewhere: no external URLs, no other image files.
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path
        assert path.suffix in (".html", ".css", ".js", ".svg", ".json", ".webmanifest"), path
        if path.suffix == ".js":
            for target in re.findall(r'from "(\.[^"]+)"', text):
                assert (path.parent / target).resolve().is_file(), (path, target)


def test_every_variation_preset_and_bot_level_is_explained_in_both_languages() -> None:
    from chicago.bots import BOT_LEVELS, bot_levels
    from chicago.rules import PRESETS, VARIATIONS

    bot_levels()  # loads every installed level into BOT_LEVELS
    for lang in ("en", "sv"):
        keys = set(catalogue(lang))
        assert {f"var.{v}" for v in VARIATIONS} <= keys, lang
        assert {f"preset.{p}" for p in PRESETS} <= keys, lang
        assert {f"level.{b}" for b in BOT_LEVELS} <= keys, lang
        assert {f"err.{code}" for code in ("not_your_turn", "illegal_action", "stale",
                                           "bad_token", "rate_limited", "internal")} <= keys


def test_the_server_app_mounts_the_browser_routes(tmp_path: Path) -> None:
    """``chicago serve``'s app has the replay, record and odds routes ahead of the static files."""
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    with TestClient(app) as test_client:
        odds = test_client.post("/api/web/odds", json={"hand": ["7d", "7h", "2c", "Ks", "As"]})
        assert odds.status_code == 200 and odds.json()["category"] == "PAIR"
        _error(test_client.get("/api/web/replay/nothing/1"), 404, "unknown_game")
        assert test_client.get("/").status_code == 200


def test_a_deal_that_ends_in_a_scoring_round_keeps_it_on_the_table_V_QUADS_RESET() -> None:
    """The closing step of a deal ended by a four-of-a-kind reset shows that scoring round
    with its result (the view's ``scoring_round``, made by the engine from the deal's
    events), and every hand still whole."""
    from engine_helpers import game, keep_all, run

    g = game(Rules.preset("pagat", max_deals=2).with_variations("V-QUADS-RESET"), 3,
             dealer=2, hands=["9c 9d 9h 9s 2c"], scores=[10, 30, 20])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "2: pass", "0: reset"])
    assert g.deal_number == 2
    closing = replay_steps(g.record(), 1)[0][-1]["state"]
    assert closing["phase"] == "deal over"
    current = closing["scoring_round"]
    assert current["round"] == 1 and current["result"]["winner"] == 0
    assert [w["seat"] for w in current["words"]] == [0, 1, 2]
    assert closing["hand_sizes"] == [5, 5, 5]
