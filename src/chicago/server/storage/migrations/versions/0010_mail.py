"""Mail notices (docs/SERVER.md, "Mail"): a profile's address and wishes, and the outbox.

- ``profile_mail``: one row per profile that gave an address: the address, whether it was
  confirmed (the hash of the confirmation token until then), whether it wants the notices,
  and the token of its unsubscribe links;
- ``mail_outbox``: every mail to send or sent (so a restart sends what was queued, and the
  caps per person and per site count the same on every worker).

Revision ID: 0010_mail
Revises: 0009_your_games
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010_mail"
down_revision: str | None = "0009_your_games"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the two tables."""
    op.create_table(
        "profile_mail",
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=True),
        sa.Column("notify", sa.Boolean(), nullable=False),
        sa.Column("unsubscribe", sa.String(64), nullable=False, unique=True),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.String(32), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("unsubscribe", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("worker", sa.String(32), nullable=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
    )
    op.create_index("ix_mail_outbox_profile", "mail_outbox", ["profile_id", "created_at"])
    op.create_index("ix_mail_outbox_pending", "mail_outbox", ["sent_at", "id"])


def downgrade() -> None:
    """Drop the two tables."""
    op.drop_index("ix_mail_outbox_pending", "mail_outbox")
    op.drop_index("ix_mail_outbox_profile", "mail_outbox")
    op.drop_table("mail_outbox")
    op.drop_table("profile_mail")
