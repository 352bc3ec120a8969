"""The turn clock: when it runs out a stand-in bot takes the absent player's seat and plays
for it; the player takes the seat back with ``back``, an action or a reconnection."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from server_support import WsPlayer, close_all, create_table, join
from sqlalchemy import text
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.storage import Store

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


def _clock_ms(player: WsPlayer) -> int:
    player.send(type="view")
    clock = player.until(lambda f: f["type"] == "snapshot")["clock"]
    assert clock is not None
    ms: int = clock["ms"]
    return ms


def _age_log(db_url: str, seconds: float) -> None:
    """Make every stored change ``seconds`` older (as if the server had been down)."""
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE log SET created_at = created_at - :s"), {"s": seconds})
    store.close()


def test_a_restart_keeps_the_turn_clock_running(tmp_path: Path) -> None:
    """The deadline is stored with the change that began the turn: after a restart the seat
    to act has what was left, not a fresh clock (here 600 s, 590 of them gone)."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'clock.sqlite3'}", static_dir=None,
                        seed=11)
    with TestClient(create_app(settings)) as client:
        try:
            table = create_table(client, ["open", "open"], clock=600)["id"]
            tokens = [join(client, table, seat) for seat in (0, 1)]
            watcher = WsPlayer(client, table)
            assert 590_000 < _clock_ms(watcher) <= 600_000
        finally:
            close_all()
    _age_log(settings.db_url, 590)
    with TestClient(create_app(settings)) as client:
        try:
            watcher = WsPlayer(client, table)
            left = watcher.frames[-1]["clock"]["ms"]
            assert 5_000 < left <= 10_000
            seat = watcher.state["to_act"]
            me = WsPlayer(client, table, tokens[seat])
            me.send(type="act", action=me.state["legal_actions"][0])  # the next turn: full
            update = watcher.until(lambda f: f["type"] == "update")
            assert update["clock"]["ms"] > 590_000
        finally:
            close_all()


def test_a_clock_that_ran_out_while_down_gets_a_short_grace_then_the_stand_in(
        tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'grace.sqlite3'}", static_dir=None,
                        seed=12, clock_grace=0.5)
    with TestClient(create_app(settings)) as client:
        try:
            table = create_table(client, ["open", "open"], clock=60, stand_in="random")["id"]
            for seat in (0, 1):
                join(client, table, seat)
        finally:
            close_all()
    _age_log(settings.db_url, 3600)
    with TestClient(create_app(settings)) as client:
        try:
            watcher = WsPlayer(client, table)
            assert watcher.frames[-1]["clock"]["ms"] <= 500
            away = watcher.until(lambda f: f["type"] == "seats")
            assert away["change"] == "away" and away["seats"][away["seat"]]["away"] is True
        finally:
            close_all()


def test_chat_does_not_extend_the_turn_clock(client: TestClient) -> None:
    table = create_table(client, ["open", "open"], clock=600)["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    watcher = WsPlayer(client, table)
    me = WsPlayer(client, table, tokens[watcher.state["to_act"]])
    before = _clock_ms(me)
    time.sleep(0.3)
    me.send(type="chat", text="thinking")
    me.until(lambda f: f["type"] == "chat")
    assert _clock_ms(me) <= before - 250


def test_seats_messages_say_the_status_and_the_clock(client: TestClient) -> None:
    """The game starts when the last open seat is joined, with a ``seats`` message and no new
    snapshot: it says ``status`` (waiting, then playing) and the turn clock that starts then;
    while the stand-in plays for the seat to act there is no clock, and given back it runs
    again (docs/PROTOCOL.md)."""
    info = create_table(client, ["open", "open", "bot:random"], clock=600, stand_in="random",
                        bot_delay=5)
    table = info["id"]
    watcher = WsPlayer(client, table)
    tokens = [join(client, table, 0)]
    joined = watcher.until(lambda f: f["type"] == "seats")
    assert (joined["change"], joined["status"], joined["clock"]) == ("join", "waiting", None)
    tokens.append(join(client, table, 1))
    joined = watcher.until(lambda f: f["type"] == "seats")
    assert joined["change"] == "join" and joined["status"] == "playing"
    seat = watcher.state["to_act"]
    assert seat in (0, 1), "the tests' seed makes a person act first"
    assert joined["clock"]["seat"] == seat and 590_000 < joined["clock"]["ms"] <= 600_000
    assert not [f for f in watcher.frames if f["type"] == "snapshot" and f["reason"] != "hello"]
    assert _expire(client, table)
    away = watcher.until(lambda f: f["type"] == "seats")
    assert (away["change"], away["status"], away["clock"]) == ("away", "playing", None)
    WsPlayer(client, table, tokens[seat])  # hello with the token gives the seat back
    back = watcher.until(lambda f: f["type"] == "seats")
    assert back["change"] == "back" and back["clock"]["seat"] == seat
