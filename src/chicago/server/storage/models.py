"""The database schema (SQLAlchemy Core tables; Alembic migrations create them).

Three tables, the same on SQLite and PostgreSQL:

- ``tables``: one row per table: its fixed configuration (rules, seats, options, the secret
  that seeds its bots) and a few columns kept up to date for the lobby (``status``,
  ``open_seats``, ``game``).
- ``games``: one row per game played at a table: its seed, and when it is over its result and
  full record (served for replays).
- ``log``: the table's stream, one row per stored change, numbered by ``seq`` from 1. The
  primary key ``(table_id, seq)`` makes the log append-only and single-writer: two writers
  can never both store a change with the same number. A live table's engine state is always
  rebuilt from this log.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = ["games", "log", "metadata", "tables"]

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("players", Integer, nullable=False),
    Column("preset", String(40), nullable=False),
    Column("rules", Text, nullable=False),  # JSON: Rules.to_dict()
    Column("variations", Text, nullable=False),  # JSON list of ids
    Column("seats", Text, nullable=False),  # JSON list: "open" | "bot:LEVEL"
    Column("options", Text, nullable=False),  # JSON: clock, stand_in, bot_delay
    Column("private", Boolean, nullable=False),
    Column("secret", String(64), nullable=False),  # seeds the table's bots
    Column("status", String(16), nullable=False),  # waiting | playing | finished
    Column("open_seats", Integer, nullable=False),
    Column("game", Integer, nullable=False),  # current game number
    Column("created_at", Float, nullable=False),  # UNIX seconds
    Column("updated_at", Float, nullable=False),
    Index("ix_tables_status_created", "status", "created_at"),
)

games = Table(
    "games",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("rules", Text, nullable=False),  # JSON
    Column("players", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # playing | finished
    Column("names", Text, nullable=True),  # JSON list, set when the game ends
    Column("result", Text, nullable=True),  # JSON: over, deals, scores, winners, settlement
    Column("record", Text, nullable=True),  # JSON game record, set when the game ends
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Index("ix_games_status_finished", "status", "finished_at"),
)

log = Table(
    "log",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("game", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # game | join | act | away | back | chat
    Column("seat", Integer, nullable=True),
    Column("data", Text, nullable=False),  # JSON object
    Column("created_at", Float, nullable=False),
)
