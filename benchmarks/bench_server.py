"""Load benchmark of the table server: N tables of bot-driven websocket clients on loopback.

Starts one real ``chicago serve`` process (SQLite file in a temporary directory), creates N
tables of four open seats, and connects one websocket client per seat from this process.
Each client plays like a random bot: when its seat is to act it waits ``--think`` seconds
(random between half and 1.5 times it) and sends a random legal action. A finished game is
followed by a rematch, so the load stays constant.

Latency of an action = from the moment its client sends it to the moment its update has
arrived at every seat of the table. Prints actions/s and p50/p99/max latency per table count.

    python benchmarks/bench_server.py                      # 50 and 200 tables, think 1 s
    python benchmarks/bench_server.py --tables 200 --think 0.5 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

SEATS = 4


@dataclass
class TableLoad:
    """One table's clients and the actions in flight."""

    table_id: str
    sent: dict[int, float] = field(default_factory=dict)  # seq -> send time
    arrived: dict[int, int] = field(default_factory=dict)  # seq -> seats that got it
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    errors: int = 0


async def seat_client(url: str, load: TableLoad, token: str, seat: int, think: float,
                      stop: asyncio.Event, rng: random.Random) -> None:
    """One bot-driven websocket client."""
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: asyncio.Task[None] | None = None

        async def act(legal: list[str], seq: int) -> None:
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
            if stop.is_set():
                return
            load.sent[seq + 1] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))

        async for raw in ws:
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "update":
                seq = frame["seq"]
                count = load.arrived.get(seq, 0) + 1
                if count == SEATS:
                    load.arrived.pop(seq, None)
                    start = load.sent.pop(seq, None)
                    if start is not None:
                        load.latencies.append(time.perf_counter() - start)
                        load.actions += 1
                else:
                    load.arrived[seq] = count
                state = frame["state"]
                if state["legal_actions"] and not stop.is_set():
                    pending = asyncio.create_task(act(state["legal_actions"], seq))
            elif kind == "snapshot":
                view = frame["view"]
                if view["legal_actions"] and not stop.is_set():
                    pending = asyncio.create_task(act(view["legal_actions"], frame["seq"]))
            elif kind == "game_over":
                if seat == 0:
                    load.games += 1
                    if not stop.is_set():
                        await ws.send(json.dumps({"type": "rematch"}))
            elif kind == "error":
                load.errors += 1
            if stop.is_set():
                break
        if pending is not None:
            pending.cancel()


async def run_load(http: str, ws_base: str, tables: int, think: float, seconds: float,
                   seed: int) -> dict[str, Any]:
    """Create the tables, connect the clients, measure for ``seconds`` (after a warm-up)."""
    loads: list[TableLoad] = []
    tasks: list[asyncio.Task[None]] = []
    stop = asyncio.Event()
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=http, timeout=30) as client:
        for _ in range(tables):
            info = (await client.post("/api/tables", json={
                "seats": ["open"] * SEATS, "bot_delay": 0})).json()
            load = TableLoad(info["id"])
            loads.append(load)
            tokens = [(await client.post(f"/api/tables/{info['id']}/join",
                                         json={"seat": seat})).json()["token"]
                      for seat in range(SEATS)]
            for seat, token in enumerate(tokens):
                tasks.append(asyncio.create_task(seat_client(
                    f"{ws_base}/ws/{info['id']}", load, token, seat, think, stop,
                    random.Random(rng.random()))))
    warmup = min(5.0, seconds / 4)
    await asyncio.sleep(warmup)
    for load in loads:
        load.latencies.clear()
        load.actions = 0
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    latencies = sorted(x for load in loads for x in load.latencies)
    actions = sum(load.actions for load in loads)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if not latencies:
        return {"tables": tables, "actions": 0}
    return {
        "tables": tables, "clients": tables * SEATS, "think": think, "seconds": elapsed,
        "actions": actions, "rate": actions / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "max": latencies[-1] * 1000,
        "games": sum(load.games for load in loads),
        "errors": sum(load.errors for load in loads),
    }


def start_server(directory: Path) -> tuple[subprocess.Popen[str], str, str]:
    """A ``chicago serve`` process on a free loopback port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "chicago.cli", "serve", "--port", "0", "--log-level", "error",
         "--db", f"sqlite:///{directory / 'bench.sqlite3'}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://([\d.]+):(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    host, port = match[1], match[2]
    for _ in range(300):
        try:
            if httpx.get(f"http://{host}:{port}/api/health").status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.05)
    return proc, f"http://{host}:{port}", f"ws://{host}:{port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200],
                        help="table counts to measure (default 50 200)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a client waits before acting (default 1.0)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="measuring time per table count (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"table server load: {SEATS} websocket clients per table, think {args.think:g} s, "
          f"{args.seconds:g} s per run, one server process, SQLite")
    print(f"{'tables':>6} {'clients':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8} {'games':>6} {'errors':>6}")
    for tables in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            proc, http, ws_base = start_server(Path(tmp))
            try:
                result = asyncio.run(run_load(http, ws_base, tables, args.think, args.seconds,
                                              args.seed))
            finally:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if not result.get("actions"):
            print(f"{tables:>6}  no actions measured")
            continue
        print(f"{tables:>6} {result['clients']:>7} {result['rate']:>10.0f} "
              f"{result['p50']:>8.1f} {result['p99']:>8.1f} {result['max']:>8.1f} "
              f"{result['games']:>6} {result['errors']:>6}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
