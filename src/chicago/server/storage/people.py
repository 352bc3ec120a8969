"""Who is online, follows and invitations: their reads and writes (``profile_online``,
``follows``, ``invites``; migration ``0011_online``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update

from chicago.server.storage.models import follows, invites, profile_online, profiles
from chicago.server.storage.store import Store

__all__ = ["InviteRow", "PeopleStore"]


@dataclass(frozen=True, slots=True)
class InviteRow:
    """One invitation."""

    id: str
    table_id: str
    inviter_id: str
    invitee_id: str
    created_at: float
    ended_at: float | None
    outcome: str | None


class PeopleStore:
    """People reads and writes on a :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # ------------------------------------------------------------------ shown online
    def shows_online(self, profile_id: str) -> bool:
        """Whether the profile chose to be shown as online."""
        with self.engine.connect() as conn:
            value = conn.execute(select(profile_online.c.show).where(
                profile_online.c.profile_id == profile_id)).scalar()
        return bool(value)

    def set_shows_online(self, profile_id: str, show: bool, at: float) -> None:
        """Store the profile's choice."""
        with self.engine.begin() as conn:
            conn.execute(delete(profile_online).where(profile_online.c.profile_id == profile_id))
            conn.execute(insert(profile_online).values(profile_id=profile_id, show=show,
                                                       updated_at=at))

    def shown(self, ids: Sequence[str]) -> dict[str, str]:
        """Of the profiles ``ids``, those that chose to be shown online: id -> name."""
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(profiles.c.id, profiles.c.name)
                .join(profile_online, profile_online.c.profile_id == profiles.c.id)
                .where(profiles.c.id.in_(list(ids)), profile_online.c.show.is_(True))).all()
        return {row[0]: row[1] for row in rows}

    # ------------------------------------------------------------------ follows
    def following(self, follower_id: str) -> list[tuple[str, str, bool]]:
        """The profiles ``follower_id`` follows, by name: (id, name, shown online)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(profiles.c.id, profiles.c.name, profile_online.c.show)
                .join(follows, follows.c.followee_id == profiles.c.id)
                .outerjoin(profile_online, profile_online.c.profile_id == profiles.c.id)
                .where(follows.c.follower_id == follower_id)
                .order_by(profiles.c.name, profiles.c.id)).all()
        return [(row[0], row[1], bool(row[2])) for row in rows]

    def follows(self, follower_id: str, followee_id: str) -> bool:
        """Whether ``follower_id`` follows ``followee_id``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(follows.c.created_at).where(
                follows.c.follower_id == follower_id,
                follows.c.followee_id == followee_id)).first()
        return row is not None

    def follow(self, follower_id: str, followee_id: str, at: float, cap: int) -> str | None:
        """Follow (nothing when already followed); None, or ``cap`` when the follower
        follows ``cap`` profiles already."""
        with self.engine.begin() as conn:
            if conn.execute(select(follows.c.created_at).where(
                    follows.c.follower_id == follower_id,
                    follows.c.followee_id == followee_id)).first() is not None:
                return None
            count = conn.execute(select(func.count()).select_from(follows).where(
                follows.c.follower_id == follower_id)).scalar_one()
            if count >= cap:
                return "cap"
            conn.execute(insert(follows).values(follower_id=follower_id,
                                                followee_id=followee_id, created_at=at))
        return None

    def unfollow(self, follower_id: str, followee_id: str) -> None:
        """Stop following (nothing when not followed)."""
        with self.engine.begin() as conn:
            conn.execute(delete(follows).where(follows.c.follower_id == follower_id,
                                               follows.c.followee_id == followee_id))

    # ------------------------------------------------------------------ invites
    def add_invite(self, row: InviteRow) -> None:
        """Store a new invitation."""
        with self.engine.begin() as conn:
            conn.execute(insert(invites).values(
                id=row.id, table_id=row.table_id, inviter_id=row.inviter_id,
                invitee_id=row.invitee_id, created_at=row.created_at, ended_at=None,
                outcome=None))

    def invite(self, invite_id: str) -> InviteRow | None:
        """One invitation by id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(invites).where(invites.c.id == invite_id)) \
                .mappings().first()
        return None if row is None else InviteRow(**row)

    def open_invites(self, *, invitee: str | None = None, inviter: str | None = None,
                     table_id: str | None = None) -> list[InviteRow]:
        """The open invitations to ``invitee``, from ``inviter`` or to ``table_id``
        (those given), oldest first."""
        query = select(invites).where(invites.c.ended_at.is_(None))
        if invitee is not None:
            query = query.where(invites.c.invitee_id == invitee)
        if inviter is not None:
            query = query.where(invites.c.inviter_id == inviter)
        if table_id is not None:
            query = query.where(invites.c.table_id == table_id)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(invites.c.created_at, invites.c.id)) \
                .mappings().all()
        return [InviteRow(**row) for row in rows]

    def invites_since(self, since: float, inviter: str | None = None) -> int:
        """Invitations made since ``since``: by ``inviter``, or on the whole site."""
        query = select(func.count()).select_from(invites).where(invites.c.created_at >= since)
        if inviter is not None:
            query = query.where(invites.c.inviter_id == inviter)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def end_invites(self, ids: Sequence[str], outcome: str, at: float) -> list[InviteRow]:
        """End the open invitations ``ids`` with ``outcome``; the ones ended (an invitation
        ended already stays as it ended)."""
        ended = []
        with self.engine.begin() as conn:
            for invite_id in ids:
                done = conn.execute(update(invites).where(
                    invites.c.id == invite_id, invites.c.ended_at.is_(None)).values(
                    ended_at=at, outcome=outcome))
                if done.rowcount == 1:
                    row = conn.execute(select(invites).where(invites.c.id == invite_id)) \
                        .mappings().one()
                    ended.append(InviteRow(**row))
        return ended
