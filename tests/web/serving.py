"""A real table server for the browser tests: uvicorn in a thread on a free port.

``LiveServer`` starts :func:`chicago.server.create_app` with a temporary SQLite database and
the browser app's routes (:mod:`chicago.server.web_api`), waits until it answers, and stops
it cleanly. The test keeps the app object, so it can look at the true game for leak checks.
Run this file to serve the app by hand: ``python tests/web/serving.py [port]``.
"""

from __future__ import annotations

import dataclasses
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn

from chicago.server import Settings, create_app, web_api


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


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
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "api/info", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the test server did not start")

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
