"""One table held by this process: the table's state (:class:`~chicago.server.core.state.
TableState`, the core's) and the bookkeeping of the modules that serve it here.

The state changes only by applying stored entries (:mod:`chicago.server.cache` applies them,
after :mod:`chicago.server.tables` decided and stored them). Beside it, each field here is
one module's, documented with its owner: the lock, use and bus subscription
(:mod:`chicago.server.cache`), connections, what they were sent and the public views
(:mod:`chicago.server.fanout`), other workers' presence notes (:mod:`chicago.server.presence`),
the bot or clock timer and the bots (:mod:`chicago.server.schedule`), the chat rate
(:mod:`chicago.server.core.chat`).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from chicago.bots import Bot
from chicago.server.clock import Clock, SystemClock
from chicago.server.core.chat import ChatAllowance
from chicago.server.core.frames import UpdateFrame
from chicago.server.core.ports import Client, Subscription
from chicago.server.core.state import TableState
from chicago.server.views import PublicViews

__all__ = ["LiveTable", "now"]


def now() -> float:
    """UNIX time rounded to whole microseconds (so ISO times round-trip exactly)."""
    return round(time.time(), 6)


class LiveTable:
    """One table held by this process: its :attr:`state` and how it is served here."""

    def __init__(self, state: TableState, clock: Clock | None = None) -> None:
        self.state = state
        """The table itself, rebuilt from its log (the core's)."""
        self.id = state.id
        self.clock: Clock = clock if clock is not None else SystemClock()
        """The server's clock (the table manager's), which table infos and frames read."""
        # -- kept by chicago.server.cache: the one change at a time, use, bus subscription
        self.lock = asyncio.Lock()
        self.touched = time.monotonic()
        self.subscription: Subscription | None = None
        # -- kept by chicago.server.fanout: this process's connections, what they were sent
        self.conns: set[Client] = set()
        self.views = PublicViews()
        """The public views of the latest states, shared by the bots' views and the
        updates' states (:mod:`chicago.server.views`)."""
        self.sent = 0
        """The highest seq whose frames this process has sent its connections."""
        self.batches: dict[int | None, list[UpdateFrame]] = {}
        """The updates gathered for the batched connections, per audience, not yet sent
        (:func:`chicago.server.fanout.flush`); an update's state among them is
        :data:`chicago.server.protocol.STATE_MARK`, its text in :attr:`batch_states`; its events
        :data:`chicago.server.protocol.EVENTS_MARK`, their text in :attr:`batch_events`."""
        self.batch_states: dict[int | None, list[str]] = {}
        """Per audience, the texts of the states of its gathered updates, in order."""
        self.batch_events: dict[int | None, list[str]] = {}
        """Per audience, the texts of the events of its gathered updates, in order (their
        events are :data:`chicago.server.protocol.EVENTS_MARK`)."""
        self.bursting = False
        """A burst is being sent: the batches wait for its end."""
        # -- kept by chicago.server.presence
        self.remote: dict[str, tuple[float, frozenset[int]]] = {}
        """Other workers' connected seats: worker id -> (monotonic time heard, seats)."""
        # -- kept by chicago.server.schedule
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: tuple[int, float] | None = None  # (seat, loop time) of the turn clock
        self.bots: dict[tuple[int, str], Bot] = {}
        # -- kept by chicago.server.tables: the chat rate of each seat, in this process
        self.chat = ChatAllowance()

    def info(self) -> dict[str, Any]:
        """The table info of docs/PROTOCOL.md, now."""
        return self.state.info(self.clock.time())
