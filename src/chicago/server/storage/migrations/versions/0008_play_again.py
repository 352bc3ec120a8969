"""Play again by agreement (docs/SERVER.md, "After a game"): one column of ``tables``.

- ``answer_by``: while the people of a finished table are asked whether to play again, the
  UNIX time at which those who have not answered lose their seats (null: nobody is asked).
  Such a table is resumed at start-up like a table in play, so that the time runs out on
  time after a restart.

The log gains the entry kinds ``rematch`` (a person agreed), ``leave`` (a person left after
a game: the seat is open), ``fill`` (an open seat given to a bot) and ``close`` (everyone
left); ``log.kind`` is a string of 8 characters: no change is needed.

Revision ID: 0008_play_again
Revises: 0005_profile_names
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008_play_again"
down_revision: str | None = "0007_review_askers"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column (a table finished before it asks nobody: null)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("answer_by", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drop the column, in place (``tables`` is referred to by other tables' keys)."""
    with op.batch_alter_table("tables", recreate="never") as batch:
        batch.drop_column("answer_by")
