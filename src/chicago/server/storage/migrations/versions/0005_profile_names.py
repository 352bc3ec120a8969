"""One profile a name (docs/CLUB.md, "Players"): the column ``profiles.name_key`` with a
unique index, the name as it was compared then (:func:`chicago.club.names.fold_name`).

Profiles stored before this revision may share a name. They keep their names (nobody's name
changes under them): the oldest of each name gets the name's key, every other one the key,
``#`` and its id (unique as the id is). From now on a new profile needs a free name.

Revision ID: 0005_profile_names
Revises: 0004_tournament_controls
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from chicago.club.names import fold_name

revision: str = "0005_profile_names"
down_revision: str | None = "0004_tournament_controls"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column (in place: copying ``profiles`` would break the foreign keys of the
    rows that name a profile), fill it, and index it."""
    with op.batch_alter_table("profiles", recreate="never") as batch:
        batch.add_column(sa.Column("name_key", sa.String(200), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT id, name FROM profiles ORDER BY created_at, id")).all()
    taken: set[str] = set()
    for profile_id, name in rows:
        key = fold_name(str(name))
        if key in taken:
            key = f"{key}#{profile_id}"
        taken.add(key)
        bind.execute(sa.text("UPDATE profiles SET name_key = :key WHERE id = :id"),
                     {"key": key, "id": profile_id})
    op.create_index("ix_profiles_name_key", "profiles", ["name_key"], unique=True)


def downgrade() -> None:
    """Drop the index and the column (in place, as in the upgrade)."""
    op.drop_index("ix_profiles_name_key", table_name="profiles")
    with op.batch_alter_table("profiles", recreate="never") as batch:
        batch.drop_column("name_key")
