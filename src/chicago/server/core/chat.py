"""How many chat lines a seat may write: a number per game, counted in the log (so a restart
counts the same), and a rate, counted in one process's memory.

>>> limits = ChatLimits(per_game=100, per_minute=6, burst=2)
>>> allowance = ChatAllowance()
>>> chat_lines = [0, 0]
>>> allowance.take(chat_lines, 0, limits, at=0.0)
>>> allowance.take(chat_lines, 0, limits, at=0.0)
>>> try:
...     allowance.take(chat_lines, 0, limits, at=0.0)
... except TableError as refused:
...     print(refused.message)
at most 6 chat lines a minute (bursts of 2); try again in 10 s
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chicago.server.bucket import TokenBucket
from chicago.server.protocol import TableError

__all__ = ["CHAT_RETRY", "ChatAllowance", "ChatLimits"]

CHAT_RETRY = 60
"""Seconds a player whose chat lines of the game are used up is told to wait."""


@dataclass(frozen=True, slots=True)
class ChatLimits:
    """At most ``per_game`` lines a seat in one game, and ``per_minute`` lines a minute on
    average in bursts of ``burst`` (the server's settings)."""

    per_game: int
    per_minute: float
    burst: int


class ChatAllowance:
    """Per seat of one table: the chat rate's token bucket, in this process's memory only."""

    def __init__(self) -> None:
        self._buckets: dict[int, TokenBucket] = {}

    def take(self, chat_lines: Sequence[int], seat: int, limits: ChatLimits,
             at: float) -> None:
        """Allow one more chat line from ``seat`` at monotonic time ``at``, or raise
        TableError 429 ``chat_limited`` (nothing taken). ``chat_lines``: per seat, the
        lines written in the current game (:attr:`TableState.chat_lines`)."""
        if chat_lines[seat] >= limits.per_game:
            raise TableError("chat_limited", f"at most {limits.per_game} chat lines a player "
                             "in one game; the next game opens the chat again", 429,
                             retry_after=CHAT_RETRY)
        bucket = self._buckets.get(seat)
        if bucket is None:
            bucket = self._buckets[seat] = TokenBucket(limits.burst, limits.per_minute / 60.0,
                                                       at)
        wait = bucket.claim(at)
        if wait is not None:
            raise TableError("chat_limited", f"at most {limits.per_minute:g} chat lines a "
                             f"minute (bursts of {limits.burst}); try again in {wait} s", 429,
                             retry_after=wait)
