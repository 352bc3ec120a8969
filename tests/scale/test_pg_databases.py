"""The per-test PostgreSQL databases (tests/pg_databases.py) are made and dropped without
waiting for a time or trying again, whatever else is connected (the fixtures behind every
PostgreSQL test; CI once failed at a fixture's setup and at its teardown so)."""

from __future__ import annotations

from scale_fixtures import PG_ENV, _env
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.engine import Connection

from chicago.server.storage import normalize_url
from pg_databases import fresh_database


def _base() -> str:
    return normalize_url(_env(PG_ENV, "start-postgres"))


def _exists(base: str, name: str) -> bool:
    engine = create_engine(base)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"),
                                {"n": name}).first() is not None
    finally:
        engine.dispose()


def test_a_database_is_made_while_a_session_sits_in_template1() -> None:
    """Before, each database was a copy of ``template1``, which PostgreSQL refuses while any
    session is connected to it: this test's session made every attempt fail."""
    base = _base()
    template1 = create_engine(make_url(base).set(database="template1"))
    try:
        with template1.connect() as conn:
            conn.execute(text("SELECT 1"))
            with fresh_database(base, "chicago_p_") as url:
                assert _exists(base, make_url(url).database or "")
    finally:
        template1.dispose()


def test_a_database_is_dropped_with_sessions_still_in_it() -> None:
    """Sessions left open in the database (a pool nobody disposed, one in a transaction)
    are ended and waited for, then the database is dropped."""
    base = _base()
    with fresh_database(base, "chicago_p_") as url:
        name = make_url(url).database or ""
        left_open = create_engine(url)
        idle: Connection = left_open.connect()
        idle.execute(text("SELECT 1"))
        busy = left_open.connect()
        busy.execute(text("CREATE TABLE t (x int)"))  # a transaction still open
    assert not _exists(base, name)
    left_open.dispose()
