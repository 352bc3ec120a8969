"""The tables this process holds in memory, each kept in step with its stored log.

A table is loaded on first use (:meth:`TableCache.get`: its row and log read in a worker
thread, rebuilt by :func:`~chicago.server.core.state.build_table`), subscribed to on the bus, and
dropped when nobody has used it for ``Settings.idle_evict`` seconds, when its game is over and
its last connection here left (:meth:`TableCache.let_go`), or when its copy can no longer
follow the log. Every change goes one way:

- **write path** (:meth:`TableCache.writing`, :meth:`TableCache.store_and_publish`): hold the
  table (its lock and, with several workers, its shared writer lock, having first applied
  what the others stored), store the change through the :class:`GroupWriter`, only then apply
  it, reschedule the table's bot or clock, and publish the entries on the bus;
- **read path** (the bus handler, :meth:`TableCache.follow`): an entry from the bus is
  applied if it is the next one (another worker stored it) and its frames are sent once; a gap
  is read from the store.

So a table's memory state never runs ahead of the database (docs/SERVER.md, "The log is the
truth"; docs/SCALING.md for several workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence

from chicago.engine.game import Game
from chicago.server import fanout
from chicago.server.clock import Clock
from chicago.server.core.ports import Storage, TableBus
from chicago.server.core.rows import Change, LogEntry, merged
from chicago.server.core.state import FINISHED, build_table
from chicago.server.core.turns import BotMoves, next_turn
from chicago.server.live import LiveTable
from chicago.server.locking import TableBusy, TableLocks
from chicago.server.presence import Presence
from chicago.server.protocol import TableError
from chicago.server.schedule import TurnScheduler
from chicago.server.settings import Settings
from chicago.server.tasks import Tasks
from chicago.server.writer import GroupWriter

__all__ = ["TableCache", "plausible_id"]

log = logging.getLogger("chicago.server")


def plausible_id(table_id: str) -> bool:
    """Whether ``table_id`` could be a table id at all (else it is not looked up)."""
    return 0 < len(table_id) <= 32 and all(c.isalnum() or c in "-_" for c in table_id)


class TableCache:
    """The live tables of this process, loaded, followed and written here."""

    def __init__(self, storage: Storage, settings: Settings, *, bus: TableBus, locks: TableLocks,
                 writer: GroupWriter, scheduler: TurnScheduler, presence: Presence,
                 tasks: Tasks, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock
        self.settings = settings
        self.bus = bus
        self.locks = locks
        self.writer = writer
        self.scheduler = scheduler
        self.presence = presence
        self._tasks = tasks
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.installed: list[Callable[[LiveTable], None]] = []
        """Called for every table this process starts to hold (the club service gives it
        its ladder's ratings)."""
        self.stored: list[Callable[[LiveTable, Change, int | None], None]] = []
        """Called after each change this process stored and applied, with the seat that was
        to act before it (the notices of "Your games")."""

    def holds(self, table: LiveTable) -> bool:
        """Whether ``table`` is (still) this process's copy of its table."""
        return self.tables.get(table.id) is table

    # ------------------------------------------------------------------ in memory
    async def get(self, table_id: str, *, doing: str = "loaded") -> LiveTable | None:
        """The live table (loaded and rebuilt from the log if needed), or None if unknown.

        A stored table that cannot be rebuilt (an old schema, a bug) is logged once
        (:meth:`Storage.skip`, ``doing`` says what failed) and TableError ``internal`` (500)
        raised; a database failure is raised as it is."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not plausible_id(table_id):
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            result = await self._read(table_id, doing)
            held = self.tables.get(table_id)
            if held is not None:  # created here while it was read (resumed at start-up)
                result = held
            elif result is not None:
                result.state.grant_grace(self.clock.time(), self.settings.clock_grace)
                self.install(result, writer=False)
                if self.locks.shared:  # what was stored between the read and the subscription
                    self._tasks.spawn(self.follow(result))
            future.set_result(result)
            return result
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning
            raise
        finally:
            del self._loading[table_id]

    async def _read(self, table_id: str, doing: str) -> LiveTable | None:
        """The table rebuilt from the store (in worker threads), None if there is none."""
        try:
            loaded = await asyncio.to_thread(self.storage.load, table_id)
            if loaded is None:
                return None
            state = await asyncio.to_thread(build_table, loaded.table, loaded.entries)
            return LiveTable(state)
        except self.storage.failures:
            raise
        except Exception as exc:
            self.storage.skip(f"table {table_id}", exc, doing)
            raise TableError("internal", f"table {table_id!r} cannot be loaded: it is stored "
                             "in a form this server cannot read", 500) from exc

    def install(self, table: LiveTable, writer: bool = True) -> None:
        """Hold ``table`` (new, or just loaded): subscribe to its news, schedule its bot or
        clock (``writer``: this process stored its last change; else, with several workers,
        it waits ``Settings.takeover`` longer), work out its presence. Another copy held
        until now (loaded while this one was created) is dropped."""
        held = self.tables.get(table.id)
        if held is not None and held is not table:
            self.drop(held, 1012, "resync")
        self.tables[table.id] = table
        table.clock = self.clock
        table.sent = table.state.seq
        for listener in self.installed:
            listener(table)
        table.subscription = self.bus.subscribe(table.id, self._on_entry)
        self.scheduler.schedule(table, self.settings.takeover if self.locks.shared
                                and not writer else 0.0)
        self.presence.track(table)

    def drop(self, table: LiveTable, code: int, reason: str) -> None:
        """Forget ``table`` (it is rebuilt from the log on next use): close its connections
        with ``code`` and ``reason``, stop its timer and its bot programs."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if table.subscription is not None:
            table.subscription.close()
        self.presence.untrack(table)
        self.scheduler.cancel(table)
        for conn in list(table.conns):
            conn.close(code, reason)
        table.conns.clear()
        table.batches.clear()
        table.batch_states.clear()
        table.batch_events.clear()
        if not self._tasks.stopping:
            self.scheduler.release_bots(table)

    def let_go(self, table: LiveTable) -> None:
        """Drop a finished table (its game over and stored) that nobody here is connected
        to, at once rather than after ``Settings.idle_evict``: a rematch, a look or a new
        connection rebuilds it from the log. So the memory of finished games is given back
        as they end."""
        if (not table.conns and table.timer is None and not table.lock.locked()
                and table.state.game is not None and table.state.status == FINISHED
                and self.holds(table)):
            self.drop(table, 1000, "")

    async def resume(self) -> None:
        """Load every table in play (so their bots and clocks go on). A table that cannot be
        loaded is logged and skipped: the others are resumed all the same."""
        try:
            ids = await asyncio.to_thread(self.storage.live_table_ids)
        except Exception:
            log.exception("cannot list the tables in play to resume them")
            return
        failed = 0
        for table_id in ids:
            if self._tasks.stopping:
                return
            try:
                await self.get(table_id, doing="resumed")
            except TableError:  # logged
                failed += 1
            except Exception:
                failed += 1
                log.exception("table %s cannot be resumed; skipping it", table_id)
        if failed:
            log.error("%d of %d tables in play could not be resumed", failed, len(ids))

    async def sweep(self) -> None:
        """Forever: drop the tables nobody watched or changed for ``Settings.idle_evict``."""
        while True:
            await asyncio.sleep(min(60.0, self.settings.idle_evict))
            at = time.monotonic()
            for table in list(self.tables.values()):
                if (not table.conns and table.timer is None and not table.lock.locked()
                        and at - table.touched > self.settings.idle_evict):
                    self.drop(table, 1000, "")

    # ------------------------------------------------------------------ write path
    @contextlib.asynccontextmanager
    async def writing(self, table: LiveTable) -> AsyncIterator[None]:
        """Hold the table for a change: its in-process lock and, with several workers, its
        shared writer lock, having first applied what other workers stored meanwhile."""
        async with table.lock:
            try:
                async with self.locks.hold(table.id) as held:
                    if held.last_seq is not None and held.last_seq > table.state.seq:
                        await self.follow(table, wait=False, held=True)
                        if table.state.seq != held.last_seq or not self.holds(table):
                            raise TableError("internal", "the table could not be brought up "
                                             "to date; reconnect to resync", 503)
                    yield
            except TableBusy as exc:
                raise TableError("internal", f"{exc}; try again", 503) from None

    async def store_and_publish(
        self, table: LiveTable, change: Change, games: Sequence[Game | None] | None = None
    ) -> None:
        """Store ``change`` (its entries follow the table's seq), apply it, publish it.
        ``games``: per entry, the game after it when the caller computed it (an action).

        The caller holds the table (:meth:`writing`). On a storage failure the table is
        dropped from memory (it is rebuilt from the log on next use) and TableError
        ("internal", 503) raised.
        """
        await self.store_all(table, [(change, games)])

    async def store_all(
        self, table: LiveTable, parts: Sequence[tuple[Change, Sequence[Game | None] | None]]
    ) -> None:
        """:meth:`store_and_publish` for several changes of the table, one after the other
        (an action and the bots' replies that follow it): stored in one write, all or none
        (:func:`~chicago.server.core.rows.merged`), then each applied, told to the
        :attr:`stored` listeners and published in turn, as if stored alone (so the frames
        of each entry carry the state after it). The entries are sent as one burst
        (:func:`chicago.server.fanout.bursting`): a client that takes batches gets their
        updates in one frame."""
        change = parts[0][0] if len(parts) == 1 else merged([c for c, _ in parts])
        try:
            await self.writer.commit(change)
        except Exception as exc:
            log.error("table %s: storing seq %s failed: %s", table.id,
                      [e.seq for e in change.entries], exc)
            self.drop(table, 1011, "storage failure, reconnect to resync")
            raise TableError("internal", f"the change could not be stored ({exc})", 503) from exc
        state = table.state
        table.touched = time.monotonic()
        last = len(parts) - 1
        async with self._burst(table):  # one batch for the clients that take them
            for number, (part, games) in enumerate(parts):
                before = state.game.to_act if state.game is not None else None
                for index, entry in enumerate(part.entries):
                    state.apply(entry, games[index] if games else None)
                for listener in self.stored:
                    listener(table, part, before)
                if number == last:
                    self.scheduler.schedule(table)
                else:  # a bot's turn that the next part plays: no timer, no clock meanwhile
                    self.scheduler.cancel(table)
                for entry in part.entries:  # its frames carry the state after it
                    await self.bus.publish(table.id, entry)
        # the view of the state now is read again only by a bot deciding on it (a person's
        # action makes a new state): held for a bot's turn alone, else given back
        turn = next_turn(state, self.clock.time())
        table.views.keep(state.game if isinstance(turn, BotMoves) else None)

    @contextlib.asynccontextmanager
    async def _burst(self, table: LiveTable) -> AsyncIterator[None]:
        """Within: the entries stored are one burst, for this process's connections
        (:func:`chicago.server.fanout.bursting`) and on the bus (:meth:`TableBus.burst`:
        one message to the other workers, sent after this process's batches)."""
        async with self.bus.burst(table.id):
            with fanout.bursting(table):
                yield

    # ------------------------------------------------------------------ read path
    async def follow(self, table: LiveTable, *, wait: bool = True, held: bool = False) -> None:
        """Apply and send the entries other workers stored after the table's seq (read from the
        store). ``wait``: first wait until the bus delivers this table's news, so that
        nothing published after the read can be missed. ``held``: the caller holds the
        table's lock (:meth:`writing`); else the entries read are applied under it, so that
        a read returning this process's own change, stored but not yet applied by its write
        path, waits for that write (which applies it; the read then skips it)."""
        if not self.locks.shared or not self.holds(table):
            return
        if wait and table.subscription is not None:
            await table.subscription.ready()
        entries = await asyncio.to_thread(self.storage.entries_after, table.id, table.state.seq)
        if held:
            self._receive_all(table, entries)
            return
        async with table.lock:
            if self.holds(table):  # not dropped while it waited
                self._receive_all(table, entries)

    def _receive_all(self, table: LiveTable, entries: Sequence[LogEntry]) -> None:
        """:meth:`_receive` each of ``entries`` in turn, up to a gap."""
        for entry in entries:
            if not self._receive(table, entry):
                break

    def _receive(self, table: LiveTable, entry: LogEntry) -> bool:
        """One entry for this process's copy of the table: apply it if it is the next one
        (stored by another worker), send its frames unless sent. False on a gap."""
        state = table.state
        if entry.seq > state.seq + 1:
            return False
        if entry.seq == state.seq + 1:
            try:
                state.apply(entry)
            except Exception as exc:  # this copy cannot follow: rebuild from the log on use
                log.error("table %s: cannot apply seq %d: %s", table.id, entry.seq, exc)
                self.drop(table, 1011, "resync")
                return False
            self.scheduler.schedule(table, self.settings.takeover)
        fanout.send(table, entry)
        return True

    def _on_entry(self, table_id: str, entries: Sequence[LogEntry]) -> None:
        """Bus handler: stored entries (this process's, or another worker's to follow:
        one, or a burst's, whose updates its batched connections get in one batch)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        with fanout.bursting(table) if len(entries) > 1 else contextlib.nullcontext():
            for entry in entries:
                if not self._receive(table, entry):
                    break
            else:
                return
        if self.holds(table):
            if self.locks.shared:  # news went missing: read it from the store
                self._tasks.spawn(self.follow(table, wait=False))
            else:
                self.drop(table, 1012, "resync")
