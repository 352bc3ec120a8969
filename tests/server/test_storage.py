"""Storage on SQLite and on PostgreSQL (same schema, same code): Alembic migrations, the log's
single-writer key, group commits, lobby queries, and a server that is stopped and started
again on the same database and rebuilds every table from its log."""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path

import pytest
from server_support import WsPlayer, close_all, create_table, join, play_out
from sqlalchemy import inspect
from starlette.testclient import TestClient

from chicago import Rules
from chicago.server import Settings, create_app
from chicago.server.core.rows import SeatHolder
from chicago.server.core.state import build_table
from chicago.server.storage import Change, Conflict, GameRow, LogEntry, Store, TableRow

pytestmark = pytest.mark.timeout(180)


def _row(table_id: str, status: str = "waiting", private: bool = False) -> TableRow:
    now = time.time()
    return TableRow(
        id=table_id, name=f"t {table_id}", players=2, preset="pagat",
        rules=Rules.preset("pagat").to_dict(), variations=[], seats=["open", "bot:random"],
        options={"clock": None, "stand_in": "random", "bot_delay": 0}, private=private,
        secret="s" * 32, status=status, open_seats=1, game=1, created_at=now, updated_at=now,
    )


def _game(table_id: str, seed: int = 5) -> GameRow:
    return GameRow(table_id=table_id, number=1, seed=seed,
                   rules=Rules.preset("pagat").to_dict(), players=2, status="playing",
                   started_at=time.time())


def _entry(seq: int, kind: str = "game", seat: int | None = None,
           data: dict[str, object] | None = None) -> LogEntry:
    return LogEntry(seq, 1, kind, seat, data or {"number": 1, "seed": 5}, time.time())


def test_migrations_create_the_schema_once(db_url: str) -> None:
    store = Store(db_url)
    assert store.revision() is None
    store.migrate()
    store.migrate()  # idempotent: every start runs it
    assert store.revision() == "0012_pairing"
    names = set(inspect(store.engine).get_table_names())
    assert {"tables", "games", "log", "reviews", "alembic_version"} <= names
    assert store.count("log") == 0
    store.close()


def test_log_round_trip_and_single_writer(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    assert store.write([Change("a", [_entry(1)], new_table=_row("a"), new_game=_game("a"))]) \
        == [None]
    join = _entry(2, "join", 0, {"name": "Anna", "token": "h" * 64})
    act_data = {"action": "keep", "by": "player"}
    results = store.write([
        Change("a", [join], table_updates={"open_seats": 0, "status": "playing"}),
        Change("b", [_entry(1)], new_table=_row("b"), new_game=_game("b")),
    ])
    assert results == [None, None]
    # another writer already stored seq 2 of table a: refused, the good change in the batch
    # is stored all the same
    clash = _entry(2, "act", 1, act_data)
    good = _entry(3, "act", 1, act_data)
    results = store.write([Change("a", [clash]), Change("b", [_entry(2, "chat", 0,
                                                                     {"text": "hej"})])])
    assert isinstance(results[0], Conflict) and results[1] is None
    assert store.write([Change("a", [good])]) == [None]
    loaded = store.load("a")
    assert loaded is not None
    assert [e.seq for e in loaded.entries] == [1, 2, 3]
    assert loaded.entries[1].data == {"name": "Anna", "token": "h" * 64}
    assert loaded.table.status == "playing" and loaded.table.open_seats == 0
    assert loaded.table.rules == Rules.preset("pagat").to_dict()
    assert loaded.game.seed == 5
    assert store.load("nope") is None
    assert [e.seq for e in store.entries_after("b", 1)] == [2]
    assert store.live_table_ids() == ["a"]
    assert [t.id for t in store.open_tables()] == ["b"]
    store.close()



def test_a_batch_updates_each_table_row_in_the_order_of_its_changes(db_url: str) -> None:
    """One transaction of many changes (the group writer's): the row updates of plain
    changes are gathered and written together, yet every table row ends as the last of its
    changes set it, whatever columns each set and whatever other changes came between; and
    each change's log entries are stored."""
    store = Store(db_url)
    store.migrate()
    store.write([Change(t, [_entry(1)], new_table=_row(t), new_game=_game(t)) for t in "ab"])
    act = {"action": "keep", "by": "player"}
    turn = {"to_act": 1, "turn_at": 10.0, "updated_at": 10.0}
    results = store.write([
        Change("a", [_entry(2, "act", 0, act)], table_updates=dict(turn)),
        Change("b", [_entry(2, "act", 0, act)], table_updates=dict(turn)),
        Change("a", [_entry(3, "act", 1, act)],
               table_updates={"to_act": 0, "turn_at": 11.0, "updated_at": 11.0}),
        Change("a", [_entry(4, "act", 0, act)], table_updates={  # other columns
            "to_act": None, "status": "finished", "answer_by": 99.0, "updated_at": 12.0}),
        Change("b", [_entry(3, "join", 0, {"name": "Bo", "token": "h" * 64})],
               table_updates={"open_seats": 0, "status": "playing", "to_act": 1},
               holders=[SeatHolder(0, None, "h" * 64)]),  # not a plain change
        Change("b", [_entry(4, "act", 1, act)],
               table_updates={"to_act": 0, "turn_at": 13.0, "updated_at": 13.0}),
        Change("a", [_entry(5, "chat", 0, {"text": "gg"})]),  # entries alone
        Change("a", table_updates={"to_act": 2}),  # an update alone
    ])
    assert results == [None] * 8
    a, b = store.load("a"), store.load("b")
    assert a is not None and b is not None
    assert (a.table.status, a.table.to_act, a.table.answer_by, a.table.updated_at,
            a.table.turn_at) == ("finished", 2, 99.0, 12.0, 11.0)
    assert (b.table.status, b.table.open_seats, b.table.to_act, b.table.turn_at) == (
        "playing", 0, 0, 13.0)
    assert [e.seq for e in a.entries] == [1, 2, 3, 4, 5]
    assert [e.seq for e in b.entries] == [1, 2, 3, 4]
    store.close()

def test_finished_games_query(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    for table_id, private in (("pub", False), ("priv", True)):
        store.write([Change(table_id, [_entry(1)], new_table=_row(table_id, private=private),
                            new_game=_game(table_id))])
        store.write([Change(table_id, game_number=1, game_updates={
            "status": "finished", "finished_at": time.time(), "names": ["A", "B"],
            "result": {"scores": [52, 3], "winners": [0]}, "record": {"actions": []}})])
    finished = store.finished_games()
    assert [(g.table_id, t.name) for g, t in finished] == [("pub", "t pub")]
    game = store.game("pub", 1)
    assert game is not None and game.record == {"actions": []} and game.names == ["A", "B"]
    assert store.finished_games(before=time.time() - 3600) == []
    store.close()


def test_server_stops_and_starts_again_on_the_same_database(db_url: str) -> None:
    """Tables live in the database: a new server process rebuilds each one from its log and
    its bots play on; a finished game's record is still served."""
    settings = Settings(db_url=db_url, static_dir=None, seed=3)
    with TestClient(create_app(settings)) as client:
        try:
            done = create_table(client, ["open", "bot:basic"], name="done")
            me = WsPlayer(client, done["id"], join(client, done["id"], 0))
            play_out({0: me}, me, random.Random(1))
            half = create_table(client, ["open", "bot:random", "open"], name="half")
            tokens = {seat: join(client, half["id"], seat) for seat in (0, 2)}
            p0 = WsPlayer(client, half["id"], tokens[0])
            p2 = WsPlayer(client, half["id"], tokens[2])
            rng = random.Random(2)
            for _ in range(25):
                seat = p0.state["to_act"]
                if seat == 1:
                    p0.until(lambda f: f["type"] == "update")
                    continue
                player = p0 if seat == 0 else p2
                player.sync(p0.seq)
                player.send(type="act", action=rng.choice(player.state["legal_actions"]))
                p0.until(lambda f: f["type"] == "update")
            while p0.state["to_act"] == 1:  # let the bot finish its turn before stopping
                p0.until(lambda f: f["type"] == "update")
            p2.sync(p0.seq)
            before = {seat: dict(p.state) for seat, p in ((0, p0), (2, p2))}
            seq = p0.seq
        finally:
            close_all()
    with TestClient(create_app(settings)) as client:
        try:
            again = {seat: WsPlayer(client, half["id"], tokens[seat], last_seq=seq)
                     for seat in (0, 2)}
            for seat, player in again.items():
                assert player.frames[-1]["type"] == "resumed"
                player.send(type="view")
                snap = player.until(lambda f: f["type"] == "snapshot")
                assert snap["seq"] == seq and snap["view"] == before[seat]
            play_out(again, again[0], random.Random(3))
            record = client.get(f"/api/games/{done['id']}/1").json()["record"]
            assert record["result"]["over"] is True
            assert {g["name"] for g in client.get("/api/games").json()["games"]} >= {
                "done", "half"}
            store: Store = client.app.state.store  # type: ignore[attr-defined]
            loaded = store.load(half["id"])
            assert loaded is not None
            rebuilt = build_table(loaded.table, loaded.entries)
            live = client.app.state.manager.tables[half["id"]].state  # type: ignore[attr-defined]
            assert rebuilt.seq == live.seq
            assert rebuilt.current.record() == live.current.record()
            assert store.dialect in ("sqlite", "postgresql")
        finally:
            close_all()


def _rematch(player: WsPlayer) -> None:
    """Ask for the next game and read until its snapshot."""
    player.send(type="rematch")
    player.until(lambda f: f["type"] == "snapshot" and f["reason"] == "rematch")


def _play_some(player: WsPlayer, rng: random.Random, actions: int) -> None:
    """Play ``actions`` of the seat's turns (the bot plays the others), ending on its turn."""
    made = 0
    while made < actions or player.state["to_act"] != player.you:
        if player.state["to_act"] == player.you:
            player.send(type="act", action=rng.choice(player.state["legal_actions"]),
                        seq=player.seq)
            made += 1
        player.until(lambda f: f["type"] == "update")


def test_a_table_after_rematches_reloads_exactly(db_url: str) -> None:
    """Two finished games and one in play: the stored log (earlier games' actions left out
    by Store.load) rebuilds the same table; after the table is dropped from memory (as by
    idle eviction or a storage failure) and after a restart, a client resumes by seq inside
    the current game and gets a snapshot for a seq of an earlier game."""
    settings = Settings(db_url=db_url, static_dir=None, seed=5)
    rng = random.Random(4)
    with TestClient(create_app(settings)) as client:
        try:
            info = create_table(client, ["open", "bot:random"], rules={"max_deals": 1})
            table = info["id"]
            token = join(client, table, 0, "Anna")
            me = WsPlayer(client, table, token)
            game_one_seq = 0
            for number in (1, 2):
                play_out({0: me}, me, rng)
                if number == 1:
                    game_one_seq = me.seq
                _rematch(me)
            _play_some(me, rng, 3)
            manager = client.app.state.manager  # type: ignore[attr-defined]
            live = manager.tables[table].state
            store: Store = client.app.state.store  # type: ignore[attr-defined]
            loaded = store.load(table)
            assert loaded is not None and loaded.game.number == 3
            assert any(e.kind == "act" for e in store.entries_after(table, 0)
                       if e.game == 1)
            assert all(e.game == 3 for e in loaded.entries if e.kind == "act")
            rebuilt = build_table(loaded.table, loaded.entries)
            assert (rebuilt.seq, rebuilt.game_number, rebuilt.game_start_seq) == (
                live.seq, 3, live.game_start_seq)
            assert rebuilt.current.record() == live.current.record()
            at = time.time()
            assert {**rebuilt.info(at), "seats": None} == {**live.info(at), "seats": None}
            assert rebuilt.seats == live.seats  # who joined, names, tokens, away
            seq, view = me.seq, dict(me.state)
            client.portal.call(manager.cache.drop, manager.tables[table], 1012,  # type: ignore[union-attr]
                               "test")
            assert table not in manager.tables
            with client.websocket_connect(f"/ws/{table}") as ws:
                ws.send_json({"type": "hello", "token": token, "last_seq": seq - 2})
                frames = [ws.receive_json()]
                while frames[-1]["type"] != "resumed":
                    frames.append(ws.receive_json())
                ws.send_json({"type": "view"})
                snap = ws.receive_json()
                while snap["type"] != "snapshot":  # (a presence frame may come first)
                    snap = ws.receive_json()
                assert snap["view"] == view
            assert frames[-1]["seq"] == seq
            missed = [(f["seq"], f["events"]) for f in frames if f["type"] == "update"]
            assert missed == [(f["seq"], f["events"]) for f in me.frames
                              if f["type"] == "update" and f["seq"] > seq - 2]
            assert client.get(f"/api/tables/{table}").json()["game"] == 3
            close_all()
        finally:
            close_all()
    with TestClient(create_app(settings)) as client:
        try:
            back = WsPlayer(client, table, token, last_seq=seq, view=me.view)
            assert back.frames[-1]["type"] == "resumed"
            old = WsPlayer(client, table, token, last_seq=game_one_seq)
            snap = old.frames[-1]
            assert snap["type"] == "snapshot" and snap["seq"] == seq
            assert snap["view"] == view and snap["table"]["game"] == 3
            play_out({0: back}, back, rng)
            for number in (1, 2, 3):
                record = client.get(f"/api/games/{table}/{number}").json()["record"]
                assert record["result"]["over"] is True
        finally:
            close_all()


def test_one_table_that_cannot_load_does_not_stop_the_others_resuming(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """At start-up the tables in play are resumed one by one; a table whose log cannot be
    applied is logged and skipped, and the tables after it are resumed all the same."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'resume.sqlite3'}", static_dir=None,
                        seed=6)
    with TestClient(create_app(settings)) as client:
        try:
            ids = []
            for _ in range(3):
                info = create_table(client, ["open", "bot:random"])
                join(client, info["id"], 0)
                ids.append(info["id"])
            store: Store = client.app.state.store  # type: ignore[attr-defined]
            assert store.live_table_ids() == ids  # resumed in this order
            broken = ids[0]
            seq = client.get(f"/api/tables/{broken}").json()["seq"]
        finally:
            close_all()
    store = Store(settings.db_url)
    store.write([Change(broken, [LogEntry(seq + 1, 1, "act", 1, {"action": "fly away"},
                                          time.time())])])
    store.close()
    with caplog.at_level(logging.ERROR, logger="chicago.server"), \
            TestClient(create_app(settings), raise_server_exceptions=False) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        # the tables are resumed by a start-up task that tells nobody: looked at again after
        # a pause that only spares the cores
        deadline = time.monotonic() + 120  # a bound for a hang, not a pace
        while not all(t in manager.tables for t in ids[1:]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(t in manager.tables for t in ids[1:])
        assert broken not in manager.tables
        # the broken table itself: a JSON error, and an error frame on its websocket
        response = client.get(f"/api/tables/{broken}")
        assert response.status_code == 500 and response.json()["error"]["code"] == "internal"
        with client.websocket_connect(f"/ws/{broken}") as ws:
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["code"] == "internal"
    assert any(broken in r.getMessage() and "cannot be resumed" in r.getMessage()
               for r in caplog.records)
