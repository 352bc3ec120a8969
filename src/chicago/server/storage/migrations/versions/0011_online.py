"""Who is online, follows and invitations (docs/SERVER.md, "People").

- ``profile_online``: a profile that chose to be shown as online (off until it says so);
- ``follows``: who follows whom (a profile follows at most
  :data:`chicago.server.together.people.MAX_FOLLOWS`);
- ``invites``: an invitation from a profile seated at a table to another profile, open
  until it is declined, taken, withdrawn or its table fills or ends (``outcome``); the caps
  per profile and per site count these rows (the same on every worker, after a restart).

Revision ID: 0011_online
Revises: 0010_mail
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011_online"
down_revision: str | None = "0010_mail"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "profile_online",
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("show", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.String(32), sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("followee_id", sa.String(32), sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_follows_followee", "follows", ["followee_id"])
    op.create_table(
        "invites",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("inviter_id", sa.String(32), nullable=False),
        sa.Column("invitee_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
    )
    op.create_index("ix_invites_invitee", "invites", ["invitee_id", "ended_at"])
    op.create_index("ix_invites_inviter", "invites", ["inviter_id", "created_at"])
    op.create_index("ix_invites_table", "invites", ["table_id", "ended_at"])
    op.create_index("ix_invites_created", "invites", ["created_at"])


def downgrade() -> None:
    """Drop the three tables."""
    for index in ("ix_invites_created", "ix_invites_table", "ix_invites_inviter",
                  "ix_invites_invitee"):
        op.drop_index(index, "invites")
    op.drop_table("invites")
    op.drop_index("ix_follows_followee", "follows")
    op.drop_table("follows")
    op.drop_table("profile_online")
