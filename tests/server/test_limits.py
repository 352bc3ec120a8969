"""The rate limiter in memory (chicago.server.limits.LocalLimiter) with a clock the test
moves: bursts, refill, refunds, the seconds to wait, and forgetting idle addresses. The same
limiter in Redis, shared by workers, is tested in tests/scale/test_shared_limits.py."""

from __future__ import annotations

import asyncio

import pytest

from chicago.server import limits
from chicago.server.bucket import NEVER
from chicago.server.limits import LocalLimiter


class Clock:
    """Monotonic seconds that only move when the test says."""

    def __init__(self) -> None:
        self.at = 100.0

    def __call__(self) -> float:
        return self.at


def takes(limiter: LocalLimiter, key: str, count: int) -> list[int | None]:
    async def run() -> list[int | None]:
        return [await limiter.take(key) for _ in range(count)]
    return asyncio.run(run())


def test_a_burst_is_allowed_at_once_then_refused_with_the_seconds_to_wait() -> None:
    clock = Clock()
    limiter = LocalLimiter("tables", burst=3, per_minute=6.0, clock=clock)  # one per 10 s
    assert takes(limiter, "a", 3) == [None, None, None]
    assert takes(limiter, "a", 2) == [10, 10]  # a refusal takes nothing
    clock.at += 4
    assert takes(limiter, "a", 1) == [6]


def test_the_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    clock = Clock()
    limiter = LocalLimiter("tables", burst=2, per_minute=6.0, clock=clock)
    assert takes(limiter, "a", 3) == [None, None, 10]
    clock.at += 10
    assert takes(limiter, "a", 2) == [None, 10]
    clock.at += 3600  # a long pause refills only up to the burst
    assert takes(limiter, "a", 3) == [None, None, 10]


def test_a_refund_gives_one_token_back_never_beyond_the_burst() -> None:
    clock = Clock()
    limiter = LocalLimiter("profiles", burst=2, per_minute=2.0, clock=clock)
    assert takes(limiter, "a", 2) == [None, None]
    asyncio.run(limiter.refund("a"))
    assert takes(limiter, "a", 2) == [None, 30]
    for _ in range(5):
        asyncio.run(limiter.refund("a"))
    assert takes(limiter, "a", 3) == [None, None, 30]
    asyncio.run(limiter.refund("never-seen"))  # nothing to give back: no error


def test_addresses_have_buckets_of_their_own() -> None:
    limiter = LocalLimiter("tables", burst=1, per_minute=1.0, clock=Clock())
    assert takes(limiter, "a", 2) == [None, 60]
    assert takes(limiter, "b", 2) == [None, 60]


def test_a_bucket_that_never_refills_says_never() -> None:
    limiter = LocalLimiter("tables", burst=1, per_minute=0.0, clock=Clock())
    assert takes(limiter, "a", 2) == [None, NEVER]


def test_full_buckets_are_forgotten_when_many_addresses_came(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays bounded: past KEEP_IDLE addresses the full (idle) buckets are dropped,
    the others kept (a forgotten bucket was full, so nothing changes for its address)."""
    monkeypatch.setattr(limits, "KEEP_IDLE", 3)
    clock = Clock()
    limiter = LocalLimiter("tables", burst=2, per_minute=6.0, clock=clock)
    takes(limiter, "busy", 2)
    takes(limiter, "idle1", 1)
    takes(limiter, "idle2", 1)
    clock.at += 10  # the idle ones are full again; busy has one of two
    takes(limiter, "new", 1)
    assert set(limiter._buckets) == {"busy", "new"}
    assert takes(limiter, "busy", 2) == [None, 10]
