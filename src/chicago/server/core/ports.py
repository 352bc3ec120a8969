"""The protocols the table core is driven through, in the manner of boardgame.io's
``Master(game, storage, transport)``: where changes are kept (:class:`Storage`) and how news
travels (:class:`TableBus` between the processes that serve a table, :class:`Client` to each
connection).

Implemented by the shells: :class:`chicago.server.storage.Store` (SQLAlchemy: SQLite or
PostgreSQL) is a :class:`Storage`; :class:`chicago.server.bus.InProcessBus` and
:class:`chicago.server.redis_bus.RedisBus` are :class:`TableBus` es; the websocket's
:class:`chicago.server.ws.Connection` is a :class:`Client`. Tests drive the core through
in-memory ones (tests/server/test_table_core.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from chicago.server.core.rows import Change, LoadedTable, LogEntry

__all__ = [
    "Client",
    "EntryHandler",
    "NoteHandler",
    "PresenceHandler",
    "PresenceNote",
    "Revocation",
    "RevocationHandler",
    "Storage",
    "Subscription",
    "TableBus",
]


class Storage(Protocol):
    """Where the tables' logs and rows are kept. Synchronous: the server calls it from worker
    threads, its writes through one group-commit queue (:class:`GroupWriter`)."""

    failures: tuple[type[BaseException], ...]
    """The exceptions by which the storage says it cannot be reached now (as opposed to a
    stored row it cannot read): those are raised as they are, never logged as unreadable."""

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        """Store the changes (all in one transaction when possible); one result per change:
        None, or the exception that refused it (a :class:`Conflict` when another writer took
        its sequence number first)."""
        ...

    def load(self, table_id: str) -> LoadedTable | None:
        """What rebuilding the table needs (its row, current game, the entries of its current
        game and the seat changes before it), or None if there is no such table."""
        ...

    def entries_after(self, table_id: str, seq: int) -> list[LogEntry]:
        """The table's log entries after ``seq``, in order."""
        ...

    def live_table_ids(self) -> list[str]:
        """The tables in play (resumed at start-up, so that their bots and clocks go on)."""
        ...

    def skip(self, what: str, problem: object, doing: str = "loaded") -> None:
        """A stored row ``what`` cannot be ``doing`` (loaded, resumed): log it once."""
        ...


@dataclass(frozen=True, slots=True)
class PresenceNote:
    """One worker's word on a table: the seats connected to it now (``ask``: and a request
    that the other workers say the same, sent when it starts to hold the table)."""

    worker: str
    seats: frozenset[int]
    ask: bool = False


@dataclass(frozen=True, slots=True)
class Revocation:
    """News for every worker: the seat tokens of ``profile`` issued under any grant but
    ``grant`` (its current one) are revoked (:mod:`chicago.server.credentials`)."""

    profile: str
    grant: str


EntryHandler = Callable[[str, Sequence[LogEntry]], None]
"""Called with (table id, entries) for every message on a subscribed table: one entry, or
the entries of one burst in order (:meth:`TableBus.burst`; another process's burst comes in
one call, this process's own entries one at a time)."""

PresenceHandler = Callable[[str, PresenceNote], None]
"""Called with (table id, note) for every presence note published on a subscribed table."""

NoteHandler = Callable[[str, dict[str, Any]], None]
"""Called with (topic, note) for every site note published on a subscribed topic."""

RevocationHandler = Callable[[str, Revocation], None]
"""Called with (``"site"``, revocation) for every revocation published on the site."""

SITE = "site"
"""The name that site-wide news travels under where a table id would."""


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
    """The transport between the processes that serve a table: per table, in order, to
    every subscriber, the stored log entries (each applied by every process that holds the
    table, which sends its connections their frames) and presence notes; and to every
    process, the site's revocations (a profile signed out everywhere)."""

    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Deliver ``entry`` (already stored) to the table's entry subscribers: this
        process's at once; inside :meth:`burst`, the other processes' with the burst's other
        entries when it ends."""
        ...

    def burst(self, table_id: str) -> AbstractAsyncContextManager[None]:
        """Within: the entries published on ``table_id`` are one burst (an action and the
        bots' replies stored with it), which reaches the other processes in one message
        when it ends, so that their clients that take batches get one batch too."""
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

    async def publish_note(self, topic: str, note: dict[str, Any]) -> None:
        """Deliver a small JSON ``note`` to every worker's handlers of ``topic`` (site news
        for a person: it is their turn somewhere, an invitation, a pairing)."""
        ...

    def subscribe_note(self, topic: str, handler: NoteHandler) -> Subscription:
        """Call ``handler`` for each note published on ``topic`` from now on."""
        ...

    def note_heard(self, topic: str) -> bool:
        """Whether a note published on ``topic`` now may reach a handler: False only when
        none can (then a note that is news alone need not be published)."""
        ...

    async def publish_revocation(self, note: Revocation) -> None:
        """Deliver ``note`` to every worker's revocation handlers (this one's at once)."""
        ...

    def subscribe_revocations(self, handler: RevocationHandler) -> Subscription:
        """Call ``handler`` for each revocation published from now on."""
        ...

    async def close(self) -> None:
        """Release the bus's resources."""
        ...


class Client(Protocol):
    """The transport to one connection: its seat (None: a spectator) and its frames."""

    seat: int | None
    token_hash: str | None
    """The hash of the seat token it said ``hello`` with (None: a spectator); a later
    token of its seat ends it (:mod:`chicago.server.credentials`)."""
    grant: str | None
    """The profile credential its seat token was issued under (None: no profile)."""
    closed: bool
    """Closed (or closing): nothing it sends is handled any more."""
    batched: bool
    """It said ``"batch": true`` in hello: the updates of a burst come in one ``batch``
    frame (:mod:`chicago.server.fanout`)."""

    def send(self, text: str) -> None:
        """Queue one frame (never blocks)."""
        ...

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the connection soon."""
        ...
