"""The one writer of the table server: every table's changes, stored in group commits.

Each change (a :class:`~chicago.server.storage.Change`: a table's new log entries and the row
updates that go with them) is queued; one long-lived thread of its own takes everything
queued (up to 1,000 changes) and stores it with one
:meth:`~chicago.server.core.ports.Storage.write` call, one transaction for all of them, then
hands the results back to the event loop in one callback. Each caller waits for its own
change's result, so nothing is acknowledged before it is stored.

A thread of its own rather than ``asyncio.to_thread`` per batch: the loop's side of a commit
is a queue put and, per batch, one callback (no executor, no task of the writer's, no
chain of futures), which was about a third of the loop's time spent on writes
(docs/SERVER.md, "Load on one worker").
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading

from chicago.server.core.ports import Storage
from chicago.server.core.rows import Change

__all__ = ["GroupWriter"]

BATCH = 1000
"""Most changes stored in one transaction."""

_Job = tuple[Change, asyncio.Future[None]]
_STOP = None
"""Put on the queue by :meth:`GroupWriter.stop`: the thread ends after what came before."""


class GroupWriter:
    """The write queue and its thread (:meth:`start`, :meth:`stop`)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.commits = 0
        """Changes stored so far."""
        self.batches = 0
        """Transactions they took."""
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the writer thread (from inside the server's event loop, whose callbacks
        receive the results); nothing when it runs."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._queue = queue.SimpleQueue()  # a thread of its own queue: see stop
        self._thread = threading.Thread(target=self._run,
                                        args=(self._queue, asyncio.get_running_loop()),
                                        name="chicago-writer", daemon=True)
        self._thread.start()

    async def commit(self, change: Change) -> None:
        """Store ``change``; raises what the store raised for it
        (:class:`~chicago.server.storage.Conflict`, or the store's own failure). Returns
        once the transaction holding it is committed. Starts the thread when it does not
        run (before :meth:`start`, after :meth:`stop`)."""
        if self._thread is None or not self._thread.is_alive():
            self.start()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((change, future))
        await future

    async def stop(self) -> None:
        """Store the changes queued, then end the thread. A commit meanwhile starts a new
        thread with a queue of its own, so the stop mark ends the old thread alone."""
        thread = self._thread
        if thread is None:
            return
        self._thread = None
        self._queue.put(_STOP)
        await asyncio.to_thread(thread.join)

    # ------------------------------------------------------------------ the thread
    def _run(self, jobs: queue.SimpleQueue[_Job | None],
             loop: asyncio.AbstractEventLoop) -> None:
        while True:
            first = jobs.get()
            if first is _STOP:
                return
            batch, stopping = _take(jobs, first)
            try:
                results = self.storage.write([change for change, _ in batch])
            except Exception as exc:  # the store itself failed
                results = [exc] * len(batch)
            self.batches += 1
            self.commits += len(batch)
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                loop.call_soon_threadsafe(_settle, batch, results)
            if stopping:
                return


def _take(jobs: queue.SimpleQueue[_Job | None], first: _Job) -> tuple[list[_Job], bool]:
    """``first`` and what else is queued (up to :data:`BATCH`); True when the stop mark
    came after them."""
    batch = [first]
    while len(batch) < BATCH:
        try:
            job = jobs.get_nowait()
        except queue.Empty:
            break
        if job is _STOP:
            return batch, True
        batch.append(job)
    return batch, False


def _settle(batch: list[_Job], results: list[Exception | None]) -> None:
    """In the loop: each caller's result (a caller that gave up is skipped)."""
    for (_, future), result in zip(batch, results, strict=True):
        if future.done():
            continue
        if result is None:
            future.set_result(None)
        else:
            future.set_exception(result)
