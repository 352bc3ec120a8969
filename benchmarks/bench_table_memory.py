"""What a live table holds: its bytes split by owner, in process (issue 28, fiftieth pass).

Drives a table manager as the server does (a SQLite store and its writer, the in-process
bus, a client object at the person's seat that answers the deal pauses, three ``basic``
bots; no sockets) for ``--tables`` tables of pagat, each played ``--moves`` person moves
(a table whose game ends stops there), then prints the process's RSS per table and, for
the last table, the bytes each part of it holds: every object reachable from that part
(``gc.get_referents``, ``sys.getsizeof``) that no other table reaches, so what is shared
(modules, classes, the rules, cached texts) is not counted. The parts overlap where they
share objects (the table's ``game`` and ``current`` are one game).

    python benchmarks/bench_table_memory.py --tables 100 --moves 60
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import types
from collections import Counter
from pathlib import Path
from typing import Any

from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.tables import LiveTable, TableManager


class Person:
    """A client at the person's seat: reads the frames, plays a random legal action when
    its seat may act, answers a deal's pause."""

    def __init__(self, seat: int) -> None:
        self.seat, self.seq, self.legal, self.paused = seat, 0, [], False
        self.ready = asyncio.Event()

    def send(self, text: str) -> None:
        frame = json.loads(text)
        self.seq = frame.get("seq", self.seq)
        state = frame.get("view") or frame.get("state")
        if state:
            self.legal = state["legal_actions"]
        if "pause" in frame or "table" in frame:
            pause = frame["pause"] if "pause" in frame else frame["table"]["pause"]
            self.paused = pause is not None and self.seat in pause["waiting"]
        if self.legal or self.paused:
            self.ready.set()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Nothing to close."""

    async def move(self, manager: TableManager, table: LiveTable, rng: random.Random) -> bool:
        """One person move; False when the game is over (nothing to do)."""
        while True:
            if table.state.current.is_over:
                return False
            await self.ready.wait()
            self.ready.clear()
            if self.paused:
                self.paused = False
                await manager.continue_deal(table, self.seat)
            elif self.legal:
                legal, self.legal = self.legal, []
                await manager.act(table, self.seat, rng.choice(legal), self.seq)
                return True


_STOP = (type, types.ModuleType, types.FunctionType, types.MethodType,
         asyncio.AbstractEventLoop, TableManager)


def reach(root: object, skip: set[int]) -> dict[int, object]:
    """Every object reachable from ``root`` but those in ``skip`` (and modules, classes,
    functions, the loop and the manager, which every table shares)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in skip or isinstance(obj, _STOP):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return seen


def _parts(obj: object) -> list[tuple[str, Any]]:
    out = list(getattr(obj, "__dict__", {}).items())
    for cls in type(obj).__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            if hasattr(obj, name) and name != "__dict__":
                out.append((name, getattr(obj, name)))
    return out


def split(name: str, obj: object, shared: set[int], depth: int = 0) -> None:
    """Print the bytes each attribute of ``obj`` holds (not shared), largest first."""
    rows = []
    for key, value in _parts(obj):
        held = reach(value, shared)
        kinds = Counter(type(o).__name__ for o in held.values())
        rows.append((sum(sys.getsizeof(o) for o in held.values()), key, len(held), kinds))
    rows.sort(key=lambda r: -r[0])
    print(f"{'  ' * depth}{name}")
    for size, key, count, kinds in rows:
        if size >= 256:
            top = ", ".join(f"{k} {n}" for k, n in kinds.most_common(3))
            print(f"{'  ' * depth}  {key:16s} {size:8,d} B {count:6d} objects ({top})")


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6


async def run(tables: int, moves: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'memory.sqlite3'}")
        store.migrate()
        settings = Settings(db_url="sqlite://", seed=seed, bot_threads=False,
                            review_workers=0, resume_tables=False)
        manager = TableManager(store, settings, InProcessBus())
        await manager.start()
        rng = random.Random(seed)
        spec = TableSpec(Rules.preset("pagat"), ["open"] + ["bot:basic"] * 3,
                         TableOptions(deal_pause=30))

        async def seat() -> tuple[LiveTable, Person]:
            table = await manager.create(spec)
            token, at = await manager.join(table.id, 0, "person")
            person = Person(at)
            await manager.hello(table, person, token, None)
            return table, person

        warm, person = await seat()  # imports and caches made before the baseline
        for _ in range(moves):
            await person.move(manager, warm, rng)
        gc.collect()
        before = _rss_mb()
        played = [await seat() for _ in range(tables)]
        made = 0
        for _ in range(moves):
            for table, person in played:
                made += await person.move(manager, table, rng)
        await asyncio.sleep(0.1)
        gc.collect()
        after = _rss_mb()
        print(f"{tables} tables, {made} person moves ({made / tables:.1f} a table): RSS "
              f"{before:.1f} -> {after:.1f} MB, {(after - before) * 1e3 / tables:.1f} KB a table")
        last = played[-1][0]
        others: dict[int, object] = {}
        for table, _ in played[:-1]:
            others.update(reach(table, {id(last)}))
        mine = reach(last, set())
        shared = {key for key in mine if key in others}
        owned = sum(sys.getsizeof(o) for key, o in mine.items() if key not in shared)
        state = last.state
        print(f"the last table ({state.seq} entries in its log, {len(state.entries)} in "
              f"its game, {state.current.event_count} events): {owned:,d} B in "
              f"{len(mine) - len(shared):,d} objects of its own")
        split("LiveTable", last, shared)
        split("TableState", state, shared, 1)
        split("Game", state.current, shared, 2)
        await manager.stop()
        store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--seed", type=int, default=50)
    args = parser.parse_args(argv)
    asyncio.run(run(args.tables, args.moves, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
