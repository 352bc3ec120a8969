"""The turn clock: when it runs out a stand-in bot takes the absent player's seat and plays
for it; the player takes the seat back with ``back``, an action or a reconnection."""

from __future__ import annotations

import random

import pytest
from server_support import WsPlayer, create_table, join
from starlette.testclient import TestClient

pytestmark = pytest.mark.timeout(120)


def _expire(client: TestClient, table_id: str) -> bool:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    result: bool = client.portal.call(manager.expire_clock, table_id)  # type: ignore[union-attr]
    return result


def test_stand_in_plays_for_an_absent_player_and_gives_the_seat_back(
        client: TestClient) -> None:
    info = create_table(client, ["open", "open"], clock=600, stand_in="random")
    table = info["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    players = [WsPlayer(client, table, t) for t in tokens]
    watcher = WsPlayer(client, table)
    seat = watcher.state["to_act"]
    clock = watcher.frames[-1]["clock"]
    assert clock["seat"] == seat and 0 < clock["ms"] <= 600_000

    assert _expire(client, table)
    away = watcher.until(lambda f: f["type"] == "seats")
    assert away["change"] == "away" and away["seat"] == seat
    assert away["seats"][seat]["away"] is True
    # the stand-in acts for the seat; the other player answers when it is their turn
    other = players[1 - seat]
    rng = random.Random(5)
    stand_in_moves = 0
    while stand_in_moves < 3:
        frame = watcher.until(lambda f: f["type"] == "update")
        if frame["by"] == "stand-in":
            assert frame["seat"] == seat
            stand_in_moves += 1
        if watcher.state["to_act"] == 1 - seat:
            other.sync(watcher.seq)
            other.send(type="act", action=rng.choice(other.state["legal_actions"]))
    # the player comes back
    me = players[seat]
    me.sync(watcher.seq)
    me.send(type="back")
    back = watcher.until(lambda f: f["type"] == "seats")
    assert back["change"] == "back" and back["seats"][seat]["away"] is False
    for _ in range(30):  # from now on only the player acts for the seat
        if watcher.state["to_act"] is None:
            break
        to_act = watcher.state["to_act"]
        actor = players[to_act]
        actor.sync(watcher.seq)
        actor.send(type="act", action=rng.choice(actor.state["legal_actions"]))
        frame = watcher.until(lambda f: f["type"] == "update")
        assert frame["by"] == "player"
        if frame["clock"] is not None:
            assert frame["clock"]["seat"] == watcher.state["to_act"]


def test_a_reconnection_or_an_action_gives_the_seat_back(client: TestClient) -> None:
    """Bots wait 5 s before acting here, so the player is back before the stand-in moves."""
    info = create_table(client, ["open", "open"], clock=600, stand_in="random", bot_delay=5)
    table = info["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    watcher = WsPlayer(client, table)
    seat = watcher.state["to_act"]
    me = WsPlayer(client, table, tokens[seat])
    seq = watcher.seq
    assert _expire(client, table)
    assert watcher.until(lambda f: f["type"] == "seats")["change"] == "away"
    me.close()
    me = WsPlayer(client, table, tokens[seat], last_seq=seq, view=me.view)
    assert watcher.until(lambda f: f["type"] == "seats")["change"] == "back"
    assert [f["type"] for f in me.frames] == ["seats", "seats", "resumed"]

    assert _expire(client, table)  # away again; this time an action brings the player back
    assert watcher.until(lambda f: f["type"] == "seats")["change"] == "away"
    me.sync(watcher.seq)
    action = me.state["legal_actions"][0]
    me.send(type="act", action=action)
    assert watcher.until(lambda f: f["type"] == "seats")["change"] == "back"
    update = watcher.until(lambda f: f["type"] == "update")
    assert (update["by"], update["seat"], update["action"]) == ("player", seat, action)


def test_the_clock_runs_out_by_itself(client: TestClient) -> None:
    """A one-second clock: the stand-in takes over without anyone's help."""
    info = create_table(client, ["open", "open"], clock=1, stand_in="random")
    table = info["id"]
    for seat in (0, 1):
        join(client, table, seat)
    watcher = WsPlayer(client, table)
    away = watcher.until(lambda f: f["type"] == "seats" and f["change"] == "away")
    assert away["seats"][away["seat"]]["away"] is True
    frame = watcher.until(lambda f: f["type"] == "update")
    assert frame["by"] == "stand-in"
