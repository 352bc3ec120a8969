"""Reviews on the table server (issue 17): how long after a game ends its reviews are ready,
and how the event loop answers meanwhile.

Starts a real server process (uvicorn, a temporary SQLite file, ``Settings.seed`` fixed so
that every run plays the same game) with ``--workers`` review processes at ``--level``. A
table of four ``basic`` bots plays a whole game to 52 (bot delay 0); when its ``game_over``
frame arrives, the reviews of ``--seats`` are asked for (POST) and the benchmark waits for
each. Latency = from ``game_over`` to the seat's review being ready. Throughout, a
websocket client sends ``ping`` every 60 ms (within the connection's rate limit of 20
messages a second) and times each ``pong``: the round trips while
the reviews run, against the same client's while the bots played the game.

    python benchmarks/bench_review_server.py                       # 1 and 2 workers, 3 runs
    python benchmarks/bench_review_server.py --workers 1 --seats 0 --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

SERVER = """
import sys, uvicorn
from chicago.server import Settings, create_app
settings = Settings(db_url=sys.argv[1], static_dir=None, seed=int(sys.argv[2]),
                    review_workers=int(sys.argv[3]), review_level=sys.argv[4], review_poll=0.5)
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[5]), log_level="warning")
"""


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, db: Path, seed: int, workers: int, level: str) -> None:
        port = free_port()
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, f"sqlite:///{db}", str(seed), str(workers), level,
             str(port)], env={**os.environ, "PYTHONUNBUFFERED": "1"})
        for _ in range(600):
            try:
                if httpx.get(self.http + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


async def pinger(url: str, out: list[tuple[float, float]], stop: asyncio.Event) -> None:
    """(when, round trip in ms) of a ping every 60 ms until ``stop``."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while json.loads(await ws.recv())["type"] != "snapshot":
            pass
        while not stop.is_set():
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            out.append((sent, (time.perf_counter() - sent) * 1000))
            await asyncio.sleep(0.06)


async def one_run(server: Server, seats: list[int]) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as client:
        table = (await client.post("/api/tables", json={
            "seats": ["bot:basic"] * 4, "bot_delay": 0, "rules": {}})).json()["id"]
        pings: list[tuple[float, float]] = []
        stop = asyncio.Event()
        ping_task = asyncio.create_task(pinger(f"{server.ws}/ws/{table}", pings, stop))
        async with websockets.connect(f"{server.ws}/ws/{table}", max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while True:
                frame = json.loads(await ws.recv())
                if frame["type"] == "game_over" or (
                        frame["type"] == "snapshot" and frame["view"]["over"]):
                    break
        ended = time.perf_counter()
        for seat in seats:
            await client.post(f"/api/games/{table}/1/reviews/{seat}")
        ready: dict[int, float] = {}
        decisions = 0
        while len(ready) < len(seats):
            for seat in seats:
                if seat in ready:
                    continue
                answer = (await client.get(f"/api/games/{table}/1/reviews/{seat}")).json()
                if answer["status"] == "ready":
                    ready[seat] = time.perf_counter() - ended
                    decisions += answer["total"]
                elif answer["status"] == "failed":
                    raise RuntimeError(answer)
            await asyncio.sleep(0.1)
        done = time.perf_counter()
        stop.set()
        await ping_task
        record = (await client.get(f"/api/games/{table}/1")).json()["record"]
    idle = [ms for at, ms in pings if at < ended]
    busy = [ms for at, ms in pings if ended <= at <= done]
    return {"deals": record["result"]["deals"], "actions": len(record["actions"]),
            "decisions": decisions, "latency": max(ready.values()), "idle": idle, "busy": busy}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--seats", type=int, nargs="*", default=None,
                        help="seats to review (default: seat 0 alone, then all four)")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20250131)
    args = parser.parse_args()
    seat_sets = [args.seats] if args.seats else [[0], [0, 1, 2, 3]]
    print(f"load average before: {os.getloadavg()[0]:.1f} (2-core machine shared with others)")
    for workers in args.workers:
        for seats in seat_sets:
            results = []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as tmp:
                    server = Server(Path(tmp) / "bench.sqlite3", args.seed, workers, args.level)
                    try:
                        results.append(asyncio.run(one_run(server, seats)))
                    finally:
                        server.stop()
            first = results[0]
            idle = [ms for r in results for ms in r["idle"]]
            busy = [ms for r in results for ms in r["busy"]]
            print(f"review workers {workers}, seats {','.join(map(str, seats))}, level "
                  f"{args.level}: game of {first['deals']} deals, {first['actions']} actions, "
                  f"{first['decisions']} decisions reviewed")
            latencies = [r["latency"] for r in results]
            runs = ", ".join(f"{x:.1f}" for x in latencies)
            print(f"  latency after game end: median {statistics.median(latencies):.1f} s "
                  f"(runs: {runs})")
            print(f"  ping round trip while the game was played: p50 {pct(idle, .5):.1f} ms, "
                  f"p99 {pct(idle, .99):.1f} ms, max {max(idle):.1f} ms ({len(idle)} pings)")
            print(f"  ping round trip during the reviews: p50 {pct(busy, .5):.1f} ms, "
                  f"p99 {pct(busy, .99):.1f} ms, max {max(busy):.1f} ms ({len(busy)} pings)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
