"""Reviews of finished games on the table server (docs/SERVER.md, "Reviews").

When a game ends, the seats of its people are due for review: stored with the game's last
action (``games.review_due``, in the same transaction), so a server that stops right after
still reviews them when it starts again. Any other seat (a bot's, or any seat of a game of
bots only) is reviewed when someone asks for it (:meth:`ReviewService.request`). The queue
is the ``reviews`` table (:mod:`chicago.server.storage.reviews`): each worker process of the
site claims one review at a time from it, so a review is computed once however many workers
there are, and one abandoned by a dead worker is taken over.

The work never runs on the event loop: :class:`ReviewService` splits a review in shares
(:func:`chicago.review.plan_review`, runs of deals of about equal size), has them judged in a
process pool (``spawn``, ``Settings.review_workers`` processes at a lower priority), reports
the progress after each share and stores the finished review's JSON, made in the pool too.
The event loop only waits for the pool and the database (in worker threads).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from chicago.record import RecordError
from chicago.review import ReviewLevel
from chicago.review.jobs import finish_review, plan_review, review_chunk, worker_started
from chicago.server.core.seats import Seat
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.storage.reviews import (
    MAX_ATTEMPTS,
    QUEUED,
    Asker,
    ReviewKey,
    ReviewRow,
    ReviewStore,
)
from chicago.server.tasks import wait_woken

__all__ = ["REVIEW_SEED", "ReviewService", "due_seats"]

log = logging.getLogger("chicago.server")

REVIEW_SEED = 0
"""The seed of every review the server makes: the one ``chicago review`` uses by default,
so the server's review of a seat is the review that command makes of the game's record at
the same level."""


def due_seats(seats: Sequence[Seat]) -> list[int]:
    """The seats reviewed when a game ends: those of people (bots' seats on request)."""
    return [index for index, seat in enumerate(seats) if seat.kind != "bot"]


class _Lost(Exception):
    """This worker no longer holds the review's claim (another one took it over)."""


class ReviewService:
    """This process's part of the reviews: requests, and the runner that claims reviews and
    has them computed (:meth:`start`, :meth:`stop`)."""

    def __init__(self, store: Store, settings: Settings, *, shared: bool, worker: str) -> None:
        self.store = store
        self.rows = ReviewStore(store)
        self.settings = settings
        self.shared = shared
        """Other workers share the database (and may compute reviews)."""
        self.worker = worker
        self.level = ReviewLevel.parse(settings.review_level).spec
        """The level of new reviews (its full spec)."""
        self.computing = settings.review_workers > 0
        """Whether this process computes reviews."""
        self.computed = 0
        """Reviews this process finished."""
        self.failed = 0
        """Reviews that failed here."""
        self._wake = asyncio.Event()
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None
        self._done: dict[ReviewKey, tuple[int, int | None]] = {}  # running here

    @property
    def enabled(self) -> bool:
        """Whether reviews are made at all: by this process, or by other workers."""
        return self.computing or self.shared

    def due(self, seats: Sequence[Seat]) -> list[int]:
        """The seats to mark due when a game at a table with these seats ends (none when
        reviews are off)."""
        return due_seats(seats) if self.enabled else []

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the runner (when this process computes reviews). Alone on its database,
        the server first queues again every review that was running when it stopped."""
        if not self.computing:
            return
        if not self.shared:
            requeued = await asyncio.to_thread(self.rows.requeue_running, now=time.time())
            if requeued:
                log.info("reviews: %d interrupted reviews queued again", requeued)
        self._task = asyncio.create_task(self._run(), name="chicago-reviews")

    async def stop(self) -> None:
        """Stop the runner (a review in progress goes back to the queue) and the pool."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    def wake(self) -> None:
        """Look at the queue now (a game ended, a review was asked for)."""
        self._wake.set()

    # ------------------------------------------------------------------ requests
    async def request(self, key: ReviewKey, asker: Asker | None = None) -> ReviewRow:
        """Ask for a seat's review (of a finished game: the caller checks): its row, queued
        unless it existed, a player's request before anyone else's.
        :class:`~chicago.server.storage.reviews.QueueFull` when too many asked-for reviews
        wait; :class:`~chicago.server.storage.reviews.ShareFull` when ``asker`` has its
        share (``Settings.review_share``) waiting."""
        row = await asyncio.to_thread(
            self.rows.request, key, level=self.level, seed=REVIEW_SEED,
            hindsight=self.settings.review_hindsight, limit=self.settings.review_queue,
            now=time.time(), asker=asker, share=self.settings.review_share)
        if row.status == QUEUED:
            self.wake()
        return row

    def progress(self, key: ReviewKey) -> tuple[int, int | None] | None:
        """(done, total) of a review running in this process, fresher than its row (total
        None until its shares are planned)."""
        return self._done.get(key)

    # ------------------------------------------------------------------ the runner
    async def _run(self) -> None:
        """Forever: queue the reviews due, claim the next one, compute it; idle, wait to be
        woken or ``review_poll`` seconds."""
        while True:
            self._wake.clear()
            row = None
            try:
                now = time.time()
                await asyncio.to_thread(
                    self.rows.enqueue_due, level=self.level, seed=REVIEW_SEED,
                    hindsight=self.settings.review_hindsight,
                    limit=self.settings.review_queue, now=now)
                row = await asyncio.to_thread(self.rows.claim, self.worker, now=now,
                                              stale_before=now - self.settings.review_stale)
            except Exception:
                log.exception("reviews: cannot read the queue")
            if row is None:
                await wait_woken(self._wake, self.settings.review_poll)
                continue
            await self._compute(row)

    async def _compute(self, row: ReviewRow) -> None:
        """Compute one claimed review and store it (or why it failed)."""
        key = row.key
        self._done[key] = (0, None)
        heartbeat = asyncio.create_task(self._heartbeat(key))
        try:
            await self._judge(row)
            self.computed += 1
        except asyncio.CancelledError:  # the server stops: the review goes back to the queue
            with contextlib.suppress(Exception):
                await asyncio.shield(asyncio.to_thread(self.rows.release, key, self.worker,
                                                       now=time.time()))
            raise
        except _Lost:
            log.warning("reviews: %s was taken over by another worker", _name(key))
        except BrokenProcessPool as exc:  # a review process died (killed, out of memory)
            broken, self._pool = self._pool, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            await self._failed(row, f"the review process stopped ({exc})",
                               retry=row.attempts < MAX_ATTEMPTS)
        except Exception as exc:
            if not isinstance(exc, RecordError | ValueError):
                log.exception("reviews: %s failed", _name(key))
            await self._failed(row, f"{type(exc).__name__}: {exc}")
        finally:
            heartbeat.cancel()
            self._done.pop(key, None)

    async def _failed(self, row: ReviewRow, error: str, *, retry: bool = False) -> None:
        """Store the failure (``retry``: back to the queue, the run counted)."""
        now = time.time()
        try:
            if retry:
                await asyncio.to_thread(self.rows.retry, row.key, self.worker, now=now)
            else:
                self.failed += 1
                await asyncio.to_thread(self.rows.fail, row.key, self.worker, error=error,
                                        now=now)
        except Exception:
            log.exception("reviews: cannot store that %s failed", _name(row.key))

    async def _judge(self, row: ReviewRow) -> None:
        key = row.key
        game = await asyncio.to_thread(self.store.game, key.table_id, key.number)
        if game is None or game.status != "finished" or game.record is None:
            raise ValueError("the game is not finished (a review needs its whole record)")
        record: dict[str, Any] = game.record
        table = await asyncio.to_thread(self.store.table, key.table_id)
        names = game.names or []
        person = table is not None and not str(table.seats[key.seat]).startswith("bot:")
        name = names[key.seat] if person and key.seat < len(names) else None  # a person's
        pool = self._ensure_pool()
        loop = asyncio.get_running_loop()
        level, seed, hindsight = row.level, row.seed, row.hindsight
        chunks = await loop.run_in_executor(pool, functools.partial(
            plan_review, record, [key.seat], pieces=self._pieces(), hindsight=row.hindsight))
        total = sum(chunk.decisions for chunk in chunks)
        await self._report(key, 0, total)
        futures = [loop.run_in_executor(pool, functools.partial(
            review_chunk, record, chunk, level=level, seed=seed, hindsight=hindsight))
            for chunk in chunks]
        judged = []
        try:
            for next_share in asyncio.as_completed(futures):
                judged.extend(await next_share)
                await self._report(key, len(judged), total)
        finally:
            for future in futures:
                future.cancel()
        finished = await loop.run_in_executor(pool, functools.partial(
            finish_review, record, key.seat, judged, level=level, seed=seed,
            hindsight=hindsight, name=name))
        stored = await asyncio.to_thread(
            self.rows.finish, key, self.worker, review=finished.text,
            accuracy=finished.accuracy, loss=finished.loss, done=finished.decisions,
            now=time.time())
        if not stored:
            raise _Lost

    async def _report(self, key: ReviewKey, done: int, total: int) -> None:
        self._done[key] = (done, total)
        if not await asyncio.to_thread(self.rows.progress, key, self.worker, done=done,
                                       total=total, now=time.time()):
            raise _Lost

    async def _heartbeat(self, key: ReviewKey) -> None:
        """While a review runs here: its row's heartbeat every quarter of the stale limit
        (a share may take longer than that on a busy machine)."""
        while True:
            await asyncio.sleep(self.settings.review_stale / 4)
            done, total = self._done.get(key, (0, None))
            try:
                await asyncio.to_thread(self.rows.progress, key, self.worker, done=done,
                                        total=total, now=time.time())
            except Exception:
                log.exception("reviews: no heartbeat for %s", _name(key))

    def _pieces(self) -> int:
        """Shares per review: enough for a progress bar and for every process to work."""
        return max(8, 4 * self.settings.review_workers)

    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.settings.review_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker_started, initargs=(self.settings.review_nice, os.getpid()))
        return self._pool


def _name(key: ReviewKey) -> str:
    return f"the review of seat {key.seat} of game {key.table_id}/{key.number}"
