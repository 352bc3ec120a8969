"""Correspondence games and "Your games" (issue 26): a table whose clock is days per move
(``clock_days``), stored between moves like every table; every table where it is your turn,
for a profile and for a guest's seat tokens, found in the database; the site socket that
tells a browser when it becomes your turn; a clock that runs out (moved forward, never slept
on) has the stand-in play, as at a live table. With the hostile requests of each new surface.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_support import WsPlayer, close_all, create_table
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.clock import ShiftedClock

pytestmark = pytest.mark.timeout(180)

DAY = 86400


@pytest.fixture
def client(clocked_client: TestClient) -> TestClient:
    return clocked_client


def profile(client: TestClient, name: str) -> str:
    response = client.post("/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    secret: str = response.json()["secret"]
    return secret


def correspondence(client: TestClient, days: int = 1) -> tuple[str, str, str, str]:
    """A two-seat correspondence table: Anna (a profile) and Bo (a guest); the table id,
    Anna's secret, her seat token and Bo's."""
    info = create_table(client, ["open", "open"], clock_days=days, deal_pause=None)
    assert info["clock_days"] == days and info["clock"] is None and info["deal_pause"] == 0
    secret = profile(client, "Anna")
    anna = client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                       headers={"X-Chicago-Profile": secret}).json()["token"]
    bo = client.post(f"/api/tables/{info['id']}/join", json={"seat": 1, "name": "Bo"}
                     ).json()["token"]
    return info["id"], secret, anna, bo


def turns(client: TestClient, secret: str | None = None,
          tokens: list[str] | None = None) -> list[dict[str, Any]]:
    headers = {"X-Chicago-Profile": secret} if secret else {}
    response = client.post("/api/turns", json={"tokens": tokens or []}, headers=headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["turns"]
    return found


def to_act(client: TestClient, table_id: str) -> int:
    seat: int = client.get(f"/api/tables/{table_id}").json()["to_act"]
    return seat


def test_your_games_lists_the_tables_where_it_is_your_turn(client: TestClient) -> None:
    table_id, secret, anna, bo = correspondence(client)
    seat = to_act(client, table_id)
    mine, theirs = (secret, None) if seat == 0 else (None, bo)
    listed = turns(client, mine, [theirs] if theirs else [])
    assert [t["table"] for t in listed] == [table_id] and listed[0]["seat"] == seat
    assert listed[0]["clock_days"] == 1 and listed[0]["deadline"] is not None
    other = turns(client, None, [bo if seat == 0 else anna])
    assert other == []  # the other seat's person is not to act
    assert turns(client, None, ["x" * 32]) == []  # a token of no seat lists nothing


def test_the_site_socket_tells_when_it_becomes_your_turn(client: TestClient) -> None:
    table_id, secret, anna, bo = correspondence(client)
    tokens = {0: anna, 1: bo}
    seat = to_act(client, table_id)
    other = 1 - seat
    with client.websocket_connect("/ws/site") as site:
        site.send_text(json.dumps({"type": "hello", "profile": secret if other == 0 else None,
                                   "tokens": [] if other == 0 else [bo]}))
        first = json.loads(site.receive_text())
        assert first == {"type": "turns", "turns": []}
        mover = WsPlayer(client, table_id, tokens[seat])
        for _ in range(20):  # the person to act moves until the turn passes to the other
            if mover.state["to_act"] != seat:
                break
            mover.send(type="act", action=mover.state["legal_actions"][0], seq=mover.seq)
            mover.until(lambda f: f["type"] == "update")
        assert mover.state["to_act"] == other
        for _ in range(20):
            frame = json.loads(site.receive_text())
            if frame["turns"]:
                break
        assert frame["type"] == "turns" and frame["turns"][0]["table"] == table_id
        assert frame["turns"][0]["seat"] == other


def test_a_day_passes_and_the_stand_in_plays_then_the_seat_is_away(
        client: TestClient, clock: ShiftedClock) -> None:
    """The clock is days: after one day without a move the stand-in makes the move (an
    update ``by`` "clock", as at a live table); the third day in a row the seat is marked
    away and its stand-in plays on."""
    table_id, _, _anna, _bo = correspondence(client)
    watcher = WsPlayer(client, table_id)
    clock.advance(DAY - 60)
    watcher.send(type="ping")
    watcher.until(lambda f: f["type"] == "pong")
    assert all(f["type"] != "update" for f in watcher.frames)  # not yet
    clock.advance(61)
    update = watcher.until(lambda f: f["type"] == "update")
    assert update["by"] == "clock"
    runs = {update["seat"]: 1}
    while max(runs.values()) < 3:  # each seat's clock in turn, a day each
        clock.advance(DAY + 1)
        update = watcher.until(lambda f: f["type"] == "update" and f["by"] == "clock")
        runs[update["seat"]] = runs.get(update["seat"], 0) + 1
    # the third run stores the seat's away before the stand-in's move
    away = [f for f in watcher.frames if f["type"] == "seats"]
    assert [f["change"] for f in away] == ["away"] and away[0]["seat"] == update["seat"]
    assert away[0]["seats"][update["seat"]]["away"] is True


def test_a_restart_in_the_middle_of_a_correspondence_game_loses_nothing(
        settings: Settings) -> None:
    clock = ShiftedClock()
    with TestClient(create_app(settings, clock=clock)) as client:
        table_id, secret, _anna, bo = correspondence(client, 3)
        seat = to_act(client, table_id)
        before = client.get(f"/api/tables/{table_id}").json()
        listed = turns(client, secret, [bo])
        close_all()
    with TestClient(create_app(settings, clock=clock)) as client:
        after = client.get(f"/api/tables/{table_id}").json()
        assert after["seq"] == before["seq"] and after["to_act"] == seat
        assert after["clock_days"] == 3
        assert turns(client, secret, [bo]) == listed
        watcher = WsPlayer(client, table_id)
        clock.advance(3 * DAY + 1)  # the resumed table's clock runs on after the restart
        assert watcher.until(lambda f: f["type"] == "update")["by"] == "clock"
        close_all()


@pytest.mark.parametrize("body", [
    {"clock_days": 5}, {"clock_days": "1"}, {"clock_days": True}, {"clock_days": 1.5},
    {"clock_days": 1, "clock": 60}, {"clock_days": 1, "deal_pause": 15},
])
def test_bad_correspondence_options_are_refused(client: TestClient,
                                                body: dict[str, Any]) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    response = client.post("/api/tables", json={"seats": ["open", "open"], **body})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "bad_request"
    assert store.count("tables") == 0


@pytest.mark.parametrize("body", [
    {"tokens": "abc"}, {"tokens": [1]}, {"tokens": ["a b"]}, {"tokens": ["x" * 129]},
    {"tokens": ["t"] * 31}, {"tokens": [], "profile": "x"}, [],
])
def test_hostile_turns_requests_are_refused(client: TestClient, body: Any) -> None:
    response = client.post("/api/turns", json=body)
    assert response.status_code == 400, response.text


def test_turns_need_a_real_profile(client: TestClient) -> None:
    response = client.post("/api/turns", json={}, headers={"X-Chicago-Profile": "nope" * 8})
    assert response.status_code == 401


def test_the_site_socket_refuses_hostile_messages(client: TestClient) -> None:
    with client.websocket_connect("/ws/site") as site:
        for raw in ("nope", "[]", '{"type": "act"}', '{"type": "hello", "tokens": "x"}',
                    json.dumps({"type": "hello", "tokens": ["t"] * 31}),
                    '{"type": "hello", "profile": 5}', '{"type": "hello", "extra": 1}',
                    '{"type": "hello", "profile": "' + "s" * 40 + '"}'):
            site.send_text(raw)
            frame = json.loads(site.receive_text())
            assert frame["type"] == "error", raw
        site.send_text('{"type": "ping"}')
        assert json.loads(site.receive_text())["type"] == "pong"


def test_the_site_socket_from_another_origin_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws/site", headers={"origin": "http://evil.example"}) as site:
        site.receive_text()


def test_signing_out_everywhere_ends_the_site_socket(client: TestClient) -> None:
    """Revoking the profile's secret ends what it opened: the site socket that said hello
    with it is closed (4401) at once, and sends no more turns; a hello with the old secret
    is refused."""
    from starlette.websockets import WebSocketDisconnect

    _, secret, _, _ = correspondence(client)
    with client.websocket_connect("/ws/site") as site:
        site.send_text(json.dumps({"type": "hello", "profile": secret, "tokens": []}))
        json.loads(site.receive_text())
        rotated = client.post("/api/profiles/me/rotate", headers={"X-Chicago-Profile": secret})
        assert rotated.status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(10):
                frame = json.loads(site.receive_text())
                assert frame["type"] != "turns" or not frame["turns"]
        assert closed.value.code == 4401
    with client.websocket_connect("/ws/site") as site:
        site.send_text(json.dumps({"type": "hello", "profile": secret, "tokens": []}))
        refused = json.loads(site.receive_text())
        assert refused["type"] == "error" and refused["code"] == "bad_profile"
