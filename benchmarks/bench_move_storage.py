"""CPU time of a person move's storage at the scale of the issue's target: the group writer's
batches (:meth:`chicago.server.storage.Store.write`) on a SQLite file holding ``--tables``
tables as the server stores them (real rows: a preset's rules as JSON, seats, options), each
move of a table one change of four ``act`` entries (the person's action and three bots'
replies) and the table row's turn columns, as ``decide.act`` and the bots' replies make
them.

Batches are ``plain`` (moves only: what the driver's cursor writes) or mixed: one change
of each batch is a seat taken (a ``join`` entry and the seat holder's row, as
``decide.join`` stores it) or a game's end (its record, result and names, as
``decide.act`` stores it): at 1,000 people some games end and some seats change every
second, and the batch that holds one is written through SQLAlchemy's general path. With
``--cold`` each batch comes after 8 MB of other memory was written, as after the loop's
work between two commits. It prints the CPU of this thread (``time.thread_time``) per
change, medians of ``--runs`` runs, and the cost of one action's JSON text
(:func:`chicago.server.storage.plain.compact_json`). Compare two versions by running it
with each on ``PYTHONPATH``, interleaved (docs/SERVER.md, "Load on one worker",
fifty-first pass).

    python benchmarks/bench_move_storage.py --tables 1000 --batch 1 8 32 --runs 5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import timeit
from typing import Any

from chicago import Game, Rules
from chicago.server.core.rows import SeatHolder
from chicago.server.storage import Change, GameRow, LogEntry, Store, TableRow
from chicago.server.storage.plain import compact_json

SEATS = ["open", "bot:basic", "bot:basic", "bot:basic"]
ACTIONS = ["play 5h", "play Kd", "exchange 2c 7s", "keep", "call chicago", "play Ac",
           "exchange", "play 10s"]


def _record(seed: int) -> dict[str, Any]:
    """A finished game's record (a random playout of pagat), as a game's end stores it."""
    rng = random.Random(seed)
    game = Game(Rules.preset("pagat"), 4, seed=seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.record()


class Tables:
    """``count`` stored tables and the next change of each: a move, or a game's end."""

    def __init__(self, url: str, count: int, seed: int) -> None:
        self.count = count
        self.rng = random.Random(seed)
        self.seqs = [1] * count
        self.ids = [f"{n:032x}"[-16:] + f"{seed:016x}" for n in range(count)]
        self.record = _record(seed)
        store = Store(url)
        store.migrate()
        rules = Rules.preset("pagat").to_dict()
        options = {"clock": 60, "stand_in": "basic", "bot_delay": 0.0, "deal_pause": 30}
        for start in range(0, count, 200):
            store.write([Change(
                table_id, [LogEntry(1, 1, "game", None, {"number": 1, "seed": n}, 1.0)],
                new_table=TableRow(
                    id=table_id, name=f"table {n}", players=4, preset="pagat", rules=rules,
                    variations=[], seats=SEATS, options=options, private=False,
                    secret="s" * 32, status="playing", open_seats=0, game=1, created_at=1.0,
                    updated_at=1.0, to_act=0, turn_at=1.0),
                new_game=GameRow(table_id, 1, n, rules, 4, "playing", 1.0))
                for n, table_id in enumerate(self.ids[start:start + 200], start)])
        store.close()

    def move(self) -> Change:
        """A random table's person move: four ``act`` entries and the turn columns."""
        n = self.rng.randrange(self.count)
        seq = self.seqs[n]
        self.seqs[n] = seq + 4
        at = time.time()
        entries = [LogEntry(seq + i, 1, "act", (i - 1) % 4,
                            {"action": self.rng.choice(ACTIONS),
                             "by": "player" if i == 1 else "bot"}, at)
                   for i in range(1, 5)]
        return Change(self.ids[n], entries,
                      table_updates={"to_act": 0, "turn_at": at, "updated_at": at})

    def seat_taken(self) -> Change:
        """A person takes a table's seat 0 again (a join entry, the seat holder's row)."""
        n = self.rng.randrange(self.count)
        seq = self.seqs[n]
        self.seqs[n] = seq + 1
        at = time.time()
        return Change(self.ids[n], [LogEntry(seq + 1, 1, "join", 0, {"name": f"p{seq}"}, at)],
                      holders=[SeatHolder(0, None, f"{seq:064x}")],
                      table_updates={"updated_at": at})

    def game_end(self) -> Change:
        """A move that ends its table's game: the game row finished, the table row too."""
        change = self.move()
        at = change.entries[-1].created_at
        change.table_updates.update(to_act=None, status="finished", answer_by=at + 60)
        change.game_number = 1
        change.game_updates = {"status": "finished", "finished_at": at,
                               "record": self.record, "result": self.record["result"],
                               "names": [None, "basic", "basic", "basic"]}
        return change


KINDS = ("plain", "a seat taken", "a game's end")


def _run(store: Store, tables: Tables, batch: int, kind: str, writes: int,
         cold: bool) -> float:
    """µs of this thread's CPU per change."""
    batches = []
    for _ in range(max(writes // batch, 1)):
        changes = [tables.move() for _ in range(batch)]
        if kind == "a seat taken":
            changes[len(changes) // 2] = tables.seat_taken()
        elif kind == "a game's end":
            changes[len(changes) // 2] = tables.game_end()
        batches.append(changes)
    spent = 0
    other = bytearray(8 << 20)
    for changes in batches:
        if cold:
            other[::64] = b"x" * len(other[::64])
        start = time.thread_time_ns()
        results = store.write(changes)
        spent += time.thread_time_ns() - start
        assert results == [None] * len(changes), results
    return spent / (len(batches) * batch) / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 8, 32],
                        help="changes a write (default 1 8 32)")
    parser.add_argument("--writes", type=int, default=1200, help="changes a run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold", action="store_true",
                        help="write 8 MB of other memory before each batch")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{os.path.join(tmp, 'moves.sqlite3')}"
        tables = Tables(url, args.tables, args.seed)
        store = Store(url)
        for kind in KINDS:  # warm: statements made, pages read
            _run(store, tables, 8, kind, 2000 if kind == "plain" else 200, False)
        print(f"a move's storage, CPU µs a change (this thread), {args.runs} runs of "
              f"{args.writes} changes, {args.tables} tables on SQLite"
              f"{', cold' if args.cold else ''}; load average {os.getloadavg()[0]:.1f}")
        print("| changes a write | moves alone | with a seat taken | with a game's end |")
        print("|---:|---:|---:|---:|")
        for batch in args.batch:
            times: dict[str, list[float]] = {kind: [] for kind in KINDS}
            for _ in range(args.runs):
                for kind in KINDS:
                    if kind != "plain" and batch == 1:
                        continue
                    times[kind].append(_run(store, tables, batch, kind, args.writes,
                                            args.cold))
            cells = [f"{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})" if v else "-"
                     for v in times.values()]
            print(f"| {batch} | {' | '.join(cells)} |")
        store.close()
    data = {"action": "play 5h", "by": "bot"}
    number = 100_000
    text = min(timeit.repeat(lambda: compact_json(data), number=number, repeat=3,
                             timer=time.process_time)) / number * 1e6
    print(f"one action's JSON text (compact_json): {text:.2f} µs; load average "
          f"{os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
