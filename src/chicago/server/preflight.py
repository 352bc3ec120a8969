"""Before ``chicago serve`` prints its address: can it start at all?

:func:`preflight` opens the database and brings it to the newest schema (what the app's
start-up does anyway; done first, the app then finds nothing to do) and, with Redis, asks
Redis for a ``PING``. A failure is one line naming the cause and what to do about it
(:class:`CannotStart`), never a traceback: the data directory cannot be written, the
database cannot be reached or refuses the login, the URL names no database the server
knows, the database was written by a newer chicago (a schema revision this one does not
know), Redis does not answer.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError

__all__ = ["CannotStart", "preflight"]

REDIS_TIMEOUT = 5.0
"""Seconds Redis has to answer the start-up ``PING``."""


class CannotStart(Exception):
    """The server cannot start: ``str(exc)`` is one line with the cause and the fix."""


def preflight(db_url: str, redis_url: str | None = None) -> None:
    """Migrate the database of ``db_url`` and ping Redis; :class:`CannotStart` if either
    fails (nothing else is raised)."""
    _database(db_url)
    if redis_url is not None:
        _redis(redis_url)


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _where(db_url: str) -> str:
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        return str(Path(url.database or "").expanduser())
    return url.render_as_string(hide_password=True)


def _database(db_url: str) -> None:
    from chicago.server.storage import Store

    try:
        url = make_url(db_url)
    except ArgumentError as exc:
        raise CannotStart(f"--db {db_url!r} is not a database URL ({_first_line(exc)}); "
                          "give sqlite:///PATH or postgresql://USER@HOST/NAME") from None
    from alembic.util.exc import CommandError

    sqlite = url.get_backend_name() == "sqlite"
    store = None
    try:
        store = Store(db_url)
        store.migrate()
    except CommandError as exc:
        revision = _revision(store)
        if revision is None:
            raise CannotStart(f"the database {_where(db_url)} cannot be migrated "
                              f"({_first_line(exc)}); check --db") from None
        raise CannotStart(f"the database {_where(db_url)} is at schema revision "
                          f"{revision!r}, which this chicago does not know: a newer "
                          "version wrote it; run that version (or a later one), or name "
                          "another database with --db") from None
    except NoSuchModuleError:
        raise CannotStart(f"--db {url.drivername}://…: not a database this server knows; "
                          "give sqlite:///PATH or postgresql://USER@HOST/NAME") from None
    except OSError as exc:
        raise CannotStart(f"cannot write the data directory {_parent(db_url)} "
                          f"({exc.strerror or exc}); make it writable by this user, or name "
                          "another with CHICAGO_DATA=DIR or --db") from None
    except (OperationalError, sqlite3.Error) as exc:
        if sqlite:
            raise CannotStart(f"cannot open the database {_where(db_url)} "
                              f"({_first_line(exc)}); make its directory writable by this "
                              "user, or name another with CHICAGO_DATA=DIR or --db") from None
        raise CannotStart(f"cannot reach the database {_where(db_url)} "
                          f"({_first_line(exc)}); start PostgreSQL there or correct --db "
                          "(host, port, user, password, database name)") from None
    except SQLAlchemyError as exc:
        raise CannotStart(f"the database {_where(db_url)} cannot be used "
                          f"({_first_line(exc)}); check --db") from None
    finally:
        if store is not None:
            store.close()


def _revision(store: object) -> str | None:
    """The schema revision ``store``'s database is at, or None if it cannot be read."""
    from chicago.server.storage import Store

    if not isinstance(store, Store):
        return None
    try:
        return store.revision()
    except SQLAlchemyError:
        return None


def _parent(db_url: str) -> str:
    return str(Path(_where(db_url)).parent)


def _redis(redis_url: str) -> None:
    async def ping() -> None:
        from redis.asyncio import Redis

        client = Redis.from_url(redis_url, socket_connect_timeout=REDIS_TIMEOUT,
                                socket_timeout=REDIS_TIMEOUT)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except Exception as exc:
        raise CannotStart(f"cannot reach Redis at {_safe(redis_url)} ({_first_line(exc)}); "
                          "start Redis there or correct --redis") from None


def _safe(url: str) -> str:
    """A Redis URL without its password."""
    return make_url(url).render_as_string(hide_password=True) if "@" in url else url
