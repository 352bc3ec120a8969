"""Play over the websocket with the framework's test client: snapshots, updates, bots that play
whole games on the server (R-END-1: a game ends and settles), game over, rematch, chat."""

from __future__ import annotations

import random

import pytest
from server_support import WsPlayer, create_table, join, play_out
from starlette.testclient import TestClient

pytestmark = pytest.mark.timeout(60)


def test_hello_gives_the_seat_its_snapshot(client: TestClient) -> None:
    info = create_table(client, ["open", "open"])
    token = join(client, info["id"], 1, "Bo")
    player = WsPlayer(client, info["id"], token)
    snap = player.frames[-1]
    assert snap["type"] == "snapshot" and snap["you"] == 1 and snap["reason"] == "hello"
    assert len(snap["view"]["hand"]) == 5
    assert snap["table"]["seats"][1]["name"] == "Bo"
    assert snap["table"]["status"] == "waiting"
    player.close()


def test_spectator_sees_the_public_view(client: TestClient) -> None:
    info = create_table(client, ["bot:random", "bot:random"], bot_delay=5)
    spectator = WsPlayer(client, info["id"])
    snap = spectator.frames[-1]
    assert snap["you"] is None and snap["view"]["hand"] == []
    assert all(e.get("to") is None for e in snap["view"]["events"])
    spectator.close()


def test_two_people_play_a_whole_game(client: TestClient) -> None:
    """Two humans over websockets; every update arrives at both with the same seq."""
    info = create_table(client, ["open", "open"])
    tokens = [join(client, info["id"], seat) for seat in (0, 1)]
    players = {seat: WsPlayer(client, info["id"], tokens[seat]) for seat in (0, 1)}
    sent = play_out(players, players[0], random.Random(1))
    assert sent > 10
    seqs = [[f["seq"] for f in p.frames if f["type"] == "update"] for p in players.values()]
    assert seqs[0] == seqs[1]
    assert players[0].state == {**players[1].state, "seat": 0, "hand": players[0].state["hand"],
                                "hand_category": players[0].state["hand_category"],
                                "discarded": players[0].state["discarded"],
                                "known_out": players[0].state["known_out"],
                                "legal_actions": [], "events": players[0].state["events"]}
    final = client.get(f"/api/tables/{info['id']}").json()
    assert final["status"] == "finished"
    for p in players.values():
        p.close()


def test_bots_play_whole_games_on_the_server(client: TestClient) -> None:
    """A human with three basic bots; and a table of bots alone, watched by a spectator."""
    info = create_table(client, ["open", "bot:basic", "bot:random", "bot:basic"])
    token = join(client, info["id"], 0)
    me = WsPlayer(client, info["id"], token)
    play_out({0: me}, me, random.Random(2))
    over = [f for f in me.frames if f["type"] == "game_over"]
    assert len(over) == 1 and over[0]["winners"]
    bys = {f["by"] for f in me.frames if f["type"] == "update"}
    assert bys == {"player", "bot"}
    me.close()

    bots = create_table(client, ["bot:random", "bot:basic", "bot:random"])
    watcher = WsPlayer(client, bots["id"])
    if not watcher.over:
        watcher.until(lambda f: f["type"] == "game_over")
    record = client.get(f"/api/games/{bots['id']}/1").json()["record"]
    assert record["result"]["over"] is True
    watcher.close()


def test_game_over_then_rematch_keeps_the_seats(client: TestClient) -> None:
    info = create_table(client, ["open", "bot:random"], name="rematch me")
    token = join(client, info["id"], 0, "Anna")
    me = WsPlayer(client, info["id"], token)
    play_out({0: me}, me, random.Random(3))
    before = me.seq
    me.send(type="rematch")
    snap = me.until(lambda f: f["type"] == "snapshot")
    assert snap["reason"] == "rematch" and snap["seq"] == before + 2  # rematch, game
    assert snap["table"]["game"] == 2 and snap["table"]["status"] == "playing"
    assert snap["table"]["seats"][0]["name"] == "Anna"
    assert snap["table"]["seats"][1]["kind"] == "bot"
    assert snap["view"]["deal"] == 1 and snap["view"]["scores"] == [0, 0]
    play_out({0: me}, me, random.Random(4))  # the same token plays game 2
    games = client.get("/api/games").json()["games"]
    assert {(g["table"], g["game"]) for g in games} >= {(info["id"], 1), (info["id"], 2)}
    me.close()


def test_rematch_over_http_needs_the_token(client: TestClient) -> None:
    info = create_table(client, ["open", "bot:random"])
    token = join(client, info["id"], 0)
    url = f"/api/tables/{info['id']}/rematch"
    assert client.post(url).status_code == 401
    assert client.post(url, headers={"Authorization": "Bearer nope"}).status_code == 401
    response = client.post(url, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_over"


def test_chat_reaches_everyone(client: TestClient) -> None:
    info = create_table(client, ["open", "open"])
    tokens = [join(client, info["id"], s, n) for s, n in ((0, "Anna"), (1, "Bo"))]
    anna, bo = (WsPlayer(client, info["id"], t) for t in tokens)
    spectator = WsPlayer(client, info["id"])
    anna.send(type="chat", text="  lycka   till ")
    for who in (anna, bo, spectator):
        line = who.until(lambda f: f["type"] == "chat")
        assert line == {"type": "chat", "seq": line["seq"], "seat": 0, "name": "Anna",
                        "text": "lycka till"}
    spectator.send(type="chat", text="hi")
    assert spectator.until(lambda f: f["type"] == "error")["code"] == "not_seated"
    for who in (anna, bo, spectator):
        who.close()


def test_presence_and_seat_changes(client: TestClient) -> None:
    info = create_table(client, ["open", "open"])
    watcher = WsPlayer(client, info["id"])
    token = join(client, info["id"], 0, "Anna")
    joined = watcher.until(lambda f: f["type"] == "seats")
    assert joined["change"] == "join" and joined["seat"] == 0
    assert joined["seats"][0]["name"] == "Anna"
    anna = WsPlayer(client, info["id"], token)
    presence = watcher.until(lambda f: f["type"] == "presence")
    assert presence["connected"] == [True, False]
    anna.close()
    presence = watcher.until(lambda f: f["type"] == "presence")
    assert presence["connected"] == [False, False]
    watcher.close()


def test_ping_and_view(client: TestClient) -> None:
    info = create_table(client, ["open", "open"])
    player = WsPlayer(client, info["id"], hello=False)
    player.send(type="ping")
    assert player.recv()["type"] == "pong"
    player.hello()
    player.send(type="view")
    snap = player.until(lambda f: f["type"] == "snapshot")
    assert snap["reason"] == "view"
    player.close()
