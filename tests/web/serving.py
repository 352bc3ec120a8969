"""A real table server for the browser tests: uvicorn in a thread on a free port.

``LiveServer`` starts :func:`chicago.server.create_app` with a temporary SQLite database and
the browser app's routes (:mod:`chicago.server.web_api`), waits until it answers, and stops
it cleanly. The test keeps the app object, so it can look at the true game for leak checks,
and the server's event loop, so it can run the manager's hooks there (:meth:`LiveServer.call`:
run a turn clock out now instead of waiting seconds for it); :func:`until` waits for a state
the server reaches by itself. Run this file to serve the app by hand:
``python tests/web/serving.py [port]``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from chicago.server import Settings, create_app, web_api

WAIT_MS = 30_000
"""How long any wait of the browser tests gives the event it waits for (a frame, a DOM
change, a state of the server) before it fails: a safety net for a hang, never a pace."""

T = TypeVar("T")


def until(predicate: Callable[[], T], what: str, timeout_ms: int = WAIT_MS) -> T:
    """Wait until ``predicate()`` is true (a state another thread or process reaches by
    itself) and give back its value: looked at again as soon as a short look allows, for as
    long as :data:`WAIT_MS` (never a number of looks, which a slow machine would use up)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {timeout_ms} ms in vain for {what}"
        time.sleep(0.02)  # between two looks, not a wait for the event


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class _Server(uvicorn.Server):
    """uvicorn's server, which keeps the event loop it serves on (:meth:`LiveServer.call`)."""

    loop: asyncio.AbstractEventLoop | None = None

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.up = threading.Event()
        """Set once the server listens with its start-up done, or has ended (failed)."""

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.up.set()

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            super().run(sockets)
        finally:
            self.up.set()


class LiveServer:
    """One server process-in-a-thread; ``url`` ends with a slash."""

    def __init__(self, data_dir: Path, port: int | None = None,
                 static_dir: Path | None = None, clock: Any = None,
                 **settings_options: Any) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        settings = Settings(db_url=f"sqlite:///{data_dir / 'chicago.sqlite3'}",
                            review_level="ev:samples=1", review_poll=0.5,  # quick reviews
                            **settings_options)
        if static_dir is not None:  # another copy of the browser app (to change it)
            settings = dataclasses.replace(settings, static_dir=static_dir)
        self.app = create_app(settings, clock=clock)  # clock: a test's ShiftedClock
        web_api.install(self.app)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=64 * 1024)
        self.server = _Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def call(self, function: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """``await function(*args)`` on the server's event loop (where the tables live) and
        give back its result: e.g. ``live.call(live.manager.expire_clock, table_id)``."""
        loop = self.server.loop
        assert loop is not None, "the server is not running"
        future = asyncio.run_coroutine_threadsafe(function(*args), loop)
        return future.result(timeout=WAIT_MS / 1000)

    def start(self) -> LiveServer:
        """Start serving; back once the server listens (its start-up done)."""
        self.thread.start()
        assert self.server.up.wait(2 * WAIT_MS / 1000), "the test server did not start in time"
        if not self.server.started:
            raise RuntimeError("the test server did not start")
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    @property
    def manager(self) -> Any:
        return self.app.state.manager


if __name__ == "__main__":  # pragma: no cover - manual use
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(Path(tmp), int(sys.argv[1]) if len(sys.argv) > 1 else None).start()
        print(f"serving {live.url}", flush=True)
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            live.stop()
