"""A fair review queue (docs/SERVER.md, "Reviews"): who asked for each review, and the
players of a game before everyone else.

Adds ``reviews.asked_by`` (the address that asked, as the server counts clients) and
``reviews.asked_profile`` (the profile that asked, if any), so that one client's waiting
requests can be counted; and makes room for a priority between the reviews queued when a
game ends (0) and those asked for by anyone (now 2): those asked for by a player of the
game (1). Rows asked for before this revision were anyone's: their priority 1 becomes 2.

Revision ID: 0007_review_askers
Revises: 0006_lookalike_names
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007_review_askers"
down_revision: str | None = "0006_lookalike_names"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the two columns (in place) and move the asked-for rows to priority 2."""
    with op.batch_alter_table("reviews", recreate="never") as batch:
        batch.add_column(sa.Column("asked_by", sa.String(64), nullable=True))
        batch.add_column(sa.Column("asked_profile", sa.String(32), nullable=True))
    op.execute("UPDATE reviews SET priority = 2 WHERE priority = 1")


def downgrade() -> None:
    """Every asked-for row back to priority 1; drop the columns."""
    op.execute("UPDATE reviews SET priority = 1 WHERE priority = 2")
    with op.batch_alter_table("reviews", recreate="never") as batch:
        batch.drop_column("asked_profile")
        batch.drop_column("asked_by")
