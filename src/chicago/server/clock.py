"""The server's clock: UNIX time as the table server reads it, one object per server so
that tests can move it forward.

Every decision takes its time from here (:attr:`TableManager.clock`): turn clocks, the
pause after a deal, the time to answer Play again, correspondence days per move, the pairing
queue's waits. :class:`SystemClock` is the real time; :class:`ShiftedClock` runs with it but
can be moved forward (:meth:`ShiftedClock.advance`), after which everything that waits on
the clock is worked out again at once: a test moves a correspondence game on by days
without sleeping.

>>> clock = ShiftedClock()
>>> before = clock.time()
>>> clock.advance(86400)
>>> clock.time() - before >= 86400
True
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["Clock", "ShiftedClock", "SystemClock"]


class Clock(Protocol):
    """UNIX time, and who to tell when it jumps."""

    def time(self) -> float:
        """UNIX seconds now, rounded to whole microseconds (ISO times round-trip)."""
        ...

    def on_moved(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` in the running event loop whenever the clock jumps forward."""
        ...


class SystemClock:
    """The real time; it never jumps."""

    def time(self) -> float:
        """UNIX seconds now."""
        return round(time.time(), 6)

    def on_moved(self, callback: Callable[[], None]) -> None:
        """Nothing to call: the real time moves on by itself."""


class ShiftedClock:
    """The real time plus an offset that only grows (:meth:`advance`, from any thread)."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._lock = threading.Lock()
        self._callbacks: list[tuple[asyncio.AbstractEventLoop, Callable[[], None]]] = []

    def time(self) -> float:
        """UNIX seconds now, plus the offset."""
        return round(time.time() + self.offset, 6)

    def on_moved(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` in the running loop after each :meth:`advance`."""
        with self._lock:
            self._callbacks.append((asyncio.get_running_loop(), callback))

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward; whatever waits on it is worked out again."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            self.offset += seconds
            callbacks = list(self._callbacks)
        for loop, callback in callbacks:
            if not loop.is_closed():
                loop.call_soon_threadsafe(callback)
