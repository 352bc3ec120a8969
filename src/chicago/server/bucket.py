"""A token bucket: how the server bounds how fast one client does one thing.

Used for websocket messages per connection (:mod:`chicago.server.ws`), creations per
address when they are counted in memory (:class:`chicago.server.limits.LocalLimiter`; in
Redis the same arithmetic is its Lua script) and chat lines per seat
(:class:`chicago.server.core.chat.ChatAllowance`). It starts full with ``burst`` tokens and
gains ``per_second`` tokens a second up to ``burst``; each accepted request takes one
(:meth:`TokenBucket.claim`).

>>> bucket = TokenBucket(burst=2, per_second=0.5, at=0.0)
>>> bucket.claim(0.0), bucket.claim(0.0), bucket.claim(0.0)
(None, None, 2)
>>> bucket.claim(2.0)  # one token back after two seconds
"""

from __future__ import annotations

import math

__all__ = ["NEVER", "TokenBucket"]

NEVER = 3600
"""Seconds to wait reported by a bucket that never refills (``per_second`` 0)."""


class TokenBucket:
    """``burst`` tokens at most, ``per_second`` more each second; times are
    ``time.monotonic()`` seconds (given, so that callers and tests choose the clock)."""

    __slots__ = ("burst", "per_second", "refilled", "tokens")

    def __init__(self, burst: float, per_second: float, at: float) -> None:
        self.burst = float(burst)
        self.per_second = per_second
        self.tokens = self.burst
        self.refilled = at

    def level(self, at: float) -> float:
        """The tokens at time ``at`` (refilled up to then)."""
        self.tokens = min(self.burst, self.tokens + (at - self.refilled) * self.per_second)
        self.refilled = at
        return self.tokens

    def wait(self, at: float) -> int | None:
        """None when a token is there at ``at``; else the whole seconds until one is
        (:data:`NEVER` for a bucket that does not refill). Takes nothing."""
        tokens = self.level(at)
        if tokens >= 1.0:
            return None
        if self.per_second <= 0:
            return NEVER
        return math.ceil((1.0 - tokens) / self.per_second)

    def claim(self, at: float) -> int | None:
        """Take a token at ``at`` if there is one: None; else the whole seconds until one
        is, as :meth:`wait` (nothing taken)."""
        wait = self.wait(at)
        if wait is None:
            self.tokens -= 1.0
        return wait

    def refund(self) -> None:
        """Give one token back (what it was taken for did not happen, or does not count)."""
        self.tokens = min(self.burst, self.tokens + 1.0)
