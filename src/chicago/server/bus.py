"""The table bus: how a stored change of a table reaches every process that serves it.

A change is stored first (it gets its table sequence number), then published on the bus;
each subscriber (a server process with clients watching that table) applies it to its own
copy of the table and sends the frames to its clients. :class:`InProcessBus` serves one
process; :class:`chicago.server.redis_bus.RedisBus` (Redis pub/sub, one channel per table,
the payload being the stored log entry) lets several workers share tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from chicago.server.storage import LogEntry

__all__ = ["EntryHandler", "InProcessBus", "Subscription", "TableBus"]

EntryHandler = Callable[[str, LogEntry], None]
"""Called with (table id, entry) for every entry published on a subscribed table."""


class Subscription(Protocol):
    """What :meth:`TableBus.subscribe` returns."""

    def close(self) -> None:
        """Stop receiving this table's entries."""
        ...

    async def ready(self) -> None:
        """Wait until every entry published from now on will reach the handler (a network
        bus subscribes in the background)."""
        ...


class TableBus(Protocol):
    """Publish stored log entries of a table to every subscriber of that table, in order."""

    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Deliver ``entry`` (already stored) to the table's subscribers."""
        ...

    def subscribe(self, table_id: str, handler: EntryHandler) -> Subscription:
        """Call ``handler`` for each entry published on ``table_id`` from now on."""
        ...

    async def close(self) -> None:
        """Release the bus's resources."""
        ...


class _InProcessSubscription:
    def __init__(self, bus: InProcessBus, table_id: str, handler: EntryHandler) -> None:
        self._bus = bus
        self._table_id = table_id
        self._handler = handler

    def close(self) -> None:
        handlers = self._bus._handlers.get(self._table_id)
        if handlers and self._handler in handlers:
            handlers.remove(self._handler)
            if not handlers:
                del self._bus._handlers[self._table_id]

    async def ready(self) -> None:
        return


class InProcessBus:
    """The bus of a single server process: handlers are called at once, in publish order."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[EntryHandler]] = {}

    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Call every handler of ``table_id`` with ``entry``."""
        for handler in list(self._handlers.get(table_id, ())):
            handler(table_id, entry)

    def subscribe(self, table_id: str, handler: EntryHandler) -> Subscription:
        """Register ``handler`` for ``table_id``."""
        self._handlers.setdefault(table_id, []).append(handler)
        return _InProcessSubscription(self, table_id, handler)

    async def close(self) -> None:
        """Forget every handler."""
        self._handlers.clear()
