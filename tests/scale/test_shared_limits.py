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
import math
import secrets
import socket
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

WAIT = 30.0
"""Seconds a test waits for one event from Redis before it fails: the bound for a hang."""


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


class RedisTime:
    """Redis's clock, the one the buckets read: how much of it has passed since this was
    made. A bucket's waits are whole seconds, rounded up, and run down as it refills, so a
    wait checked right after the bucket emptied is the full one, and on a busy machine, which
    may take a second or more between two checks, a second less per second passed (before,
    tests asserted the full wait and a TTL within a second of it)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.start = 0.0

    async def now(self) -> float:
        seconds, micros = await self.client.time()
        return float(seconds) + micros / 1_000_000

    async def begin(self) -> RedisTime:
        self.start = await self.now()
        return self

    async def passed(self) -> float:
        return await self.now() - self.start

    async def waits(self, full: int) -> range:
        """The waits a bucket may give now that said ``full`` seconds when it emptied (at
        most what has passed since :meth:`begin` ago): ``full``, or less by what passed."""
        return range(max(1, math.ceil(full - await self.passed())), full + 1)

    async def ttls(self, full_ms: int) -> range:
        """The PTTLs (ms) a key may have now that was set to ``full_ms`` since :meth:`begin`."""
        return range(full_ms - math.ceil(await self.passed() * 1000), full_ms + 1)


async def expired(client: Any, key: str) -> Awaitable[None]:
    """Wait until Redis says it expired ``key`` (a keyspace notification: ``Ex`` is turned on
    in the test Redis) instead of asking whether it still exists. Subscribed before it
    returns; the returned awaitable waits (at most :data:`WAIT` s) for the key's event."""
    config = (await client.config_get("notify-keyspace-events"))["notify-keyspace-events"]
    if "A" not in config and not {"E", "x"} <= set(config):
        await client.config_set("notify-keyspace-events", "".join(set(config) | {"E", "x"}))
    db = client.connection_pool.connection_kwargs.get("db", 0)
    pubsub = client.pubsub()
    await pubsub.subscribe(f"__keyevent@{db}__:expired")
    await pubsub.get_message(timeout=WAIT)  # the subscription is in place
    wanted = key.encode()

    async def heard() -> None:
        try:
            while True:  # other tests' keys may expire meanwhile: wait for this one's
                message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=WAIT)
                assert message is not None, f"Redis did not expire {key} in {WAIT} s"
                if message["data"] == wanted:
                    return
        finally:
            await pubsub.aclose()
    return heard()


def test_a_bucket_in_redis_bursts_refills_refunds_and_says_when(redis_url: str) -> None:
    async def scenario(client: Any, fresh: Callable[[], str]) -> None:
        limiter = RedisLimiter("tables", 3, 6.0, redis_url, fresh())  # one per 10 s
        clock = await RedisTime(client).begin()
        try:
            assert await takes(limiter, "192.0.2.1", 3) == [None, None, None]
            waits = await takes(limiter, "192.0.2.1", 2)
            assert waits[0] >= waits[1] and set(waits) <= set(await clock.waits(10)), waits
            await limiter.refund("192.0.2.1")
            first, wait = await takes(limiter, "192.0.2.1", 2)
            assert first is None and wait in await clock.waits(10), wait
            # 25 seconds pass (moved in the stored time): two and a half tokens back
            key = limiter.key("192.0.2.1")
            at = float(await client.hget(key, "at"))
            await client.hset(key, "at", f"{at - 25:.6f}")
            *refilled, wait = await takes(limiter, "192.0.2.1", 3)
            assert refilled == [None, None] and wait in await clock.waits(5), wait
            # a long pause refills only up to the burst
            clock = await RedisTime(client).begin()
            await client.hset(key, "at", f"{at - 3600:.6f}")
            *refilled, wait = await takes(limiter, "192.0.2.1", 4)
            assert refilled == [None] * 3 and wait in await clock.waits(10), wait
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
        clock = await RedisTime(client).begin()
        try:
            answers = [await (first if i % 2 else second).take("a") for i in range(5)]
            assert answers[:4] == [None] * 4 and answers[4] in await clock.waits(60), answers
            assert await first.take("a") in await clock.waits(60)
            assert await second.take("a") in await clock.waits(60)
            await first.refund("a")
            assert await second.take("a") is None
            for limiter in (other_site, other_kind):  # counted apart: a full bucket each
                *taken, refused = await takes(limiter, "a", 5)
                assert taken == [None] * 4 and refused in await clock.waits(60), refused
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
            clock = await RedisTime(client).begin()
            await slow.take("a")  # one token to refill at one per 10 s
            assert await client.pttl(slow.key("a")) in await clock.ttls(10_000)
            await slow.refund("a")  # full again: nothing to remember
            assert await client.exists(slow.key("a")) == 0
            gone = await expired(client, quick.key("a"))
            await quick.take("a")
            # 100 ms to live, or already gone (-2) if a busy machine took longer to ask
            assert await client.pttl(quick.key("a")) <= 100
            await asyncio.wait_for(gone, 4 * WAIT)
            assert await client.exists(quick.key("a")) == 0
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
