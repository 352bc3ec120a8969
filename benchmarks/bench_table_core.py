"""The table server's work per person move in one process, without sockets.

``bench_server.py`` measures the whole server from another process; this drives the same
tables through the server's own table manager (:class:`chicago.server.tables.TableManager`
on a SQLite file, the writer thread and the in-process bus, as ``chicago serve`` has them)
with clients in the same process that take the frames as text, as a websocket would be
given them: one person per table of three ``basic`` bots, acting at once with a random
legal action when its seat is to act, answering a deal's pause with Continue and asking for
a rematch at the game's end. The people take batched updates (one ``batch`` frame per
person's move with the bots' replies) where the server offers them, unless ``--plain``.
Everything of a person's move is in it (the action decided and
stored with the bots' replies, their views and decisions, the frames built and encoded)
except the websocket and HTTP layers; the garbage collector is tuned as ``chicago serve``
tunes it.

It prints the CPU time (``time.process_time``, the writer thread included) per person move,
for each of ``--runs`` runs of ``--moves`` person moves at ``--tables`` tables, the
frames and kilobytes of JSON a person was sent per move, and how much of the CPU per move
the people themselves took (decoding their frames and answering: a client's work, which a
real server does not do); ``--profile FILE`` writes a
cProfile of one more run (CPU time of the loop's thread). ``--warm N`` lets every table
play N person moves first, unmeasured, so that the moves measured are those of games under
way (a game's log grows as it goes on) rather than of their first deals. Compare two
versions by running it with each on ``PYTHONPATH``, interleaved.

    python benchmarks/bench_table_core.py --tables 200 --moves 3000 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import inspect
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions
from chicago.server.live import LiveTable
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage.store import Store
from chicago.server.tables import TableManager

try:
    from chicago.server.gc_tuning import tune_for_serving
except ImportError:  # a server from before the collector's tuning
    tune_for_serving = None  # type: ignore[assignment]

SEATS = ["open", "bot:basic", "bot:basic", "bot:basic"]
BATCHES = "batch" in inspect.signature(TableManager.hello).parameters
"""Whether this server offers batched updates (a client says so in hello)."""
SENT: list[tuple[float, float]] = []
"""Per run: the frames and the characters of JSON a person was sent per move."""
CLIENTS: list[float] = []
"""Per run: the CPU ms per move the in-process people took (reading frames, answering)."""
STALL = 60.0
"""Seconds without a person's move after which a run fails (the tables stalled)."""


class Person:
    """A client of one seat that acts at once when its seat is to act (the frames'
    ``legal_actions``), answers a deal's pause and asks for a rematch."""

    def __init__(self, driver: Driver, table: LiveTable, seat: int, seed: int) -> None:
        self.driver, self.table, self.seat = driver, table, seat
        self.rng = random.Random(seed)
        self.legal: list[str] = []
        self.paused = False
        self.batched = False  # the manager's hello sets it

    def send(self, text: str) -> None:
        start = time.thread_time()
        try:
            self._take(text)
        finally:
            self.driver.client_cpu += time.thread_time() - start

    def _take(self, text: str) -> None:
        self.driver.frames += 1
        self.driver.chars += len(text)
        frame = json.loads(text)
        if frame["type"] == "batch":  # its last update has the state
            frame = frame["updates"][-1]
        kind = frame["type"]
        if kind == "game_over":
            self.driver.spawn(self.driver.manager.rematch, self.table, self.seat)
            return
        state = frame.get("view") or frame.get("state")
        if state is not None:
            self.legal = state["legal_actions"]
        pause = frame["table"]["pause"] if "table" in frame else frame.get("pause")
        if "pause" in frame or "table" in frame:
            self.paused = pause is not None
            if pause is not None and self.seat in pause["waiting"]:
                self.driver.spawn(self.driver.manager.continue_deal, self.table, self.seat)
        if state is not None and self.legal and not self.paused:
            self.driver.spawn(self.driver.manager.act, self.table, self.seat,
                              self.rng.choice(self.legal), frame["seq"], move=True,
                              after=self.driver.think * (0.5 + self.rng.random()))

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Nothing to close."""


class Driver:
    """The manager, its tables and their people."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.moves = 0
        self.refused = 0
        self.frames = 0
        """Frames the people were sent (and their characters, below)."""
        self.chars = 0
        self.client_cpu = 0.0
        """CPU seconds the people took to read their frames and answer (the clients' part
        of the run, not the server's: a browser does it on its own machine)."""
        self.pending: set[asyncio.Task[None]] = set()
        self.think = 0.0
        """Mean seconds a person waits before acting (0: at once; see ``--think``)."""

    def spawn(self, request: Any, *args: Any, move: bool = False, after: float = 0.0) -> None:
        """Make a request as a task; ``move``: a person's action, counted once accepted;
        ``after``: seconds the task first sleeps (a person thinking)."""
        async def run() -> None:
            if after > 0:
                await asyncio.sleep(after)
            try:
                await request(*args)
            except TableError:
                self.refused += 1
            else:
                if move:
                    self.moves += 1

        task = asyncio.get_running_loop().create_task(run())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)


async def _run(db: Path, tables: int, moves: int, profile: cProfile.Profile | None,
               batch: bool, think: float = 0.0, warm: int = 0) -> tuple[int, float]:
    store = Store(f"sqlite:///{db}")
    store.migrate()
    settings = Settings(db_url=f"sqlite:///{db}", seed=1, review_workers=0,
                        resume_tables=False, create_rate=1e6, create_burst=1_000_000,
                        max_waiting_per_address=1_000_000, max_waiting=1_000_000,
                        max_running_tables=1_000_000)
    manager = TableManager(store, settings, InProcessBus())
    await manager.start()
    if tune_for_serving is not None:
        tune_for_serving()  # as chicago serve does once started
    driver = Driver(manager)
    driver.think = think
    people = []
    for number in range(tables):
        table = await manager.create(TableSpec(Rules.preset("pagat"), SEATS, TableOptions()))
        token, seat = await manager.join(table.id, 0, f"p{number}")
        people.append((table, token, Person(driver, table, seat, number)))
    driver.moves = driver.frames = driver.chars = 0
    driver.client_cpu = 0.0
    if warm:  # the tables play on until they are where a server's tables are: mid-game
        await _hellos(manager, people, batch)
        await _until(driver, warm * tables)
        driver.moves = driver.frames = driver.chars = 0
        driver.client_cpu = 0.0
    start = time.process_time()
    if profile is not None:
        profile.enable()
    if not warm:
        await _hellos(manager, people, batch)
    await _until(driver, moves)
    if profile is not None:
        profile.disable()
    cpu = time.process_time() - start
    done = driver.moves
    SENT.append((driver.frames / done, driver.chars / done))
    CLIENTS.append(driver.client_cpu * 1000 / done)
    await manager.stop()
    for task in list(driver.pending):
        task.cancel()
    return done, cpu


async def _hellos(manager: TableManager, people: list[tuple[LiveTable, str, Person]],
                  batch: bool) -> None:
    """Each person connects (and so starts acting)."""
    for table, token, person in people:
        if batch:
            await manager.hello(table, person, token, None, True)
        else:
            await manager.hello(table, person, token, None)


async def _until(driver: Driver, moves: int) -> None:
    """Wait until the people have made ``moves`` moves (counted from the driver's last
    reset)."""
    seen, still = 0, time.monotonic()
    while driver.moves < moves:
        await asyncio.sleep(0.01)
        if driver.moves > seen:
            seen, still = driver.moves, time.monotonic()
        elif time.monotonic() - still > STALL:
            raise RuntimeError(f"no person moved for {STALL:.0f} s ({driver.refused} refused)")


def run(tables: int, moves: int, profile: cProfile.Profile | None = None,
        batch: bool = BATCHES, think: float = 0.0, warm: int = 0) -> float:
    """One run: CPU ms per person move (``batch``: the people take batched updates;
    ``think``: the mean seconds a person waits before acting; ``warm``: person moves per
    table played before the measured ones, not counted)."""
    with tempfile.TemporaryDirectory() as tmp:
        done, cpu = asyncio.run(_run(Path(tmp) / "bench.sqlite3", tables, moves, profile,
                                     batch and BATCHES, think, warm))
    return cpu * 1000 / done


def main() -> None:
    """Run the benchmark and print the CPU per person move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", type=Path, help="write a cProfile of one more run here")
    parser.add_argument("--plain", action="store_true",
                        help="the people take every update alone (as clients before batches)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a person waits before acting (0.5-1.5 times it), "
                        "as bench_server.py's people do: each move then comes alone to a "
                        "loop that had nothing to do (default 0: every table at once)")
    parser.add_argument("--warm", type=int, default=0,
                        help="person moves per table played before the measured ones, not "
                        "counted (default 0: the tables' first moves are measured, early in "
                        "their games; a pagat game of one person and three basic bots is "
                        "about 110 person moves)")
    args = parser.parse_args()
    batch = BATCHES and not args.plain
    per_move = [run(args.tables, args.moves, batch=batch, think=args.think, warm=args.warm)
                for _ in range(args.runs)]
    paced = f", thinking {args.think:g} s" if args.think else ""
    paced += f", after {args.warm} moves a table" if args.warm else ""
    print(f"server work per person move in process ({args.tables} tables{paced}, {args.moves} "
          f"moves x {args.runs} runs, {'batched' if batch else 'unbatched'} updates, "
          f"CPU time, load average {os.getloadavg()[0]:.1f}): "
          f"median {statistics.median(per_move):.3f} ms (runs: "
          f"{', '.join(f'{x:.3f}' for x in per_move)}); sent a person per move: "
          f"{statistics.median(f for f, _ in SENT):.2f} frames, "
          f"{statistics.median(c for _, c in SENT) / 1000:.1f} kB; of the CPU per move, "
          f"the people's own (decoding the frames, answering) median "
          f"{statistics.median(CLIENTS):.3f} ms")
    if args.profile is not None:
        profile = cProfile.Profile(time.thread_time)
        run(args.tables, args.moves, profile, batch, args.think, args.warm)
        profile.dump_stats(str(args.profile))


if __name__ == "__main__":
    main()
