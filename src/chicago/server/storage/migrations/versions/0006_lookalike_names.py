"""No name that only looks like another (docs/CLUB.md, "Profiles"): ``profiles.name_key``
becomes the name as :func:`chicago.club.names.name_key` compares it now (PRECIS and
Unicode's confusable skeletons), not only case, width and blanks folded.

Profiles stored before this revision may have names that now look alike (``Anna`` and
``Аnna`` with a Cyrillic ``А``). They keep their names, as in ``0005_profile_names``: the
oldest of each key gets the key, every other one the key, ``#`` and its id. From now on a
new profile needs a name that looks like no other.

Revision ID: 0006_lookalike_names
Revises: 0005_profile_names
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from chicago.club.names import fold_name, name_key

revision: str = "0006_lookalike_names"
down_revision: str | None = "0005_profile_names"
branch_labels: str | None = None
depends_on: str | None = None


def _rekey(key_of: object) -> None:
    """Every profile's key by ``key_of``, the oldest first; a later one whose key is taken
    gets ``#`` and its id after it. The keys are cleared first, so that no update meets a
    key that is about to change."""
    assert callable(key_of)
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT id, name FROM profiles ORDER BY created_at, id")).all()
    bind.execute(sa.text("UPDATE profiles SET name_key = NULL"))
    taken: set[str] = set()
    for profile_id, name in rows:
        key = str(key_of(str(name)))
        if key in taken:
            key = f"{key}#{profile_id}"
        taken.add(key)
        bind.execute(sa.text("UPDATE profiles SET name_key = :key WHERE id = :id"),
                     {"key": key, "id": profile_id})


def upgrade() -> None:
    """Compare names by their look-alike key."""
    _rekey(name_key)


def downgrade() -> None:
    """Back to case, width and blanks (as ``0005_profile_names`` keyed them)."""
    _rekey(fold_name)
