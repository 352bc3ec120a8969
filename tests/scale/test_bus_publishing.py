"""The Redis bus under many publishes at once (a real Redis; skipped without it).

One worker with ``--redis`` at 200 people logged "publishing presence on Redis failed: Too
many connections" for scores of tables (docs/SCALING.md, "One publisher per bus"): every
publish in flight took a connection of redis-py's pool, whose default cap (100) the
presence notes of a crowd of new tables passed. Every publish must arrive, in the order
published, whatever the number in flight, and the bus must not open a connection per
publish.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

import pytest
from scale_fixtures import redis_url_fixture  # noqa: F401 (fixtures)

from chicago.server.core.ports import PresenceNote
from chicago.server.redis_bus import RedisBus

WAIT = 60.0
"""Seconds a scenario waits for the messages before it fails: a bound for a hang."""

MANY = 400
"""Publishes in flight at once: four times redis-py's default pool cap."""


def test_many_publishes_at_once_all_arrive_in_order_on_few_connections(
        redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """:data:`MANY` presence notes for as many tables and as many notes on one topic,
    published at once (``asyncio.gather``): none fails, the other worker hears every one,
    the notes of the topic in the order they were published, and the publishing bus used
    at most two connections (its publisher and its subscriber)."""
    prefix = "chicago-test:" + secrets.token_hex(4) + ":"
    caplog.set_level(logging.WARNING, logger="chicago.server")

    async def scenario() -> dict[str, Any]:
        first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        heard: list[str] = []
        notes: list[int] = []
        changed = asyncio.Event()

        def on_presence(table_id: str, note: PresenceNote) -> None:
            heard.append(table_id)
            changed.set()

        def on_note(topic: str, note: dict[str, Any]) -> None:
            notes.append(note["n"])
            changed.set()

        try:
            subs = [second.subscribe_presence(f"t{i}", on_presence) for i in range(MANY)]
            subs.append(second.subscribe_note("turns:p:anna", on_note))
            subs.append(first.subscribe_note("turns:p:own", on_note))  # first's subscriber
            for sub in subs:
                await sub.ready()
            note = PresenceNote("w1", frozenset({0}), False)
            await asyncio.gather(
                *(first.publish_presence(f"t{i}", note) for i in range(MANY)),
                *(first.publish_note("turns:p:anna", {"n": i}) for i in range(MANY)))
            failures = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
            if not failures:
                async with asyncio.timeout(WAIT):
                    while len(heard) < MANY or len(notes) < MANY:
                        changed.clear()
                        await changed.wait()
            pool = first._client.connection_pool
            return {"failures": failures, "heard": sorted(heard), "notes": notes,
                    "connections": len(pool._available_connections)
                    + len(pool._in_use_connections)}
        finally:
            await first.close()
            await second.close()

    got = asyncio.run(scenario())
    assert got["failures"][:3] == []
    assert got["heard"] == sorted(f"t{i}" for i in range(MANY))
    assert got["notes"] == list(range(MANY))
    assert got["connections"] <= 2


def test_publishes_to_an_unreachable_redis_are_logged_and_none_waits_for_ever(
        caplog: pytest.LogCaptureFixture) -> None:
    """Hostile: Redis refuses the connection. Every publish of a crowd returns, each failure
    logged once (news only: the receivers read the database); a publish asked for as the bus
    closes returns too, and a publish after the close is logged, not raised."""
    pytest.importorskip("redis", reason="needs the cluster extra (the redis package)")
    caplog.set_level(logging.WARNING, logger="chicago.server")
    note = PresenceNote("w1", frozenset({0}), False)

    async def scenario() -> list[str]:
        bus = RedisBus("redis://127.0.0.1:1/0", "chicago-test:nowhere:")
        await asyncio.gather(*(bus.publish_presence(f"t{i}", note) for i in range(5)),
                             bus.publish_note("turns:p:anna", {"n": 1}))
        queued = asyncio.ensure_future(bus.publish_note("turns:p:anna", {"n": 2}))
        await bus.close()
        async with asyncio.timeout(WAIT):
            await queued
        await bus.publish_note("turns:p:anna", {"n": 3})
        await bus.close()
        return [r.getMessage() for r in caplog.records if "publishing" in r.getMessage()]

    failures = asyncio.run(scenario())
    assert sorted(f.split(":")[0] for f in failures[:6]) == sorted(
        [f"table t{i}" for i in range(5)] + ["table turns"])
    assert 6 <= len(failures) <= 8

