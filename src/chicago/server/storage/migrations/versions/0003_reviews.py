"""Reviews of finished games: the ``reviews`` table and ``games.review_due``.

Revision ID: 0003_reviews
Revises: 0002
Create Date: 2025-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_reviews"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column of the seats due for review and the table of reviews.

    Games that ended before this revision get no review by themselves (``review_due``
    stays null): each seat's is made when someone asks for it.
    """
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("review_due", sa.Text(), nullable=True))
        batch.create_index("ix_games_review_due", ["review_due"])
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(80), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("hindsight", sa.Boolean(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(32), nullable=True),
        sa.Column("review", sa.Text(), nullable=True),
        sa.Column("accuracy", sa.Float(), nullable=True),
        sa.Column("loss", sa.Float(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id", "number"], ["games.table_id", "games.number"],
                                name="fk_reviews_game_games"),
        sa.PrimaryKeyConstraint("table_id", "number", "seat", name="pk_reviews"),
    )
    op.create_index("ix_reviews_queue", "reviews", ["status", "priority", "created_at"])


def downgrade() -> None:
    """Drop the reviews and the column."""
    op.drop_index("ix_reviews_queue", table_name="reviews")
    op.drop_table("reviews")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_review_due")
        batch.drop_column("review_due")
