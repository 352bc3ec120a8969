"""Your games (docs/SERVER.md, "Your games"): whose turn it is at each table, and who holds
each seat, so that every table where it is a person's turn is found without loading it.

- ``tables.to_act``: the seat to act in the current game (null once it is over);
- ``tables.turn_at``: when that seat got its turn (UNIX time);
- ``seat_holders``: one row per seat held by a person: its profile (null: a guest) and the
  hash of its seat token.

A stored table is filled in here: its seats from its ``join`` and ``leave`` entries, its seat
to act by rebuilding its current game from its log (as the server does).

Revision ID: 0009_your_games
Revises: 0008_play_again
Create Date: 2026-12-03
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision: str = "0009_your_games"
down_revision: str | None = "0008_play_again"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the columns and the table, and fill them in for the stored tables."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("to_act", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turn_at", sa.Float(), nullable=True))
    holders = op.create_table(
        "seat_holders",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("profile_id", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_seat_holders_profile", "seat_holders", ["profile_id"])
    op.create_index("ix_seat_holders_token", "seat_holders", ["token_hash"])
    _fill_in(op.get_bind(), holders)


def _fill_in(conn: sa.Connection, holders: sa.Table) -> None:
    """Each stored table's seat holders and seat to act."""
    from chicago.server.core.rows import LogEntry, TableRow
    from chicago.server.core.state import build_table

    tables = sa.table("tables", *(sa.column(c) for c in (
        "id", "name", "players", "preset", "rules", "variations", "seats", "options",
        "private", "secret", "status", "open_seats", "game", "created_at", "updated_at",
        "to_act", "turn_at")))
    log = sa.table("log", *(sa.column(c) for c in (
        "table_id", "seq", "game", "kind", "seat", "data", "created_at")))
    rows = conn.execute(sa.select(tables).where(tables.c.status != "finished")).mappings().all()
    for row in rows:
        entries = [LogEntry(e["seq"], e["game"], e["kind"], e["seat"], json.loads(e["data"]),
                            e["created_at"])
                   for e in conn.execute(sa.select(log).where(log.c.table_id == row["id"])
                                         .order_by(log.c.seq)).mappings()]
        try:
            state = build_table(TableRow(
                id=row["id"], name=row["name"], players=row["players"], preset=row["preset"],
                rules=json.loads(row["rules"]), variations=json.loads(row["variations"]),
                seats=json.loads(row["seats"]), options=json.loads(row["options"]),
                private=bool(row["private"]), secret=row["secret"], status=row["status"],
                open_seats=row["open_seats"], game=row["game"], created_at=row["created_at"],
                updated_at=row["updated_at"]), entries)
        except Exception:  # a table this version cannot read stays as it was
            continue
        game = state.current
        conn.execute(sa.update(tables).where(tables.c.id == row["id"]).values(
            to_act=None if game.is_over else game.to_act, turn_at=state.turn_started))
        people = [{"table_id": row["id"], "seat": i, "profile_id": s.profile,
                   "token_hash": s.token_hash}
                  for i, s in enumerate(state.seats) if s.kind == "human" and s.token_hash]
        if people:
            conn.execute(sa.insert(holders), people)


def downgrade() -> None:
    """Drop the table and the columns."""
    op.drop_index("ix_seat_holders_token", "seat_holders")
    op.drop_index("ix_seat_holders_profile", "seat_holders")
    op.drop_table("seat_holders")
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_column("turn_at")
        batch.drop_column("to_act")
