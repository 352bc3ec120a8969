"""Storage of the table server: SQLAlchemy schema, Alembic migrations and the :class:`Store`.

SQLite (a file) by default, PostgreSQL with a ``postgresql://`` URL; the schema and the code
are the same for both. Migrations live in ``migrations/`` inside the package and run at every
start (:meth:`Store.migrate`).
"""

from chicago.server.storage.store import (
    SEAT_KINDS,
    Change,
    Conflict,
    GamePlayerRow,
    GameRow,
    LoadedTable,
    LogEntry,
    RatedGameRow,
    Store,
    TableRow,
    Unreadable,
    normalize_url,
)

__all__ = [
    "SEAT_KINDS",
    "Change",
    "Conflict",
    "GamePlayerRow",
    "GameRow",
    "LoadedTable",
    "LogEntry",
    "RatedGameRow",
    "Store",
    "TableRow",
    "Unreadable",
    "normalize_url",
]
