"""The pairing queue's reads and writes (``pairing``; migration ``0012_pairing``).

Every write that may race another worker runs in one transaction holding the *pairing lock*:
on PostgreSQL a transaction advisory lock (``pg_advisory_xact_lock``, released at commit or
rollback, and by PostgreSQL when the worker's session dies), on SQLite the store's write
lock (one process). A pass that pairs (:meth:`PairingStore.pair`) reads the waiting places,
decides, marks each seated place ``paired`` by an update conditional on it still waiting,
and stores the new tables, all in that transaction: two workers can never seat one place
twice, nor make two tables of the same places.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, insert, select, text, update

from chicago.server.storage.models import pairing
from chicago.server.storage.store import Change, Store

__all__ = ["PAIRED", "WAITING", "CapReached", "NewPlace", "PairingStore", "PlaceRow",
           "Seating"]

WAITING = "waiting"
PAIRED = "paired"

_PG_PAIRING_LOCK = 0x50616972  # "Pair": one pass of the queue at a time, site-wide


class CapReached(Exception):
    """A new place would pass a cap (the message says which)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class NewPlace:
    """A place to add to the queue."""

    ticket_hash: str
    client: str
    profile_id: str | None
    grant: str | None
    rating: float | None
    name: str | None
    preset: str
    players: int
    rated: bool
    wait: float | None
    queued_at: float


@dataclass(frozen=True, slots=True)
class PlaceRow(NewPlace):
    """A stored place: its arrival number, when a socket last held it, and once paired its
    table and seat."""

    id: int
    seen_at: float
    status: str
    table_id: str | None
    seat: int | None
    paired_at: float | None


@dataclass(frozen=True, slots=True)
class Seating:
    """A table a pass forms: the change that stores it, and the seat of each place (by
    arrival number)."""

    table_id: str
    seats: dict[int, int]
    change: Change


class PairingStore:
    """The queue on a :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    @contextlib.contextmanager
    def _locked(self) -> Iterator[Connection]:
        """A transaction holding the pairing lock (see the module docstring)."""
        with self.store.write_lock, self.engine.begin() as conn:
            if self.store.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_PAIRING_LOCK})
            yield conn

    def add(self, place: NewPlace, *, per_client: int, per_site: int) -> int:
        """Store a new waiting place; its arrival number. CapReached (nothing stored) when
        its address has ``per_client`` places waiting, the site ``per_site``, or its profile
        one already."""
        with self._locked() as conn:
            waiting = select(func.count()).select_from(pairing).where(
                pairing.c.status == WAITING)
            if place.profile_id is not None and conn.execute(waiting.where(
                    pairing.c.profile_id == place.profile_id)).scalar_one():
                raise CapReached("already_queued", "this profile has a place in the queue "
                                 "already (one at a time)")
            if conn.execute(waiting.where(pairing.c.client == place.client)).scalar_one() \
                    >= per_client:
                raise CapReached("too_many_places", f"at most {per_client} places in the "
                                 "queue from one address")
            if conn.execute(waiting).scalar_one() >= per_site:
                raise CapReached("queue_full", f"the queue is full ({per_site} places); "
                                 "try again later")
            done = conn.execute(insert(pairing).values(
                ticket_hash=place.ticket_hash, client=place.client, profile_id=place.profile_id,
                grant=place.grant, rating=place.rating, name=place.name, preset=place.preset,
                players=place.players, rated=place.rated, wait=place.wait,
                queued_at=place.queued_at, seen_at=place.queued_at, status=WAITING))
            key = done.inserted_primary_key
            assert key is not None
            return int(key[0])

    def place(self, ticket_hash: str) -> PlaceRow | None:
        """The place of a ticket (waiting or paired), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(pairing).where(
                pairing.c.ticket_hash == ticket_hash)).mappings().first()
        return None if row is None else PlaceRow(**row)

    def leave(self, ticket_hash: str) -> bool:
        """Take a waiting place out of the queue; False when it was not waiting."""
        with self._locked() as conn:
            done = conn.execute(delete(pairing).where(
                pairing.c.ticket_hash == ticket_hash, pairing.c.status == WAITING))
        return done.rowcount == 1

    def seen(self, ticket_hashes: Sequence[str], at: float) -> None:
        """Sockets hold these places now (their reconnect grace starts again)."""
        if ticket_hashes:
            with self.engine.begin() as conn:
                conn.execute(update(pairing).where(
                    pairing.c.ticket_hash.in_(list(ticket_hashes)),
                    pairing.c.seen_at < at).values(seen_at=at))

    def sweep(self, stale_before: float, paired_before: float) -> int:
        """Forget the waiting places no socket held since ``stale_before`` and the paired
        ones seated before ``paired_before``; how many."""
        with self._locked() as conn:
            gone = conn.execute(delete(pairing).where(
                pairing.c.status == WAITING, pairing.c.seen_at < stale_before)).rowcount
            gone += conn.execute(delete(pairing).where(
                pairing.c.status == PAIRED, pairing.c.paired_at < paired_before)).rowcount
        return int(gone)

    def revoke(self, profile_id: str, grant: str) -> int:
        """The profile signed out everywhere (its credential is now ``grant``): its waiting
        places taken under an older one end; how many."""
        with self._locked() as conn:
            done = conn.execute(delete(pairing).where(
                pairing.c.status == WAITING, pairing.c.profile_id == profile_id,
                pairing.c.grant != grant))
        return int(done.rowcount)

    def counts(self) -> dict[tuple[str, int, bool], int]:
        """Waiting places per queue (preset, players, rated)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(pairing.c.preset, pairing.c.players, pairing.c.rated,
                                       func.count()).where(pairing.c.status == WAITING)
                                .group_by(pairing.c.preset, pairing.c.players,
                                          pairing.c.rated)).all()
        return {(r[0], int(r[1]), bool(r[2])): int(r[3]) for r in rows}

    def waiting(self) -> list[PlaceRow]:
        """Every waiting place, in arrival order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(pairing).where(pairing.c.status == WAITING)
                                .order_by(pairing.c.id)).mappings().all()
        return [PlaceRow(**r) for r in rows]

    def pair(self, at: float,
             plan: Callable[[list[PlaceRow]], list[Seating]]) -> list[Seating]:
        """One pass: under the pairing lock, ``plan`` the tables of the waiting places,
        mark their places paired and store the tables; the tables formed (none stored if
        any place was no longer waiting)."""
        with self._locked() as conn:
            rows = conn.execute(select(pairing).where(pairing.c.status == WAITING)
                                .order_by(pairing.c.id)).mappings().all()
            seatings = plan([PlaceRow(**r) for r in rows])
            for seating in seatings:
                for number, seat in seating.seats.items():
                    done = conn.execute(update(pairing).where(
                        pairing.c.id == number, pairing.c.status == WAITING).values(
                        status=PAIRED, table_id=seating.table_id, seat=seat, paired_at=at))
                    if done.rowcount != 1:
                        raise RuntimeError(f"place {number} is no longer waiting")
                self.store.apply_change(conn, seating.change)
        return seatings
