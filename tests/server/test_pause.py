"""The pause after a deal (issue 16, docs/PROTOCOL.md "The pause after a deal"): the next
deal, already dealt, starts when every person at the table has pressed Continue or after the
table's ``deal_pause``; meanwhile nobody acts, no bot moves and no turn clock runs. A table
of bots never pauses. The pause is stored, so it outlasts a restart."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from server_support import Since, WsPlayer, age_log, close_all, create_table, join
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.core.turns import PauseRuns, next_turn

pytestmark = pytest.mark.timeout(120)


def _play_to_the_deal_end(watcher: WsPlayer, players: dict[int, WsPlayer],
                          rng: random.Random) -> dict[str, Any]:
    """People act randomly (bots on the server) until an update ends the first deal."""
    while True:
        seat = watcher.state["to_act"]
        if seat in players:
            player = players[seat]
            player.sync(watcher.seq)
            player.send(type="act", action=rng.choice(player.state["legal_actions"]))
        update = watcher.until(lambda f: f["type"] == "update")
        if any(e["type"] == "deal_end" for e in update["events"]):
            return update


def test_the_next_deal_waits_for_every_person_to_press_continue(client: TestClient) -> None:
    info = create_table(client, ["open", "open", "bot:random"], deal_pause=60, clock=600)
    assert info["deal_pause"] == 60 and info["pause"] is None
    table = info["id"]
    players = {seat: WsPlayer(client, table, join(client, table, seat)) for seat in (0, 1)}
    watcher = WsPlayer(client, table)
    since = Since()
    end = _play_to_the_deal_end(watcher, players, random.Random(1))
    pause = end["pause"]
    assert pause["deal"] == 2 and pause["waiting"] == [0, 1]
    assert since.least(60_000) <= pause["ms"] <= 60_000
    assert end["clock"] is None  # no turn clock runs in the pause
    assert watcher.state["deal"] == 2  # the next deal is dealt already
    assert client.get(f"/api/tables/{table}").json()["pause"]["waiting"] == [0, 1]

    # nobody acts meanwhile: the seat to act of the new deal is refused, no bot moves
    seat = watcher.state["to_act"]
    if seat in players:
        players[seat].sync(watcher.seq)
        players[seat].send(type="act", action=players[seat].state["legal_actions"][0], id="x")
        error = players[seat].until(lambda f: f["type"] == "error", errors_ok=True)
        assert (error["code"], error["id"]) == ("paused", "x")
    seq = watcher.seq

    players[0].send(type="continue")
    first = watcher.until(lambda f: f["type"] == "continue")
    assert (first["seq"], first["seat"], first["pause"]["waiting"]) == (seq + 1, 0, [1])
    assert first["clock"] is None
    players[0].send(type="continue")  # pressed again: nothing stored
    players[0].send(type="ping")
    players[0].until(lambda f: f["type"] == "pong")
    assert watcher.seq == seq + 1 and not players[0].errors()
    # what the table waits for (the one answer its timers are set from) is the pause's end,
    # not a bot's move: no bot moves while one person has not pressed Continue (before, the
    # test slept 0.2 s and saw nothing move, which proves nothing on a busy machine)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert isinstance(next_turn(manager.tables[table].state, manager.clock.time()), PauseRuns)
    assert watcher.seq == seq + 1

    since = Since()
    players[1].send(type="continue")
    last = watcher.until(lambda f: f["type"] == "continue")
    assert (last["seat"], last["pause"]) == (1, None)
    to_act = watcher.state["to_act"]
    if to_act in players:  # the next deal's first turn, with its whole clock
        assert last["clock"]["seat"] == to_act and last["clock"]["ms"] >= since.least(600_000)
    else:
        assert watcher.until(lambda f: f["type"] == "update")["by"] == "bot"


def test_the_pause_runs_out_by_itself(client: TestClient) -> None:
    info = create_table(client, ["open", "bot:random"], deal_pause=1)
    table = info["id"]
    players = {0: WsPlayer(client, table, join(client, table, 0))}
    watcher = WsPlayer(client, table)
    end = _play_to_the_deal_end(watcher, players, random.Random(2))
    assert end["pause"]["waiting"] == [0]
    # a test of the timer itself: a one-second pause, and the frame it causes (read for as
    # long as the test's timeout; how long it took is not tested: a busy machine is slow)
    over = watcher.until(lambda f: f["type"] == "continue")
    assert (over["seat"], over["pause"]) == (None, None)


def test_spectators_cannot_press_continue_and_a_table_of_bots_never_pauses(
        client: TestClient) -> None:
    info = create_table(client, ["bot:random", "bot:random", "bot:random"], deal_pause=60)
    watcher = WsPlayer(client, info["id"])
    while not watcher.over:
        update = watcher.until(lambda f: f["type"] in ("update", "game_over"))
        if update["type"] == "update":
            assert update["pause"] is None
    assert not [f for f in watcher.frames if f["type"] == "continue"]
    watcher.send(type="continue")
    assert watcher.until(lambda f: f["type"] == "error", errors_ok=True)["code"] == "not_seated"


def test_the_pause_outlasts_a_restart_and_ends_at_once_if_it_ran_out_meanwhile(
        tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'pause.sqlite3'}", static_dir=None,
                        seed=21)
    with TestClient(create_app(settings)) as client:
        try:
            table = create_table(client, ["open", "open"], deal_pause=100)["id"]
            tokens = [join(client, table, seat) for seat in (0, 1)]
            players = {s: WsPlayer(client, table, tokens[s]) for s in (0, 1)}
            watcher = WsPlayer(client, table)
            _play_to_the_deal_end(watcher, players, random.Random(3))
            players[1].send(type="continue")
            watcher.until(lambda f: f["type"] == "continue")
        finally:
            close_all()
    with TestClient(create_app(settings)) as client:
        try:
            info = client.get(f"/api/tables/{table}").json()
            assert info["pause"]["waiting"] == [0] and 90_000 < info["pause"]["ms"] <= 100_000
            me = WsPlayer(client, table, tokens[0])
            assert me.frames[-1]["table"]["pause"]["waiting"] == [0]
        finally:
            close_all()
    age_log(settings.db_url, 200)
    with TestClient(create_app(settings)) as client:
        try:
            watcher = WsPlayer(client, table)
            if watcher.frames[-1]["table"]["pause"] is not None:
                over = watcher.until(lambda f: f["type"] == "continue")
                assert (over["seat"], over["pause"]) == (None, None)
            # else the resumed table ended the spent pause before this client came: either
            # way the pause is over at once, with nobody pressing Continue
            assert client.get(f"/api/tables/{table}").json()["pause"] is None
        finally:
            close_all()
