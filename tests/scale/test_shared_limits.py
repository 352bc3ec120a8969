"""Per-address rate limits shared by every worker (chicago.server.limits.RedisLimiter, real
Redis; docs/SERVER.md "Bounded work per client"):

- the bucket in Redis bursts, refills (its time moved back in the key: Redis's clock is the
  only one it reads), refunds and says how long to wait, as the one in memory does;
- two limiters of one prefix (two workers of a site) count one bucket; another prefix (another
  site) its own; keys vanish once their bucket is full again;
- while Redis does not answer, a check is made in this worker's memory and still answers,
  with one warning line;
- two apps on one PostgreSQL and one Redis: one address creating tables, and profiles,
  through both in turn is refused after one burst in all, with Retry-After.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
import warnings
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from scale_fixtures import pg_url_fixture, redis_url_fixture  # noqa: F401 (fixtures)

with warnings.catch_warnings():  # starlette suggests httpx2, which is not needed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.limits import RedisLimiter
from chicago.server.redis_bus import channel_prefix

pytestmark = pytest.mark.timeout(120)


def fresh_prefix() -> str:
    """A prefix no other test (nor site) uses."""
    return "chicago-test:" + secrets.token_hex(6) + ":"


def with_redis(redis_url: str, scenario: Callable[[Any, Callable[[], str]], Awaitable[None]],
               *prefixes: str) -> None:
    """Run ``scenario(redis client, fresh)`` (``fresh()`` makes a new prefix), then delete
    the keys under the prefixes it made and under ``prefixes``."""
    from redis.asyncio import Redis

    made = list(prefixes)

    def fresh() -> str:
        made.append(fresh_prefix())
        return made[-1]

    async def run() -> None:
        client = Redis.from_url(redis_url)
        try:
            await scenario(client, fresh)
        finally:
            for prefix in made:
                keys = [key async for key in client.scan_iter(prefix + "*")]
                if keys:
                    await client.delete(*keys)
            await client.aclose()
    asyncio.run(run())


async def takes(limiter: RedisLimiter, key: str, count: int) -> list[int | None]:
    return [await limiter.take(key) for _ in range(count)]


def test_a_bucket_in_redis_bursts_refills_refunds_and_says_when(redis_url: str) -> None:
    async def scenario(client: Any, fresh: Callable[[], str]) -> None:
        limiter = RedisLimiter("tables", 3, 6.0, redis_url, fresh())  # one per 10 s
        try:
            assert await takes(limiter, "192.0.2.1", 3) == [None, None, None]
            assert await takes(limiter, "192.0.2.1", 2) == [10, 10]
            await limiter.refund("192.0.2.1")
            assert await takes(limiter, "192.0.2.1", 2) == [None, 10]
            # 25 seconds pass (moved in the stored time): two and a half tokens back
            key = limiter.key("192.0.2.1")
            at = float(await client.hget(key, "at"))
            await client.hset(key, "at", f"{at - 25:.6f}")
            assert await takes(limiter, "192.0.2.1", 3) == [None, None, 5]
            # a long pause refills only up to the burst
            await client.hset(key, "at", f"{at - 3600:.6f}")
            assert await takes(limiter, "192.0.2.1", 4) == [None, None, None, 10]
            assert limiter.fallback._buckets == {}  # Redis answered every check
        finally:
            await limiter.close()
    with_redis(redis_url, scenario)


def test_limiters_of_one_prefix_share_a_bucket_and_another_prefix_does_not(
        redis_url: str) -> None:
    async def scenario(client: Any, fresh: Callable[[], str]) -> None:
        prefix = fresh()
        first, second = (RedisLimiter("tables", 4, 1.0, redis_url, prefix) for _ in range(2))
        other_site = RedisLimiter("tables", 4, 1.0, redis_url, fresh())
        other_kind = RedisLimiter("profiles", 4, 1.0, redis_url, prefix)
        try:
            answers = [await (first if i % 2 else second).take("a") for i in range(5)]
            assert answers == [None, None, None, None, 60]
            assert await first.take("a") == 60 and await second.take("a") == 60
            await first.refund("a")
            assert await second.take("a") is None
            assert await takes(other_site, "a", 5) == [None] * 4 + [60]
            assert await takes(other_kind, "a", 5) == [None] * 4 + [60]
            assert await first.take("b") is None  # another address
        finally:
            for limiter in (first, second, other_site, other_kind):
                await limiter.close()
    with_redis(redis_url, scenario)


def test_a_key_expires_when_its_bucket_is_full_again(redis_url: str) -> None:
    async def scenario(client: Any, fresh: Callable[[], str]) -> None:
        slow = RedisLimiter("tables", 2, 6.0, redis_url, fresh())
        quick = RedisLimiter("tables", 1, 600.0, redis_url, fresh())  # 10 a second
        try:
            await slow.take("a")  # one token to refill at one per 10 s
            assert 9_000 < await client.pttl(slow.key("a")) <= 10_000
            await slow.refund("a")  # full again: nothing to remember
            assert await client.exists(slow.key("a")) == 0
            await quick.take("a")
            assert 0 < await client.pttl(quick.key("a")) <= 100
            deadline = time.monotonic() + 10
            while await client.exists(quick.key("a")):
                assert time.monotonic() < deadline, "the key never expired"
                await asyncio.sleep(0.02)
            assert await quick.take("a") is None  # a vanished key is a full bucket
        finally:
            await slow.close()
            await quick.close()
    with_redis(redis_url, scenario)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_redis_outage_during_a_check_falls_back_to_this_workers_memory(
        caplog: pytest.LogCaptureFixture) -> None:
    limiter = RedisLimiter("tables", 2, 6.0, f"redis://127.0.0.1:{closed_port()}/0",
                           fresh_prefix())

    async def scenario() -> list[int | None]:
        try:
            answers = await takes(limiter, "a", 3)
            await limiter.refund("a")
            return answers + await takes(limiter, "a", 2)
        finally:
            await limiter.close()
    with caplog.at_level(logging.WARNING, logger="chicago.server"):
        assert asyncio.run(scenario()) == [None, None, 10, None, 10]
    lines = [r.getMessage() for r in caplog.records if "rate limit" in r.getMessage()]
    assert len(lines) == 1 and "counting in this worker's memory" in lines[0], lines


# ---------------------------------------------------------------------- two workers
@pytest.fixture(name="two_apps")
def two_apps_fixture(pg_url: str, redis_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps (workers) of one site: one PostgreSQL database, one Redis."""
    settings = Settings(db_url=pg_url, redis_url=redis_url, static_dir=None,
                        create_burst=3, create_rate=1.0, club_creations=2)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        yield first, second
    with_redis(redis_url, _nothing, channel_prefix(pg_url) + "limit:")


async def _nothing(client: Any, fresh: Callable[[], str]) -> None:
    """No scenario: :func:`with_redis` only deletes keys."""


def test_one_address_creating_tables_through_two_workers_gets_one_burst_in_all(
        two_apps: tuple[TestClient, TestClient]) -> None:
    body = {"seats": ["open", "open"]}
    answers = [two_apps[i % 2].post("/api/tables", json=body) for i in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    refused = answers[3]
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "tables per minute" in refused.json()["error"]["message"]
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert two_apps[0].post("/api/tables", json=body).status_code == 429
    listed = two_apps[1].get("/api/tables").json()["tables"]
    assert len(listed) == 3


def test_one_address_creating_profiles_through_two_workers_gets_one_burst_in_all(
        two_apps: tuple[TestClient, TestClient]) -> None:
    answers = [two_apps[i % 2].post("/api/profiles", json={"name": f"P{i}"})
               for i in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    refused = answers[2]
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "at most 2 profiles per 60 seconds" in refused.json()["error"]["message"]
    assert 1 <= int(refused.headers["retry-after"]) <= 30
    assert two_apps[0].post("/api/profiles", json={"name": "P9"}).status_code == 429
