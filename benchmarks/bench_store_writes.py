"""CPU time of the table server's writes of play: the group writer's batches of plain changes
(an action and its bots' replies: log rows and a table row update), stored through
SQLAlchemy's general path and on the driver's own cursor (``Store(driver_writes=...)``,
:mod:`chicago.server.storage.plain`), interleaved run by run in one process.

A batch of one change is what a move costs the writer thread when the server is not busy
(each commit holds one move); larger batches are a busy server's. CPU time of this thread
(``time.thread_time``), per change, medians of ``--runs`` runs of each path.

    python benchmarks/bench_store_writes.py
    python benchmarks/bench_store_writes.py --batch 1 4 16 --writes 1000 --runs 5
    python benchmarks/bench_store_writes.py --db postgresql://user:pw@host/db  # an empty one
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import time

from chicago import Rules
from chicago.server.storage import Change, GameRow, LogEntry, Store, TableRow

TABLES = 50
ACT = {"action": "play 5h", "by": "bot"}


def _setup(url: str) -> None:
    store = Store(url)
    store.migrate()
    rules = Rules.preset("pagat").to_dict()
    store.write([Change(
        f"t{n}", [LogEntry(1, 1, "game", None, {"number": 1, "seed": n}, 1.0)],
        new_table=TableRow(id=f"t{n}", name=f"t{n}", players=4, preset="pagat", rules=rules,
                           variations=[], seats=["open", "bot:basic", "bot:basic", "bot:basic"],
                           options={}, private=False, secret="s" * 32, status="playing",
                           open_seats=0, game=1, created_at=1.0, updated_at=1.0),
        new_game=GameRow(f"t{n}", 1, n, rules, 4, "playing", 1.0),
    ) for n in range(TABLES)])
    store.close()


class Moves:
    """The next move of each table in turn: four ``act`` entries (a person's action, three
    bots' replies) and the table row's turn columns."""

    def __init__(self) -> None:
        self.seqs = [1] * TABLES
        self.turn = itertools.cycle(range(TABLES))

    def next(self) -> Change:
        table = next(self.turn)
        seq = self.seqs[table]
        self.seqs[table] = seq + 4
        entries = [LogEntry(seq + i, 1, "act", i, ACT, 2.0) for i in range(1, 5)]
        return Change(f"t{table}", entries,
                      table_updates={"to_act": 0, "turn_at": 2.0, "updated_at": 2.0})


def _run(store: Store, moves: Moves, batch: int, writes: int) -> float:
    """µs of this thread's CPU per change."""
    batches = [[moves.next() for _ in range(batch)] for _ in range(writes // batch)]
    start = time.thread_time()
    for changes in batches:
        store.write(changes)
    return (time.thread_time() - start) / (len(batches) * batch) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 2, 8],
                        help="changes per write (default 1 2 8)")
    parser.add_argument("--writes", type=int, default=1000, help="changes a run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", help="an empty database (default: a SQLite file)")
    args = parser.parse_args()
    url = args.db or f"sqlite:///{tempfile.mkdtemp()}/writes.sqlite3"
    _setup(url)
    stores = {"SQLAlchemy": Store(url, driver_writes=False), "driver": Store(url)}
    moves = Moves()
    for store in stores.values():  # warm: statements made and cached, connections open
        _run(store, moves, 1, 100)
    print(f"writes of play, CPU µs per change (this thread), {args.runs} interleaved runs of "
          f"{args.writes} changes; {url.split(':')[0]}; load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| changes a write | SQLAlchemy | driver's cursor | ratio |")
    print("|---:|---:|---:|---:|")
    for batch in args.batch:
        times: dict[str, list[float]] = {name: [] for name in stores}
        for _ in range(args.runs):
            for name, store in stores.items():
                times[name].append(_run(store, moves, batch, args.writes))
        general, driver = (statistics.median(times[n]) for n in stores)
        print(f"| {batch} | {general:.0f} ({min(times['SQLAlchemy']):.0f}-"
              f"{max(times['SQLAlchemy']):.0f}) | {driver:.0f} ({min(times['driver']):.0f}-"
              f"{max(times['driver']):.0f}) | {general / driver:.2f} |")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    for store in stores.values():
        store.close()


if __name__ == "__main__":
    main()
