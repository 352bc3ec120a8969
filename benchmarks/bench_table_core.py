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
cProfile of one more run (CPU time of the loop's thread); ``--parts`` times the parts of a
person move in one more run instead (:class:`Parts`: each part's calls and CPU a person
move, the young collections and what they scan), with a timer's cost per timed call but
not a profiler's per call of everything.
``--warm N`` lets every table play N person moves first, unmeasured, so that the moves
measured are those of games under way (a game's log grows as it goes on) rather than of
their first deals. Compare two versions by running it with each on ``PYTHONPATH``,
interleaved.

    python benchmarks/bench_table_core.py --tables 200 --moves 3000 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import gc
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
               batch: bool, think: float = 0.0, warm: int = 0,
               parts: Parts | None = None) -> tuple[int, float]:
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
    if parts is not None:
        parts.on = True
    if not warm:
        await _hellos(manager, people, batch)
    await _until(driver, moves)
    if parts is not None:
        parts.on = False
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


PARTS: list[tuple[str, str]] = [
    ("chicago.server.core.decide", "act"),
    ("chicago.engine.game", "Game.copy"),
    ("chicago.engine.game", "Game.apply"),
    ("chicago.server.core.state", "TableState.apply"),
    ("chicago.server.schedule", "TurnScheduler.decide"),
    ("chicago.server.views", "PublicViews.seat_view"),
    ("chicago.server.views", "PublicViews.public_text"),
    ("chicago.server.fanout", "send"),
    ("chicago.server.fanout", "flush"),
    ("chicago.server.protocol", "dumps_with_states"),
]
"""The parts of a person move that ``--parts`` times (module, attribute; a dotted attribute
is a class's method; a coroutine function is timed over its whole run, awaits included,
so only where it awaits nothing long: a quick bot's decision). Parts nest: a reply's
``act`` holds its ``Game.copy`` and ``Game.apply``, ``flush`` the people's own reading of
their frames (the run's ``people`` figure). Parts missing from the version measured are
left out."""


class Parts:
    """Timers of :data:`PARTS` on the loop thread's CPU clock (``time.thread_time``,
    inclusive), and of the young collections (a ``gc.callbacks`` hook: their number, CPU,
    and the objects the youngest generation holds when one starts, read at every fifth),
    while :attr:`on`. Each timed call costs about 2.5-3 µs more (two reads of the thread's
    CPU clock, a system call each; measured on this project's 2-core machine under load),
    some 0.1-0.2 ms a person move in all: a part's figure holds that cost once for itself
    and once for each timed part inside it."""

    def __init__(self) -> None:
        self.on = False
        self.cpu: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()
        self.young = 0
        self.young_cpu = 0.0
        self.scanned: list[int] = []
        self._started = 0.0
        self._undo: list[tuple[Any, str, Any]] = []

    def install(self) -> None:
        """Wrap the parts and hook the collector."""
        import importlib
        for module_name, dotted in PARTS:
            owner: Any = importlib.import_module(module_name)
            *outer, name = dotted.split(".")
            for attribute in outer:
                owner = getattr(owner, attribute, None)
            if owner is None or not hasattr(owner, name):
                continue
            original = inspect.getattr_static(owner, name)
            function = getattr(owner, name)
            self._undo.append((owner, name, original))
            setattr(owner, name, self._timed(dotted, function))
        gc.callbacks.insert(0, self._collected)

    def remove(self) -> None:
        """Unwrap the parts and unhook the collector."""
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)

    def _timed(self, label: str, function: Any) -> Any:
        clock = time.thread_time
        if inspect.iscoroutinefunction(function):
            async def timed_coroutine(*args: Any, **kwargs: Any) -> Any:
                if not self.on:
                    return await function(*args, **kwargs)
                start = clock()
                try:
                    return await function(*args, **kwargs)
                finally:
                    self.cpu[label] += clock() - start
                    self.calls[label] += 1
            return timed_coroutine

        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return function(*args, **kwargs)
            start = clock()
            try:
                return function(*args, **kwargs)
            finally:
                self.cpu[label] += clock() - start
                self.calls[label] += 1
        return timed

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        if not self.on or info["generation"] != 0:
            return
        if phase == "start":
            self.young += 1
            if self.young % 5 == 0:
                self.scanned.append(len(gc.get_objects(0)))
            self._started = time.thread_time()
        else:
            self.young_cpu += time.thread_time() - self._started

    def report(self, moves: int, ms: float) -> str:
        """The figures per person move of a run of ``moves`` moves at ``ms`` a move."""
        lines = [f"parts of a person move ({moves} moves, {ms:.3f} ms a move with the "
                 "timers; inclusive, nested parts counted in each):"]
        for label, _ in sorted(self.cpu.items(), key=lambda item: -item[1]):
            calls = self.calls[label]
            lines.append(f"  {label}: {calls / moves:.2f} a move, "
                         f"{self.cpu[label] * 1e6 / calls:.1f} us a call, "
                         f"{self.cpu[label] * 1e6 / moves:.1f} us a move")
        scanned = statistics.median(self.scanned) if self.scanned else 0
        lines.append(f"  young collections: {self.young / moves:.3f} a move (one every "
                     f"{moves / max(1, self.young):.1f} moves), "
                     f"{self.young_cpu * 1e6 / max(1, self.young):.0f} us each, "
                     f"{self.young_cpu * 1e6 / moves:.1f} us a move; objects in the "
                     f"youngest generation when one starts, median {scanned:.0f}")
        return "\n".join(lines)


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
        batch: bool = BATCHES, think: float = 0.0, warm: int = 0,
        parts: Parts | None = None) -> float:
    """One run: CPU ms per person move (``batch``: the people take batched updates;
    ``think``: the mean seconds a person waits before acting; ``warm``: person moves per
    table played before the measured ones, not counted; ``parts``: timed while measured,
    its report printed)."""
    with tempfile.TemporaryDirectory() as tmp:
        if parts is not None:
            parts.install()
        try:
            done, cpu = asyncio.run(_run(Path(tmp) / "bench.sqlite3", tables, moves, profile,
                                         batch and BATCHES, think, warm, parts))
        finally:
            if parts is not None:
                parts.remove()
    ms = cpu * 1000 / done
    if parts is not None:
        print(parts.report(done, ms))
    return ms


def main() -> None:
    """Run the benchmark and print the CPU per person move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", type=Path, help="write a cProfile of one more run here")
    parser.add_argument("--parts", action="store_true",
                        help="time the parts of a person move in one more run (see Parts)")
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
    if args.parts:
        run(args.tables, args.moves, batch=batch, think=args.think, warm=args.warm,
            parts=Parts())
    if args.profile is not None:
        profile = cProfile.Profile(time.thread_time)
        run(args.tables, args.moves, profile, batch, args.think, args.warm)
        profile.dump_stats(str(args.profile))


if __name__ == "__main__":
    main()
