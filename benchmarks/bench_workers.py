"""Load benchmark of the table server with one and with two worker processes.

The load of ``bench_server.py`` (its clients: N tables of four bot-driven websocket clients on
loopback; each client waits ``--think`` seconds, between half and 1.5 times it, then sends a
random legal action; a finished game is followed by a rematch), run three times against
``chicago serve`` processes on one PostgreSQL database:

- 1 worker, PostgreSQL only (the one-process set-up);
- 1 worker with ``--redis`` (every change also takes the table's advisory lock and is
  published on Redis: the cost of being ready for more workers);
- 2 workers with ``--redis``, the seats of every table alternating between the two, so every
  action is decided on one worker and reaches half of its table through Redis.

Latency of an action = from the moment its client sends it to the moment its update has
arrived at every seat of the table. Needs PostgreSQL and Redis:

    export CHICAGO_TEST_PG_URL="$(bash .ci/start-postgres)"
    export CHICAGO_TEST_REDIS_URL="$(bash .ci/start-redis)"
    python benchmarks/bench_workers.py [--tables 50 200] [--think 1] [--seconds 20]

On the project's 2-core machine the load generator, PostgreSQL, Redis and the workers share
the two cores, so a second worker cannot add much throughput here; on separate machines each
worker brings its own cores (docs/SCALING.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench_server import SEATS, TableLoad, seat_client


async def run_load(workers: list[tuple[str, str]], tables: int, think: float, seconds: float,
                   seed: int) -> dict[str, Any]:
    """Create the tables (round robin over the workers), connect seat ``i`` of every table to
    worker ``i % len(workers)``, measure for ``seconds`` after a warm-up."""
    loads: list[TableLoad] = []
    tasks: list[asyncio.Task[None]] = []
    stop = asyncio.Event()
    rng = random.Random(seed)
    async with httpx.AsyncClient(timeout=60) as client:
        for index in range(tables):
            http = workers[index % len(workers)][0]
            info = (await client.post(f"{http}/api/tables", json={
                "seats": ["open"] * SEATS, "bot_delay": 0})).json()
            load = TableLoad(info["id"])
            loads.append(load)
            tokens = [(await client.post(f"{http}/api/tables/{info['id']}/join",
                                         json={"seat": seat})).json()["token"]
                      for seat in range(SEATS)]
            for seat, token in enumerate(tokens):
                ws_base = workers[seat % len(workers)][1]
                tasks.append(asyncio.create_task(seat_client(
                    f"{ws_base}/ws/{info['id']}", load, token, seat, think, stop,
                    random.Random(rng.random()))))
    await asyncio.sleep(min(5.0, seconds / 4))
    for load in loads:
        load.latencies.clear()
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    latencies = sorted(x for load in loads for x in load.latencies)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if not latencies:
        return {"actions": 0}
    return {
        "actions": len(latencies), "rate": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "max": latencies[-1] * 1000,
        "games": sum(load.games for load in loads),
        "errors": sum(load.errors for load in loads),
    }


def start_worker(db_url: str, redis_url: str | None) -> tuple[subprocess.Popen[str], str, str]:
    """A ``chicago serve`` process on a free loopback port."""
    argv = [sys.executable, "-m", "chicago.cli", "serve", "--port", "0", "--log-level",
            "error", "--db", db_url]
    if redis_url:
        argv += ["--redis", redis_url]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://([\d.]+):(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the worker did not start: {line!r}")
    http = f"http://{match[1]}:{match[2]}"
    for _ in range(600):
        try:
            if httpx.get(f"{http}/api/health").status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    return proc, http, "ws" + http[len("http"):]


def fresh_database(base: str) -> tuple[str, Any]:
    """A new empty database on the server of ``base``; (its URL, a function dropping it)."""
    name = "chicago_bench_" + secrets.token_hex(4)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return make_url(base).set(database=name).render_as_string(hide_password=False), drop


def measure(pg: str, redis_url: str | None, count: int, tables: int, think: float,
            seconds: float, seed: int) -> dict[str, Any]:
    db_url, drop = fresh_database(pg)
    procs: list[subprocess.Popen[str]] = []
    try:
        workers = []
        for _ in range(count):
            proc, http, ws = start_worker(db_url, redis_url)
            procs.append(proc)
            workers.append((http, ws))
        return asyncio.run(run_load(workers, tables, think, seconds, seed))
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        drop()


def main(argv: list[str] | None = None) -> int:
    """Measure each set-up for each table count and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200],
                        help="table counts to measure (default 50 200)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a client waits before acting (default 1.0)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="measuring time per run (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    pg = os.environ.get("CHICAGO_TEST_PG_URL")
    redis_url = os.environ.get("CHICAGO_TEST_REDIS_URL")
    if not pg or not redis_url:
        print("bench_workers: set CHICAGO_TEST_PG_URL and CHICAGO_TEST_REDIS_URL "
              "(bash .ci/start-postgres, bash .ci/start-redis)", file=sys.stderr)
        return 1
    print(f"table server load: {SEATS} websocket clients per table, think {args.think:g} s, "
          f"{args.seconds:g} s per run, PostgreSQL; two workers: seats alternate")
    print(f"{'set-up':<24}{'tables':>7}{'actions/s':>10}{'p50 ms':>8}{'p99 ms':>8}"
          f"{'max ms':>8}{'games':>7}{'errors':>7}")
    setups = [("1 worker", None, 1), ("1 worker + Redis", redis_url, 1),
              ("2 workers + Redis", redis_url, 2)]
    for tables in args.tables:
        for name, redis, count in setups:
            result = measure(pg, redis, count, tables, args.think, args.seconds, args.seed)
            if not result.get("actions"):
                print(f"{name:<24}{tables:>7}  no actions measured", flush=True)
                continue
            print(f"{name:<24}{tables:>7}{result['rate']:>10.0f}{result['p50']:>8.1f}"
                  f"{result['p99']:>8.1f}{result['max']:>8.1f}{result['games']:>7}"
                  f"{result['errors']:>7}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
