"""Resync by sequence number: a client that reconnects with the last seq it saw gets exactly
the stream messages it missed (the same events as a client that never left), then
``resumed``; without a usable seq it gets a snapshot. The view a client keeps from a snapshot
and updates (docs/PROTOCOL.md) always equals the server's fresh snapshot."""

from __future__ import annotations

import random

import pytest
from server_support import WsPlayer, create_table, join, play_out
from starlette.testclient import TestClient

pytestmark = pytest.mark.timeout(120)


def _fresh_view(player: WsPlayer) -> dict[str, object]:
    player.send(type="view")
    snap = player.until(lambda f: f["type"] == "snapshot")
    view: dict[str, object] = snap["view"]
    return view


def _check(player: WsPlayer, checker: WsPlayer) -> None:
    """``player``'s kept view equals a fresh snapshot taken through ``checker`` (same seat)."""
    checker.send(type="view")
    snap = checker.until(lambda f: f["type"] == "snapshot")
    player.sync(snap["seq"])
    assert player.seq == snap["seq"]
    assert player.state == snap["view"]


def _stream(frames: list[dict[str, object]], after: int) -> list[tuple[object, ...]]:
    """The stream messages after ``after``: (type, seq, action, events) without states."""
    out = []
    for f in frames:
        seq = f["seq"]
        assert isinstance(seq, int)
        if seq > after and f["type"] in ("update", "game_over", "seats", "chat"):
            out.append((f["type"], seq, f.get("action"), f.get("events"), f.get("change"),
                        f.get("text")))
    return out


def test_reconnect_gets_exactly_what_it_missed(client: TestClient) -> None:
    info = create_table(client, ["open", "open", "bot:random"])
    table = info["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    anna = WsPlayer(client, table, tokens[0])
    bo_stays = WsPlayer(client, table, tokens[1])  # the same seat, never disconnected
    bo = WsPlayer(client, table, tokens[1])
    rng = random.Random(11)
    reconnects = 0
    while not anna.over:
        view = anna.state
        seat = view["to_act"]
        if seat is None:
            break
        if seat == 2:
            anna.until(lambda f: f["type"] == "update")
            continue
        actor = anna if seat == 0 else bo
        actor.sync(anna.seq)
        if actor is anna and rng.random() < 0.3 and not bo.closed:
            bo.sync(anna.seq)
            last = bo.seq
            bo.close()
            # anna and the bot play on while bo is away, until it is bo's turn
            while anna.state["to_act"] in (0, 2) and not anna.over:
                if anna.state["to_act"] == 0:
                    anna.send(type="act", action=rng.choice(anna.state["legal_actions"]))
                anna.until(lambda f: f["type"] == "update")
            if anna.over:
                anna.until(lambda f: f["type"] == "game_over")
            bo = WsPlayer(client, table, tokens[1], last_seq=last, view=bo.view)
            reconnects += 1
            bo_stays.sync(anna.seq)
            resumed = bo.frames[-1]
            assert resumed["type"] == "resumed" and resumed["seq"] == anna.seq
            assert _stream(bo.frames, last) == _stream(bo_stays.frames, last)
            assert bo.view is not None
            replayed = [f for f in bo.frames if f["type"] == "update"]
            assert all(f["state"] is None for f in replayed[:-1])
            continue
        actor.send(type="act", action=rng.choice(actor.state["legal_actions"]), seq=actor.seq)
        anna.until(lambda f: f["type"] == "update")
    assert reconnects >= 2
    for player in (anna, bo, bo_stays):
        player.sync(anna.seq)
    assert bo.state == bo_stays.state == _fresh_view(bo)


def test_view_kept_from_updates_equals_the_snapshot(client: TestClient) -> None:
    """At every step of whole games, seat and spectator views kept by the client rule of
    docs/PROTOCOL.md equal a fresh snapshot (events, history, hands, legal actions)."""
    info = create_table(client, ["open", "open", "bot:basic", "open"])
    table = info["id"]
    players = {seat: WsPlayer(client, table, join(client, table, seat)) for seat in (0, 1, 3)}
    spectator = WsPlayer(client, table)
    watcher = WsPlayer(client, table)
    checker = {seat: WsPlayer(client, table, join_token) for seat, join_token in
               ((s, players[s].token) for s in players)}
    rng = random.Random(12)
    steps = 0
    while not spectator.over:
        view = spectator.state
        seat = view["to_act"]
        if seat is None:
            break
        if seat in players:
            p = players[seat]
            p.sync(spectator.seq)
            p.send(type="act", action=rng.choice(p.state["legal_actions"]))
        spectator.until(lambda f: f["type"] == "update")
        steps += 1
        if steps % 7 == 0:
            for s, p in players.items():
                _check(p, checker[s])
            _check(spectator, watcher)
    assert steps > 20


def test_snapshot_when_replay_is_not_possible(client: TestClient) -> None:
    info = create_table(client, ["open", "bot:random"])
    token = join(client, info["id"], 0)
    me = WsPlayer(client, info["id"], token)
    seq = me.frames[-1]["seq"]
    for last in (None, seq + 5):
        other = WsPlayer(client, info["id"], token, last_seq=last)
        assert other.frames[-1]["type"] == "snapshot" and other.frames[-1]["reason"] == "hello"
        other.close()
    same = WsPlayer(client, info["id"], token, last_seq=seq)  # nothing missed
    assert [f["type"] for f in same.frames] == ["resumed"]
    play_out({0: me}, me, random.Random(13))
    me.send(type="rematch")
    me.until(lambda f: f["type"] == "snapshot")
    late = WsPlayer(client, info["id"], token, last_seq=seq)  # before the current game
    assert late.frames[-1]["type"] == "snapshot" and late.frames[-1]["view"]["deal"] == 1
    assert late.frames[-1]["table"]["game"] == 2
