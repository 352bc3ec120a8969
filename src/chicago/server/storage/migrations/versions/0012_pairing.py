"""The pairing queue (issue 26, "Play now with people"; docs/SERVER.md, "Pairing").

- ``pairing``: one row per place in the queue: its arrival number, the hash of its ticket
  (the person's credential, later their seat token), the address and profile it counts
  for, the queue (preset, players, rated) and wait it chose, when it came and when a socket
  last held it; once paired, the table and seat.

Self-contained: it creates and drops only its own table.

Revision ID: 0012_pairing
Revises: 0011_online
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012_pairing"
down_revision: str | None = "0011_online"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the queue's table."""
    op.create_table(
        "pairing",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("ticket_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("profile_id", sa.String(32), nullable=True),
        sa.Column("grant", sa.String(64), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("wait", sa.Float(), nullable=True),
        sa.Column("queued_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("paired_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_pairing_status", "pairing", ["status", "id"])
    op.create_index("ix_pairing_client", "pairing", ["client"])


def downgrade() -> None:
    """Drop the queue's table."""
    op.drop_index("ix_pairing_client", "pairing")
    op.drop_index("ix_pairing_status", "pairing")
    op.drop_table("pairing")
