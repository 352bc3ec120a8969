"""Finished tables leave memory once stored (issue 28): after 1,000 finished games a real
server process holds at most 10 MB more than it did before them (its resident set, read
from /proc; the figures are printed, ``-s`` shows them).

The server runs as ``chicago serve`` runs it (src/chicago/commands/serve.py): its collector
tuned (``Settings.tune_gc``: what start-up made frozen, a young generation of
``gc_young_threshold`` allocations, the survivors of every collection frozen), its own
uvicorn protocols (``protocol_classes``), no per-message compression, keep-alive pings; and
with the bounds per address lifted, since every table here comes from 127.0.0.1, and no
reviews (as benchmarks/bench_server.py runs it). Each game is a table of four ``basic`` bots
playing one deal with no delay, watched by a spectator's websocket from its ``hello`` to its
``game_over`` frame; the spectator then leaves, and the finished table with nobody connected
is let go (``TableCache.let_go``). The idle figure is taken after a first round of the same
games (imports, caches and the database's pages warm), the final one after the last
spectator has left and the server has answered a request since.

Before docs/SERVER.md's "Connections without cycles" this failed tuned (+11 to +15 MB):
each spectator's connection left its protocol objects in reference cycles, which the tuned
collector frees late; untuned it passed (+6 to +9 MB).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import websockets

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

GAMES = 1_000
WARM_UP = 100
AT_ONCE = 25
ALLOWED_GROWTH = 10 * 1024 * 1024

KEEP_ALIVE = 3600
"""Seconds the server keeps an idle connection open: far longer than the client does (httpx,
5 s), so the client always drops an idle connection first. With uvicorn's 5 s, equal to the
client's, a busy server closed a kept-alive connection just as the client sent a request on
it, and the test ended in httpx.ReadError (as benchmarks/bench_server.py's run did)."""

SERVER = f"""
import json, socket, sys, uvicorn
from chicago.server import Settings, create_app
from chicago.server.transport import protocol_classes
settings = Settings(db_url=sys.argv[1], static_dir=None, **json.loads(sys.argv[2]))
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(1024)
print(sock.getsockname()[1], flush=True)
http, ws = protocol_classes()
config = uvicorn.Config(create_app(settings), log_level="error", http=http, ws=ws,
                        ws_max_size=settings.ws_max_size, ws_per_message_deflate=False,
                        ws_ping_interval=20.0, ws_ping_timeout=20.0,
                        timeout_graceful_shutdown=5, timeout_keep_alive={KEEP_ALIVE})
uvicorn.Server(config).run(sockets=[sock])
"""
SETTINGS = {
    "create_rate": 1e6, "create_burst": 1_000_000, "max_waiting_per_address": 1_000_000,
    "max_waiting": 1_000_000, "max_bot_tables_per_address": 1_000_000,
    "max_bot_tables": 1_000_000, "review_workers": 0, "seed": 28, "tune_gc": True,
}


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


async def _one_game(http: httpx.AsyncClient, ws_base: str) -> None:
    """A table of four bots plays one deal; a spectator watches it to its end, then goes."""
    response = await http.post("/api/tables", json={
        "seats": ["bot:basic"] * 4, "bot_delay": 0, "rules": {"max_deals": 1}})
    assert response.status_code == 201, response.text
    table = response.json()["id"]
    async with websockets.connect(f"{ws_base}/ws/{table}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "game_over" or (
                    frame["type"] in ("snapshot", "resumed") and frame["table"]["status"]
                    == "finished"):
                return


async def _games(http_base: str, ws_base: str, count: int) -> None:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(http: httpx.AsyncClient) -> None:
        async with gate:
            await _one_game(http, ws_base)

    async with httpx.AsyncClient(base_url=http_base, timeout=120) as http:
        await asyncio.gather(*(one(http) for _ in range(count)))


def test_a_thousand_finished_games_leave_memory(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, f"sqlite:///{tmp_path / 'memory.sqlite3'}",
         json.dumps(SETTINGS)], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        http_base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        asyncio.run(_games(http_base, ws_base, WARM_UP))
        assert httpx.get(http_base + "/api/health", timeout=120).status_code == 200
        idle = _rss(proc.pid)
        asyncio.run(_games(http_base, ws_base, GAMES))
        assert httpx.get(http_base + "/api/health", timeout=120).status_code == 200
        after = _rss(proc.pid)
        print(f"\nserver RSS after {WARM_UP} warm-up games: {idle / 2**20:.1f} MB; after "
              f"{GAMES} more finished games: {after / 2**20:.1f} MB "
              f"({(after - idle) / 2**20:+.1f} MB)")
        assert after - idle <= ALLOWED_GROWTH, (
            f"{(after - idle) / 2**20:.1f} MB more after {GAMES} finished games")
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
