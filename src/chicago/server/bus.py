"""The table bus: how a table's news reaches every process that serves it.

Two kinds of news travel on a table's bus, each on a channel of its own:

- **entries**: a change is stored first (it gets its table sequence number), then published;
  each subscriber (a server process with clients watching that table) applies it to its own
  copy of the table and sends the frames to its clients;
- **presence**: a worker's word on which seats of the table are connected to it
  (:class:`PresenceNote`; never stored, and never mistaken for a log entry).

:class:`InProcessBus` serves one process; :class:`chicago.server.redis_bus.RedisBus` (Redis
pub/sub, two channels per table) lets several workers share tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from chicago.server.core.rows import LogEntry

__all__ = [
    "EntryHandler",
    "InProcessBus",
    "PresenceHandler",
    "PresenceNote",
    "Subscription",
    "TableBus",
]


@dataclass(frozen=True, slots=True)
class PresenceNote:
    """One worker's word on a table: the seats connected to it now (``ask``: and a request
    that the other workers say the same, sent when it starts to hold the table)."""

    worker: str
    seats: frozenset[int]
    ask: bool = False


EntryHandler = Callable[[str, LogEntry], None]
"""Called with (table id, entry) for every entry published on a subscribed table."""

PresenceHandler = Callable[[str, PresenceNote], None]
"""Called with (table id, note) for every presence note published on a subscribed table."""


class Subscription(Protocol):
    """What :meth:`TableBus.subscribe` and :meth:`TableBus.subscribe_presence` return."""

    def close(self) -> None:
        """Stop receiving this channel's news."""
        ...

    async def ready(self) -> None:
        """Wait until everything published from now on will reach the handler (a network
        bus subscribes in the background)."""
        ...


class TableBus(Protocol):
    """Per table, in order, to every subscriber: stored log entries, and presence notes."""

    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Deliver ``entry`` (already stored) to the table's entry subscribers."""
        ...

    def subscribe(self, table_id: str, handler: EntryHandler) -> Subscription:
        """Call ``handler`` for each entry published on ``table_id`` from now on."""
        ...

    async def publish_presence(self, table_id: str, note: PresenceNote) -> None:
        """Deliver ``note`` to the table's presence subscribers."""
        ...

    def subscribe_presence(self, table_id: str, handler: PresenceHandler) -> Subscription:
        """Call ``handler`` for each presence note published on ``table_id`` from now on."""
        ...

    async def close(self) -> None:
        """Release the bus's resources."""
        ...


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
        self._entries: _Handlers[LogEntry] = _Handlers()
        self._presence: _Handlers[PresenceNote] = _Handlers()

    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Call every entry handler of ``table_id`` with ``entry``."""
        self._entries.call(table_id, entry)

    def subscribe(self, table_id: str, handler: EntryHandler) -> Subscription:
        """Register an entry ``handler`` for ``table_id``."""
        return self._entries.add(table_id, handler)

    async def publish_presence(self, table_id: str, note: PresenceNote) -> None:
        """Call every presence handler of ``table_id`` with ``note``."""
        self._presence.call(table_id, note)

    def subscribe_presence(self, table_id: str, handler: PresenceHandler) -> Subscription:
        """Register a presence ``handler`` for ``table_id``."""
        return self._presence.add(table_id, handler)

    async def close(self) -> None:
        """Forget every handler."""
        self._entries.by_table.clear()
        self._presence.by_table.clear()
