"""The table-writer lock: at most one worker process writes a table at a time.

Every change of a table is decided and stored while its writer holds the table's lock
(:meth:`TableLocks.hold`). With one server process (SQLite, or PostgreSQL without Redis) the
in-process ``asyncio.Lock`` of each table is enough and :class:`NoLocks` does nothing. With
several workers on one PostgreSQL database (``chicago serve --redis …``),
:class:`AdvisoryLocks` takes a PostgreSQL *session advisory lock* whose key is derived from
the table id, on a connection kept for locks only:

- a second worker asking for the same table waits in PostgreSQL until the first releases it
  (or gives up after ``timeout`` seconds with :class:`TableBusy`);
- a worker that dies (even by SIGKILL) loses its database session, and PostgreSQL releases
  its locks at once, so another worker can take the table over;
- while holding the lock, the worker learns the table's last stored sequence number
  (:attr:`Held.last_seq`) and first applies whatever other workers stored since it last
  looked (see :mod:`chicago.server.tables`), so it always decides on the true state.

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
from typing import Any, Protocol

import psycopg
from sqlalchemy.engine import make_url

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
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


_Conn = psycopg.AsyncConnection[Any]


class AdvisoryLocks:
    """PostgreSQL session advisory locks, one per table, on a small pool of connections.

    ``size`` connections at most (each held lock uses one while it is held); ``timeout``
    seconds a worker waits for a lock before :class:`TableBusy`.
    """

    shared = True

    def __init__(self, url: str, *, size: int = 16, timeout: float = 10.0) -> None:
        self.url = libpq_url(url)
        self.timeout = timeout
        self._idle: list[_Conn] = []
        self._slots = asyncio.Semaphore(size)

    async def _connect(self) -> _Conn:
        conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await conn.execute(f"SET lock_timeout = {max(1, int(self.timeout * 1000))}")
        await conn.execute("SET application_name = 'chicago table locks'")
        return conn

    async def _lock(self, conn: _Conn, key: int, table_id: str) -> None:
        try:
            await conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        except psycopg.errors.LockNotAvailable:
            # lock_timeout ended the wait; the session is fine and holds nothing new
            self._idle.append(conn)
            raise TableBusy(f"table {table_id}: another worker kept it over "
                            f"{self.timeout:g} s") from None
        except BaseException:
            await _close(conn)
            raise

    async def _acquire(self, key: int, table_id: str) -> _Conn:
        """A connection that holds the table's lock."""
        if self._idle:
            conn = self._idle.pop()
            try:
                await self._lock(conn, key, table_id)
                return conn
            except psycopg.OperationalError as exc:
                if isinstance(exc, psycopg.errors.LockNotAvailable):
                    raise
                # an idle connection the server closed meanwhile: one try on a fresh one
        conn = await self._connect()
        await self._lock(conn, key, table_id)
        return conn

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[Held]:
        """Hold the table's advisory lock; yields the table's last stored seq."""
        key = lock_key(table_id)
        async with self._slots:
            conn = await self._acquire(key, table_id)
            try:
                cursor = await conn.execute(
                    "SELECT coalesce(max(seq), 0) FROM log WHERE table_id = %s", (table_id,)
                )
                row = await cursor.fetchone()
            except BaseException:
                await _close(conn)  # closing the session releases its locks
                raise
            broken = False
            try:
                yield Held(int(row[0]) if row is not None else 0)
            except asyncio.CancelledError:
                broken = True
                raise
            finally:
                if broken:
                    await _close(conn)
                else:
                    await self._release(conn, key, table_id)

    async def _release(self, conn: _Conn, key: int, table_id: str) -> None:
        try:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        except Exception as exc:
            log.warning("table %s: unlock failed (%s); closing its connection", table_id, exc)
            await _close(conn)
        else:
            self._idle.append(conn)

    async def close(self) -> None:
        """Close the idle connections (a held lock's connection closes when released)."""
        while self._idle:
            await _close(self._idle.pop())


async def _close(conn: _Conn) -> None:
    with contextlib.suppress(Exception):
        await conn.close()


def make_locks(db_url: str, shared: bool) -> TableLocks:
    """:class:`AdvisoryLocks` for several workers on PostgreSQL, else :class:`NoLocks`.

    Several workers need PostgreSQL: a SQLite file serves one process only.
    """
    if not shared:
        return NoLocks()
    backend = make_url(db_url).get_backend_name()
    if backend != "postgresql":
        raise ValueError(
            f"several workers need a PostgreSQL database (--db postgresql://…), not {backend}"
        )
    return AdvisoryLocks(db_url)
