"""Helpers of the several-worker tests: real ``chicago serve`` worker processes on one
PostgreSQL database and one Redis, and asyncio websocket players that keep their view and
every stream frame they saw (to check that each client sees one numbered sequence)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import random
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

QUICK_RULES = {"max_deals": 2}
"""House option that ends a game after two deals (keeps the tests short)."""

STREAM = ("snapshot", "update", "game_over", "seats", "chat", "rematch", "continue")
"""Frame types that describe stored changes (docs/PROTOCOL.md)."""

WAIT = 30.0
"""Seconds a test waits for a frame or a worker before it fails (never reached when all is
well; only a hang would)."""


@dataclass
class Worker:
    """One ``chicago serve`` process."""

    process: subprocess.Popen[str]
    url: str
    log: list[str] = field(default_factory=list)

    @property
    def ws(self) -> str:
        return "ws" + self.url[len("http"):]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, connections just drop."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(WAIT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_worker(db_url: str, redis_url: str | None, *extra: str) -> Worker:
    """Start ``chicago serve --port 0 --db … --redis …`` and wait until it answers. Its
    reviews of finished games are made at a quick level (``extra`` may name another)."""
    argv = ["serve", "--port", "0", "--db", db_url, "--log-level", "warning",
            "--review-level", "ev:samples=1", *extra]
    if redis_url is not None:
        argv += ["--redis", redis_url]
    code = f"import sys; from chicago.cli import main; sys.exit(main({argv!r}))"
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env=dict(os.environ), start_new_session=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "http://" not in line:
        rest = process.stdout.read() if process.poll() is not None else ""
        process.kill()
        raise AssertionError(f"chicago serve did not start: {line}{rest}")
    url = line.split("http://", 1)[1].split()[0].rstrip("/")
    worker = Worker(process, "http://" + url)
    # The worker listens before it prints its address (chicago serve binds, then starts the
    # app): a request made now waits in the socket's backlog until the app is up, so one
    # request answers; it fails only when the worker died.
    try:
        health = httpx.get(worker.url + "/api/health", timeout=WAIT)
    except httpx.HTTPError as exc:
        worker.kill()
        raise AssertionError(f"worker {worker.url} did not answer ({exc!r}): "
                             f"{process.stdout.read()}") from exc
    assert health.status_code == 200, health.text
    return worker


def create_table(worker: Worker, seats: list[str], **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats, "bot_delay": 0, "deal_pause": 0,
                            "rules": dict(QUICK_RULES)}
    body.update(options)
    response = httpx.post(worker.url + "/api/tables", json=body, timeout=WAIT)
    assert response.status_code == 201, response.text
    info: dict[str, Any] = response.json()
    return info


def join(worker: Worker, table_id: str, seat: int) -> str:
    response = httpx.post(f"{worker.url}/api/tables/{table_id}/join",
                          json={"seat": seat, "name": f"P{seat}"}, timeout=WAIT)
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


class Player:
    """A seat's websocket client: reconnects by ``hello`` with its last seq, keeps its view
    as docs/PROTOCOL.md says, and records the stream frames it was sent."""

    def __init__(self, table_id: str, token: str | None, seed: int = 0) -> None:
        self.table_id = table_id
        self.token = token
        self.ws: ClientConnection | None = None
        self.worker: Worker | None = None
        self.view: dict[str, Any] | None = None
        self.you: int | None = None
        self.seq = 0
        self.over = False
        self.stream: list[tuple[int, str, Any]] = []  # (seq, type, what) of stream frames
        self.errors: list[dict[str, Any]] = []
        self.connections = 0
        self.connected: list[bool] = []  # per seat, as the last presence or table info said
        self.rng = random.Random(seed)

    async def connect(self, worker: Worker) -> dict[str, Any]:
        """Open a websocket to ``worker`` and say hello (with the last seq seen, if any)."""
        await self.close()
        self.ws = await connect(f"{worker.ws}/ws/{self.table_id}", open_timeout=WAIT)
        self.worker = worker
        self.connections += 1
        await self.send(type="hello", token=self.token,
                        last_seq=self.seq if self.view is not None else None)
        return await self.until(lambda f: f["type"] in ("snapshot", "resumed"))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None

    async def send(self, **message: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next frame (ConnectionClosed when the worker went away)."""
        assert self.ws is not None
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        frame: dict[str, Any] = json.loads(text)
        self._apply(frame)
        return frame

    async def until(self, predicate: Any, timeout: float = WAIT) -> dict[str, Any]:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"seat {self.you}: no expected frame in {timeout} s "
                                     f"(at seq {self.seq})")
            frame = await self.recv(left)
            if predicate(frame):
                return frame

    def _apply(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        assert frame["seq"] >= self.seq or kind == "snapshot", \
            f"seq went down: {frame} after {self.seq}"
        if kind == "error":
            self.errors.append(frame)
            return
        if kind in STREAM and not (kind == "snapshot" and frame["reason"] in ("hello",
                                                                              "view")):
            # a stream message: exactly the next seq, or the same seq (game_over)
            last = self.stream[-1][0] if self.stream else None
            if last is not None:
                assert frame["seq"] in (last, last + 1), \
                    f"seat {self.you}: {kind} seq {frame['seq']} after {last}"
            what = (frame.get("seat"), frame.get("kind") or frame.get("change"))
            self.stream.append((frame["seq"], kind, what))
        if kind == "presence":
            self.connected = list(frame["connected"])
        elif kind in ("snapshot", "resumed"):
            self.connected = [seat["connected"] for seat in frame["table"]["seats"]]
        if kind == "snapshot":
            self.view = copy.deepcopy(frame["view"])
            self.you = frame["you"]
            self.over = bool(frame["view"]["over"])
            if frame["reason"] in ("hello", "view") and not self.stream:
                self.stream.append((frame["seq"], "start", None))
        elif kind == "update":
            assert self.view is not None
            if frame["state"] is not None:
                self.view.update(frame["state"])
        elif kind == "game_over":
            self.over = True
        elif kind == "resumed":
            self.you = frame["you"]
        self.seq = max(self.seq, frame["seq"])

    async def until_connected(self, seat: int) -> None:
        """Read until this connection has been told that ``seat`` is connected."""
        while not (len(self.connected) > seat and self.connected[seat]):
            await self.recv()

    @property
    def my_turn(self) -> bool:
        view = self.view
        return (view is not None and not view["over"] and view["to_act"] == self.you
                and bool(view["legal_actions"]))

    def choose(self) -> str:
        assert self.view is not None
        legal: list[str] = self.view["legal_actions"]
        action: str = self.rng.choice(legal)
        return action

    def seqs(self) -> list[int]:
        """The distinct stream seqs seen, in order."""
        out: list[int] = []
        for seq, _kind, _what in self.stream:
            if not out or out[-1] != seq:
                out.append(seq)
        return out


async def play(player: Player, *, stop: Any = None, max_actions: int = 2000) -> int:
    """Play random legal actions for ``player``'s seat until the game is over (or until
    ``stop(player)`` is true after a frame). Actions carry the seq seen, so an action for a
    position that has moved on is refused (``stale``) and chosen again. Returns the number of
    actions sent."""
    sent = 0
    acted_at = -1
    while not player.over:
        if stop is not None and stop(player):
            return sent
        if player.my_turn and acted_at != player.seq:
            acted_at = player.seq
            await player.send(type="act", action=player.choose(), seq=player.seq)
            sent += 1
            assert sent <= max_actions, "game too long"
        frame = await player.recv()
        if frame["type"] == "error":
            # stale / not_your_turn: the table moved on, its frames are on the way;
            # internal (the table was busy): try again now
            assert frame["code"] in ("stale", "not_your_turn", "internal"), frame
            if frame["code"] == "internal":
                acted_at = -1
    return sent
