"""The restart test: a real ``chicago serve`` process on a real SQLite file is killed with
SIGKILL in the middle of deals and started again. Every action any client saw was stored
before it was sent; every table resumes exactly where it was (the same seq, the same views),
its bots play on, and the games finish with no action lost: each table's log is numbered
1, 2, 3 … without a gap and replays to the finished game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import Server, deal_record
from websockets.sync.client import ClientConnection, connect

from chicago import Game
from chicago.server.storage import Store

pytestmark = pytest.mark.timeout(240)


class Client:
    """A websocket client that records frames and keeps its view (docs/PROTOCOL.md)."""

    def __init__(self, server: Server, table: str, token: str | None,
                 last_seq: int | None = None, view: dict[str, Any] | None = None) -> None:
        self.conn: ClientConnection = connect(f"{server.ws}/ws/{table}", open_timeout=10,
                                              legacy=True)
        self.frames: list[dict[str, Any]] = []
        self.view = view
        self.seq = last_seq or 0
        self.conn.send(json.dumps({"type": "hello", "token": token, "last_seq": last_seq}))
        self.until(lambda f: f["type"] in ("snapshot", "resumed"))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.conn.recv(timeout))
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.view = frame["view"]
        elif frame["type"] == "update":
            assert self.view is not None
            for event in frame["events"]:
                if event["type"] == "deal":
                    self.view["events"] = []
                self.view["events"].append(event)
                if event["type"] == "deal_end":
                    self.view["history"].append(deal_record(event, self.view["events"]))
            if frame["state"] is not None:
                self.view.update(frame["state"])
        assert frame["type"] != "error", frame
        self.seq = max(self.seq, frame["seq"])
        return frame

    def until(self, predicate: Any) -> dict[str, Any]:
        while True:
            frame = self.recv()
            if predicate(frame):
                return frame

    @property
    def over(self) -> bool:
        return self.view is not None and bool(self.view["over"])

    def sync(self, seq: int) -> None:
        while self.seq < seq:
            self.recv()

    def seen(self) -> set[int]:
        return {f["seq"] for f in self.frames if f["type"] == "update"}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "restart.sqlite3"


def _drive(watcher: Client, humans: dict[int, Client], rng: random.Random,
           actions: int | None = None) -> None:
    """Humans act at random on their turns (bots on the server) until the game is over or
    ``actions`` actions were made; ``watcher`` (a spectator) follows the table."""
    made = 0
    while not watcher.over and (actions is None or made < actions):
        view = watcher.view
        assert view is not None
        seat = view["to_act"]
        if seat in humans:
            human = humans[seat]
            human.sync(watcher.seq)
            human.conn.send(json.dumps({"type": "act", "action": rng.choice(
                human.view["legal_actions"])}))  # type: ignore[index]
        watcher.until(lambda f: f["type"] == "update")
        made += 1
    if actions is None and not any(f["type"] == "game_over" for f in watcher.frames):
        watcher.until(lambda f: f["type"] == "game_over")


def _stored_actions(store: Store, table: str) -> tuple[list[int], list[list[Any]]]:
    entries = store.entries_after(table, 0)
    return ([e.seq for e in entries],
            [[e.seat, e.data["action"]] for e in entries if e.kind == "act"])


def test_sigkill_mid_deal_and_restart(db: Path) -> None:
    server = Server(db)
    bots = server.post("/api/tables", {"seats": ["bot:random", "bot:basic", "bot:random"],
                                       "bot_delay": 0.02, "rules": {"max_deals": 3}})
    mixed = server.post("/api/tables", {"seats": ["open", "bot:basic", "bot:random", "open"],
                                        "bot_delay": 0, "deal_pause": 0,
                                        "rules": {"max_deals": 2}})
    tokens = {seat: server.post(f"/api/tables/{mixed['id']}/join", {"seat": seat})["token"]
              for seat in (0, 3)}
    watcher = Client(server, bots["id"], None)
    mixed_watcher = Client(server, mixed["id"], None)
    humans = {seat: Client(server, mixed["id"], tokens[seat]) for seat in (0, 3)}
    rng = random.Random(8)
    _drive(mixed_watcher, humans, rng, actions=30)
    while mixed_watcher.view["to_act"] not in humans:  # type: ignore[index]
        mixed_watcher.until(lambda f: f["type"] == "update")  # (so no bot moves at restart)
    for human in humans.values():
        human.sync(mixed_watcher.seq)
    while watcher.seq < 25:
        watcher.recv()
    server.kill()  # SIGKILL: no shutdown, no flush

    store = Store(f"sqlite:///{db}")
    stored = {t: _stored_actions(store, t) for t in (bots["id"], mixed["id"])}
    for table, (seqs, _) in stored.items():
        assert seqs == list(range(1, len(seqs) + 1)), f"gap in the log of {table}"
    # stored before sent: every update any client saw is in the database
    assert watcher.seen() <= set(stored[bots["id"]][0])
    for client in (mixed_watcher, *humans.values()):
        assert client.seen() <= set(stored[mixed["id"]][0])
    loaded = store.load(bots["id"])
    assert loaded is not None
    killed = Game.replay({"rules": loaded.table.rules, "players": 3, "seed": loaded.game.seed,
                          "actions": stored[bots["id"]][1]})
    assert not killed.is_over and killed.deal_events, "killed in the middle of a deal"
    store.close()

    server = Server(db)  # start again on the same file
    try:
        watcher2 = Client(server, bots["id"], None, last_seq=watcher.seq, view=watcher.view)
        missed = [f["seq"] for f in watcher2.frames if f["type"] == "update"]
        # its bots went on right after the start: the replay continues the stream seamlessly
        assert missed == list(range(watcher.seq + 1, watcher.seq + 1 + len(missed)))
        again = {seat: Client(server, mixed["id"], tokens[seat], last_seq=h.seq, view=h.view)
                 for seat, h in humans.items()}
        for seat, client in again.items():
            assert client.frames[-1]["type"] == "resumed"
            assert client.seq == stored[mixed["id"]][0][-1]
            client.conn.send(json.dumps({"type": "view"}))
            snap = client.until(lambda f: f["type"] == "snapshot")
            assert snap["view"] == humans[seat].view == client.view  # exactly where it was
        mixed_watcher2 = Client(server, mixed["id"], None, last_seq=mixed_watcher.seq,
                                view=mixed_watcher.view)
        # the bots table plays on by itself to the end; the humans finish theirs
        watcher2.until(lambda f: f["type"] == "game_over")
        _drive(mixed_watcher2, again, rng)
        for table in (bots["id"], mixed["id"]):
            record = httpx.get(f"{server.http}/api/games/{table}/1").json()["record"]
            assert Game.replay(record).is_over
            before = stored[table][1]
            assert record["actions"][:len(before)] == before  # nothing lost, nothing doubled
            assert len(record["actions"]) > len(before)
    finally:
        server.kill()


def _play_game(human: Client, seat: int, rng: random.Random) -> None:
    """Play the seat's turns (a bot plays the others) until the game is over."""
    while not human.over:
        view = human.view
        assert view is not None
        if view["to_act"] == seat:
            human.conn.send(json.dumps({"type": "act", "action": rng.choice(
                view["legal_actions"]), "seq": human.seq}))
        human.until(lambda f: f["type"] in ("update", "game_over"))
    if not any(f["type"] == "game_over" and f["seq"] == human.seq for f in human.frames):
        human.until(lambda f: f["type"] == "game_over")


def test_sigkill_after_rematches_and_restart(db: Path) -> None:
    """A table that finished two games (two rematches) and is in the middle of its third is
    killed with SIGKILL: after the restart it resumes exactly (the same seq and view; a client
    resyncs by seq inside the current game and gets a snapshot for a seq of an earlier game),
    the third game finishes, and all three records are served."""
    server = Server(db)
    info = server.post("/api/tables", {"seats": ["open", "bot:random"], "bot_delay": 0,
                                       "rules": {"max_deals": 1}})
    table = info["id"]
    token = server.post(f"/api/tables/{table}/join", {"seat": 0})["token"]
    human = Client(server, table, token)
    rng = random.Random(9)
    first_game_seq = 0
    for number in (1, 2):
        _play_game(human, 0, rng)
        if number == 1:
            first_game_seq = human.seq
        human.conn.send(json.dumps({"type": "rematch"}))
        human.until(lambda f: f["type"] == "snapshot" and f["reason"] == "rematch")
    made = 0
    while made < 4 or human.view["to_act"] != 0:  # type: ignore[index]
        if human.view["to_act"] == 0:  # type: ignore[index]
            human.conn.send(json.dumps({"type": "act", "action": rng.choice(
                human.view["legal_actions"]), "seq": human.seq}))  # type: ignore[index]
            made += 1
        human.until(lambda f: f["type"] == "update")
    view = json.loads(json.dumps(human.view))
    seq = human.seq
    server.kill()

    store = Store(f"sqlite:///{db}")
    seqs, _ = _stored_actions(store, table)
    assert seqs == list(range(1, seq + 1))
    store.close()

    server = Server(db)
    try:
        info = httpx.get(f"{server.http}/api/tables/{table}").json()
        assert info["game"] == 3 and info["seq"] == seq and info["status"] == "playing"
        again = Client(server, table, token, last_seq=seq, view=view)
        assert again.frames[-1]["type"] == "resumed" and again.seq == seq
        again.conn.send(json.dumps({"type": "view"}))
        assert again.until(lambda f: f["type"] == "snapshot")["view"] == view
        old = Client(server, table, token, last_seq=first_game_seq)
        snap = old.frames[-1]
        assert snap["type"] == "snapshot" and snap["table"]["game"] == 3
        assert snap["view"] == view
        _play_game(again, 0, rng)
        for number in (1, 2, 3):
            response = httpx.get(f"{server.http}/api/games/{table}/{number}")
            assert response.status_code == 200, response.text
            assert Game.replay(response.json()["record"]).is_over
    finally:
        server.kill()
