"""The table server's background tasks: started by any module, failures logged, all
cancelled when the server stops (after which none is started)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

__all__ = ["Tasks", "wait_woken"]

log = logging.getLogger("chicago.server")


async def wait_woken(wake: asyncio.Event, timeout: float) -> bool:
    """Wait until ``wake`` is set (True) or ``timeout`` seconds passed (False).

    For the loops that sleep between passes: unlike ``asyncio.wait_for(wake.wait(),
    timeout)``, which on Python 3.11 swallows a cancellation that comes in the same turn
    of the event loop as the wake-up (CPython gh-86296), this keeps it, so a loop cancelled
    at shutdown ends."""
    try:
        async with asyncio.timeout(timeout):
            await wake.wait()
    except TimeoutError:
        return False
    return True


class Tasks:
    """A set of running tasks. After :meth:`stop` began, :attr:`stopping` is true and
    :meth:`spawn` starts nothing."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.stopping = False

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in a task of its own (not while stopping: then it is closed unrun)."""
        if self.stopping:
            coro.close()
            return
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table task failed", exc_info=task.exception())

    async def stop(self) -> None:
        """Start no more tasks; cancel the running ones and wait until they ended."""
        self.stopping = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
