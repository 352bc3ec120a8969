"""CPU time of the table server's writer thread when each write comes alone, after a pause.

At low load each person move is one commit of its own, and the writer thread sleeps between
them (docs/SERVER.md, "Load on one worker", twelfth pass). This drives the group writer
(:class:`chicago.server.writer.GroupWriter`) on a SQLite file as the server does then: one
change (a person's action and three bots' replies: four ``act`` entries and the table row's
update, as ``bench_store_writes.py`` makes them), then ``--gap`` milliseconds with the loop
idle, and so on. It prints the CPU per change of

- the writer thread (from ``/proc/self/task/<id>/schedstat``), changes back to back and with
  the gap between them;
- :meth:`Store.write` called directly in this thread (``time.thread_time``), back to back and
  with the gap spent asleep:

so the thread's own cost (its wake-up and the hand-back to the loop) is the difference of
the thread and the direct call with the same gap, and the cost of writing cold (after other
work or other programs ran) the difference of a gap and none. Medians of ``--runs`` runs.
Compare two versions by running it with each on ``PYTHONPATH``, interleaved.

    python benchmarks/bench_writer_idle.py --changes 1000 --gap 2 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable

from bench_store_writes import Moves, _setup
from chicago.server.storage import Store
from chicago.server.writer import GroupWriter


def _task_cpu_ns(native_id: int) -> int:
    """A thread's CPU time so far (ns), as the scheduler counts it."""
    with open(f"/proc/self/task/{native_id}/schedstat") as stat:
        return int(stat.read().split()[0])


async def _through_writer(store: Store, moves: Moves, changes: int, gap: float) -> float:
    """µs of the writer thread's CPU per change, ``gap`` seconds between changes."""
    writer = GroupWriter(store)
    writer.start()
    await writer.commit(moves.next())  # the thread runs: measure from here
    thread = writer._thread  # its id, to read its CPU time
    assert thread is not None and thread.native_id is not None
    start = _task_cpu_ns(thread.native_id)
    for _ in range(changes):
        await writer.commit(moves.next())
        if gap:
            await asyncio.sleep(gap)
    spent = _task_cpu_ns(thread.native_id) - start
    await writer.stop()
    return spent / changes / 1e3


def _direct(store: Store, moves: Moves, changes: int, gap: float) -> float:
    """µs of this thread's CPU per :meth:`Store.write` of one change, ``gap`` seconds asleep
    between them (not counted)."""
    spent = 0
    for _ in range(changes):
        start = time.thread_time_ns()
        store.write([moves.next()])
        spent += time.thread_time_ns() - start
        if gap:
            time.sleep(gap)
    return spent / changes / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=1000)
    parser.add_argument("--gap", type=float, default=2.0, help="milliseconds between changes")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    gap = args.gap / 1000
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{os.path.join(tmp, 'writes.sqlite3')}"
        _setup(url)
        store = Store(url)
        moves = Moves()
        ways: dict[str, Callable[[], float]] = {
            "writer thread, back to back": lambda: asyncio.run(
                _through_writer(store, moves, args.changes, 0.0)),
            f"writer thread, {args.gap:g} ms between": lambda: asyncio.run(
                _through_writer(store, moves, args.changes, gap)),
            "Store.write here, back to back": lambda: _direct(store, moves, args.changes, 0.0),
            f"Store.write here, {args.gap:g} ms asleep between": lambda: _direct(
                store, moves, args.changes, gap),
        }
        results: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.runs):
            for name, way in ways.items():
                results[name].append(way())
        store.close()
    print(f"CPU per lone change ({args.changes} changes x {args.runs} runs, SQLite; "
          f"load average {os.getloadavg()[0]:.1f})")
    print("| how | µs a change, median (runs) |\n|---|---:|")
    for name, values in results.items():
        runs = ", ".join(f"{v:.0f}" for v in values)
        print(f"| {name} | {statistics.median(values):.0f} ({runs}) |")


if __name__ == "__main__":
    main()
