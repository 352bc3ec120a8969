"""The organizer's and the players' controls of a tournament (docs/CLUB.md): two columns of
``tournaments``.

- ``ends_after``: the round after which the organizer ended the tournament early (null:
  it plays every round it was created with);
- ``joins``: how many entrant numbers were handed out (``e1``, ``e2`` …), so that a number
  freed by a player who left, or was removed, is never handed to another.

The status gains the value ``cancelled`` (the column is a string: no change is needed).

Revision ID: 0004_tournament_controls
Revises: 0003_reviews
Create Date: 2025-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004_tournament_controls"
down_revision: str | None = "0003_reviews"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the columns; a stored tournament's ``joins`` is its number of people (before
    this revision nobody could leave, so they hold ``e1`` … ``eN``)."""
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("ends_after", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("joins", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.execute(
        "UPDATE tournaments SET joins = (SELECT count(*) FROM tournament_entrants "
        "WHERE tournament_entrants.tournament_id = tournaments.id "
        "AND tournament_entrants.profile_id IS NOT NULL)")


def downgrade() -> None:
    """Drop the columns (a cancelled tournament keeps its status text). In place, also on
    SQLite (3.35 and later drop a column): copying ``tournaments`` into a new table would
    break the foreign keys of its entrants and rounds."""
    with op.batch_alter_table("tournaments", recreate="never") as batch:
        batch.drop_column("joins")
        batch.drop_column("ends_after")
