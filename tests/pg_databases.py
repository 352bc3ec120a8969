"""A fresh PostgreSQL database per test, made and dropped by the role the tests log in as
(``chicago``, made by ``.ci/start-postgres``).

Nothing here waits for a time or tries again. Each database is copied from ``template0``,
which no session may connect to: a copy of ``template1`` is refused while any session
(another test's tool, an autovacuum worker) is connected to it, which CI once hit. A drop
first closes the database to new sessions, then ends the client sessions still in it with
``pg_terminate_backend(pid, timeout)``, which returns once that backend has exited (the
event; PostgreSQL itself watches for it), and only then drops it. Only client sessions are
ended so, and the drop is a plain ``DROP DATABASE``, not ``WITH (FORCE)``: an autovacuum
worker in the database counts as a superuser's backend, which no one but a superuser may
signal (CI: "must be a superuser to terminate superuser process" at a scale test's
teardown, from ``pg_terminate_backend``; ``WITH (FORCE)`` makes the same check), while the
plain drop stops autovacuum workers itself, as PostgreSQL always does before dropping a
database. ``pg_signal_backend`` (granted by ``.ci/start-postgres``) lets the role end client
sessions of other roles.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, make_url, text

__all__ = ["fresh_database"]

# How long one backend may take to exit once told to, in milliseconds: a bound for a machine
# that is very busy, not a pause (the wait ends as soon as the backend is gone).
EXIT_WAIT_MS = 120_000


def _create(admin_url: str, name: str) -> None:
    """Create database ``name``, a copy of ``template0``."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE template0'))
    finally:
        admin.dispose()


def _drop(admin_url: str, name: str) -> None:
    """Drop database ``name`` once every session in it has ended."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                            {"name": name}).first() is None:
                return  # the test dropped it itself
            conn.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false'))
            ended = conn.execute(text(
                "SELECT pid, pg_terminate_backend(pid, :wait) FROM pg_stat_activity"
                " WHERE datname = :name AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"),
                {"name": name, "wait": EXIT_WAIT_MS}).all()
            assert all(gone for _, gone in ended), (
                f"sessions in {name} still there after {EXIT_WAIT_MS} ms: {ended}")
            conn.execute(text(f'DROP DATABASE "{name}"'))
    finally:
        admin.dispose()


@contextmanager
def fresh_database(admin_url: str, prefix: str) -> Iterator[str]:
    """The URL of a new, empty database (named ``prefix`` and random hex), dropped after."""
    name = prefix + secrets.token_hex(6)
    _create(admin_url, name)
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        _drop(admin_url, name)
