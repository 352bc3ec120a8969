"""A fresh PostgreSQL database per test, made and dropped by the role the tests log in as
(``chicago``, made by ``.ci/start-postgres``).

Dropping one ``WITH (FORCE)`` ends the sessions still connected to it, which needs the
right to signal them: an autovacuum worker that happens to be in the new database runs
as no role of ours, and without ``pg_signal_backend`` (granted by ``.ci/start-postgres``)
the drop is refused (CI once failed so, at a fixture's teardown). Creating one fails
while another session copies ``template1``. Both are brief, so each is tried again a
few times.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, make_url, text
from sqlalchemy.exc import DBAPIError

__all__ = ["fresh_database"]

ATTEMPTS = 20


def _again(admin_url: str, statement: str) -> None:
    """Run ``statement`` with AUTOCOMMIT, again after a short pause while it is refused."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        for attempt in range(ATTEMPTS):
            try:
                with admin.connect() as conn:
                    conn.execute(text(statement))
                return
            except DBAPIError:
                if attempt == ATTEMPTS - 1:
                    raise
                time.sleep(0.1 * (attempt + 1))
    finally:
        admin.dispose()


@contextmanager
def fresh_database(admin_url: str, prefix: str) -> Iterator[str]:
    """The URL of a new, empty database (named ``prefix`` and random hex), dropped after."""
    name = prefix + secrets.token_hex(6)
    _again(admin_url, f'CREATE DATABASE "{name}"')
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        _again(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
