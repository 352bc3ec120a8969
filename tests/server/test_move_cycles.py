"""A person's move at a warmed table leaves no cyclic garbage (issue 28, forty-seventh pass).

``Settings.gc_young_scans_below`` (500 tables by default) lets a busy server's young
collections freeze a move's objects unscanned, relying on this: what a move makes (its
change and entries, the games of its preview, the bots' views and replies, the frames, the
tasks and futures of the loop) is freed by reference counting alone once the move is done,
so a collection that did not look at it loses nothing. The table manager is driven as the
server drives it (a real SQLite store and its writer, the in-process bus, a client of the
person's seat), with the collector off, and a full collection afterwards must find nothing.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
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
    """The person's client: the frames tell it when its seat may act (or a pause waits
    for it); :meth:`move` makes one move and waits until the seat may act again."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.batched = False
        self.legal: list[str] = []
        self.paused_for_me = False
        self.seq = 0
        self.ready = asyncio.Event()

    def send(self, text: str) -> None:
        frame = json.loads(text)
        self.seq = frame.get("seq", self.seq)
        state = frame.get("view") or frame.get("state")
        if state:
            self.legal = state["legal_actions"]
        if "pause" in frame or "table" in frame:
            pause = frame["pause"] if "pause" in frame else frame["table"]["pause"]
            self.paused_for_me = pause is not None and self.seat in pause["waiting"]
        if self.legal or self.paused_for_me:
            self.ready.set()

    def close(self, code: int = 1000, reason: str = "") -> None:
        pass

    async def move(self, manager: TableManager, table: LiveTable, rng: random.Random) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            if self.paused_for_me:
                self.paused_for_me = False
                await manager.continue_deal(table, self.seat)
                continue
            if self.legal:
                legal, self.legal = self.legal, []
                await manager.act(table, self.seat, rng.choice(legal), self.seq)
                return


def _moves_garbage(tmp_path: Path, warm: int, moves: int) -> tuple[int, list[str]]:
    """Cyclic garbage objects (and their types) left by ``moves`` person moves after
    ``warm`` ones, with the collector off in between."""

    async def scenario() -> tuple[int, list[str]]:
        store = Store(f"sqlite:///{tmp_path / 'cycles.sqlite3'}")
        store.migrate()
        settings = Settings(db_url="sqlite://", seed=47, bot_threads=False,
                            review_workers=0, resume_tables=False)
        manager = TableManager(store, settings, InProcessBus())
        await manager.start()
        try:
            table = await manager.create(TableSpec(
                Rules.preset("pagat"), ["open", "bot:basic", "bot:basic", "bot:basic"],
                TableOptions(deal_pause=30)))
            token, seat = await manager.join(table.id, 0, "person")
            person = Person(seat)
            await manager.hello(table, person, token, None)
            rng = random.Random(47)
            for _ in range(warm):
                await person.move(manager, table, rng)
            await person.move(manager, table, rng)
            gc.collect()
            gc.disable()
            try:
                for _ in range(moves):
                    await person.move(manager, table, rng)
                await asyncio.sleep(0)
                gc.set_debug(gc.DEBUG_SAVEALL)
                found = gc.collect()
                kinds = sorted({type(o).__qualname__ for o in gc.garbage})
            finally:
                gc.set_debug(0)
                gc.garbage.clear()
                gc.enable()
            return found, kinds
        finally:
            await manager.stop()
            store.close()

    return asyncio.run(scenario())


def test_a_move_at_a_warmed_table_leaves_no_cyclic_garbage(tmp_path: Path) -> None:
    found, kinds = _moves_garbage(tmp_path, warm=20, moves=60)
    assert found == 0, kinds


def test_the_check_sees_a_cycle_a_move_would_leave(tmp_path: Path,
                                                   monkeypatch: Any) -> None:
    """The same check fails when a move does leave a cycle (each act's table holds a
    list that holds itself)."""
    act = TableManager.act

    async def cyclic_act(self: TableManager, *args: Any, **kwargs: Any) -> Any:
        loop: list[object] = []
        loop.append(loop)
        return await act(self, *args, **kwargs)

    monkeypatch.setattr(TableManager, "act", cyclic_act)
    found, _ = _moves_garbage(tmp_path, warm=2, moves=5)
    assert found >= 5
