"""The one writer of the table server: every table's changes, stored in group commits.

Each change (a :class:`~chicago.server.storage.Change`: a table's new log entries and the row
updates that go with them) is queued; one task takes everything queued (up to 1,000 changes)
and stores it with one :meth:`~chicago.server.core.ports.Storage.write` call in a worker thread,
one transaction for all of them. Each caller waits for its own change's result.
"""

from __future__ import annotations

import asyncio
import contextlib

from chicago.server.core.ports import Storage
from chicago.server.core.rows import Change

__all__ = ["GroupWriter"]

BATCH = 1000
"""Most changes stored in one transaction."""


class GroupWriter:
    """The write queue and its task (:meth:`start`, :meth:`stop`)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.commits = 0
        """Changes stored so far."""
        self.batches = 0
        """Transactions they took."""
        self._queue: asyncio.Queue[tuple[Change, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the writer task (inside the server's event loop)."""
        self._task = asyncio.create_task(self._loop(), name="chicago-writer")

    async def commit(self, change: Change) -> None:
        """Store ``change``; raises what the store raised for it
        (:class:`~chicago.server.storage.Conflict`, or the store's own failure)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((change, future))
        await future

    async def stop(self) -> None:
        """Finish the changes queued, then stop the task."""
        while not self._queue.empty():
            await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < BATCH:
                batch.append(self._queue.get_nowait())
            try:
                results = await asyncio.to_thread(self.storage.write, [c for c, _ in batch])
            except Exception as exc:  # the store itself failed
                results = [exc] * len(batch)
            self.batches += 1
            self.commits += len(batch)
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if result is None:
                    future.set_result(None)
                else:
                    future.set_exception(result)
