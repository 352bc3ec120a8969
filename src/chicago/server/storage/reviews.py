"""The reviews' reads and writes (docs/SERVER.md, "Reviews"): synchronous, called from worker
threads, on the same database (and engine) as :class:`~chicago.server.storage.Store`.

The ``reviews`` table is the queue. Every write that must happen once is made so by the
database itself, so any number of server processes may share it:

- a review is one row (primary key: table, game, seat), inserted only where there is none;
- the seats due at a game's end (``games.review_due``, stored with its last action) become
  rows and the column is cleared in one transaction;
- a worker runs a review only after it claimed the row: an update from ``queued`` (or from
  ``running`` with a heartbeat older than the stale limit: its worker died) to ``running``
  with the worker's id, conditional on the row being as the worker read it, so two workers
  can never both claim one review;
- progress, the result and a failure are written only by the worker that holds the claim
  (conditional on ``worker``): a worker that lost its claim learns it and stops.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from chicago.server.storage.models import games, reviews
from chicago.server.storage.store import Store

__all__ = [
    "AUTOMATIC",
    "FAILED",
    "MAX_ATTEMPTS",
    "ON_DEMAND",
    "PLAYERS",
    "QUEUED",
    "READY",
    "RUNNING",
    "Asker",
    "QueueFull",
    "ReviewKey",
    "ReviewRow",
    "ReviewStore",
    "ShareFull",
]

QUEUED, RUNNING, READY, FAILED = "queued", "running", "ready", "failed"
"""The states of a review row."""

AUTOMATIC, PLAYERS, ON_DEMAND = 0, 1, 2
"""Priorities: a review queued when its game ended (run first), one asked for by a player of
the game, one asked for by anyone else."""

MAX_ATTEMPTS = 3
"""Runs a review gets: one whose worker died this often (it may be what kills it) fails."""

_ERROR_TEXT = 500  # characters of a failure's message that are kept


class QueueFull(Exception):
    """Too many reviews asked for are waiting; try again later."""


class ShareFull(Exception):
    """The client asking has as many reviews waiting as one client may; try again when one
    of them is ready."""


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asks for a review: the address (a client key), the profile if one is signed in,
    and whether they played the game (their requests go first)."""

    address: str
    profile: str | None = None
    player: bool = False


@dataclass(frozen=True, slots=True)
class ReviewKey:
    """Which review: a seat of a game of a table."""

    table_id: str
    number: int
    seat: int


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A ``reviews`` row without the review's JSON (:meth:`ReviewStore.review_text`)."""

    key: ReviewKey
    status: str
    priority: int
    level: str
    seed: int
    hindsight: bool
    done: int
    total: int | None
    attempts: int
    worker: str | None
    accuracy: float | None
    loss: float | None
    error: str | None
    created_at: float
    updated_at: float


_COLUMNS = [c for c in reviews.c if c.name != "review"]


def _row(r: Any) -> ReviewRow:
    return ReviewRow(
        key=ReviewKey(r["table_id"], int(r["number"]), int(r["seat"])), status=r["status"],
        priority=int(r["priority"]), level=r["level"], seed=int(r["seed"]),
        hindsight=bool(r["hindsight"]), done=int(r["done"]),
        total=None if r["total"] is None else int(r["total"]), attempts=int(r["attempts"]),
        worker=r["worker"], accuracy=r["accuracy"], loss=r["loss"], error=r["error"],
        created_at=float(r["created_at"]), updated_at=float(r["updated_at"]),
    )


def _is(key: ReviewKey) -> Any:
    return and_(reviews.c.table_id == key.table_id, reviews.c.number == key.number,
                reviews.c.seat == key.seat)


class ReviewStore:
    """The ``reviews`` rows of one database (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction, under the store's write lock (SQLite has one writer: a
        transaction that read before another wrote could not write any more)."""
        with self.store.write_lock, self.engine.begin() as conn:
            yield conn

    def _insert_new(self, conn: Connection, rows: list[dict[str, Any]]) -> int:
        """Insert the rows that do not exist yet (by primary key); how many were new."""
        if not rows:
            return 0
        dialect = postgresql if self.store.dialect == "postgresql" else sqlite
        statement = dialect.insert(reviews).values(rows).on_conflict_do_nothing()
        return len(conn.execute(statement.returning(reviews.c.seat)).all())

    @staticmethod
    def _new_row(key: ReviewKey, priority: int, level: str, seed: int, hindsight: bool,
                 now: float) -> dict[str, Any]:
        return {"table_id": key.table_id, "number": key.number, "seat": key.seat,
                "status": QUEUED, "priority": priority, "level": level, "seed": seed,
                "hindsight": hindsight, "done": 0, "total": None, "attempts": 0,
                "worker": None, "review": None, "accuracy": None, "loss": None,
                "error": None, "created_at": now, "updated_at": now}

    @staticmethod
    def _waiting(conn: Connection, priority: int) -> int:
        return int(conn.execute(
            select(func.count()).select_from(reviews)
            .where(reviews.c.status == QUEUED, reviews.c.priority == priority)
        ).scalar_one())

    # ------------------------------------------------------------------ queueing
    def enqueue_due(self, *, level: str, seed: int, hindsight: bool, limit: int,
                    now: float) -> int:
        """Queue the reviews of the games whose seats are due (``games.review_due``),
        oldest game first, while fewer than ``limit`` of them wait; the others stay due
        (nothing is lost). Returns the number of rows made."""
        with self._writing() as conn:
            room = limit - self._waiting(conn, AUTOMATIC)
            if room <= 0:
                return 0
            due = conn.execute(
                select(games.c.table_id, games.c.number, games.c.review_due)
                .where(games.c.review_due.is_not(None))
                .order_by(games.c.finished_at).limit(room)
            ).all()
            made = 0
            for table_id, number, text in due:
                try:
                    seats = [int(s) for s in json.loads(text)]
                except (TypeError, ValueError):
                    seats = []  # unreadable: nothing can be reviewed automatically
                made += self._insert_new(conn, [
                    self._new_row(ReviewKey(table_id, number, s), AUTOMATIC, level, seed,
                                  hindsight, now) for s in dict.fromkeys(seats)])
                conn.execute(update(games).where(
                    games.c.table_id == table_id, games.c.number == number,
                    games.c.review_due.is_not(None)).values(review_due=None))
            return made

    def request(self, key: ReviewKey, *, level: str, seed: int, hindsight: bool, limit: int,
                now: float, asker: Asker | None = None, share: int = 0) -> ReviewRow:
        """Ask for a seat's review: queued unless it has a row (a player's request before
        anyone else's); one that failed is queued again while it has runs left.
        :class:`QueueFull` when it would be queued but ``limit`` requests of its priority
        wait; :class:`ShareFull` when ``asker``'s address, or its profile, has ``share``
        requests of that priority waiting already (0: no share). The game must be finished
        (the caller checks it)."""
        priority = PLAYERS if asker is not None and asker.player else ON_DEMAND
        with self._writing() as conn:
            found = self._get(conn, key)
            if found is not None and not (found.status == FAILED
                                          and found.attempts < MAX_ATTEMPTS):
                return found
            if asker is not None and share:
                self._check_share(conn, asker, share, priority)
            if self._waiting(conn, priority) >= limit:
                raise QueueFull(f"{limit} reviews are waiting already")
            asked = {"asked_by": asker.address if asker else None,
                     "asked_profile": asker.profile if asker else None}
            if found is None:
                fresh = self._new_row(key, priority, level, seed, hindsight, now)
                self._insert_new(conn, [{**fresh, **asked}])
            else:
                conn.execute(update(reviews).where(_is(key), reviews.c.status == FAILED)
                             .values(status=QUEUED, priority=priority, error=None, done=0,
                                     worker=None, created_at=now, updated_at=now, **asked))
            row = self._get(conn, key)
            assert row is not None
            return row

    @staticmethod
    def _check_share(conn: Connection, asker: Asker, share: int, priority: int) -> None:
        """ShareFull when the asker's address or profile has ``share`` requests of this
        ``priority`` waiting (a player's own games and others' are counted apart)."""
        waiting = and_(reviews.c.status == QUEUED, reviews.c.priority == priority)
        whose = [reviews.c.asked_by == asker.address]
        if asker.profile is not None:
            whose.append(reviews.c.asked_profile == asker.profile)
        for who in whose:
            mine = int(conn.execute(select(func.count()).select_from(reviews)
                                    .where(waiting, who)).scalar_one())
            if mine >= share:
                raise ShareFull(f"{share} reviews asked for by you are waiting already")

    # ------------------------------------------------------------------ running
    def claim(self, worker: str, *, now: float, stale_before: float) -> ReviewRow | None:
        """Claim the next review to run for ``worker``: the queued ones by priority, then
        age; else a running one whose worker has not reported since ``stale_before``
        (it died), which fails instead once it had :data:`MAX_ATTEMPTS` runs. None when
        there is nothing to run."""
        waiting = or_(reviews.c.status == QUEUED,
                      and_(reviews.c.status == RUNNING, reviews.c.updated_at < stale_before))
        with self._writing() as conn:
            rows = conn.execute(
                select(*_COLUMNS).where(waiting)  # "running" sorts first: begun earlier
                .order_by(reviews.c.status.desc(), reviews.c.priority, reviews.c.created_at)
                .limit(8)
            ).mappings().all()
            for found in (_row(r) for r in rows):
                same = and_(_is(found.key), reviews.c.status == found.status,
                            reviews.c.updated_at == found.updated_at,
                            reviews.c.attempts == found.attempts)
                if found.status == RUNNING and found.attempts >= MAX_ATTEMPTS:
                    conn.execute(update(reviews).where(same).values(
                        status=FAILED, worker=None, updated_at=now,
                        error=f"the review stopped {found.attempts} times without finishing"))
                    continue
                claimed = conn.execute(update(reviews).where(same).values(
                    status=RUNNING, worker=worker, attempts=found.attempts + 1, done=0,
                    updated_at=now))
                if claimed.rowcount == 1:
                    row = self._get(conn, found.key)
                    assert row is not None
                    return row
        return None

    def progress(self, key: ReviewKey, worker: str, *, done: int, total: int | None,
                 now: float) -> bool:
        """The claimed review's progress (also its heartbeat); False if ``worker`` no
        longer holds the claim (it must stop)."""
        return self._update_claimed(key, worker, done=done, total=total, updated_at=now)

    def finish(self, key: ReviewKey, worker: str, *, review: str, accuracy: float,
               loss: float, done: int, now: float) -> bool:
        """Store the claimed review's JSON; False if ``worker`` lost the claim (then
        another worker stores it)."""
        return self._update_claimed(key, worker, status=READY, review=review,
                                    accuracy=accuracy, loss=loss, done=done, total=done,
                                    worker=None, error=None, updated_at=now)

    def fail(self, key: ReviewKey, worker: str, *, error: str, now: float) -> bool:
        """The claimed review failed (``error`` says why)."""
        return self._update_claimed(key, worker, status=FAILED, worker=None,
                                    error=error[:_ERROR_TEXT], updated_at=now)

    def retry(self, key: ReviewKey, worker: str, *, now: float) -> bool:
        """Back to the queue after a run that could not finish (its process died); the run
        counts (:data:`MAX_ATTEMPTS`)."""
        return self._update_claimed(key, worker, status=QUEUED, worker=None, done=0,
                                    updated_at=now)

    def release(self, key: ReviewKey, worker: str, *, now: float) -> bool:
        """Give the claimed review back to the queue unrun (the server stops); this run
        does not count."""
        with self._writing() as conn:
            result = conn.execute(
                update(reviews)
                .where(_is(key), reviews.c.status == RUNNING, reviews.c.worker == worker)
                .values(status=QUEUED, worker=None, done=0,
                        attempts=reviews.c.attempts - 1,  # the claim counted this run
                        updated_at=now))
            return result.rowcount == 1

    def requeue_running(self, *, now: float) -> int:
        """Every running review back to the queue: for a server that is the database's
        only one, at start-up (they were its own, before it stopped)."""
        with self._writing() as conn:
            result = conn.execute(update(reviews).where(reviews.c.status == RUNNING)
                                  .values(status=QUEUED, worker=None, done=0, updated_at=now))
            return int(result.rowcount or 0)

    def _update_claimed(self, key: ReviewKey, holder: str, **values: Any) -> bool:
        """Update the review's row if ``holder`` still holds its claim."""
        with self._writing() as conn:
            result = conn.execute(
                update(reviews)
                .where(_is(key), reviews.c.status == RUNNING, reviews.c.worker == holder)
                .values(**values))
            return result.rowcount == 1

    # ------------------------------------------------------------------ reads
    @staticmethod
    def _get(conn: Connection, key: ReviewKey) -> ReviewRow | None:
        r = conn.execute(select(*_COLUMNS).where(_is(key))).mappings().first()
        return None if r is None else _row(r)

    def get(self, key: ReviewKey) -> ReviewRow | None:
        """One review's row (without its JSON)."""
        with self.engine.connect() as conn:
            return self._get(conn, key)

    def of_game(self, table_id: str, number: int) -> tuple[list[ReviewRow], list[int]]:
        """A game's review rows (by seat) and the seats still due (not queued yet)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS).where(reviews.c.table_id == table_id,
                                        reviews.c.number == number)
                .order_by(reviews.c.seat)).mappings().all()
            due = conn.execute(select(games.c.review_due).where(
                games.c.table_id == table_id, games.c.number == number)).scalar()
        try:
            seats = [int(s) for s in json.loads(due)] if due else []
        except (TypeError, ValueError):
            seats = []
        return [_row(r) for r in rows], seats

    def review_text(self, key: ReviewKey) -> str | None:
        """A ready review's JSON text (None if it is not ready)."""
        with self.engine.connect() as conn:
            return conn.execute(select(reviews.c.review).where(
                _is(key), reviews.c.status == READY)).scalar()

    def ready_keys(self, limit: int) -> list[ReviewKey]:
        """The latest ``limit`` ready reviews (the daily exercise draws from them), oldest
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(reviews.c.table_id, reviews.c.number, reviews.c.seat)
                .where(reviews.c.status == READY)
                .order_by(reviews.c.updated_at.desc(), reviews.c.table_id,
                          reviews.c.number, reviews.c.seat)
                .limit(limit)).all()
        return [ReviewKey(t, n, s) for t, n, s in reversed(rows)]

    def ahead(self, row: ReviewRow) -> int:
        """How many queued reviews run before this queued one."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(reviews).where(
                    reviews.c.status == QUEUED,
                    or_(reviews.c.priority < row.priority,
                        and_(reviews.c.priority == row.priority,
                             reviews.c.created_at < row.created_at)))
            ).scalar_one())

    def counts(self) -> dict[str, int]:
        """Reviews by state (for ``GET /api/health``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(reviews.c.status, func.count())
                                .group_by(reviews.c.status)).all()
        found = {str(status): int(n) for status, n in rows}
        return {state: found.get(state, 0) for state in (QUEUED, RUNNING, READY, FAILED)}
