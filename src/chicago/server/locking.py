"""The table-writer lock: at most one worker process writes a table at a time.

Every change of a table is decided and stored while its writer holds the table's lock
(:meth:`TableLocks.hold`). With one server process (SQLite, or PostgreSQL without Redis) the
in-process ``asyncio.Lock`` of each table is enough and :class:`NoLocks` does nothing. With
several workers on one PostgreSQL database (``chicago serve --redis …``),
:class:`AdvisoryLocks` takes a PostgreSQL *session advisory lock* whose key is derived from
the table id, on one of a few connections kept for locks only:

- a second worker asking for the same table tries again until the first releases it (or
  gives up after ``timeout`` seconds with :class:`TableBusy`);
- a worker that dies (even by SIGKILL) loses its database session, and PostgreSQL releases
  its locks at once, so another worker can take the table over;
- while holding the lock, the worker learns the table's last stored sequence number
  (:attr:`Held.last_seq`) and first applies whatever other workers stored since it last
  looked (see :mod:`chicago.server.cache`), so it always decides on the true state.

The log's primary key ``(table_id, seq)`` stays the last line of defence: even if a lock were
lost (its connection dropped mid-change), two changes with the same number can never both be
stored (:class:`chicago.server.storage.Conflict`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # psycopg (the extra postgres) is imported where the locks use it
    import psycopg

    _Conn = psycopg.AsyncConnection[Any]

__all__ = [
    "AdvisoryLocks",
    "Held",
    "NoLocks",
    "TableBusy",
    "TableLocks",
    "lock_key",
    "make_locks",
]

log = logging.getLogger("chicago.server")


class TableBusy(Exception):
    """The table's lock could not be had in time (another worker kept it too long)."""


@dataclass(frozen=True, slots=True)
class Held:
    """A held table lock."""

    last_seq: int | None
    """The table's highest stored sequence number, read after the lock was granted (so it
    includes every change of earlier holders); None when the locks are not shared."""


class TableLocks(Protocol):
    """One lock per table, shared by every worker of a site."""

    shared: bool
    """True when other processes may write the same tables (their changes must be read
    from the store before deciding)."""

    def hold(self, table_id: str) -> AbstractAsyncContextManager[Held]:
        """Wait for the table's lock, hold it for the ``async with`` block."""
        ...

    async def close(self) -> None:
        """Release every connection."""
        ...


class NoLocks:
    """One process: the tables' own ``asyncio.Lock`` already makes it the only writer."""

    shared = False

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[Held]:
        """Nothing to wait for."""
        yield Held(None)

    async def close(self) -> None:
        """Nothing to release."""


def lock_key(table_id: str) -> int:
    """The 64-bit advisory lock key of a table (signed, as PostgreSQL's bigint).

    >>> lock_key("abc") == lock_key("abc") != lock_key("abd")
    True
    """
    digest = hashlib.sha256(b"chicago-table:" + table_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg wants it (``postgresql://…``).

    >>> libpq_url("postgresql+psycopg://u:p@h:5432/d")
    'postgresql://u:p@h:5432/d'
    """
    from sqlalchemy.engine import make_url  # several workers only: the storage's own parser

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class AdvisoryLocks:
    """PostgreSQL session advisory locks, one per table, on a few shared connections.

    A lock is taken with ``pg_try_advisory_lock`` on one of ``sessions`` connections (which
    many held locks share: each statement is short and never waits inside PostgreSQL) and
    released on the same connection. When another worker holds it, the worker retries with
    growing pauses (2 ms to 50 ms) for at most ``timeout`` seconds, then :class:`TableBusy`.
    Two workers want the same table at the same moment only for conflicting actions or a bot
    taken over, so the pauses are rare; in exchange a worker needs only ``sessions``
    database connections for any number of tables.
    """

    shared = True

    def __init__(self, url: str, *, sessions: int = 4, timeout: float = 10.0) -> None:
        self.url = libpq_url(url)
        self.timeout = timeout
        self._sessions: list[_Conn | None] = [None] * max(1, sessions)
        self._opening: list[asyncio.Lock] = [asyncio.Lock() for _ in self._sessions]
        self._turn = 0
        self._local: dict[int, asyncio.Lock] = {}  # one holder per key inside this process
        self._users: dict[int, int] = {}

    async def _session(self, index: int) -> _Conn:
        conn = self._sessions[index]
        if conn is not None and not conn.closed:
            return conn
        async with self._opening[index]:
            conn = self._sessions[index]
            if conn is None or conn.closed:
                import psycopg

                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                await conn.execute("SET application_name = 'chicago table locks'")
                self._sessions[index] = conn
            return conn

    async def _drop_session(self, index: int, conn: _Conn) -> None:
        if self._sessions[index] is conn:
            self._sessions[index] = None
        await _close(conn)

    async def _try(self, key: int, table_id: str) -> tuple[int, _Conn]:
        """Take the lock: (session index, connection) that holds it."""
        import psycopg

        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        pause = 0.002
        failures = 0
        while True:
            index = self._turn % len(self._sessions)
            self._turn += 1
            conn = None
            try:
                conn = await self._session(index)
                cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))
                row = await cursor.fetchone()
            except asyncio.CancelledError:
                if conn is not None:  # it may have been granted: never leave it behind
                    with contextlib.suppress(Exception):
                        await asyncio.shield(
                            conn.execute("SELECT pg_advisory_unlock(%s)", (key,)))
                raise
            except psycopg.OperationalError as exc:  # a session the server closed: a new one
                failures += 1
                if failures > len(self._sessions):
                    raise TableBusy(f"table {table_id}: no lock session ({exc})") from exc
                current = self._sessions[index]
                if current is not None:
                    await self._drop_session(index, current)
                continue
            if row is not None and row[0]:
                return index, conn
            if loop.time() + pause > deadline:
                raise TableBusy(f"table {table_id}: another worker kept it over "
                                f"{self.timeout:g} s")
            await asyncio.sleep(pause)
            pause = min(0.05, pause * 2)

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[Held]:
        """Hold the table's advisory lock; yields the table's last stored seq."""
        key = lock_key(table_id)
        local = self._local.get(key)
        if local is None:
            local = self._local[key] = asyncio.Lock()
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with local:
                index, conn = await self._try(key, table_id)
                try:
                    cursor = await conn.execute(
                        "SELECT coalesce(max(seq), 0) FROM log WHERE table_id = %s",
                        (table_id,))
                    row = await cursor.fetchone()
                    yield Held(int(row[0]) if row is not None else 0)
                finally:
                    await self._release(index, conn, key, table_id)
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key]
                del self._local[key]

    async def _release(self, index: int, conn: _Conn, key: int, table_id: str) -> None:
        try:
            await asyncio.shield(conn.execute("SELECT pg_advisory_unlock(%s)", (key,)))
        except Exception as exc:
            # the lock cannot stay behind: ending the session releases every lock it holds
            # (the other holders on it lose theirs; the log's primary key still protects
            # their writes)
            log.warning("table %s: unlock failed (%s); closing its lock session",
                        table_id, exc)
            await self._drop_session(index, conn)

    async def close(self) -> None:
        """Close the lock sessions (which releases whatever they still hold)."""
        for index, conn in enumerate(self._sessions):
            if conn is not None:
                await self._drop_session(index, conn)


async def _close(conn: _Conn) -> None:
    with contextlib.suppress(Exception):
        await conn.close()


def make_locks(db_url: str, shared: bool) -> TableLocks:
    """:class:`AdvisoryLocks` for several workers on PostgreSQL, else :class:`NoLocks`.

    Several workers need PostgreSQL: a SQLite file serves one process only.
    """
    if not shared:
        return NoLocks()
    from sqlalchemy.engine import make_url  # several workers only: the storage's own parser

    backend = make_url(db_url).get_backend_name()
    if backend != "postgresql":
        raise ValueError(
            f"several workers need a PostgreSQL database (--db postgresql://…), not {backend}"
        )
    return AdvisoryLocks(db_url)
