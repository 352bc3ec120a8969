"""The read path and the write path of one table, interleaved (several workers).

A worker that loads a table reads what was stored after its copy (``TableCache.follow``,
in a worker thread, without the table's lock). One worker with ``--redis`` once logged
"table task failed ... RuntimeError: table X: entry 3 after 5" (docs/SCALING.md, "The read
path waits for the writer"): its read returned entries that the worker itself had just
committed, and applied them while the write path, between its commit and its apply, still
held them; the write path's own apply then found the table ahead of it. The interleaving is
forced here with events, on a SQLite store and in-process locks that say they are shared.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from table_waits import until_table

from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core.decide import TableSpec
from chicago.server.core.rows import Change, LogEntry
from chicago.server.core.seats import TableOptions
from chicago.server.core.state import TableState
from chicago.server.locking import Held
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.tables import TableManager

LIMIT = 60.0
"""Seconds a thread waits for the test's go-ahead: a bound for a hang, not a pace."""


class _GatedStore(Store):
    """A store whose next read of entries (when :attr:`gate_read` is set) says so and waits
    for :attr:`read_go`, and whose next write (when :attr:`gate_write` is set) lets that
    read go once it is committed, then waits for :attr:`write_go` before reporting back."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate_read = self.gate_write = False
        self.reading, self.read_go = threading.Event(), threading.Event()
        self.write_go = threading.Event()
        self.write_held = False

    def entries_after(self, table_id: str, seq: int) -> list[LogEntry]:
        if self.gate_read:
            self.gate_read = False
            self.reading.set()
            self.read_go.wait(LIMIT)
        return super().entries_after(table_id, seq)

    def last_seq(self, table_id: str) -> int:
        return super().entries_after(table_id, 0)[-1].seq

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        results = super().write(changes)
        if self.gate_write:
            self.gate_write = False
            self.write_held = True
            self.read_go.set()
            self.write_go.wait(LIMIT)
            self.write_held = False
        return results


class _SharedLocks:
    """Locks that say other workers may write (so a loaded table is followed), held by
    this process alone; ``last_seq`` read from the store as the advisory locks do."""

    shared = True

    def __init__(self, store: _GatedStore) -> None:
        self.store = store

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[Held]:
        yield Held(self.store.last_seq(table_id))

    async def close(self) -> None:
        pass


class _TellingLock(asyncio.Lock):
    """A table lock that sets :attr:`contended` when someone waits for it."""

    def __init__(self) -> None:
        super().__init__()
        self.contended = asyncio.Event()

    async def acquire(self) -> bool:
        if self.locked():
            self.contended.set()
        return await super().acquire()


def _settings(url: str) -> Settings:
    return Settings(db_url=url, seed=7, bot_threads=False, review_workers=0,
                    resume_tables=False)


def test_a_read_that_returns_the_writers_own_entries_waits_for_the_writer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table is loaded on a worker (its read of later entries held in its thread); the
    person acts there, and the read is let go only once the act is committed, so it
    returns the act and the bots' replies while the write path has not applied them yet.
    The read must not apply them under the writer (on main it did, and the act failed
    with "entry N after M"): the act succeeds, every entry is applied once, in order, and
    the table stays held (not dropped for a resync)."""
    url = f"sqlite:///{tmp_path / 'race.db'}"

    Store(url).migrate()

    async def scenario() -> dict[str, Any]:
        first = TableManager(Store(url), _settings(url), InProcessBus())
        await first.start()
        made = await first.create(TableSpec(
            Rules.preset("pagat"), ["open", "bot:basic", "bot:basic", "bot:basic"],
            TableOptions(bot_delay=0)))
        await first.join(made.id, 0, "p0")
        await until_table(first, made.id, lambda: made.state.current.to_act == 0)
        await first.stop()

        store = _GatedStore(url)
        second = TableManager(store, _settings(url), InProcessBus(),
                              locks=_SharedLocks(store))  # type: ignore[arg-type]
        await second.start()
        try:
            store.gate_read = True
            table = await second.get(made.id)
            assert table is not None and table.state.current.to_act == 0
            lock = table.lock = _TellingLock()
            applied_meanwhile = asyncio.Event()
            state = table.state
            apply = TableState.apply

            def watched_apply(self: TableState, entry: LogEntry, game: Any = None) -> None:
                if self is state and store.write_held:  # the writer waits for its commit
                    applied_meanwhile.set()
                apply(self, entry, game)

            monkeypatch.setattr(TableState, "apply", watched_apply)
            await asyncio.to_thread(store.reading.wait, LIMIT)  # the follow reads
            store.gate_write = True
            before = table.state.seq
            acting = asyncio.create_task(second.act(
                table, 0, str(table.state.current.legal_actions()[0])))
            # the write is committed and the read let go: it applies what it read at
            # once (the defect), or waits for the table's lock (held by the act)
            waits = [asyncio.create_task(e.wait()) for e in (applied_meanwhile,
                                                              lock.contended)]
            async with asyncio.timeout(LIMIT):
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for wait in waits:
                wait.cancel()
            store.write_go.set()
            error = None
            try:
                await acting
            except RuntimeError as exc:
                error = str(exc)
            async with lock:  # the follow, if it waited, is done with the table after this
                pass
            stored = [e.seq for e in store.entries_after(made.id, before)]
            return {"error": error, "meanwhile": applied_meanwhile.is_set(),
                    "stored": stored, "applied": [e.seq for e in table.state.entries
                                                  if e.seq > before],
                    "seq": table.state.seq, "held": second.cache.holds(table)}
        finally:
            store.read_go.set()
            store.write_go.set()
            await second.stop()

    got = asyncio.run(scenario())
    assert got["error"] is None and not got["meanwhile"]
    assert len(got["stored"]) >= 2  # the act and at least one bot's reply
    assert got["applied"] == got["stored"] and got["seq"] == got["stored"][-1]
    assert got["held"]
