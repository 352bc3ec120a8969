"""Presence: which seats of a table are connected, worked out in one place and told to the
table's clients (``presence`` frames) when it changes.

A seat is connected when it is a bot's, or a person's with an open connection: to this
process, or (several workers) to another worker that said so on the table's presence channel
of the bus in the last :data:`PRESENCE_TTL` seconds. Presence is never stored: each worker
tells the others which seats are connected to it when that changes, every
:data:`PRESENCE_EVERY` seconds, and when it starts to hold a table (asking them to do the
same). The result is kept in :attr:`TableState.connected`, which table infos and frames read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from chicago.server.core import frames
from chicago.server.core.ports import PresenceNote, Subscription, TableBus
from chicago.server.fanout import broadcast
from chicago.server.live import LiveTable
from chicago.server.tasks import Tasks

__all__ = ["PRESENCE_EVERY", "PRESENCE_TTL", "Presence"]

PRESENCE_EVERY = 10.0
"""With several workers: seconds between a worker's presence notes for the tables its
clients watch."""
PRESENCE_TTL = 3 * PRESENCE_EVERY
"""Seconds after which another worker's presence note no longer counts (it died)."""


class Presence:
    """Who is connected at the tables this process holds.

    ``shared``: other workers serve the same tables (then notes go over the bus); ``worker``:
    this process's id in its notes.
    """

    def __init__(self, bus: TableBus, tasks: Tasks, *, shared: bool, worker: str) -> None:
        self.bus = bus
        self.shared = shared
        self.worker = worker
        self._tasks = tasks
        self._held: dict[str, tuple[LiveTable, Subscription | None]] = {}
        self.listeners: list[Callable[[LiveTable], None]] = []
        """Called when this process's connections of a table changed (who is online,
        :mod:`chicago.server.together.online`)."""

    @staticmethod
    def connected(table: LiveTable, at: float) -> list[bool]:
        """Per seat, at monotonic time ``at``: a bot, or a person connected here or at another
        worker whose note is not older than :data:`PRESENCE_TTL`."""
        people = {c.seat for c in table.conns}
        for heard, seats in table.remote.values():
            if at - heard <= PRESENCE_TTL:
                people |= seats
        return [s.kind == "bot" or i in people for i, s in enumerate(table.state.seats)]

    def refresh(self, table: LiveTable) -> None:
        """Work presence out again; when it changed, keep it and tell the table's clients."""
        connected = self.connected(table, time.monotonic())
        if connected != table.state.connected:
            table.state.connected = connected
            broadcast(table, frames.presence(table.state))

    # ------------------------------------------------------------------ tables held
    def track(self, table: LiveTable) -> None:
        """This process now holds ``table``: work its presence out; with several workers,
        listen to the others' notes and ask them who is connected to them."""
        subscription = None
        if self.shared:
            subscription = self.bus.subscribe_presence(
                table.id, lambda _id, note: self._heard(table, note))
        self._held[table.id] = (table, subscription)
        self.refresh(table)
        if self.shared:
            self._tasks.spawn(self._announce(table, ask=True))

    def untrack(self, table: LiveTable) -> None:
        """This process no longer holds ``table``."""
        held = self._held.get(table.id)
        if held is not None and held[0] is table:
            del self._held[table.id]
            if held[1] is not None:
                held[1].close()

    def changed(self, table: LiveTable) -> None:
        """This process's connections of ``table`` changed (a hello, a connection closed)."""
        if self.shared:
            self._tasks.spawn(self._announce(table))
        self.refresh(table)
        for listener in self.listeners:
            listener(table)

    # ------------------------------------------------------------------ other workers
    async def _announce(self, table: LiveTable, ask: bool = False) -> None:
        """Tell the other workers which seats of ``table`` are connected here (``ask``: and
        ask them to say the same; first waits until their answers will reach us)."""
        held = self._held.get(table.id)
        if ask and held is not None and held[1] is not None:
            await held[1].ready()
        seats = frozenset(c.seat for c in table.conns if c.seat is not None)
        await self.bus.publish_presence(table.id, PresenceNote(self.worker, seats, ask))

    def _heard(self, table: LiveTable, note: PresenceNote) -> None:
        if note.worker == self.worker:
            return
        if note.seats:
            table.remote[note.worker] = (time.monotonic(), note.seats)
        else:
            table.remote.pop(note.worker, None)
        if note.ask and table.conns:
            self._tasks.spawn(self._announce(table))
        self.refresh(table)

    async def run(self) -> None:
        """With several workers: repeat this worker's notes for the tables its clients
        watch, and forget what dead workers said (after :data:`PRESENCE_TTL`)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            at = time.monotonic()
            for table, _ in list(self._held.values()):
                if table.conns:
                    await self._announce(table)
                stale = [w for w, (heard, _) in table.remote.items() if at - heard > PRESENCE_TTL]
                for worker in stale:
                    del table.remote[worker]
                if stale:
                    self.refresh(table)
