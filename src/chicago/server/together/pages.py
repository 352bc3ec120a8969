"""Who has a page of the site open, on any worker: the profiles whose site socket said
``hello`` (:mod:`chicago.server.together.site`; the browser app opens one in every tab).

Each worker counts its own site sockets. With several workers each tells the others its
list on the bus (the note topic :data:`TOPIC`) when a profile comes or goes and every
:data:`~chicago.server.presence.PRESENCE_EVERY` seconds, asks them for theirs when it
starts, and forgets what a worker said once it has not been heard for
:data:`~chicago.server.presence.PRESENCE_TTL` seconds (it died), as table presence does. The
mail notices ask :meth:`SitePages.open` before mailing a turn (docs/SERVER.md, "Mail").
Nothing of it is stored.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

from chicago.server.core.ports import Subscription, TableBus
from chicago.server.presence import PRESENCE_EVERY, PRESENCE_TTL
from chicago.server.tasks import Tasks

__all__ = ["TOPIC", "SitePages"]

TOPIC = "pages"
"""The bus topic of the workers' notes: ``{"worker", "profiles", "ask"}``."""


class SitePages:
    """The profiles with a page of the site open: here (counted) and at the other workers
    (``shared``: their notes on the bus). ``worker``: this process's id in its notes."""

    def __init__(self, bus: TableBus, tasks: Tasks, *, shared: bool, worker: str) -> None:
        self.bus = bus
        self.shared = shared
        self.worker = worker
        self.here: Counter[str] = Counter()
        """Profiles with a site socket open in this process, and how many."""
        self._tasks = tasks
        self._there: dict[str, tuple[float, frozenset[str]]] = {}
        self._subscription: Subscription | None = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """With several workers: listen to the others, ask them for their lists, and
        repeat this worker's own."""
        if not self.shared:
            return
        self._subscription = self.bus.subscribe_note(TOPIC, self._heard)
        await self._subscription.ready()
        self._tasks.spawn(self._announce(ask=True))
        self._tasks.spawn(self._run())

    def stop(self) -> None:
        """Stop listening to the other workers."""
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None

    # ------------------------------------------------------------------ this worker
    async def opened(self, profile: str) -> None:
        """A site socket of ``profile`` said ``hello``; returns once the other workers
        have been told (when it is the profile's first here)."""
        self.here[profile] += 1
        if self.here[profile] == 1 and self.shared:
            await self._announce()

    def closed(self, profile: str) -> None:
        """A site socket of ``profile`` closed (or said ``hello`` as someone else)."""
        self.here[profile] -= 1
        if self.here[profile] <= 0:
            del self.here[profile]
            if self.shared:
                self._tasks.spawn(self._announce())

    # ------------------------------------------------------------------ questions
    def open(self, profile: str) -> bool:
        """Whether ``profile`` has a page of the site open, here or at another worker."""
        if self.here.get(profile, 0) > 0:
            return True
        return any(profile in profiles for profiles in self._heard_lately())

    def count(self) -> int:
        """How many profiles have a page of the site open (``GET /api/health``)."""
        return len(set(self.here).union(*self._heard_lately()))

    def _heard_lately(self) -> list[frozenset[str]]:
        at = time.monotonic()
        return [profiles for heard, profiles in self._there.values()
                if at - heard <= PRESENCE_TTL]

    # ------------------------------------------------------------------ other workers
    async def _announce(self, ask: bool = False) -> None:
        await self.bus.publish_note(TOPIC, {"worker": self.worker,
                                            "profiles": sorted(self.here), "ask": ask})

    def _heard(self, _topic: str, note: dict[str, Any]) -> None:
        worker, profiles = note.get("worker"), note.get("profiles")
        if not isinstance(worker, str) or worker == self.worker or not isinstance(profiles,
                                                                                  list):
            return
        if profiles:
            self._there[worker] = (time.monotonic(),
                                   frozenset(p for p in profiles if isinstance(p, str)))
        else:
            self._there.pop(worker, None)
        if note.get("ask") is True and self.here:
            self._tasks.spawn(self._announce())

    async def _run(self) -> None:
        """Repeat this worker's list; forget the workers not heard lately."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            if self.here:
                await self._announce()
            at = time.monotonic()
            for worker in [w for w, (heard, _) in self._there.items()
                           if at - heard > PRESENCE_TTL]:
                del self._there[worker]
