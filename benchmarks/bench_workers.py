"""Load benchmark of the table server with one and with two worker processes.

The load of ``bench_server.py`` (its people: tables of one person and three ``bot:basic``
seats, bot delay 0; each person plays over one websocket from this process, thinks 0.5-1.5
times ``--think`` seconds before a random legal action, answers the pause after a deal with
``continue`` and asks for a rematch when the game is over; batched updates, as the browser
app asks for them), run three times against server processes on one PostgreSQL database:

- 1 worker, PostgreSQL only (the one-process set-up);
- 1 worker with Redis (every change also takes the table's advisory lock and is published on
  Redis: the cost of being ready for more workers);
- 2 workers with Redis: each table is created on one worker and its person plays over a
  websocket to the other (tables alternating), so every table has its writer (the worker of
  its person, where the person's actions and the bots' replies are decided) and a follower
  (the worker that created it, which holds it, gets every burst through Redis and keeps the
  bots' take-over timers), as behind a load balancer that sends requests anywhere.

The workers are the server process of ``bench_server.py`` (uvicorn as ``chicago serve``
runs it, with its settings except the bounds made for many addresses, since every person
here comes from 127.0.0.1, and no review processes), on a fresh database for each run.
Figures per run, over ``--seconds`` after ``--warmup``: person moves per second, act→update
(from a person's ``act`` to its update reaching that person; p50, p99, max), "your turn
again" (from the ``act`` until the seat may act again: the bots' replies in between; p50,
p99), the workers' CPU per person move (all workers together, from /proc; the bots' replies,
the fan-out, the writes and the Redis traffic included), games ended and errors. Needs
PostgreSQL and Redis:

    export CHICAGO_TEST_PG_URL="$(bash .ci/start-postgres)"
    export CHICAGO_TEST_REDIS_URL="$(bash .ci/start-redis)"
    python benchmarks/bench_workers.py [--people 50 200] [--think 1] [--seconds 20]

(``make bench`` starts both when the variables are unset.) On the project's 2-core machine
the people, PostgreSQL, Redis and the workers share the two cores, so a second worker cannot
add throughput here; on separate machines each worker brings its own cores (docs/SCALING.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench_server import (
    BENCH_SETTINGS,
    SERVER,
    Person,
    ServerProcess,
    Totals,
    quiet_clients,
    restore_clients,
    seat_people,
)

SETUPS = (("1 worker, PostgreSQL", False, 1), ("1 worker + Redis", True, 1),
          ("2 workers + Redis", True, 2))
"""The set-ups measured: (name, with Redis, workers)."""


@dataclass
class Worker:
    """One server process: its process, its HTTP and websocket bases."""

    proc: subprocess.Popen[str]
    http: str
    ws: str

    def stop(self) -> None:
        """Stop it (SIGTERM: uvicorn's graceful shutdown), killed if it takes too long."""
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_worker(db_url: str, redis_url: str | None, index: int = 0) -> Worker:
    """A server process (``bench_server.SERVER``) on a free loopback port, on ``db_url``,
    with ``redis_url`` (or none). ``index``: the worker's number, added to the server's seed
    (the seed draws the new tables' ids: two workers on one seed would draw the same ones)."""
    options = {**BENCH_SETTINGS, "redis_url": redis_url,
               "seed": int(BENCH_SETTINGS.get("seed", 1)) + index}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, db_url, json.dumps(options)],
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    if not port.isdigit():
        proc.kill()
        proc.wait()
        raise SystemExit(f"the worker did not start: {port!r}")
    http = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            if httpx.get(http + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    return Worker(proc, http, f"ws://127.0.0.1:{port}")


def fresh_database(base: str) -> tuple[str, Callable[[], None]]:
    """A new empty database on the server of ``base``; (its URL, a function dropping it)."""
    from chicago.server.storage import normalize_url

    base = normalize_url(base)
    name = "chicago_bench_" + secrets.token_hex(4)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return make_url(base).set(database=name).render_as_string(hide_password=False), drop


async def run_load(workers: list[Worker], people: int, think: float, warmup: float,
                   seconds: float, seed: int, at_least: int = 0) -> dict[str, Any]:
    """Seat ``people`` (bench_server's people: one person and three bots a table), the
    tables created on the workers in turn and each person's websocket on the next worker
    (the same one when there is one), warm up, measure ``seconds`` (and on until
    ``at_least`` person moves were seen: the tests' short runs)."""
    totals = Totals()
    stop = asyncio.Event()
    rng = random.Random(seed)
    seated: list[Person] = []
    tasks: list[asyncio.Task[None]] = []
    servers = [ServerProcess(w.proc.pid) for w in workers]
    n = len(workers)
    clients = [httpx.AsyncClient(base_url=w.http, timeout=120) for w in workers]
    try:
        await asyncio.gather(*(
            seat_people(clients[i], workers[(i + 1) % n].ws, people // n + (i < people % n),
                        seated, tasks, totals, think, rng, stop, {}, True)
            for i in range(n)))
        quiet_clients("off")
        await asyncio.sleep(warmup)
        totals.reset()
        cpu0, t0 = sum(s.cpu() for s in servers), time.perf_counter()
        await asyncio.sleep(seconds)
        while totals.person_moves < at_least:
            await asyncio.sleep(0.02)
        cpu1, t1 = sum(s.cpu() for s in servers), time.perf_counter()
        latencies, turns = sorted(totals.latencies), sorted(totals.turns_back)
        moves, elapsed = totals.person_moves, t1 - t0
        nan = float("nan")
        return {
            "people": len(seated), "moves_s": moves / elapsed,
            "actions_s": totals.actions / elapsed,
            "p50": statistics.median(latencies) * 1e3 if latencies else nan,
            "p99": latencies[int(len(latencies) * 0.99)] * 1e3 if latencies else nan,
            "max": latencies[-1] * 1e3 if latencies else nan,
            "turn_p50": statistics.median(turns) * 1e3 if turns else nan,
            "turn_p99": turns[int(len(turns) * 0.99)] * 1e3 if turns else nan,
            "cpu_move": (cpu1 - cpu0) / moves * 1e3 if moves else nan,
            "server_cpu": (cpu1 - cpu0) / elapsed,
            "games": totals.games, "errors": dict(totals.errors),
        }
    finally:
        stop.set()
        restore_clients("off")
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await client.aclose()


def measure(pg: str, redis_url: str | None, count: int, people: int, think: float,
            warmup: float, seconds: float, seed: int) -> dict[str, Any]:
    """One set-up: ``count`` workers on a fresh database (dropped afterwards), the load of
    ``people`` people."""
    db_url, drop = fresh_database(pg)
    workers: list[Worker] = []
    try:
        for index in range(count):
            workers.append(start_worker(db_url, redis_url, index))
        return asyncio.run(run_load(workers, people, think, warmup, seconds, seed))
    finally:
        for worker in workers:
            worker.stop()
        drop()


def print_row(name: str, r: dict[str, Any]) -> None:
    errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "0"
    print(f"| {name} | {r['people']:,} | {r['moves_s']:,.0f} | {r['actions_s']:,.0f} | "
          f"{r['p50']:.1f} ms | {r['p99']:.1f} ms | {r['max']:.0f} ms | "
          f"{r['turn_p50']:.0f} ms | {r['turn_p99']:.0f} ms | {r['cpu_move']:.2f} ms | "
          f"{r['server_cpu'] * 100:.0f}% | {r['games']} | {errors} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Measure each set-up for each number of people and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[50, 200],
                        help="people (tables) to measure (default 50 200)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a person thinks (0.5-1.5 times it; default 1.0)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="measured seconds per run (default 20)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds before measuring (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    pg = os.environ.get("CHICAGO_TEST_PG_URL")
    redis_url = os.environ.get("CHICAGO_TEST_REDIS_URL")
    if not pg or not redis_url:
        print("bench_workers: set CHICAGO_TEST_PG_URL and CHICAGO_TEST_REDIS_URL "
              "(bash .ci/start-postgres, bash .ci/start-redis; make bench starts both)",
              file=sys.stderr)
        return 1
    print(f"table server load on workers: one person (thinking {args.think * 0.5:g}-"
          f"{args.think * 1.5:g} s, batched updates) and three basic bots per table; "
          f"PostgreSQL; two workers: each table created on one, its person on the other; "
          f"{args.warmup:g} s warm-up and {args.seconds:g} s measured per run; CPU of the "
          f"workers from /proc; load average {os.getloadavg()[0]:.1f} at the start\n")
    print("| set-up | people | person moves/s | actions/s | act→update p50 | p99 | max | "
          "your turn again p50 | p99 | workers' CPU per person move | workers' CPU | "
          "games | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for people in args.people:
        for name, redis, count in SETUPS:
            result = measure(pg, redis_url if redis else None, count, people, args.think,
                             args.warmup, args.seconds, args.seed)
            print_row(name, result)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
