"""Alembic environment of the table server's database.

The server runs the migrations itself at start-up (:func:`chicago.server.storage.migrate`),
handing over an open connection in ``config.attributes["connection"]``. Run by hand, Alembic
reads the URL from the ``sqlalchemy.url`` option (``alembic -x`` is not needed).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from chicago.server.storage.models import metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    """Upgrade the database on the shared connection, or on one made from the URL."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set sqlalchemy.url to the database URL")
    engine = create_engine(url)
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline (SQL script) mode is not supported; run against a database")
run_migrations()
