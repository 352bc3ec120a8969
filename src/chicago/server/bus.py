"""The table bus: how a table's news reaches every process that serves it.

Two kinds of news travel on a table's bus, each on a channel of its own:

- **entries**: a change is stored first (it gets its table sequence number), then published;
  each subscriber (a server process with clients watching that table) applies it to its own
  copy of the table and sends the frames to its clients;
- **presence**: a worker's word on which seats of the table are connected to it
  (:class:`PresenceNote`; never stored, and never mistaken for a log entry).

Besides, one channel for the whole site carries **revocations**: a profile signed out
everywhere, so every worker ends the connections its old seat tokens opened
(:class:`~chicago.server.core.ports.Revocation`, :mod:`chicago.server.credentials`).

The interface is :class:`chicago.server.core.ports.TableBus`. :class:`InProcessBus` serves
one process; :class:`chicago.server.redis_bus.RedisBus` (Redis pub/sub, two channels per
table) lets several workers share tables.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Generic, TypeVar

from chicago.server.core.ports import (
    SITE,
    EntryHandler,
    NoteHandler,
    PresenceHandler,
    PresenceNote,
    Revocation,
    RevocationHandler,
    Subscription,
)
from chicago.server.core.rows import LogEntry

__all__ = ["InProcessBus"]


T = TypeVar("T")


class _Handlers(Generic[T]):
    """The handlers of one kind of news, per table, called at once in publish order."""

    def __init__(self) -> None:
        self.by_table: dict[str, list[Callable[[str, T], None]]] = {}

    def add(self, table_id: str, handler: Callable[[str, T], None]) -> _InProcessSubscription:
        self.by_table.setdefault(table_id, []).append(handler)
        return _InProcessSubscription(lambda: self.remove(table_id, handler))

    def remove(self, table_id: str, handler: Callable[[str, T], None]) -> None:
        handlers = self.by_table.get(table_id)
        if handlers and handler in handlers:
            handlers.remove(handler)
            if not handlers:
                del self.by_table[table_id]

    def call(self, table_id: str, news: T) -> None:
        for handler in list(self.by_table.get(table_id, ())):
            handler(table_id, news)


class _InProcessSubscription:
    def __init__(self, remove: Callable[[], None]) -> None:
        self._remove = remove

    def close(self) -> None:
        self._remove()

    async def ready(self) -> None:
        return


class InProcessBus:
    """The bus of a single server process: handlers are called at once, in publish order."""

    def __init__(self) -> None:
        self._entries: _Handlers[Sequence[LogEntry]] = _Handlers()
        self._presence: _Handlers[PresenceNote] = _Handlers()
        self._notes: _Handlers[dict[str, Any]] = _Handlers()
        self._revocations: _Handlers[Revocation] = _Handlers()

    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Call every entry handler of ``table_id`` with ``entry``."""
        self._entries.call(table_id, (entry,))

    @contextlib.asynccontextmanager
    async def burst(self, table_id: str) -> AsyncIterator[None]:
        """Nothing to gather: every handler is in this process and has each entry at once."""
        yield

    def subscribe(self, table_id: str, handler: EntryHandler) -> Subscription:
        """Register an entry ``handler`` for ``table_id``."""
        return self._entries.add(table_id, handler)

    async def publish_presence(self, table_id: str, note: PresenceNote) -> None:
        """Call every presence handler of ``table_id`` with ``note``."""
        self._presence.call(table_id, note)

    def subscribe_presence(self, table_id: str, handler: PresenceHandler) -> Subscription:
        """Register a presence ``handler`` for ``table_id``."""
        return self._presence.add(table_id, handler)

    async def publish_note(self, topic: str, note: dict[str, Any]) -> None:
        """Call every note handler of ``topic`` with ``note``."""
        self._notes.call(topic, note)

    def subscribe_note(self, topic: str, handler: NoteHandler) -> Subscription:
        """Register a note ``handler`` for ``topic``."""
        return self._notes.add(topic, handler)

    def note_heard(self, topic: str) -> bool:
        """Whether a note handler of ``topic`` is registered (this process is the only
        one)."""
        return topic in self._notes.by_table

    async def publish_revocation(self, note: Revocation) -> None:
        """Call every revocation handler with ``note``."""
        self._revocations.call(SITE, note)

    def subscribe_revocations(self, handler: RevocationHandler) -> Subscription:
        """Register a revocation ``handler``."""
        return self._revocations.add(SITE, handler)

    async def close(self) -> None:
        """Forget every handler."""
        self._entries.by_table.clear()
        self._presence.by_table.clear()
        self._notes.by_table.clear()
        self._revocations.by_table.clear()
