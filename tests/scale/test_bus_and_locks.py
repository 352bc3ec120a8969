"""The Redis table bus and the PostgreSQL table-writer locks on their own (real servers).

- RedisBus: an entry published by one worker reaches the other workers' handlers of that
  table once and in order (never its own handlers twice, never another table's handlers);
  presence notes go on a channel of their own and reach only presence handlers; the site's
  notes for a person ("Your games", issue 26) reach the handlers of their topic on every
  worker, and no other topic's.
- AdvisoryLocks: one holder per table at a time across connections, other tables are free,
  a holder's death (its session closed) frees the table at once, and waiting has a limit.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from scale_fixtures import pg_url_fixture, redis_url_fixture  # noqa: F401 (fixtures)
from sqlalchemy import insert

from chicago.server.core.ports import PresenceNote
from chicago.server.locking import (
    AdvisoryLocks,
    NoLocks,
    TableBusy,
    libpq_url,
    lock_key,
    make_locks,
)
from chicago.server.redis_bus import (
    RedisBus,
    channel_prefix,
    decode_entry,
    decode_note,
    decode_presence,
    encode_entry,
    encode_note,
    encode_presence,
)
from chicago.server.storage import LogEntry, Store
from chicago.server.storage.models import log as log_table
from chicago.server.storage.models import tables as tables_table


def entry(seq: int, text: str = "hi") -> LogEntry:
    return LogEntry(seq, 1, "chat", 0, {"text": text}, 1700000000.0 + seq)


WAIT = 60.0
"""Seconds a scenario waits for a message before it fails: a bound for a hang, not a pace."""


def _noting(into: list[Any], changed: asyncio.Event,
            what: Callable[[str, Any], Any]) -> Callable[[str, Any], None]:
    """A bus handler that keeps ``what(topic, message)`` in ``into`` and sets ``changed``."""
    def handler(topic: str, message: Any) -> None:
        into.append(what(topic, message))
        changed.set()
    return handler


async def _until(condition: Callable[[], bool], changed: asyncio.Event) -> None:
    """Wait until ``condition()`` holds, looked at again each time a handler set ``changed``
    (the event; never a number of looks): fails after :data:`WAIT` seconds."""
    async with asyncio.timeout(WAIT):
        while not condition():
            changed.clear()
            await changed.wait()


def test_entries_round_trip_through_the_payload() -> None:
    origin, back = decode_entry(encode_entry("w", entry(7, "é ✓")))
    assert (origin, back) == ("w", entry(7, "é ✓"))


def test_presence_notes_round_trip_and_bad_seats_are_refused() -> None:
    note = PresenceNote("w", frozenset({3, 1}), ask=True)
    assert decode_presence(encode_presence("b", note)) == ("b", note)
    with pytest.raises(ValueError):
        decode_presence('{"origin": "b", "worker": "w", "seats": [true], "ask": false}')


def test_presence_has_its_own_channel(redis_url: str) -> None:
    """A note reaches the other worker's presence handler of that table, never an entry
    handler, and an entry never a presence handler."""
    prefix = "chicago-test:" + secrets.token_hex(4) + ":"

    async def scenario() -> dict[str, list[Any]]:
        first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        got: dict[str, list[Any]] = {"entries": [], "notes": [], "own": []}
        changed = asyncio.Event()
        try:
            subs = [
                second.subscribe("t1", _noting(got["entries"], changed,
                                               lambda t, es: (t, *[e.seq for e in es]))),
                second.subscribe_presence("t1", _noting(got["notes"], changed,
                                                        lambda t, n: (t, n))),
                first.subscribe_presence("t1", _noting(got["own"], changed,
                                                       lambda t, n: n.worker)),
            ]
            for sub in subs:
                await sub.ready()
            await first.publish_presence("t1", PresenceNote("w1", frozenset({0, 2}), True))
            await first.publish("t1", entry(1))
            # Markers: Redis hands each worker's one subscriber connection its messages in
            # the order they were published, so once a worker heard a marker it has heard
            # everything published before it (a note in the wrong handler, an own note
            # back from Redis): first's entry 2 for the second worker, second's note for
            # the first.
            await first.publish("t1", entry(2))
            await _until(lambda: len(got["entries"]) == 2, changed)
            await second.publish_presence("t1", PresenceNote("w2", frozenset({1}), False))
            await _until(lambda: len(got["own"]) == 2, changed)
            got["received"] = [second.received, second.received_presence]
        finally:
            await first.close()
            await second.close()
        return got

    got = asyncio.run(scenario())
    assert got["notes"] == [("t1", PresenceNote("w1", frozenset({0, 2}), True)),
                            ("t1", PresenceNote("w2", frozenset({1}), False))]  # own: at once
    assert got["entries"] == [("t1", 1), ("t1", 2)]
    assert got["own"] == ["w1", "w2"]  # its own in-process, at once (not again from Redis)
    assert got["received"] == [2, 1]


def test_site_notes_round_trip_and_a_note_is_an_object() -> None:
    assert decode_note(encode_note("w", {"kind": "turns"})) == ("w", {"kind": "turns"})
    with pytest.raises(ValueError):
        decode_note('{"origin": "w", "note": ["turns"]}')


def test_site_notes_reach_the_other_worker_on_their_topic_only(redis_url: str) -> None:
    """A note published by one worker on a person's topic reaches the other worker's
    handlers of that topic once (and this worker's own at once), never another topic's."""
    prefix = "chicago-test:" + secrets.token_hex(4) + ":"

    async def scenario() -> dict[str, list[Any]]:
        first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        got: dict[str, list[Any]] = {"anna": [], "bo": [], "own": []}
        arrived = asyncio.Event()

        def heard(topic: str, note: dict[str, Any]) -> None:
            got["anna"].append((topic, note))
            arrived.set()

        try:
            subs = [
                second.subscribe_note("turns:p:anna", heard),
                second.subscribe_note("turns:p:bo", lambda t, n: got["bo"].append(n)),
                first.subscribe_note("turns:p:anna", lambda t, n: got["own"].append(n)),
            ]
            for sub in subs:
                await sub.ready()
            await first.publish_note("turns:p:anna", {"kind": "turns"})
            await asyncio.wait_for(arrived.wait(), WAIT)
        finally:
            await first.close()
            await second.close()
        return got

    got = asyncio.run(scenario())
    assert got["anna"] == [("turns:p:anna", {"kind": "turns"})]
    assert got["bo"] == [] and got["own"] == [{"kind": "turns"}]


def test_channel_prefix_separates_databases_not_passwords() -> None:
    one = channel_prefix("postgresql+psycopg://a:x@db:5432/chicago")
    assert one == channel_prefix("postgresql://b:y@db:5432/chicago")
    assert one != channel_prefix("postgresql://a:x@db:5432/other")
    assert "x@" not in one


def test_bus_carries_entries_to_the_other_workers_once_in_order(redis_url: str) -> None:
    prefix = "chicago-test:" + secrets.token_hex(4) + ":"  # apart from other tests

    async def scenario() -> dict[str, list[Any]]:
        first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        got: dict[str, list[Any]] = {"first": [], "second": [], "second_t2": []}
        changed = asyncio.Event()
        try:
            sub1 = first.subscribe("t1", _noting(got["first"], changed,
                                                 lambda t, es: (t, *[e.seq for e in es])))
            sub2 = second.subscribe("t1", _noting(got["second"], changed,
                                                  lambda t, es: (t, *[e.seq for e in es])))
            second.subscribe("t2", lambda t, es: got["second_t2"].append((t, es)))
            await sub1.ready()
            await sub2.ready()
            for seq in range(1, 6):
                await first.publish("t1", entry(seq))
            await first.publish("t3", entry(1))  # nobody listens
            await _until(lambda: len(got["second"]) == 5, changed)
            sub2.close()
            await second.publish("t1", entry(6))  # reaches the first worker only
            await _until(lambda: len(got["first"]) == 6, changed)
            got["received"] = [first.received, second.received]
        finally:
            await first.close()
            await second.close()
        return got

    got = asyncio.run(scenario())
    assert got["first"] == [("t1", seq) for seq in range(1, 7)]
    assert got["second"] == [("t1", seq) for seq in range(1, 6)]
    assert got["second_t2"] == []
    assert got["received"] == [1, 5]


def test_no_locks_and_make_locks() -> None:
    async def hold() -> Any:
        async with NoLocks().hold("t") as held:
            return held.last_seq

    assert asyncio.run(hold()) is None
    assert isinstance(make_locks("sqlite:///x.db", shared=False), NoLocks)
    assert isinstance(make_locks("postgresql://u@h/d", shared=True), AdvisoryLocks)
    with pytest.raises(ValueError, match="PostgreSQL"):
        make_locks("sqlite:///x.db", shared=True)
    assert lock_key("a") != lock_key("b")


def _store_with_log(pg_url: str, table_id: str, seqs: int) -> Store:
    store = Store(pg_url)
    store.migrate()
    with store.engine.begin() as conn:
        conn.execute(insert(tables_table).values(
            id=table_id, name="", players=2, preset="pagat", rules="{}", variations="[]",
            seats="[]", options="{}", private=False, secret="s", status="playing",
            open_seats=0, game=1, created_at=0.0, updated_at=0.0))
        for seq in range(1, seqs + 1):
            conn.execute(insert(log_table).values(
                table_id=table_id, seq=seq, game=1, kind="chat", seat=0, data="{}",
                created_at=0.0))
    return store


def test_advisory_locks_one_holder_per_table(pg_url: str) -> None:
    """A second holder of the same table waits for the first; another table does not; the
    holder learns the table's last stored seq."""
    store = _store_with_log(pg_url, "t1", 3)

    async def scenario() -> list[str]:
        first, second = AdvisoryLocks(pg_url), AdvisoryLocks(pg_url)
        order: list[str] = []
        try:
            entered = asyncio.Event()
            release = asyncio.Event()

            async def holder() -> None:
                async with first.hold("t1") as held:
                    order.append(f"first holds t1 at seq {held.last_seq}")
                    entered.set()
                    await release.wait()
                    order.append("first releases t1")

            async def waiter() -> None:
                await entered.wait()
                async with second.hold("t1") as held:
                    order.append(f"second holds t1 at seq {held.last_seq}")

            task = asyncio.create_task(holder())
            wait = asyncio.create_task(waiter())
            await entered.wait()
            async with second.hold("other") as held:  # another table is free
                order.append(f"second holds other at seq {held.last_seq}")
            # a chance for the waiter to take t1 while it is held (it would be listed before
            # the release); no wait for an event: the order below is the same however slow
            # the machine is, a slow one only gives the waiter fewer tries
            await asyncio.sleep(0.3)
            release.set()
            await asyncio.gather(task, wait)
        finally:
            await first.close()
            await second.close()
        return order

    try:
        order = asyncio.run(scenario())
    finally:
        store.close()
    assert order == [
        "first holds t1 at seq 3",
        "second holds other at seq 0",
        "first releases t1",
        "second holds t1 at seq 3",
    ]


def test_a_dead_holder_frees_the_table_and_waiting_has_a_limit(pg_url: str) -> None:
    """While a holder lives, another worker gives up after its timeout (TableBusy, nothing
    held); when the holder's session dies, the lock is free at once."""
    store = _store_with_log(pg_url, "t1", 1)

    async def scenario() -> list[str]:
        holder = AdvisoryLocks(pg_url)
        other = AdvisoryLocks(pg_url, timeout=0.2)
        events: list[str] = []
        try:
            context = holder.hold("t1")
            await context.__aenter__()
            with pytest.raises(TableBusy):
                async with other.hold("t1"):
                    events.append("other got it while held")
            events.append("busy")
            # the holder's worker dies: PostgreSQL ends its session (as when its process is
            # killed); this also ends the other's idle session, which it must survive
            admin = await psycopg.AsyncConnection.connect(libpq_url(pg_url), autocommit=True)
            async with admin:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                    "application_name = 'chicago table locks' AND datname = current_database()")
            async with other.hold("t1") as held:
                events.append(f"other holds t1 at seq {held.last_seq}")
            await context.__aexit__(None, None, None)  # the dead holder's unlock just fails
        finally:
            await holder.close()
            await other.close()
        return events

    try:
        events = asyncio.run(scenario())
    finally:
        store.close()
    assert events == ["busy", "other holds t1 at seq 1"]
