"""Bad input on the websocket: malformed, oversized, out-of-turn, illegal, stale, unauthorised
and flooding messages get an error naming the problem; the connection stays up and the table
is unchanged (same seq, same view)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import WsPlayer, close_all, create_table, join
from starlette.testclient import TestClient

from chicago.server import Settings, create_app, sockets
from chicago.server.core.state import AWAY_AFTER

pytestmark = pytest.mark.timeout(120)


def _snapshot(player: WsPlayer) -> dict[str, object]:
    player.send(type="view")
    return player.until(lambda f: f["type"] == "snapshot")


def _assert_unchanged(client: TestClient, player: WsPlayer, table_id: str,
                      seq: int, view: object) -> None:
    player.send(type="ping", id="alive")
    assert player.until(lambda f: f["type"] == "pong")["seq"] == seq
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == seq
    assert _snapshot(player)["view"] == view


def _error(player: WsPlayer) -> dict[str, object]:
    return player.until(lambda f: f["type"] == "error", errors_ok=True)


@pytest.fixture
def table(client: TestClient) -> tuple[str, dict[int, WsPlayer]]:
    info = create_table(client, ["open", "open"])
    players = {seat: WsPlayer(client, info["id"], join(client, info["id"], seat))
               for seat in (0, 1)}
    return info["id"], players


def test_malformed_messages(client: TestClient,
                            table: tuple[str, dict[int, WsPlayer]]) -> None:
    table_id, players = table
    me = players[0]
    snap = _snapshot(me)
    seq, view = snap["seq"], snap["view"]
    cases: list[tuple[str, str, str]] = [
        ("this is not json", "bad_json", "not valid JSON"),
        ("[1, 2, 3]", "bad_json", "JSON object"),
        ('{"type": "teleport"}', "bad_message", "unknown message type 'teleport'"),
        ('{"type": "act", "id": "a1"}', "bad_message", 'act needs "action"'),
        ('{"type": "act", "action": "keep", "seq": "x", "id": 7}', "bad_message", '"seq"'),
        ('{"type": "hello", "token": ["x"]}', "bad_message", '"token"'),
        ('{"type": "ping", "pad": "' + "x" * 17000 + '"}', "too_large", "at most 16384 bytes"),
        # deeper than the JSON parser goes (a RecursionError inside it), under the size limit
        ("[" * 5000 + "]" * 5000, "bad_json", "nested too deeply"),
        ('{"type": "ping", "id": ' + "[" * 3000 + "]" * 3000 + "}", "bad_json",
         "nested too deeply"),
        ('{"type": "act", "action": "keep", "seq": ' + "9" * 5000 + "}", "bad_json",
         "not valid JSON"),
        # a lone surrogate (valid JSON, not encodable text) where a token is expected
        (r'{"type": "hello", "token": "\ud800"}', "bad_message", '"token" must be a seat token'),
        (r'{"type": "hello", "token": "tok en"}', "bad_message", '"token" must be a seat token'),
        (r'{"type": "chat", "text": "\ud800 hi", "id": "c1"}', "bad_message",
         "control characters or lone surrogates"),
        (r'{"type": "chat", "text": "ring\u0007"}', "bad_message", "control characters"),
        (r'{"type": "chat", "text": "\u202egg"}', "bad_message", "control characters"),
        (r'{"type": "act", "action": "play \u0000"}', "bad_message", "control characters"),
        (r'{"type": "act", "action": "play \udfff"}', "bad_message", "lone surrogates"),
    ]
    for raw, code, words in cases:
        me.send_raw(raw)
        error = _error(me)
        assert error["code"] == code, raw[:60]
        assert words in str(error["message"]), error
        assert error["seq"] == seq
    ids = [f.get("id") for f in me.errors()]
    assert "a1" in ids and 7 in ids and "c1" in ids
    me.ws.send_bytes(b'{"type": "ping", "x": "\xff\xfe"}')  # bytes that are not UTF-8
    error = _error(me)
    assert error["code"] == "bad_json" and "not valid JSON" in str(error["message"])
    me.ws.send_bytes(json.dumps({"type": "ping"}).encode())
    assert me.until(lambda f: f["type"] == "pong")["seq"] == seq
    _assert_unchanged(client, me, table_id, seq, view)


def test_out_of_turn_illegal_and_stale_actions(client: TestClient,
                                               table: tuple[str, dict[int, WsPlayer]]) -> None:
    table_id, players = table
    to_act = players[0].state["to_act"]
    mover, waiter = players[to_act], players[1 - to_act]
    snap = _snapshot(mover)
    seq, view = snap["seq"], snap["view"]
    waiter.sync(seq)
    legal = mover.state["legal_actions"]
    assert legal and waiter.state["legal_actions"] == []

    waiter.send(type="act", action=legal[0], id="w")
    error = _error(waiter)
    assert error["code"] == "not_your_turn" and error["id"] == "w"
    assert f"seat {to_act} is to act" in str(error["message"])

    for text, words in [("play 2c", "illegal_action"), ("fly away", "illegal_action"),
                        ("discard 2c 2c", "illegal_action")]:
        mover.send(type="act", action=text)
        error = _error(mover)
        assert error["code"] == words and text in str(error["message"])

    # seq 0 is before the game began (seq 1); seq + 1 is beyond the table
    mover.send(type="act", action=legal[0], seq=0)
    error = _error(mover)
    assert error["code"] == "stale" and f"the table is at {seq}" in str(error["message"])
    assert "the game changed at seq 1" in str(error["message"])
    mover.send(type="act", action=legal[0], seq=seq + 1)
    error = _error(mover)
    assert error["code"] == "stale" and f"the table is at {seq}" in str(error["message"])

    mover.send(type="rematch")
    assert _error(mover)["code"] == "not_over"
    _assert_unchanged(client, mover, table_id, seq, view)

    mover.send(type="act", action=legal[0], seq=seq)  # and the right one still works
    update = mover.until(lambda f: f["type"] == "update")
    assert update["seq"] == seq + 1 and update["action"] == legal[0]


def test_chat_and_seat_changes_do_not_make_an_act_stale_but_game_changes_do(
        client: TestClient) -> None:
    """An act carries the seq of the state it was decided on. A chat line or a seat change
    (here: another seat's stand-in taking over and giving the seat back) stored after that
    seq changes nothing in the game, so the act is accepted; an act decided before another
    action (or before a new game) is refused as ``stale`` and changes nothing."""
    info = create_table(client, ["open", "open", "open"], clock=600, bot_delay=5)
    table_id = info["id"]
    players = {seat: WsPlayer(client, table_id, join(client, table_id, seat))
               for seat in range(3)}
    for player in players.values():
        player.sync(4)
    to_act = players[0].state["to_act"]
    mover = players[to_act]
    seen = mover.seq
    legal = mover.state["legal_actions"]
    chatter = players[(to_act + 1) % 3]
    chatter.send(type="chat", text="a line before the click")
    mover.until(lambda f: f["type"] == "chat")
    assert mover.seq == seen + 1
    mover.send(type="act", action=legal[0], seq=seen, id="after-chat")
    update = mover.until(lambda f: f["type"] == "update")
    assert update["seq"] == seen + 2 and update["seat"] == to_act
    assert not [f for f in mover.frames if f["type"] == "error"]

    # an act decided on the game before that action: refused, nothing changed
    nxt = players[0].state["to_act"]
    late = players[nxt]
    late.sync(mover.seq)
    snap = _snapshot(late)
    late.send(type="act", action=late.state["legal_actions"][0], seq=seen, id="old")
    error = _error(late)
    assert error["code"] == "stale" and error["id"] == "old"
    assert f"the game changed at seq {seen + 2}" in str(error["message"])
    _assert_unchanged(client, late, table_id, snap["seq"], snap["view"])

    # a seat change in between: a seat whose clock ran out three times in a row is away
    # (its stand-in waits 5 s to move) and its player takes it back (``back``, stored after
    # the seq another seat's click was decided on); that click is on the same game, so it
    # is accepted
    manager = client.app.state.manager  # type: ignore[attr-defined]
    rng = random.Random(3)
    away = nxt
    for _ in range(AWAY_AFTER):
        while late.state["to_act"] != away:
            actor = players[late.state["to_act"]]
            actor.sync(late.seq)
            before = late.seq
            actor.send(type="act", action=rng.choice(actor.state["legal_actions"]))
            late.until(lambda f, b=before: f["type"] == "update" and f["seq"] > b)
        assert client.portal.call(manager.expire_clock, table_id)  # type: ignore[union-attr]
        late.until(lambda f: f["type"] == "update" and f["by"] == "clock")
    assert manager.tables[table_id].state.seats[away].away
    clicker = players[late.state["to_act"]]
    clicker.sync(late.seq)
    seen = clicker.seq
    players[away].sync(seen)
    players[away].send(type="back")
    clicker.until(lambda f: f["type"] == "seats" and f["change"] == "back")
    clicker.send(type="act", action=clicker.state["legal_actions"][0], seq=seen, id="after")
    update = clicker.until(lambda f: f["type"] == "update")
    assert update["by"] == "player" and update["seq"] == seen + 2
    assert not [f for f in clicker.frames if f["type"] == "error" and f.get("id") == "after"]


def test_spectators_and_strangers_cannot_act(client: TestClient,
                                             table: tuple[str, dict[int, WsPlayer]]) -> None:
    table_id, players = table
    seat = players[0].state["to_act"]
    legal = players[seat].state["legal_actions"]
    snap = _snapshot(players[seat])
    seq, view = snap["seq"], snap["view"]

    fresh = WsPlayer(client, table_id, hello=False)
    fresh.send(type="act", action=legal[0])
    assert _error(fresh)["code"] == "hello_required"
    fresh.token = "not-a-token"
    assert fresh.hello()["code"] == "bad_token"
    other = create_table(client, ["open", "open"])
    fresh.token = join(client, other["id"], 0)  # a real token, of another table
    assert fresh.hello()["code"] == "bad_token"
    fresh.token = None
    assert fresh.hello()["type"] == "snapshot"  # the connection is still usable
    for message in ({"type": "act", "action": legal[0]}, {"type": "rematch"},
                    {"type": "back"}, {"type": "chat", "text": "hi"}):
        fresh.send(**message)
        error = _error(fresh)
        assert error["code"] == "not_seated"
    _assert_unchanged(client, players[seat], table_id, seq, view)


def test_acting_before_the_table_is_full(client: TestClient) -> None:
    info = create_table(client, ["open", "open", "open"])
    seat = WsPlayer(client, info["id"]).state["to_act"]
    me = WsPlayer(client, info["id"], join(client, info["id"], seat))
    me.send(type="act", action=me.state["legal_actions"][0])
    error = _error(me)
    assert error["code"] == "not_started" and "waiting for a player" in str(error["message"])


def test_unknown_table_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/no-such-table") as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "unknown_table"


@pytest.fixture
def strict_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'strict.sqlite3'}", static_dir=None,
                        seed=7, rate=1.0, burst=5, flood_close=60)
    with TestClient(create_app(settings)) as test_client:
        try:
            yield test_client
        finally:
            close_all()


def test_rate_limit_and_flood(strict_client: TestClient,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    # the rate limits' clock stands still unless moved here: however slowly a busy machine
    # handles the messages, no token comes back meanwhile
    clock = [1000.0]
    monkeypatch.setattr(sockets, "rate_clock", lambda: clock[0])
    client = strict_client
    info = create_table(client, ["open", "open"])
    me = WsPlayer(client, info["id"], join(client, info["id"], 0))  # hello used 1 token
    start = clock[0]
    for _ in range(30):
        me.send(type="ping")
    me.send(type="view")
    elapsed = clock[0] - start
    limited = me.until(lambda f: f["type"] == "error", errors_ok=True)
    assert limited["code"] == "rate_limited" and "this one was dropped" in str(limited["message"])
    clock[0] += 1.2  # one token comes back: the connection still works
    me.send(type="ping", id="again")
    me.until(lambda f: f["type"] == "pong" and f["seq"] == me.seq, errors_ok=True)
    pongs = sum(1 for f in me.frames if f["type"] == "pong")
    assert 4 <= pongs <= 5 + int(elapsed + 2.5)
    for _ in range(200):  # flooding closes the connection (code 1008)
        me.send(type="ping")
    with pytest.raises(Exception) as info_close:
        while True:
            me.recv()
    assert getattr(info_close.value, "code", 1008) == 1008


def test_a_server_fault_answers_internal_and_keeps_the_connection(
        client: TestClient, table: tuple[str, dict[int, WsPlayer]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A message whose handling fails inside the server (a bug, simulated here) gets an
    ``internal`` error naming its id; the connection stays up for the next message."""
    _table_id, players = table
    me = players[0]
    manager = client.app.state.manager  # type: ignore[attr-defined]

    async def broken(*args: object) -> None:
        raise RuntimeError("simulated fault")

    monkeypatch.setattr(manager, "chat", broken)
    me.send(type="chat", text="hello", id="fault")
    error = _error(me)
    assert error["code"] == "internal" and error["id"] == "fault"
    monkeypatch.undo()
    me.send(type="chat", text="hello again")
    assert me.until(lambda f: f["type"] == "chat")["text"] == "hello again"
