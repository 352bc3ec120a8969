"""The mail notices' reads and writes (``profile_mail``, ``mail_outbox``; migration
``0010_mail``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, insert, or_, select, update

from chicago.server.storage.models import mail_outbox, profile_mail
from chicago.server.storage.store import Store

__all__ = ["MailRow", "MailStore", "OutboxRow"]


@dataclass(frozen=True, slots=True)
class MailRow:
    """A profile's address and wishes."""

    profile_id: str
    address: str
    confirmed: bool
    confirm_hash: str | None
    notify: bool
    unsubscribe: str
    updated_at: float


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One mail to send."""

    id: int
    profile_id: str
    address: str
    kind: str
    subject: str
    body: str
    unsubscribe: str | None


class MailStore:
    """Mail reads and writes on a :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def settings(self, profile_id: str) -> MailRow | None:
        """The profile's address and wishes, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(profile_mail).where(
                profile_mail.c.profile_id == profile_id)).mappings().first()
        return None if row is None else MailRow(**row)

    def set_address(self, row: MailRow) -> None:
        """Store the profile's (new) address and wishes, replacing what was."""
        with self.engine.begin() as conn:
            conn.execute(delete(profile_mail).where(profile_mail.c.profile_id == row.profile_id))
            conn.execute(insert(profile_mail).values(
                profile_id=row.profile_id, address=row.address, confirmed=row.confirmed,
                confirm_hash=row.confirm_hash, notify=row.notify, unsubscribe=row.unsubscribe,
                updated_at=row.updated_at))

    def forget(self, profile_id: str) -> None:
        """The profile takes its address back."""
        with self.engine.begin() as conn:
            conn.execute(delete(profile_mail).where(profile_mail.c.profile_id == profile_id))

    def set_notify(self, profile_id: str, notify: bool, at: float) -> bool:
        """Turn the notices on or off; False when the profile gave no address."""
        with self.engine.begin() as conn:
            done = conn.execute(update(profile_mail).where(
                profile_mail.c.profile_id == profile_id).values(notify=notify, updated_at=at))
        return done.rowcount == 1

    def confirm(self, confirm_hash: str, at: float) -> bool:
        """Confirm the address whose confirmation token hashes to ``confirm_hash``."""
        with self.engine.begin() as conn:
            done = conn.execute(update(profile_mail).where(
                profile_mail.c.confirm_hash == confirm_hash).values(
                confirmed=True, confirm_hash=None, updated_at=at))
        return done.rowcount == 1

    def unsubscribe(self, token: str, at: float) -> bool:
        """Turn the notices off for the address of an unsubscribe link's token."""
        with self.engine.begin() as conn:
            done = conn.execute(update(profile_mail).where(
                profile_mail.c.unsubscribe == token).values(notify=False, updated_at=at))
        return done.rowcount == 1

    def sent_since(self, since: float, profile_id: str | None = None) -> int:
        """Mails queued since ``since`` (UNIX time): the profile's, or the whole site's."""
        query = select(func.count()).select_from(mail_outbox).where(
            mail_outbox.c.created_at >= since)
        if profile_id is not None:
            query = query.where(mail_outbox.c.profile_id == profile_id)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def queue(self, profile_id: str, address: str, kind: str, subject: str, body: str,
              unsubscribe: str | None, at: float) -> None:
        """Put one mail in the outbox."""
        with self.engine.begin() as conn:
            conn.execute(insert(mail_outbox).values(
                profile_id=profile_id, address=address, kind=kind, subject=subject, body=body,
                unsubscribe=unsubscribe, created_at=at, attempts=0))

    def claim(self, worker: str, at: float, stale: float, limit: int = 20) -> list[OutboxRow]:
        """Take up to ``limit`` unsent mails for ``worker`` (one claimed by a worker that
        stopped reporting ``stale`` seconds ago is taken over; a mail tried 5 times is
        given up)."""
        taken = []
        with self.engine.begin() as conn:
            rows = conn.execute(select(mail_outbox).where(
                mail_outbox.c.sent_at.is_(None), mail_outbox.c.attempts < 5,
                or_(mail_outbox.c.worker.is_(None), mail_outbox.c.claimed_at < at - stale))
                .order_by(mail_outbox.c.id).limit(limit)).mappings().all()
            for row in rows:
                done = conn.execute(update(mail_outbox).where(
                    mail_outbox.c.id == row["id"], mail_outbox.c.sent_at.is_(None),
                    or_(mail_outbox.c.worker.is_(None), mail_outbox.c.claimed_at < at - stale))
                    .values(worker=worker, claimed_at=at, attempts=row["attempts"] + 1))
                if done.rowcount == 1:
                    taken.append(OutboxRow(row["id"], row["profile_id"], row["address"],
                                           row["kind"], row["subject"], row["body"],
                                           row["unsubscribe"]))
        return taken

    def sent(self, mail_id: int, at: float, error: str | None = None) -> None:
        """A claimed mail was sent (``error``: it failed; it stays claimed, so that it is
        tried again once the claim is stale, not at once while the SMTP server is down)."""
        with self.engine.begin() as conn:
            values = ({"sent_at": at, "error": None} if error is None
                      else {"claimed_at": at, "error": error[:500]})
            conn.execute(update(mail_outbox).where(mail_outbox.c.id == mail_id).values(**values))
