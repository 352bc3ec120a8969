"""Load benchmark of the table server: people at tables of one person and three bots.

Starts one real server process (uvicorn, as ``chicago serve`` runs it, on a SQLite file in a
temporary directory) and, from this second process, seats people one by one: each creates a
table of one open seat and three ``bot:basic`` seats (bot delay 0, the default pause after a
deal), joins it and plays over one websocket like a random player: when its seat is to act it
thinks 0.5-1.5 times ``--think`` seconds and sends a random legal action; when a deal ends it
answers the pause with ``continue``; when the game is over it asks for a rematch, so the load
stays constant. By default (``--batch``) each person says ``"batch": true`` in its hello, as
the browser app does, and gets one ``batch`` frame per burst (its action and the bots'
replies; docs/PROTOCOL.md, "batch"), whose updates it reads in order as lone ones: only the
last and the trick-ending ones carry the state, and the last says whether the seat may act
or the deal's pause waits for it. ``--no-batch``: every update alone, as clients before
batches. (A server from before batches ignores the field and sends lone updates, which the
people read as well.) The
server's settings and protocols are those of ``chicago serve`` (its
garbage-collector tuning, ``Settings.tune_gc``, included) except the bounds made
for many addresses (tables per address per minute, waiting tables per address) and the
site's cap on tables in play (400, which the rematches of 1,000 tables pass), since every
client here comes from 127.0.0.1, and no review processes (a review takes a core of its own).

The number of people ramps up (``--clients``, default 100 250 500 1000); at each step, after a
warm-up, it measures for ``--seconds``:

- act→update: from a person's ``act`` to the update of that action reaching that person
  (p50, p99, max); batched, the batch holding that update (it comes with the bots' replies
  that follow it at once);
- your turn again: from a person's ``act`` until its seat may act again, the bots' replies
  (and, after a deal, the pause answered with ``continue``) in between (p50, p99);
- person moves per second, and all actions per second (the bots' replies included);
- server CPU per person move: the server process's CPU time (user + system, from /proc)
  over the step divided by the person moves, so it includes the bots' replies, the fan-out
  and the writes; and the server's RSS at the end of the step. The client process's own CPU
  is printed too, to show that the clients kept up.

    python benchmarks/bench_server.py                         # 100 -> 1,000 people
    python benchmarks/bench_server.py --clients 50 200 --seconds 20 --think 1.0
    python benchmarks/bench_server.py --clients 100 250 --no-batch   # every update alone
    python benchmarks/bench_server.py --clients 250 --threads --profile loop.pstats
        # also each server thread's CPU per move, and a CPU profile of the loop's thread
    python benchmarks/bench_server.py --clients 100 1000 --gc
        # also the garbage collector's collections and CPU per move, by generation
    python benchmarks/bench_server.py --clients 250 500 --stalls --set gc_scan_by_load=false
        # where the tail comes from: the server loop's lags with the collections in them,
        # where the late loop was, the clients' own lags (docs/SERVER.md, "Where the tail
        # comes from"); --set NAME=JSON: a server setting for the run

The people are one process: once each step's people are seated its collector is frozen
and off while the step runs (``--client-gc off``, the default since 2026-12-07), since a
full collection of this process (up to 100 ms at 1,000 people) held back every act falling
due meanwhile and sent them to the server in one clump, which people on machines of their
own never do; ``--client-gc default`` measures as before (docs/SERVER.md, "The clients'
own collections").

The server process imports ``chicago`` as this one does, so ``PYTHONPATH=OTHER/src`` measures
another checkout's server with the same clients (a before and after, interleaved, in one
session: docs/SERVER.md, "Load on one worker").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
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

BOTS = ["bot:basic"] * 3
SEATING_LIMIT = 600.0
"""Seconds a step may take to seat its people; an overloaded server ends the ramp there."""
SERVER = """
import cProfile, dataclasses, json, os, signal, socket, sys, time, uvicorn
from chicago.server import Settings, create_app
from chicago.server.transport import protocol_classes
options = json.loads(sys.argv[2])
if "tune_gc" in {f.name for f in dataclasses.fields(Settings)}:
    options["tune_gc"] = True  # as chicago serve (a server from before it had no such setting)
settings = Settings(db_url=sys.argv[1], static_dir=None, **options)
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", 0))
sock.listen(4096)
print(sock.getsockname()[1], flush=True)
http, ws = protocol_classes()
config = uvicorn.Config(create_app(settings), log_level="error", ws_per_message_deflate=False,
                        http=http, ws=ws, ws_max_size=settings.ws_max_size,
                        ws_ping_interval=20.0, ws_ping_timeout=20.0, timeout_graceful_shutdown=5)
if os.environ.get("BENCH_PROFILE"):  # SIGUSR1 starts a CPU profile of the loop, SIGUSR2 saves it
    profile = cProfile.Profile(time.thread_time)
    signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
    signal.signal(signal.SIGUSR2, lambda *_: (profile.disable(),
                                              profile.dump_stats(os.environ["BENCH_PROFILE"])))
if os.environ.get("BENCH_GC"):  # SIGHUP writes the collector's CPU so far, per generation
    import collections, gc
    spent, started, found = [[0, 0.0] for _ in range(3)], [0.0], [0, 0, 0]
    def timing(phase, info):
        if phase == "start":
            started[0] = time.thread_time()
        else:
            spent[info["generation"]][0] += 1
            spent[info["generation"]][1] += time.thread_time() - started[0]
            found[info["generation"]] += info["collected"]
    gc.callbacks.append(timing)
    dumps = [0]
    def dump(*_):
        dumps[0] += 1
        with open(os.environ["BENCH_GC"] + ".tmp", "w") as out:
            kinds = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
            json.dump({"dumps": dumps[0], "generations": spent, "tracked": sum(kinds.values()),
                       "found": found, "frozen": gc.get_freeze_count(),
                       "threshold": gc.get_threshold(), "whole_scans": [
                           getattr(c, "whole_scans", None) for c in gc.callbacks
                           if hasattr(c, "whole_scans")],
                       "unscanned": [getattr(c, "unscanned", None) for c in gc.callbacks
                                     if hasattr(c, "whole_scans")],
                       "kinds": kinds.most_common(30)}, out)
        os.replace(os.environ["BENCH_GC"] + ".tmp", os.environ["BENCH_GC"])
    signal.signal(signal.SIGHUP, dump)
server_class = uvicorn.Server
if os.environ.get("BENCH_STALLS"):  # the loop's lags and the collections, with wall times
    import asyncio, gc
    stalls = open(os.environ["BENCH_STALLS"], "a", buffering=1)
    def note(**event):
        stalls.write(json.dumps(event) + chr(10))
    begun, stopped = [0.0, 0.0], [0.0, 0.0]
    def collection(phase, info):
        if phase == "start":
            begun[:] = [time.perf_counter(), time.thread_time()]
            return
        stopped[:] = [time.perf_counter(), time.thread_time()]
        wall = stopped[0] - begun[0]
        if wall >= 0.005:
            hooks = [c for c in gc.callbacks if hasattr(c, "whole_scans")]
            note(kind="gc", at=time.time() - wall, wall=wall,
                 cpu=time.thread_time() - begun[1], generation=info["generation"],
                 collected=info["collected"],
                 # the hook's last count, not gc.get_freeze_count(): that walks every frozen
                 # object (about 0.1 s at 650,000) with the loop held, making lags of its own
                 frozen=max([h.counted for h in hooks], default=0),
                 thawing=[h.thawing for h in hooks], whole_scans=[h.whole_scans for h in hooks],
                 scanned=[[getattr(h, "base", None), h.scanned, getattr(h, "scanned_load", None)]
                          for h in hooks])
    gc.callbacks.insert(0, collection)
    def after_hooks(phase, info):  # the tuning hook's own time after a collection (a count)
        if phase != "stop":
            return
        wall = time.perf_counter() - stopped[0]
        if wall >= 0.005:
            hooks = [c for c in gc.callbacks if hasattr(c, "whole_scans")]
            note(kind="hook", at=time.time() - wall, wall=wall,
                 cpu=time.thread_time() - stopped[1], counts=[h.counts for h in hooks],
                 frozen=max([h.counted for h in hooks], default=0))
    import threading
    ticked = [time.perf_counter()]
    def sampler(loop_thread):  # while the loop is 50 ms late: where it is, every 10 ms
        while True:
            time.sleep(0.01)
            if time.perf_counter() - ticked[0] < 0.05:
                continue
            frame = sys._current_frames().get(loop_thread)
            where = []
            while frame is not None and len(where) < 12:
                code = frame.f_code
                where.append(f"{os.path.basename(code.co_filename)}:{code.co_name}")
                frame = frame.f_back
            note(kind="sample", at=time.time(), where=" < ".join(where))
    try:  # what the loop did in each lag, counted (a server from before: no counts)
        from chicago.server.loop_census import LoopCensus, install
        census = LoopCensus()
        install(census, ws)
    except ImportError:
        census = None
    second = [time.perf_counter(), census.snapshot() if census is not None else {}]
    async def lag_monitor():
        tick = 0.005
        threading.Thread(target=sampler, args=(threading.get_ident(),), daemon=True).start()
        while True:
            ticked[0] = time.perf_counter()
            before, cpu = time.perf_counter(), time.thread_time()
            counts = census.snapshot() if census is not None else None
            if census is not None and before - second[0] >= 1.0:  # each second's counts
                note(kind="second", at=time.time(), counts=census.since(second[1]))
                second[:] = [before, counts]
            await asyncio.sleep(tick)
            late = time.perf_counter() - before - tick
            if late >= 0.02:
                note(kind="lag", at=time.time() - late, wall=late,
                     cpu=time.thread_time() - cpu,
                     counts=census.since(counts) if census is not None else None)
    class server_class(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            gc.callbacks.append(after_hooks)  # after the tuning hook, which start-up added
            self.monitor = asyncio.get_running_loop().create_task(lag_monitor())
server_class(config).run(sockets=[sock])
"""
BENCH_SETTINGS = {
    "create_rate": 1e6, "create_burst": 1_000_000,  # every table comes from 127.0.0.1
    "max_waiting_per_address": 1_000_000, "max_waiting": 1_000_000,
    "max_running_tables": 1_000_000,  # rematches of 1,000 tables in play pass the site cap
    "review_workers": 0, "seed": 1,
}


@dataclass
class Totals:
    """What all the people saw, reset at the start of each measured window."""

    latencies: list[float] = field(default_factory=list)
    stamps: list[tuple[float, float]] = field(default_factory=list)
    """Per person move (with ``--stalls``): wall-clock time its ``act`` went out, and its
    act→update seconds."""
    stalls: bool = False
    turns_back: list[float] = field(default_factory=list)
    """Per person move: seconds from its ``act`` until its seat may act again."""
    person_moves: int = 0
    actions: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def reset(self) -> None:
        self.latencies.clear()
        self.stamps.clear()
        self.turns_back.clear()
        self.person_moves = self.actions = self.games = 0
        self.errors.clear()


class Person:
    """One person at a table of three bots, playing over one websocket."""

    def __init__(self, totals: Totals, think: float, rng: random.Random,
                 stop: asyncio.Event, batch: bool) -> None:
        self.totals, self.think, self.rng, self.stop = totals, think, rng, stop
        self.batch = batch
        """Whether the hello asks for batched updates (one ``batch`` frame per burst)."""
        self.sent: float | None = None
        self.acted: float | None = None  # when the last act went out, until the seat's next turn
        self.waiting: list[str] = []  # legal actions of a deal that begins after a pause
        self.seat: int | None = None
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def play(self, url: str, token: str) -> None:
        async with websockets.connect(url, max_size=2**22, open_timeout=120,
                                      ping_interval=None) as ws:
            hello: dict[str, Any] = {"type": "hello", "token": token}
            if self.batch:  # a server from before batches ignores it: lone updates
                hello["batch"] = True
            await ws.send(json.dumps(hello))
            async for raw in ws:
                frame = json.loads(raw)
                await self.on_frame(ws, frame)
                if self.stop.is_set():
                    break
            if self.task is not None:
                self.task.cancel()

    async def on_frame(self, ws: Any, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        totals = self.totals
        if kind == "snapshot":
            self.seat = frame["you"]
            self.ready.set()
            await self.consider(ws, frame["view"]["legal_actions"], frame["table"].get("pause"))
        elif kind == "update":
            await self.on_update(ws, frame)
        elif kind == "batch":  # a burst's updates in order, as lone ones
            for update in frame["updates"]:
                await self.on_update(ws, update)
        elif kind == "continue":
            if frame.get("pause") is None:
                await self.consider(ws, self.waiting, None)
        elif kind == "game_over":
            totals.games += 1
            await ws.send(json.dumps({"type": "rematch"}))
        elif kind == "error":
            code = frame.get("code", "?")
            totals.errors[code] = totals.errors.get(code, 0) + 1
            if code in ("paused", "stale", "not_your_turn"):
                await ws.send(json.dumps({"type": "view"}))

    async def on_update(self, ws: Any, update: dict[str, Any]) -> None:
        """One action's update, lone or in a batch: the person's own one ends its act→update
        wait; one with the state (a lone one, a batch's last or trick-ending one) is
        considered. A batch's updates between carry no state: nothing to consider."""
        totals = self.totals
        totals.actions += 1
        if update["seat"] == self.seat and update["by"] == "player" and self.sent is not None:
            latency = time.perf_counter() - self.sent
            totals.latencies.append(latency)
            if totals.stalls:
                totals.stamps.append((time.time() - latency, latency))
            totals.person_moves += 1
            self.sent = None
        state = update.get("state")
        if state is not None:
            await self.consider(ws, state["legal_actions"], update.get("pause"))

    async def consider(self, ws: Any, legal: list[str], pause: dict[str, Any] | None) -> None:
        """Answer a pause at once; act (after thinking) when the seat has legal actions."""
        self.waiting = legal if pause is not None else []
        if pause is not None:
            if self.seat in pause.get("waiting", ()):
                await ws.send(json.dumps({"type": "continue"}))
            return
        if legal and self.acted is not None:
            self.totals.turns_back.append(time.perf_counter() - self.acted)
            self.acted = None
        if legal and not self.stop.is_set():
            if self.task is not None and not self.task.done():
                self.task.cancel()
            self.task = asyncio.create_task(self.act(ws, legal))

    async def act(self, ws: Any, legal: list[str]) -> None:
        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        if self.stop.is_set():
            return
        self.sent = self.acted = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "action": self.rng.choice(legal)}))


async def seat_people(http: httpx.AsyncClient, ws_base: str, count: int, people: list[Person],
                      tasks: list[asyncio.Task[None]], totals: Totals, think: float,
                      rng: random.Random, stop: asyncio.Event, rules: dict[str, Any],
                      batch: bool) -> None:
    """Seat ``count`` more people, a few at a time, and wait until each has its snapshot."""
    gate = asyncio.Semaphore(16)

    async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        # A busy server may close a kept-alive connection as a request goes out on it
        # (httpx.ReadError): the request is sent again on a new connection, a few times.
        for attempt in range(4):
            try:
                answer: dict[str, Any] = (await http.post(path, json=body)).json()
                return answer
            except httpx.TransportError:
                if attempt == 3:
                    raise
        raise AssertionError("unreachable")

    async def one() -> None:
        async with gate:
            table = await post("/api/tables", {
                "seats": ["open", *BOTS], "bot_delay": 0, "rules": rules})
            if "id" not in table:
                raise SystemExit(f"the server refused a table: {table}")
            token = (await post(f"/api/tables/{table['id']}/join", {"seat": 0}))["token"]
            person = Person(totals, think, random.Random(rng.random()), stop, batch)
            people.append(person)
            tasks.append(asyncio.create_task(person.play(f"{ws_base}/ws/{table['id']}", token)))
            await person.ready.wait()

    await asyncio.wait_for(asyncio.gather(*(one() for _ in range(count))), SEATING_LIMIT)


class ServerProcess:
    """CPU time and RSS of the server process, read from /proc (Linux)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.tick = os.sysconf("SC_CLK_TCK")

    def cpu(self) -> float:
        """User + system CPU seconds so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.tick

    def threads(self) -> dict[str, tuple[float, float]]:
        """Per thread (its name and id): (user, system) CPU seconds so far."""
        found = {}
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                head, tail = (task / "stat").read_text().rsplit(")", 1)
            except OSError:  # the thread ended
                continue
            fields = tail.split()
            name = f"{head.split('(', 1)[1]} {task.name}"
            found[name] = (int(fields[11]) / self.tick, int(fields[12]) / self.tick)
        return found

    def collector(self, path: Path | None) -> list[tuple[int, float]] | None:
        """Per generation: (collections, CPU seconds) of the server's garbage collector so
        far (``--gc``: the server writes them to ``path`` on SIGHUP); None without it."""
        if path is None:
            return None
        last = json.loads(path.read_text())["dumps"] if path.exists() else 0
        os.kill(self.pid, signal.SIGHUP)
        for _ in range(500):  # the loop answers between its callbacks
            if path.exists():
                data = json.loads(path.read_text())
                if data["dumps"] > last:
                    return [(int(n), float(t)) for n, t in data["generations"]]
            time.sleep(0.01)
        return None

    def rss(self) -> float:
        """Resident set size in MB (2**20 bytes)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")


class Watch:
    """``--stalls``, this (the clients') process's side: its own loop's lags and its own
    garbage collections, with wall-clock times, so that a delay of the clients is not taken
    for the server's."""

    LAG = 0.02
    """Lateness of a 5 ms sleep noted as a lag (seconds)."""

    def __init__(self) -> None:
        self.lags: list[tuple[float, float]] = []
        self.collections: list[tuple[float, float, int]] = []
        self._begun = 0.0
        gc.callbacks.append(self._collection)

    def _collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._begun = time.perf_counter()
            return
        wall = time.perf_counter() - self._begun
        if wall >= 0.005:
            self.collections.append((time.time() - wall, wall, int(info["generation"])))

    async def monitor(self) -> None:
        tick = 0.005
        while True:
            before = time.perf_counter()
            await asyncio.sleep(tick)
            late = time.perf_counter() - before - tick
            if late >= self.LAG:
                self.lags.append((time.time() - late, late))

    def close(self) -> None:
        gc.callbacks.remove(self._collection)


def print_stalls(path: Path, watch: Watch, stamps: list[tuple[float, float]],
                 start: float, end: float, step_start: float) -> None:
    """``--stalls``: over the step's window (wall clock), the server loop's lags of 50 ms or
    more with the collections inside them, the clients' own lags and collections, and how
    many of the person moves slower than 100 ms began before the end of a server lag that
    ended after the move went out (waited on it) or during a client lag."""
    events = [json.loads(line) for line in path.read_text().splitlines()] \
        if path.exists() else []
    inside = [e for e in events if start <= e["at"] <= end]
    lags = sorted((e for e in inside if e["kind"] == "lag" and e["wall"] >= 0.05),
                  key=lambda e: e["at"])
    collections = [e for e in inside if e["kind"] == "gc"]
    by_gen = [sum(1 for e in collections if e["generation"] == g) for g in range(3)]
    print(f"|   server loop lags >= 50 ms: {len(lags)}, {sum(e['wall'] for e in lags):.2f} s "
          f"in all; collections >= 5 ms by generation {by_gen}, the longest "
          f"{max((e['wall'] for e in collections), default=0) * 1e3:.0f} ms |")
    busy = [e for e in lags if e.get("cpu", 0) >= 0.8 * e["wall"]]
    print(f"|   of them with the loop on the CPU for 80% of the lag or more (its own work, "
          f"not another process's): {len(busy)}, {sum(e['wall'] for e in busy):.2f} s; "
          f"the longest {max((e['wall'] for e in busy), default=0) * 1e3:.0f} ms |")
    for e in sorted(busy, key=lambda e: -e["wall"])[:6] + sorted(
            (e for e in lags if e not in busy), key=lambda e: -e["wall"])[:3]:
        during = [c for c in collections
                  if c["at"] <= e["at"] + e["wall"] and c["at"] + c["wall"] >= e["at"]]
        what = "; ".join(f"gc gen {c['generation']} {c['wall'] * 1e3:.0f} ms (cpu "
                         f"{c['cpu'] * 1e3:.0f}, frozen at the last count {c['frozen']:,}, thawing "
                         f"{c['thawing']}, whole scans {c['whole_scans']}"
                         + (f", base/scanned/load {c['scanned']}" if c['generation'] == 2
                            else "") + ")"
                         for c in during) or "no collection"
        counts = e.get("counts")
        held = "" if counts is None else "; in it " + (", ".join(
            f"{k} {n:,}" for k, n in counts.items()) or "nothing counted")
        print(f"|     +{e['at'] - start:5.1f} s: lag {e['wall'] * 1e3:.0f} ms (the loop's "
              f"CPU in it {e.get('cpu', 0) * 1e3:.0f} ms): {what}{held} |")
        within: dict[str, int] = {}
        for x in inside:
            if x["kind"] == "sample" and e["at"] <= x["at"] <= e["at"] + e["wall"]:
                within[x["where"]] = within.get(x["where"], 0) + 1
        for where, n in sorted(within.items(), key=lambda kv: -kv[1])[:3]:
            print(f"|       {n} samples: {where} |")
    hooked = [e for e in inside if e["kind"] == "hook"]
    if hooked:
        print(f"|   the collector's tuning hook after a collection, 5 ms or more (its counts "
              f"of the frozen objects): {len(hooked)}, " + ", ".join(
                  f"+{e['at'] - start:.1f} s {e['wall'] * 1e3:.0f} ms (cpu "
                  f"{e['cpu'] * 1e3:.0f}, {e['frozen']:,} frozen)" for e in hooked) + " |")
    if lags:
        print("|   every lag >= 50 ms (+s into the window: ms): " + ", ".join(
            f"+{e['at'] - start:.1f}: {e['wall'] * 1e3:.0f}" for e in lags) + " |")
    seconds = [e for e in inside if e["kind"] == "second"]
    if seconds:
        print("|   each second's counts, the median and the largest (at +s): " + ", ".join(
            f"{k} {statistics.median(e['counts'].get(k, 0) for e in seconds):,.0f}/"
            f"{top['counts'].get(k, 0):,} (+{top['at'] - start:.0f})"
            for k in dict.fromkeys(k for e in seconds for k in e["counts"])
            for top in [max(seconds, key=lambda e, k=k: e["counts"].get(k, 0))]) + " |")
    samples: dict[str, int] = {}
    for e in inside:
        if e["kind"] == "sample":
            samples[e["where"]] = samples.get(e["where"], 0) + 1
    if samples:
        print(f"|   where the loop was while 50 ms late (every 10 ms, "
              f"{sum(samples.values())} samples; innermost first): |")
        for where, n in sorted(samples.items(), key=lambda kv: -kv[1])[:8]:
            print(f"|     {n}: {where} |")
    for e in events:  # every whole collection since the step's seating began
        if e["kind"] == "gc" and e["generation"] == 2 and step_start <= e["at"] <= end:
            print(f"|   full collection at {e['at'] - start:+.1f} s of the window: "
                  f"{e['wall'] * 1e3:.0f} ms ({e['cpu'] * 1e3:.0f} ms CPU), frozen at the "
                  f"last count {e['frozen']:,}, whole scans {e['whole_scans']}, start-up's/scanned/"
                  f"tables {e.get('scanned')} |")
    mine = [(a, w) for a, w in watch.lags if start <= a <= end]
    mine_gc = [c for c in watch.collections if start <= c[0] <= end]
    print(f"|   client loop lags >= 20 ms: {len(mine)}, the longest "
          f"{max((w for _, w in mine), default=0) * 1e3:.0f} ms, "
          f"{sum(w for _, w in mine):.2f} s in all; client collections >= 5 ms: "
          f"{len(mine_gc)}, the longest {max((w for _, w, _ in mine_gc), default=0) * 1e3:.0f}"
          " ms |")
    slow = [(sent, lat) for sent, lat in stamps if lat >= 0.1]
    on_server = sum(1 for sent, lat in slow if any(
        e["at"] <= sent + lat and e["at"] + e["wall"] >= sent for e in lags))
    on_client = sum(1 for sent, lat in slow if any(
        a <= sent + lat and a + w >= sent and w >= 0.05 for a, w in mine))
    print(f"|   person moves >= 100 ms: {len(slow)} of {len(stamps)}; overlapping a server "
          f"lag >= 50 ms: {on_server}; a client lag >= 50 ms: {on_client} |")


CLIENT_GC = ("off", "freeze", "default")
"""``--client-gc``: what the clients' process does with its own garbage collector once each
step's people are seated (:func:`quiet_clients`)."""


def quiet_clients(mode: str) -> None:
    """Keep this process's collections from bunching the people's acts (``--client-gc``).

    The 1,000 people of a step are one process; a full collection of its heap (every
    connection and person, up to 100 ms at 1,000 people) holds back every act that falls
    due meanwhile, and they then reach the server in one clump that real people, each on a
    machine of their own, never send: the server's loop works through it while the clump's
    updates wait (docs/SERVER.md, "The forty-ninth to fifty-first passes together").
    ``"freeze"``: what is there once seated is frozen (young collections stay, 5-50 ms at
    1,000); ``"off"`` (the default): frozen, and no collections until :func:`restore_clients`
    (the clients' cyclic garbage waits; their RSS is not measured); ``"default"``: nothing,
    as before 2026-12-07."""
    if mode not in CLIENT_GC:
        raise ValueError(f"--client-gc must be one of {', '.join(CLIENT_GC)}, not {mode!r}")
    if mode == "default":
        return
    gc.collect()
    gc.freeze()
    if mode == "off":
        gc.disable()


def restore_clients(mode: str) -> None:
    """Undo :func:`quiet_clients` (the collector on again, the frozen objects back)."""
    if mode == "default":
        return
    gc.enable()
    gc.unfreeze()


async def ramp(http_base: str, ws_base: str, server: ServerProcess, steps: list[int],
               think: float, warmup: float, seconds: float, seed: int,
               rules: dict[str, Any], batch: bool,
               profile: bool = False, show_threads: bool = False,
               gc_file: Path | None = None,
               stalls_file: Path | None = None,
               client_gc: str = "off") -> list[dict[str, Any]]:
    """Seat people up to each step, warm up, measure; one result per step (``profile``: the
    server profiles its loop's thread over the last step's measured seconds)."""
    totals = Totals(stalls=stalls_file is not None)
    watch = Watch() if stalls_file is not None else None
    watching = asyncio.create_task(watch.monitor()) if watch is not None else None
    stop = asyncio.Event()
    rng = random.Random(seed)
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = []
    results = []
    async with httpx.AsyncClient(base_url=http_base, timeout=120) as http:
        idle_rss = server.rss()
        for step in steps:
            started, step_wall = time.perf_counter(), time.time()
            try:
                await seat_people(http, ws_base, step - len(people), people, tasks, totals,
                                  think, rng, stop, rules, batch)
            except (TimeoutError, httpx.HTTPError) as exc:
                print(f"| {step:,} | could not seat them all in {SEATING_LIMIT:.0f} s: "
                      f"{type(exc).__name__} {exc} |")
                break
            seating = time.perf_counter() - started
            quiet_clients(client_gc)
            await asyncio.sleep(warmup)
            totals.reset()
            profiling = profile and step == steps[-1]
            if profiling:
                os.kill(server.pid, signal.SIGUSR1)
            threads0 = server.threads()
            gc0 = server.collector(gc_file)
            cpu0, mine0, t0 = server.cpu(), time.process_time(), time.perf_counter()
            wall0 = time.time()
            await asyncio.sleep(seconds)
            cpu1, mine1, t1 = server.cpu(), time.process_time(), time.perf_counter()
            wall1 = time.time()
            threads1 = server.threads()
            gc1 = server.collector(gc_file)
            if profiling:
                os.kill(server.pid, signal.SIGUSR2)
            latencies = sorted(totals.latencies)
            turns = sorted(totals.turns_back)
            moves = totals.person_moves
            elapsed = t1 - t0
            results.append({
                "people": len(people), "seating": seating, "seconds": elapsed,
                "moves_s": moves / elapsed, "actions_s": totals.actions / elapsed,
                "p50": statistics.median(latencies) * 1e3 if latencies else float("nan"),
                "p99": latencies[int(len(latencies) * 0.99)] * 1e3 if latencies
                else float("nan"),
                "max": latencies[-1] * 1e3 if latencies else float("nan"),
                "turn_p50": statistics.median(turns) * 1e3 if turns else float("nan"),
                "turn_p99": turns[int(len(turns) * 0.99)] * 1e3 if turns else float("nan"),
                "cpu_move": (cpu1 - cpu0) / moves * 1e3 if moves else float("nan"),
                "server_cpu": (cpu1 - cpu0) / elapsed, "client_cpu": (mine1 - mine0) / elapsed,
                "rss": server.rss(), "idle_rss": idle_rss,
                "games": totals.games, "errors": dict(totals.errors),
            })
            print_row(results[-1])
            if show_threads and moves:
                print_threads(threads0, threads1, moves)
            if stalls_file is not None and watch is not None:
                print_stalls(stalls_file, watch, list(totals.stamps), wall0, wall1,
                             step_wall)
            if gc0 is not None and gc1 is not None and moves:
                print("|   collector: " + ", ".join(
                    f"generation {g} {n1 - n0} collections {(t1 - t0) / moves * 1e3:.3f} ms"
                    for g, ((n0, t0), (n1, t1)) in enumerate(zip(gc0, gc1, strict=True)))
                    + " a person move |")
                census = json.loads(gc_file.read_text()) if gc_file is not None else {}
                print(f"|   tracked objects the collector scans: {census.get('tracked', 0):,} "
                      f"({census.get('tracked', 0) / max(len(people), 1):,.0f} a person; "
                      f"frozen {census.get('frozen', 0):,}; garbage found by generation "
                      f"{census.get('found')}; whole scans since start "
                      f"{census.get('whole_scans')}; young collections unscanned since "
                      f"start {census.get('unscanned')}; thresholds "
                      f"{census.get('threshold')}): "
                      + ", ".join(f"{k} {n:,}" for k, n in census.get("kinds", [])[:20]) + " |")
    stop.set()
    restore_clients(client_gc)
    if watching is not None and watch is not None:
        watching.cancel()
        watch.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return results


def print_row(r: dict[str, Any]) -> None:
    errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "0"
    print(f"| {r['people']:,} | {r['moves_s']:,.0f} | {r['actions_s']:,.0f} | "
          f"{r['p50']:.1f} ms | {r['p99']:.1f} ms | {r['max']:.0f} ms | "
          f"{r['turn_p50']:.0f} ms | {r['turn_p99']:.0f} ms | "
          f"{r['cpu_move']:.2f} ms | {r['server_cpu'] * 100:.0f}% | "
          f"{r['client_cpu'] * 100:.0f}% | {r['rss']:.0f} MB | {r['games']} | {errors} | "
          f"{r['seating']:.0f} s |", flush=True)


def print_threads(before: dict[str, tuple[float, float]],
                  after: dict[str, tuple[float, float]], moves: int) -> None:
    """Each busy thread's user and system CPU per person move over the step."""
    for name, (user, system) in sorted(after.items()):
        user0, system0 = before.get(name, (0.0, 0.0))
        if user - user0 + system - system0 > 0:
            print(f"|   thread {name}: user {(user - user0) / moves * 1e3:.2f} ms, system "
                  f"{(system - system0) / moves * 1e3:.2f} ms a person move |")


def start_server(directory: Path, profile: str | None = None, gc_file: Path | None = None,
                 stalls_file: Path | None = None) -> tuple[subprocess.Popen[str], str, str]:
    """The server process on a free loopback port: (process, http base, ws base).
    ``profile``: the file its CPU profile goes to (started and saved by signals);
    ``gc_file``: where it writes its collector's times (on SIGHUP)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if gc_file is not None:
        env["BENCH_GC"] = str(gc_file)
    if stalls_file is not None:
        env["BENCH_STALLS"] = str(stalls_file)
    if profile is not None:
        env["BENCH_PROFILE"] = str(Path(profile).resolve())
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, f"sqlite:///{directory / 'bench.sqlite3'}",
         json.dumps(BENCH_SETTINGS)],
        stdout=subprocess.PIPE, text=True, env=env,
    )
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    if not port.isdigit():
        proc.kill()
        raise SystemExit(f"the server did not start: {port!r}")
    http = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(http + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.05)
    return proc, http, f"ws://127.0.0.1:{port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[100, 250, 500, 1000],
                        help="people at each step of the ramp (default 100 250 500 1000)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a person thinks (0.5-1.5 times it; default 1.0)")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="measured seconds per step (default 30)")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds before measuring at each step (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-deals", type=int, default=None,
                        help="end each game after this many deals (default: whole games "
                        "of pagat, to 52 points; short games try the rematches)")
    parser.add_argument("--batch", action=argparse.BooleanOptionalAction, default=True,
                        help="the people ask for batched updates, one frame per burst, as "
                        "the browser app does (default); --no-batch: every update alone, "
                        "as clients before batches")
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="write a CPU profile (cProfile on time.thread_time) of the "
                        "server's loop thread over the last step's measured seconds to FILE "
                        "(read it with pstats; the profiler slows Python code, so that "
                        "step's other figures are not comparable)")
    parser.add_argument("--threads", action="store_true",
                        help="print each server thread's user and system CPU per person move")
    parser.add_argument("--gc", action="store_true",
                        help="print the server's garbage collections and their CPU per "
                        "person move, per generation (timed in the server by gc.callbacks)")
    parser.add_argument("--stalls", action="store_true",
                        help="find where the tail comes from: print the server loop's lags "
                        "of 50 ms or more (a 5 ms sleep that woke late) with the garbage "
                        "collections inside them, what the loop did in each (messages, "
                        "frames, pings, settled commits: chicago.server.loop_census) and "
                        "its stack samples, the clients' own lags and collections, "
                        "and how many slow person moves each explains")
    parser.add_argument("--client-gc", choices=CLIENT_GC, default="off",
                        help="the clients' own garbage collector once each step's people are "
                        "seated: off (default; frozen and off, so that their collections do "
                        "not send the people's acts in clumps), freeze (frozen only), default "
                        "(untouched, as before 2026-12-07)")
    parser.add_argument("--set", metavar="NAME=JSON", action="append", default=[],
                        help="a server setting of this run (Settings' field name, the value "
                        "as JSON), e.g. --set gc_scan_by_load=false; repeatable")
    args = parser.parse_args(argv)
    for item in args.set:
        name, _, value = item.partition("=")
        BENCH_SETTINGS[name] = json.loads(value)
    steps = sorted(set(args.clients))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"table server load: one person (a websocket client in this process, thinking "
          f"{args.think * 0.5:g}-{args.think * 1.5:g} s, "
          f"{'batched' if args.batch else 'unbatched'} updates) and three basic bots per "
          "table; one "
          f"server process on SQLite; {args.warmup:g} s warm-up and {args.seconds:g} s "
          f"measured per step; the clients' collector {args.client_gc}; CPU from /proc; "
          "load average "
          f"{os.getloadavg()[0]:.1f} at the start\n")
    print("| people | person moves/s | actions/s | act→update p50 | p99 | max | "
          "your turn again p50 | p99 | server CPU per person move | server CPU | "
          "client CPU | server RSS | games | errors | seating |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        gc_file = Path(tmp) / "collector.json" if args.gc else None
        stalls_file = Path(tmp) / "stalls.jsonl" if args.stalls else None
        proc, http, ws_base = start_server(Path(tmp), args.profile, gc_file, stalls_file)
        try:
            server = ServerProcess(proc.pid)
            rules = {} if args.max_deals is None else {"max_deals": args.max_deals}
            results = asyncio.run(ramp(http, ws_base, server, steps, args.think, args.warmup,
                                       args.seconds, args.seed, rules, args.batch,
                                       args.profile is not None, args.threads, gc_file,
                                       stalls_file, args.client_gc))
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    if results:
        print(f"\nserver RSS idle (no table yet): {results[0]['idle_rss']:.0f} MB; "
              f"load average {os.getloadavg()[0]:.1f} at the end")
        worst = results[-1]
        print(f"targets at {worst['people']:,} people: p99 act→update <= 100 ms: "
              f"{'met' if worst['p99'] <= 100 else 'MISSED'} ({worst['p99']:.0f} ms); "
              f"server CPU per person move <= 1 ms: "
              f"{'met' if worst['cpu_move'] <= 1 else 'MISSED'} ({worst['cpu_move']:.2f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
