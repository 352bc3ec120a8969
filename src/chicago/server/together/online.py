"""Who is online (docs/SERVER.md, "People"): the profiles with an open page of the site.

A profile is online while this process has a site socket that said ``hello`` with it
(:mod:`chicago.server.together.site`) or a table socket of a seat tied to it, and for
:data:`GRACE` seconds of the server's clock after the last one closed (a reload or a short
loss of the network does not show it offline). Its table is the table of such a seat,
unless that table is private or over. Whether a profile is *shown* online (it opted in) is
decided where the list is read (:mod:`chicago.server.together.people`); this module only
knows who is here.

With several workers each one tells the others on the bus (topic ``online``) who is online
with it, when that changes and every :data:`ONLINE_EVERY` seconds; a worker's word older
than :data:`ONLINE_TTL` no longer counts (it died). Nothing of it is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from chicago.server.core.ports import Subscription
from chicago.server.core.state import FINISHED
from chicago.server.tables import TableManager

__all__ = ["GRACE", "ONLINE_EVERY", "ONLINE_TTL", "TOPIC", "Online"]

GRACE = 30.0
"""Seconds (server clock) a profile stays online after its last page here closed."""
ONLINE_EVERY = 10.0
"""With several workers: seconds between a worker's words on who is online with it."""
ONLINE_TTL = 3 * ONLINE_EVERY
"""Seconds after which another worker's word no longer counts."""
TOPIC = "online"
"""The bus topic of the workers' words."""

Where = dict[str, str | None]
"""Profile id -> the id of its (public, unfinished) table, or None."""


class Online:
    """The profiles online at this process, and (several workers) at the others."""

    def __init__(self, manager: TableManager, pages: Counter[str], *, shared: bool) -> None:
        self.manager = manager
        self.shared = shared
        self.worker = manager.worker
        self.pages = pages
        """Profile -> the site sockets open here that said ``hello`` with it (kept by "Your
        games", :attr:`YourGames.pages`; the sockets call :meth:`update` after a change)."""
        self._left: dict[str, float] = {}
        """Profile -> server time its last page here closed (within the grace)."""
        self._here: Where = {}
        """Who is online here, as last worked out (with the ones within the grace)."""
        self._remote: dict[str, tuple[float, Where]] = {}
        """Other workers' words: worker -> (monotonic time heard, who)."""
        self.listeners: list[Callable[[], None]] = []
        """Called when who is online (or who is shown) may have changed."""
        self._subscription: Subscription | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        manager.presence.listeners.append(lambda _table: self.update())

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Listen to the other workers (and to "who is shown" news), ask them who is
        online with them; follow the server clock for the grace."""
        self._subscription = self.manager.bus.subscribe_note(TOPIC, self._heard)
        await self._subscription.ready()
        self.manager.clock.on_moved(self.update)
        if self.shared:
            await self._announce(ask=True)
            self._task = asyncio.create_task(self._run(), name="chicago-online")

    async def stop(self) -> None:
        """Stop listening (the others forget this worker after :data:`ONLINE_TTL`)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._timer is not None:
            self._timer.cancel()
        if self._subscription is not None:
            self._subscription.close()

    # ------------------------------------------------------------------ pages here
    def _live(self) -> Where:
        """Who has a page open here now."""
        where: Where = {}
        # Walked at every hello and close, over every table held: whether a table is shown
        # is worked out only for a table with a connection of a profile's seat (a guest's
        # tables, most of them at load, cost a look at their connections' seats; issue 28,
        # forty-fifth pass).
        for table in list(self.manager.tables.values()):
            conns = table.conns
            if not conns:
                continue
            state = table.state
            seats = state.seats
            shown: bool | None = None
            for conn in list(conns):
                seat = conn.seat
                if seat is None:
                    continue
                profile = seats[seat].profile
                if profile is None:
                    continue
                if shown is None:
                    shown = not state.row.private and state.status != FINISHED
                if shown or profile not in where:
                    where[profile] = table.id if shown else None
        for profile in self.pages:
            where.setdefault(profile, None)
        return where

    def update(self) -> None:
        """Work out who is online here again (a page opened or closed, the clock moved);
        when it changed, tell the listeners and the other workers."""
        at = self.manager.clock.time()
        live = self._live()
        for profile in self._here:
            if profile not in live and profile not in self._left:
                self._left[profile] = at
        for profile in live:
            self._left.pop(profile, None)
        for profile, since in list(self._left.items()):
            if at - since >= GRACE:
                del self._left[profile]
        here: Where = {profile: None for profile in self._left}
        here.update(live)
        self._schedule(at)
        if here != self._here:
            self._here = here
            self._changed()
            if self.shared:
                self.manager.tasks.spawn(self._announce())

    def _schedule(self, at: float) -> None:
        """Wake when the first grace here runs out (the clock moving wakes it too)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._left:
            delay = max(0.0, min(self._left.values()) + GRACE - at)
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to wake
                self._timer = asyncio.get_running_loop().call_later(delay + 0.05, self.update)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    # ------------------------------------------------------------------ everyone
    def everyone(self) -> Where:
        """Who is online at any worker: profile -> its table (public, unfinished) or None."""
        at = time.monotonic()
        where: Where = dict(self._here)
        for heard, theirs in list(self._remote.values()):
            if at - heard <= ONLINE_TTL:
                for profile, table in theirs.items():
                    if where.get(profile) is None:
                        where[profile] = table
        return where

    async def shown_changed(self) -> None:
        """A profile chose to be shown online or not: every worker tells its listeners."""
        await self.manager.bus.publish_note(TOPIC, {"worker": self.worker, "shown": True})

    # ------------------------------------------------------------------ other workers
    async def _announce(self, ask: bool = False) -> None:
        note: dict[str, Any] = {"worker": self.worker, "online": dict(self._here), "ask": ask}
        await self.manager.bus.publish_note(TOPIC, note)

    def _heard(self, _topic: str, note: dict[str, Any]) -> None:
        if note.get("shown"):
            self._changed()
            return
        worker = note.get("worker")
        online = note.get("online")
        if worker == self.worker or not isinstance(worker, str) or not isinstance(online, dict):
            return
        theirs: Where = {str(p): (t if isinstance(t, str) else None) for p, t in online.items()}
        before = self._remote.get(worker, (0.0, {}))[1]
        if theirs:
            self._remote[worker] = (time.monotonic(), theirs)
        else:
            self._remote.pop(worker, None)
        if note.get("ask"):
            self.manager.tasks.spawn(self._announce())
        if theirs != before:
            self._changed()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(ONLINE_EVERY)
            if self._here:
                await self._announce()
            at = time.monotonic()
            stale = [w for w, (heard, _) in self._remote.items() if at - heard > ONLINE_TTL]
            for worker in stale:
                del self._remote[worker]
            if stale:
                self._changed()
