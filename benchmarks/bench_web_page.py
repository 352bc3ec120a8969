"""What the browser app costs: the table page's bytes and time to interactive, and how long a
game of bots takes with a spectator's page open (issue 16: motion must not slow the table).

Runs the table server in this process (uvicorn in a thread, a temporary SQLite file) and
Debian's chromium through Playwright, headless, one fresh browser context per run (no cache):

- page: the table page of a seated player (one person, three bots): bytes transferred (the
  document and every resource, ``transferSize``, headers included), and the milliseconds
  from the navigation's start to the moment the hand's cards are drawn and the socket is
  open (``performance.now()``: the page can be used);
- bots: a table of four ``basic`` bots (``bot_delay`` 0, the pagat rules with at most
  ``--deals`` deals) watched by a spectator's page: seconds from creating the table to the
  game's end, on the server; and the same without any page open.

Medians of ``--runs`` runs. To compare with another version, run this file with that
version's ``src`` first on ``PYTHONPATH`` (the numbers depend only on the served app).

    python benchmarks/bench_web_page.py --runs 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn

from chicago.server import Settings, create_app, web_api

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Server:
    """The table server on a free port of 127.0.0.1, in a thread."""

    def __init__(self, data: Path, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/"
        self.app = create_app(Settings(db_url=f"sqlite:///{data / 'bench.sqlite3'}"))
        web_api.install(self.app)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        for _ in range(600):
            try:
                with urllib.request.urlopen(self.url + "api/info", timeout=2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def status(self, table_id: str) -> str:
        with urllib.request.urlopen(f"{self.url}api/tables/{table_id}", timeout=30) as r:
            return str(json.loads(r.read())["status"])


def page_load(server: Server, browser: Any) -> tuple[int, float]:
    """Bytes transferred and ms to interactive of one seated player's table page."""
    table = server.post("api/tables", {"seats": ["open", "bot:basic", "bot:basic", "bot:basic"],
                                       "bot_delay": 5})
    joined = server.post(f"api/tables/{table['id']}/join", {"name": "Anna"})
    seats = {table["id"]: {"token": joined["token"], "seat": joined["seat"], "name": "",
                           "joined": 1}}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('chicago.seats', {json.dumps(json.dumps(seats))});")
    page.goto(f"{server.url}#/table/{table['id']}")
    ready = page.wait_for_function("""() => {
      const open = document.querySelector('.conn[data-status=open]');
      return open && document.querySelector('.hand [data-card]') ? performance.now() : false;
    }""", timeout=30_000).json_value()
    page.wait_for_load_state("networkidle")
    size = page.evaluate("""() => performance.getEntriesByType('navigation')
      .concat(performance.getEntriesByType('resource'))
      .reduce((sum, e) => sum + (e.transferSize || 0), 0)""")
    context.close()
    return int(size), float(ready)


def bot_game(server: Server, browser: Any | None, deals: int) -> float:
    """Seconds from creating a table of four bots to the end of its game."""
    started = time.monotonic()
    table = server.post("api/tables", {"seats": ["bot:basic"] * 4, "bot_delay": 0,
                                       "rules": {"max_deals": deals}})
    context = None
    if browser is not None:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.new_page().goto(f"{server.url}#/watch/{table['id']}")
    while server.status(table["id"]) != "finished":
        time.sleep(0.02)
    elapsed = time.monotonic() - started
    if context is not None:
        context.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deals", type=int, default=8)
    args = parser.parse_args()
    import socket

    from playwright.sync_api import sync_playwright

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp), port) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        loads = [page_load(server, browser) for _ in range(args.runs)]
        watched = [bot_game(server, browser, args.deals) for _ in range(args.runs)]
        alone = [bot_game(server, None, args.deals) for _ in range(args.runs)]
        browser.close()
    print(f"table page: {statistics.median(s for s, _ in loads):,.0f} bytes transferred, "
          f"interactive after {statistics.median(t for _, t in loads):.0f} ms "
          f"(median of {args.runs}; all: {sorted(round(t) for _, t in loads)})")
    print(f"{args.deals}-deal game of four basic bots: {statistics.median(watched):.2f} s "
          f"watched by a page, {statistics.median(alone):.2f} s without "
          f"(medians of {args.runs}; watched {sorted(round(x, 2) for x in watched)}, "
          f"alone {sorted(round(x, 2) for x in alone)})")


if __name__ == "__main__":
    main()
