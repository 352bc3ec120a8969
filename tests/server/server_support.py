"""Helpers of the table-server tests: a websocket player that keeps its view, and drivers."""

from __future__ import annotations

import copy
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from contextlib import AbstractContextManager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from starlette.websockets import WebSocketDisconnect

if TYPE_CHECKING:
    from starlette.testclient import TestClient

QUICK_RULES = {"max_deals": 2}
"""Rules override that keeps games short (house option: the game ends after two deals)."""

OPEN: list[WsPlayer] = []
"""Every connection a test opened (the client fixture closes them before the app stops)."""


def close_all() -> None:
    """Close every websocket a test left open (else the test client waits for them)."""
    while OPEN:
        OPEN.pop().close()


def age_log(db_url: str, seconds: float) -> None:
    """Make every stored change ``seconds`` older (as if the server had been down)."""
    from sqlalchemy import text

    from chicago.server.storage import Store

    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE log SET created_at = created_at - :s"), {"s": seconds})
    store.close()


def count_parses(monkeypatch: Any, into: list[object] | None = None) -> list[object]:
    """Make :meth:`chicago.engine.actions.Action.parse` note every text it is given (in
    ``into``, or a new list: returned) until ``monkeypatch.undo()`` or the test's end; it
    parses them as ever."""
    from chicago.engine.actions import Action

    parsed: list[object] = [] if into is None else into
    real = Action.parse.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Action], text: object) -> Action:
        parsed.append(text)
        return real(cls, text)  # type: ignore[no-any-return]

    monkeypatch.setattr(Action, "parse", classmethod(counting))
    return parsed


def create_table(client: TestClient, seats: list[str], **options: Any) -> dict[str, Any]:
    """Create a table (bots act at once unless bot_delay is given, the next deal starts at
    once unless deal_pause is given); its info."""
    body: dict[str, Any] = {"seats": seats, "bot_delay": 0, "deal_pause": 0,
                            "rules": dict(QUICK_RULES)}
    body.update(options)
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    info: dict[str, Any] = response.json()
    return info


def join(client: TestClient, table_id: str, seat: int | None = None,
         name: str | None = None) -> str:
    """Join a seat; the token."""
    body: dict[str, Any] = {}
    if seat is not None:
        body["seat"] = seat
    if name is not None:
        body["name"] = name
    response = client.post(f"/api/tables/{table_id}/join", json=body)
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


class Since:
    """The real time passed since this was made, on the clock the server reads (UNIX time):
    a turn clock or a pause that began after it has, when a frame tells it, at least its
    full time less what passed (:meth:`least`). A busy machine may take seconds between two
    frames; before, tests gave it ten."""

    def __init__(self) -> None:
        self.start = time.time()

    def least(self, full_ms: int) -> int:
        """The fewest milliseconds left of ``full_ms`` that began after this was made (less
        one for the frames' rounding)."""
        return full_ms - math.ceil((time.time() - self.start) * 1000) - 1


WAIT = 30.0
"""Seconds a test waits for one event (a program's word, a frame) before it fails: the bound
for a hang, never a pace."""

_GATED_PROGRAM = """
import fcntl, json, os, sys
asked, gate = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "act":
        continue
    try:  # without a reader (the test has ended) nobody is told, and nothing waits
        fifo = os.open(asked, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        pass
    else:  # one short line: written whole, never mixed with another program's
        os.write(fifo, b"asked\\n")
        os.close(fifo)
    with open(gate) as held:  # waits while the test holds the gate
        fcntl.flock(held, fcntl.LOCK_SH)
    print(message["legal"][0], flush=True)
"""


def hold_until_opened(gate: str) -> None:
    """Keep a pool's process busy until someone opens the FIFO ``gate`` for writing and
    closes it (run in the process by ``pool.submit``): a wait for an event, not a time."""
    with open(gate, encoding="ascii") as opened:
        opened.read()


def release_gate(gate: Path) -> None:
    """Open and close the FIFO ``gate`` for writing: :func:`hold_until_opened` returns.
    Blocks until the process holding it has opened it for reading."""
    with open(gate, "w", encoding="ascii"):
        pass


class GatedProgram:
    """An external bot program (``Settings.external_bots``) that says on a FIFO when it is
    asked and answers only once the test opens its gate (a file lock the test holds): a bot
    that thinks as long as the test wants, without a time in the test or the program.

    ``with GatedProgram(tmp_path) as program:`` holds the gate closed and lets the programs
    answer at the end (also when the test fails); ``program.command`` is the command line
    (give it an hour, ``time_ms=3600000``); ``program.asked(n)`` waits until ``n`` more
    questions were asked."""

    def __init__(self, folder: Path) -> None:
        script = folder / "gated.py"
        script.write_text(_GATED_PROGRAM, encoding="utf-8")
        self._fifo = folder / "asked.fifo"
        os.mkfifo(self._fifo)
        self._gate_path = folder / "gate"
        self._gate_path.touch()
        self.command = f"{sys.executable} {script} {self._fifo} {self._gate_path}"
        self._reader = -1
        self._gate = -1
        self._heard = b""

    def __enter__(self) -> GatedProgram:
        import fcntl

        # read and write: opening never blocks, and the programs' opens never wait for it
        self._reader = os.open(self._fifo, os.O_RDWR)
        self._gate = os.open(self._gate_path, os.O_RDWR)
        fcntl.flock(self._gate, fcntl.LOCK_EX)
        return self

    def asked(self, count: int) -> None:
        """Wait until ``count`` more questions have been asked (each program says so when
        it is asked); fails after :data:`WAIT` seconds without a word."""
        import select

        while (heard := self._heard.count(b"\n")) < count:
            ready, _, _ = select.select([self._reader], [], [], WAIT)
            assert ready, f"{heard} of {count} questions asked in {WAIT} s"
            self._heard += os.read(self._reader, 4096)
        lines = self._heard.split(b"\n")
        self._heard = b"\n".join(lines[count:])

    def open_gate(self) -> None:
        """Let every program answer (each answers at once from then on)."""
        import fcntl

        if self._gate >= 0:
            fcntl.flock(self._gate, fcntl.LOCK_UN)
            os.close(self._gate)
            self._gate = -1

    def __exit__(self, *exc: object) -> None:
        self.open_gate()
        if self._reader >= 0:
            os.close(self._reader)
            self._reader = -1


class WsPlayer:
    """One websocket connection; records every frame and keeps the view up to date the way
    docs/PROTOCOL.md tells clients to."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None,
                 last_seq: int | None = None, *, hello: bool = True,
                 view: dict[str, Any] | None = None, batch: bool = False) -> None:
        """Connect (and say hello); ``view``: the view kept before a reconnection;
        ``batch``: say ``"batch": true`` in hello (the updates of a burst in one frame)."""
        self.table_id = table_id
        self.token = token
        self.batch = batch
        self._cm: AbstractContextManager[Any] = client.websocket_connect(f"/ws/{table_id}")
        self.ws = self._cm.__enter__()
        OPEN.append(self)
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.view: dict[str, Any] | None = copy.deepcopy(view)
        self.seq = 0
        self.you: int | None = None
        self.over = False
        self.closed = False
        if hello:
            self.hello(last_seq)

    # ------------------------------------------------------------------ io
    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def send_raw(self, text: str) -> None:
        self.ws.send_text(text)

    def hello(self, last_seq: int | None = None) -> dict[str, Any]:
        """Send hello and read until the snapshot or the resumed frame."""
        if self.batch:
            self.send(type="hello", token=self.token, last_seq=last_seq, batch=True)
        else:
            self.send(type="hello", token=self.token, last_seq=last_seq)
        return self.until(lambda f: f["type"] in ("snapshot", "resumed", "error"))


    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        frame: dict[str, Any] = json.loads(text)
        self.texts.append(text)
        self.frames.append(frame)
        self._apply(frame)
        return frame

    def until(self, predicate: Any, *, errors_ok: bool = False) -> dict[str, Any]:
        """Read until a frame satisfies ``predicate``; an error frame on the way fails the
        test (unless ``errors_ok`` or the predicate accepts it)."""
        while True:
            frame = self.recv()
            if predicate(frame):
                return frame
            if frame["type"] == "error" and not errors_ok:
                raise AssertionError(f"unexpected error frame {frame}")

    def sync(self, seq: int) -> None:
        """Read until this connection has seen ``seq``."""
        while self.seq < seq:
            self.recv()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with suppress(WebSocketDisconnect):
                self._cm.__exit__(None, None, None)

    # ------------------------------------------------------------------ view
    def _apply(self, frame: dict[str, Any]) -> None:
        assert "seq" in frame, frame
        assert frame["seq"] >= self.seq, f"seq went down: {frame['seq']} after {self.seq}"
        kind = frame["type"]
        if kind == "snapshot":
            self.view = frame["view"]
            self.you = frame["you"]
            self.over = bool(frame["view"]["over"])
        elif kind == "batch":
            assert frame["updates"] and frame["seq"] == frame["updates"][-1]["seq"]
            assert frame["updates"][-1]["state"] is not None, "a batch ends with the state"
            for update in frame["updates"]:
                self._apply(update)
        elif kind == "update":
            assert self.view is not None
            for event in frame["events"]:
                if event["type"] == "deal":
                    self.view["events"] = []
                self.view["events"].append(event)
                if event["type"] == "deal_end":
                    self.view["history"].append(deal_record(event, self.view["events"]))
            if frame["state"] is not None:
                self.view.update(frame["state"])
        elif kind == "game_over":
            self.over = True
        elif kind == "resumed":
            self.you = frame["you"]
        self.seq = max(self.seq, frame["seq"])

    @property
    def state(self) -> dict[str, Any]:
        assert self.view is not None
        return self.view

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]


def deal_record(end: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The finished deal a client appends to ``view.history`` at a ``deal_end`` event, as
    docs/PROTOCOL.md says (issue 30): the event's numbers, the deal's tricks from its
    ``play`` and ``trick`` events and who declared Chicago."""
    tricks: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    chicago = None
    for event in events:
        if event["type"] == "play":
            cards.append({"seat": event["seat"], "card": event["card"]})
        elif event["type"] == "trick":
            tricks.append({"winner": event["winner"], "cards": cards})
            cards = []
        elif event["type"] == "chicago" and event["declared"]:
            chicago = event["seat"]
    summary = {k: v for k, v in end.items() if k != "type"}
    return {**summary, "tricks": tricks, "chicago": chicago}


UPDATES = ("update", "batch")
"""The frames that bring actions: an update, or a batch of them (a client that said
``"batch": true``)."""


def play_out(players: dict[int, WsPlayer], watcher: WsPlayer, rng: random.Random,
             max_actions: int = 5000) -> int:
    """Play until the game is over: humans (``players``) choose random legal actions, bots
    move on the server. Returns the number of actions sent by the humans."""
    sent = 0
    while not watcher.over:
        view = watcher.state
        seat = view["to_act"]
        if view["over"] or seat is None:
            watcher.until(lambda f: f["type"] == "game_over")
            break
        if seat in players:
            player = players[seat]
            player.sync(watcher.seq)
            legal = player.state["legal_actions"]
            assert legal, f"seat {seat} to act but no legal actions in its state"
            before = watcher.seq
            player.send(type="act", action=rng.choice(legal), seq=player.seq)
            sent += 1
            assert sent <= max_actions, "game too long"
            watcher.until(lambda f, b=before: f["seq"] > b and f["type"] in UPDATES)
        else:
            watcher.until(lambda f: f["type"] in UPDATES)
    for player in players.values():
        if player is not watcher:
            player.sync(watcher.seq)
            if not player.over:
                player.until(lambda f: f["type"] == "game_over")
    return sent


class Server:
    """A real ``chicago serve`` child process (uvicorn) on a free port of 127.0.0.1."""

    def __init__(self, db: Path, *extra: str) -> None:
        """Start it on the SQLite file ``db`` (``extra``: more options) and wait until it
        answers. Its reviews of finished games are made at a quick level (``extra`` may
        name another: the last ``--review-level`` counts)."""
        self.db = db
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "chicago.cli", "serve", "--port", "0",
             "--db", f"sqlite:///{db}", "--review-level", "ev:samples=1", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"http://([\d.]+):(\d+)/", line)
        assert match, f"no address in {line!r}"
        self.output: list[str] = []
        """What the process printed after its address line (read by a thread, so a full
        pipe never blocks the server)."""
        self._printed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.http = f"http://{match[1]}:{match[2]}"
        self.ws = f"ws://{match[1]}:{match[2]}"
        # it listens before it prints its address: this request waits in the backlog while
        # the app starts (before: 200 looks, which a busy machine used up, then on silently)
        assert httpx.get(self.http + "/api/health", timeout=120).status_code == 200

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._printed:
                self.output.append(line)
                self._printed.notify_all()

    def printed(self, words: str, timeout: float = 30.0) -> int:
        """Wait until the process has printed a line with ``words`` (the event, never a
        pace); the index of the first such line in :attr:`output`."""
        def found() -> int | None:
            return next((i for i, line in enumerate(self.output) if words in line), None)

        with self._printed:
            assert self._printed.wait_for(lambda: found() is not None, timeout), (
                f"the server printed no line with {words!r} in {timeout} s")
            index = found()
        assert index is not None
        return index

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        response = httpx.post(self.http + path, json=body)
        assert response.status_code in (200, 201), response.text
        return response.json()
