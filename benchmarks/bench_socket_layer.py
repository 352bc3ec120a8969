"""The table server's websocket layer alone: server CPU per message and its answer.

``bench_server.py`` measures a person's whole move; this measures what every frame costs
besides the table's own work. It starts the server as ``bench_server.py`` does (uvicorn,
the protocols and settings of ``chicago serve``) with one table, opens ``--clients``
websockets to it from this process and has each send ``{"type": "ping"}`` and wait for its
``pong``, pausing 0.5-1.5 times ``--every`` seconds between pings (below the connection's
message rate, so no limit is touched). A ping takes the whole path of a client's message
and of a frame sent (the websocket parser, uvicorn's queue, starlette, the rate and size
checks, the message's parsing, the connection's send queue and the write) with next to no
table work, so the server's CPU (user + system, from /proc) per ping answered is the socket
layer's cost of one message in and one frame out, keep-alive pings and timers included.

    python benchmarks/bench_socket_layer.py --clients 250 --every 0.5 --seconds 20

``PYTHONPATH=OTHER/src`` measures another checkout's server with the same clients.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))

from bench_server import ServerProcess, start_server


async def client(url: str, every: float, rng: random.Random, stop: asyncio.Event,
                 counts: list[int]) -> None:
    """Ping, wait for the pong, pause; until ``stop``."""
    async with websockets.connect(url, ping_interval=None, open_timeout=120) as ws:
        while not stop.is_set():
            await ws.send('{"type": "ping"}')
            while True:
                frame = json.loads(await ws.recv())
                if frame["type"] == "pong":
                    counts[0] += 1
                    break
            await asyncio.sleep(every * (0.5 + rng.random()))


async def run(http: str, ws_base: str, server: ServerProcess, clients: int, every: float,
              warmup: float, seconds: float, profile: bool) -> tuple[float, float, float]:
    """(pings answered a second, server CPU µs per ping, server share of a core)."""
    async with httpx.AsyncClient(base_url=http, timeout=60) as api:
        table = (await api.post("/api/tables", json={"seats": ["open", "bot:basic"] * 2,
                                                     "bot_delay": 0})).json()
    stop = asyncio.Event()
    counts = [0]
    rng = random.Random(1)
    url = f"{ws_base}/ws/{table['id']}"
    tasks = [asyncio.create_task(client(url, every, random.Random(rng.random()), stop, counts))
             for _ in range(clients)]
    await asyncio.sleep(warmup)
    counts[0] = 0
    if profile:
        os.kill(server.pid, signal.SIGUSR1)
    cpu0, t0 = server.cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    cpu1, t1, pings = server.cpu(), time.perf_counter(), counts[0]
    if profile:
        os.kill(server.pid, signal.SIGUSR2)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return pings / (t1 - t0), (cpu1 - cpu0) / pings * 1e6, (cpu1 - cpu0) / (t1 - t0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=250)
    parser.add_argument("--every", type=float, default=0.5,
                        help="mean seconds between a connection's pings (0.5-1.5 times it)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="write a CPU profile (cProfile on time.thread_time) of the "
                        "server's loop thread over the measured seconds to FILE")
    args = parser.parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        proc, http, ws_base = start_server(Path(tmp), args.profile)
        try:
            rate, per_ping, share = asyncio.run(run(
                http, ws_base, ServerProcess(proc.pid), args.clients, args.every,
                args.warmup, args.seconds, args.profile is not None))
        finally:
            proc.terminate()
            proc.wait(30)
    print(f"{args.clients} connections: {rate:,.0f} pings/s, server CPU {per_ping:.1f} µs a "
          f"ping and its pong ({share * 100:.0f}% of a core); load average "
          f"{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
