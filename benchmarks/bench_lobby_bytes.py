"""What loading the lobby costs on the wire: requests and bytes, first visit and revisit.

Starts the table server (uvicorn in a thread, a temporary SQLite file), opens the lobby in
Debian's chromium through Playwright, waits until the lobby is drawn, and sums every
response's transferred size (headers plus the body as sent, so compressed when compressed)
from Playwright's network events. Then it loads the page again in the same browser context
(its HTTP cache warm) and counts again: requests answered from the cache do not reach the
server (``from cache``), revalidations answered 304 carry headers only.

    python benchmarks/bench_lobby_bytes.py            # 5 runs, medians
    python benchmarks/bench_lobby_bytes.py --runs 1 --chromium /usr/bin/chromium
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn

from chicago.server import Settings, create_app


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _serve(data: Path) -> tuple[uvicorn.Server, threading.Thread, str]:
    port = _free_port()
    settings = Settings(db_url=f"sqlite:///{data / 'chicago.sqlite3'}")
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "api/info", timeout=2):
                return server, thread, url
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def _load(page: Any, cdp: Any, url: str) -> dict[str, int]:
    """Load the lobby once: requests made, bytes received over the network (Chromium's
    ``encodedDataLength``: headers and body as sent), requests answered from the cache and
    answers 304 (revalidated)."""
    requests: dict[str, dict[str, Any]] = {}

    def sent(event: dict[str, Any]) -> None:
        requests.setdefault(event["requestId"], {"bytes": 0, "cached": False, "status": 0})

    def received(event: dict[str, Any]) -> None:
        info = requests.setdefault(event["requestId"], {"bytes": 0, "cached": False})
        response = event["response"]
        info["status"] = response.get("status", 0)
        info["cached"] = bool(info.get("cached") or response.get("fromDiskCache")
                              or response.get("fromPrefetchCache"))

    def finished(event: dict[str, Any]) -> None:
        requests.setdefault(event["requestId"], {"bytes": 0, "cached": False})["bytes"] = int(
            event.get("encodedDataLength", 0))

    def from_cache(event: dict[str, Any]) -> None:
        requests.setdefault(event["requestId"], {"bytes": 0})["cached"] = True

    handlers = {"Network.requestWillBeSent": sent, "Network.responseReceived": received,
                "Network.loadingFinished": finished, "Network.requestServedFromCache": from_cache}
    for name, handler in handlers.items():
        cdp.on(name, handler)
    page.goto(url, wait_until="networkidle")
    page.wait_for_selector(".lobby")
    for name, handler in handlers.items():
        cdp.remove_listener(name, handler)
    wire = sum(r["bytes"] for r in requests.values() if not r.get("cached"))
    return {"requests": len(requests), "bytes": wire,
            "cached": sum(1 for r in requests.values() if r.get("cached")),
            "not_modified": sum(1 for r in requests.values() if r.get("status") == 304)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    first: list[dict[str, int]] = []
    again: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        server, thread, url = _serve(Path(tmp))
        browser = playwright.chromium.launch(executable_path=args.chromium,
                                             args=["--headless", "--no-sandbox",
                                                   "--disable-gpu"])
        try:
            for _ in range(args.runs):
                context = browser.new_context()
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                first.append(_load(page, cdp, url))
                again.append(_load(page, cdp, url))
                context.close()
        finally:
            browser.close()
            server.should_exit = True
            thread.join(timeout=15)
    for name, runs in (("first visit", first), ("revisit", again)):
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{name:12} requests {med['requests']:.0f}  bytes on the wire "
              f"{med['bytes']:,.0f}  from cache {med['cached']:.0f}  304 {med['not_modified']:.0f}"
              f"  (median of {len(runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
