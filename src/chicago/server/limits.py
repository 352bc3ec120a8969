"""How often one client address may do one thing: a token bucket per kind and address.

Used for table creations (:mod:`chicago.server.admission`) and for profiles and tournaments
(:mod:`chicago.server.club.service`). A bucket starts full with ``burst`` tokens and gains
``per_minute`` a minute up to ``burst``; each accepted request takes one, and one that then
did not happen gives it back (:meth:`Limiter.refund`).

- :class:`LocalLimiter` counts in this process's memory (one server process, or Redis not
  configured), with :class:`~chicago.server.bucket.TokenBucket`.
- :class:`RedisLimiter` keeps the buckets in Redis, so every worker of a site counts the same
  bucket: one key ``{prefix}limit:{kind}:{address}`` (a hash of its tokens and the time they
  were counted), changed atomically by one Lua script that reads Redis's own clock
  (``TIME``), so workers whose clocks disagree still agree on the bucket. A key expires when
  its bucket would be full again, so idle addresses vanish and an expired key means exactly
  a full bucket. Should Redis fail during a check, that check is made in this worker's
  memory instead (the server keeps answering): one warning line is logged when Redis
  first fails, and one when it answers again (not one a check, which would flood the log).

:func:`make_limiter` picks the one the settings ask for.

>>> import asyncio
>>> limiter = LocalLimiter("demo", burst=2, per_minute=30.0, clock=lambda: 0.0)
>>> [asyncio.run(limiter.take("192.0.2.1")) for _ in range(3)]
[None, None, 2]
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from chicago.server.bucket import NEVER, TokenBucket
from chicago.server.redis_bus import channel_prefix
from chicago.server.settings import Settings

__all__ = ["KEEP_IDLE", "Limiter", "LocalLimiter", "RedisLimiter", "make_limiter"]

log = logging.getLogger("chicago.server")

KEEP_IDLE = 4096
"""Buckets a :class:`LocalLimiter` keeps before it forgets the full (idle) ones."""

REDIS_TIMEOUT = 1.0
"""Seconds a :class:`RedisLimiter` waits for Redis before it counts in memory instead."""

# KEYS[1]: the bucket; ARGV: burst, tokens per second, 1 to take one or 0 to give one back,
# NEVER. Returns 0 when a token was taken (or given back), else the whole seconds until one
# is. A full bucket is no key; a key expires when its bucket is full again (a bucket that
# never refills: after NEVER seconds).
_SCRIPT = """
local now = redis.call('TIME')
local at = tonumber(now[1]) + tonumber(now[2]) / 1000000
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local last = tonumber(state[2])
if tokens == nil or last == nil then
  tokens = burst
elseif at > last then
  tokens = math.min(burst, tokens + (at - last) * rate)
else
  at = last
end
local wait = 0
if ARGV[3] == '1' then
  if tokens >= 1 then
    tokens = tokens - 1
  elseif rate <= 0 then
    wait = tonumber(ARGV[4])
  else
    wait = math.ceil((1 - tokens) / rate)
  end
else
  tokens = math.min(burst, tokens + 1)
end
if tokens >= burst then
  redis.call('DEL', KEYS[1])
  return wait
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens),
           'at', string.format('%.6f', at))
local ttl = tonumber(ARGV[4]) * 1000
if rate > 0 then
  ttl = math.max(1, math.ceil((burst - tokens) / rate * 1000))
end
redis.call('PEXPIRE', KEYS[1], ttl)
return wait
"""


class Limiter(ABC):
    """``burst`` requests at once per address, ``per_minute`` more a minute (``kind``
    names what is counted: ``tables``, ``profiles``, …)."""

    def __init__(self, kind: str, burst: int, per_minute: float) -> None:
        self.kind = kind
        self.burst = burst
        self.per_minute = per_minute

    @property
    def per_second(self) -> float:
        """Tokens gained a second."""
        return self.per_minute / 60.0

    @abstractmethod
    async def take(self, key: str) -> int | None:
        """Take one token of ``key``'s bucket: None when taken, else the whole seconds
        until one is there (nothing taken)."""

    @abstractmethod
    async def refund(self, key: str) -> None:
        """Give back a token :meth:`take` took (what it was taken for did not happen)."""

    @abstractmethod
    async def close(self) -> None:
        """Release the limiter's connections."""


class LocalLimiter(Limiter):
    """The buckets in this process's memory; ``clock`` gives monotonic seconds (tests
    inject their own)."""

    def __init__(self, kind: str, burst: int, per_minute: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(kind, burst, per_minute)
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    async def take(self, key: str) -> int | None:
        """See :meth:`Limiter.take`."""
        at = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= KEEP_IDLE:
                self._forget_idle(at)
            bucket = self._buckets[key] = TokenBucket(self.burst, self.per_second, at)
        return bucket.claim(at)

    async def refund(self, key: str) -> None:
        """See :meth:`Limiter.refund`."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.level(self.clock())
            bucket.refund()

    async def close(self) -> None:
        """Nothing to release: the buckets are in memory."""

    def _forget_idle(self, at: float) -> None:
        """Forget the buckets that are full again (a new one would be the same)."""
        for key, bucket in list(self._buckets.items()):
            if bucket.level(at) >= bucket.burst:
                del self._buckets[key]


class RedisLimiter(Limiter):
    """The buckets in Redis at ``url``, shared by every limiter of the same ``prefix`` and
    ``kind`` (the workers of one site); in this worker's memory while Redis fails. The
    connection is made on first use, inside the server's event loop."""

    def __init__(self, kind: str, burst: int, per_minute: float, url: str,
                 prefix: str) -> None:
        super().__init__(kind, burst, per_minute)
        self.url = url
        self.prefix = prefix
        self.fallback = LocalLimiter(kind, burst, per_minute)
        """Counts the checks made while Redis fails."""
        self._client: Any = None
        self._script: Any = None
        self._down = False

    def key(self, address: str) -> str:
        """The Redis key of ``address``'s bucket."""
        return f"{self.prefix}limit:{self.kind}:{address}"

    async def take(self, key: str) -> int | None:
        """See :meth:`Limiter.take`."""
        try:
            wait = int(await self._run(key, take=True))
        except Exception as exc:
            self._failed("checking", exc)
            return await self.fallback.take(key)
        self._answered()
        return wait or None

    async def refund(self, key: str) -> None:
        """See :meth:`Limiter.refund`."""
        try:
            await self._run(key, take=False)
        except Exception as exc:
            self._failed("refunding", exc)
            await self.fallback.refund(key)
            return
        self._answered()

    async def close(self) -> None:
        """Close the connection to Redis."""
        client, self._client, self._script = self._client, None, None
        if client is not None:
            try:
                await client.aclose()
            except Exception as exc:  # closing a broken connection: nothing to keep
                log.debug("closing the rate limit's Redis connection: %s", exc)

    async def _run(self, key: str, *, take: bool) -> Any:
        if self._script is None:
            from redis.asyncio import Redis

            self._client = Redis.from_url(self.url, socket_timeout=REDIS_TIMEOUT,
                                          socket_connect_timeout=REDIS_TIMEOUT)
            self._script = self._client.register_script(_SCRIPT)
        return await self._script(keys=[self.key(key)], args=[
            self.burst, repr(self.per_second), "1" if take else "0", NEVER])

    def _failed(self, what: str, exc: Exception) -> None:
        if not self._down:
            self._down = True
            log.warning("rate limit %s: %s on Redis failed (%s); counting in this worker's "
                        "memory until Redis answers", self.kind, what, exc)

    def _answered(self) -> None:
        if self._down:
            self._down = False
            log.warning("rate limit %s: Redis answers again; counting there", self.kind)


def make_limiter(settings: Settings, kind: str, burst: int, per_minute: float) -> Limiter:
    """The limiter of ``kind`` the settings ask for: a :class:`RedisLimiter` under the
    deployment's prefix (:func:`~chicago.server.redis_bus.channel_prefix`, the one of its
    bus) when ``settings.redis_url`` is given, else a :class:`LocalLimiter`.

    >>> type(make_limiter(Settings(), "tables", 30, 6.0)).__name__
    'LocalLimiter'
    """
    if settings.redis_url is None:
        return LocalLimiter(kind, burst, per_minute)
    return RedisLimiter(kind, burst, per_minute, settings.redis_url,
                        channel_prefix(settings.db_url))

