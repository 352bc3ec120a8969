"""Bursts on the Redis bus (issue 28): a burst (a person's action and the bots' replies
stored with it) crosses the bus as one message, so that a batched client of another worker
than the table's writer gets one batch per burst too; the old single-entry messages stay
readable, and a worker that reads only them takes a burst for its last entry (it reads the
others from the database: a rolling restart loses nothing); a message that cannot be read
is logged and dropped, and the tables go on."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from scale_fixtures import (  # noqa: F401 (fixtures)
    pg_url_fixture,
    redis_url_fixture,
    workers_fixture,
)
from scale_support import WAIT, Player, Worker, create_table, join, play
from websockets.asyncio.client import connect

from chicago.server.redis_bus import (
    ENTRIES,
    RedisBus,
    decode_entries,
    decode_entry,
    encode_burst,
    encode_entry,
)
from chicago.server.storage import LogEntry

SEATS = ["open", "bot:basic", "bot:basic", "bot:random"]


def act(seq: int, seat: int, card: str) -> LogEntry:
    return LogEntry(seq, 1, "act", seat, {"action": f"play {card}", "by": "bot"},
                    1700000000.0 + seq)


BURST = [act(7, 0, "Kh"), act(8, 1, "2h"), act(9, 2, "5h")]


def test_a_burst_round_trips_and_single_entries_stay_readable() -> None:
    """A burst of several entries is one version-2 message; a burst of one, and every
    message of the workers before, is version 1, which reads as a burst of one."""
    assert decode_entries(encode_burst("w", BURST)) == ("w", BURST)
    single = encode_burst("w", BURST[:1])
    assert single == encode_entry("w", BURST[0])
    assert decode_entries(single) == ("w", BURST[:1])
    assert '"v"' not in single


def test_a_reader_of_single_entries_takes_a_burst_for_its_last_entry() -> None:
    """A worker that reads version 1 only (a rolling restart) reads a burst as its last
    entry: the seq after a gap, whose entries it then reads from the database. So does
    this worker with a version it does not know."""
    assert decode_entry(encode_burst("w", BURST)) == ("w", BURST[-1])
    later = json.loads(encode_burst("w", BURST))
    later["v"] = 3
    later["before"] = "something new"
    assert decode_entries(json.dumps(later)) == ("w", BURST[-1:])


BAD = [
    b"\xff\xfe not utf-8",
    "not json",
    "[1, 2]",
    "[" * 100_000 + "]" * 100_000,  # deeper than the parser goes
    json.dumps({"origin": "x"}),
    json.dumps({"origin": "x", "seq": "7", "game": 1, "kind": "act", "seat": 0,
                "data": {}, "created_at": 1.0}),
    json.dumps({"origin": "x", "seq": 7, "game": 1, "kind": "act", "seat": True,
                "data": {}, "created_at": 1.0}),
    json.dumps({"origin": "x", "seq": 7, "game": 1, "kind": "act", "seat": 0,
                "data": [], "created_at": 1.0}),
    json.dumps({"origin": "x", "seq": 7, "game": 1, "kind": "act", "seat": 0,
                "data": {}, "created_at": float("nan")}),
    json.dumps({"origin": "x", "v": "2", "seq": 7, "game": 1, "kind": "act", "seat": 0,
                "data": {}, "created_at": 1.0}),
    encode_burst("x", BURST).replace('"seq":8', '"seq":5'),  # entries out of order
    encode_burst("x", BURST).replace('"before":[', '"before":[3,'),
]


@pytest.mark.parametrize("payload", BAD, ids=range(len(BAD)))
def test_a_bad_entry_message_is_refused(payload: str | bytes) -> None:
    with pytest.raises((ValueError, KeyError, TypeError, RecursionError)):
        decode_entries(payload)


def _noting(into: list[Any], changed: asyncio.Event) -> Callable[[str, Any], None]:
    def handler(table_id: str, entries: Any) -> None:
        into.append((table_id, [e.seq for e in entries]))
        changed.set()
    return handler


async def _until(condition: Callable[[], bool], changed: asyncio.Event) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():
            changed.clear()
            await changed.wait()


def test_a_burst_reaches_the_other_worker_in_one_message_and_bad_ones_are_dropped(
        redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The publishing worker's handlers get each entry of a burst at once; the other
    worker's get the whole burst in one call when it ends. Every bad message on a table's
    channel is logged and dropped; the bus does not reconnect, and the entries after it, of
    that table and another, arrive as before."""
    prefix = "chicago-test:" + secrets.token_hex(4) + ":"

    async def scenario() -> dict[str, Any]:
        first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        own: list[Any] = []
        got: list[Any] = []
        changed = asyncio.Event()
        try:
            subs = [first.subscribe("t1", _noting(own, changed)),
                    second.subscribe("t1", _noting(got, changed)),
                    second.subscribe("t2", _noting(got, changed))]
            for sub in subs:
                await sub.ready()
            async with first.burst("t1"):
                for entry in BURST:
                    await first.publish("t1", entry)
                assert own == [("t1", [7]), ("t1", [8]), ("t1", [9])]  # at once, one by one
                assert got == []  # the others: when the burst ends
            await _until(lambda: len(got) == 1, changed)
            client = await first._connect()
            for payload in BAD:
                await client.publish(prefix + ENTRIES + "t1", payload)
            await first.publish("t1", act(10, 3, "9h"))
            await first.publish("t2", act(1, 0, "Ah"))
            await _until(lambda: len(got) == 3, changed)
            return {"got": got, "received": second.received,
                    "messages": second.received_messages, "dropped": second.dropped}
        finally:
            await first.close()
            await second.close()

    with caplog.at_level(logging.WARNING, "chicago.server"):
        result = asyncio.run(scenario())
    assert result["got"] == [("t1", [7, 8, 9]), ("t1", [10]), ("t2", [1])]
    assert (result["received"], result["messages"], result["dropped"]) == (5, 3, len(BAD))
    dropped = [r for r in caplog.records if "bad message" in r.getMessage()]
    assert len(dropped) == 2 * len(BAD)  # by each worker (both listen to the table)
    assert all(len(r.getMessage()) < 400 for r in dropped)
    assert not [r for r in caplog.records if "reconnecting" in r.getMessage()]


class BatchedPlayer(Player):
    """A :class:`Player` that takes batches (``"batch": true``) and keeps every frame."""

    def __init__(self, table_id: str, token: str | None) -> None:
        super().__init__(table_id, token)
        self.frames: list[dict[str, Any]] = []

    async def connect(self, worker: Worker) -> dict[str, Any]:
        await self.close()
        self.ws = await connect(f"{worker.ws}/ws/{self.table_id}", open_timeout=WAIT)
        self.worker = worker
        await self.send(type="hello", token=self.token, last_seq=None, batch=True)
        return await self.until(lambda f: f["type"] == "snapshot")

    def _apply(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        if frame["type"] == "batch":
            for update in frame["updates"]:
                super()._apply(update)
        else:
            super()._apply(frame)


def _ends_trick(update: dict[str, Any]) -> bool:
    return any(e["type"] == "trick" for e in update["events"])


def test_a_batched_client_of_another_worker_gets_one_batch_per_burst(
        workers: tuple[Worker, Worker], pg_url: str, redis_url: str) -> None:
    """The person plays at worker A (which stores every burst); batched connections of the
    same seat and of a spectator at worker B get one batch per burst there too, each with
    the action and every bot reply up to the person's next turn, the state on its last
    update and on those that end a trick, the same updates as the person saw, and end at
    the same view. Bad messages on the table's channel before (every one of ``BAD``) are
    dropped by both workers and change nothing."""
    from redis.asyncio import Redis

    from chicago.server.redis_bus import channel_prefix

    a, b = workers
    table = create_table(a, SEATS)["id"]
    token = join(a, table, 0)
    person = Player(table, token, seed=3)
    watchers = [BatchedPlayer(table, token), BatchedPlayer(table, None)]

    async def scenario() -> int:
        for watcher in watchers:
            await watcher.connect(b)
        await person.connect(a)
        redis = Redis.from_url(redis_url)
        try:
            for payload in BAD:
                await redis.publish(channel_prefix(pg_url) + ENTRIES + table, payload)
        finally:
            await redis.aclose()

        async def watch(watcher: BatchedPlayer) -> None:
            await watcher.until(lambda f: f["type"] == "game_over", timeout=4 * WAIT)

        moves, *_ = await asyncio.gather(play(person), *(watch(w) for w in watchers))
        for player in (person, *watchers):
            await player.close()
        return int(moves)

    moves = asyncio.run(scenario())
    assert person.over and moves > 5
    for watcher in watchers:
        assert watcher.seq == person.seq
        assert not [f for f in watcher.frames if f["type"] == "update"]
        batches = [f for f in watcher.frames if f["type"] == "batch"]
        by_player = [f for f in batches if f["updates"][0]["by"] == "player"]
        assert len(by_player) == moves
        assert len(batches) - len(by_player) <= 1  # the bots may lead the first trick
        for frame in batches:
            updates = frame["updates"]
            assert all(u["by"] != "player" for u in updates[1:])
            assert [u["seq"] for u in updates] == list(
                range(updates[0]["seq"], updates[0]["seq"] + len(updates)))
            for number, update in enumerate(updates):
                last = number == len(updates) - 1
                assert (update["state"] is not None) == (last or _ends_trick(update))
        assert sum(len(f["updates"]) for f in batches) > 3 * moves
        shown = [(s, w) for s, kind, w in person.stream if kind == "update"]
        assert [(s, w) for s, kind, w in watcher.stream if kind == "update"] == shown
    seat_view, spectator_view = watchers[0].view, watchers[1].view
    assert seat_view == person.view
    assert spectator_view is not None and not spectator_view["hand"]


DEEP = "[" * 100_000 + "]" * 100_000
"""JSON nested deeper than the parser goes: before, its RecursionError ended the bus's
reader, and the worker heard no other worker's news again, of any table."""


@pytest.mark.parametrize("kind", ["presence", "note", "revocation"])
def test_a_message_nested_too_deep_is_dropped_and_the_bus_hears_on(redis_url: str,
                                                                   kind: str) -> None:
    """On each kind of channel: a message nested too deep is dropped, and the next news of
    that kind from the other worker arrives."""
    from chicago.server.core.ports import PresenceNote, Revocation
    from chicago.server.redis_bus import NOTES, PRESENCE, REVOKED

    prefix = "chicago-test:" + secrets.token_hex(4) + ":"

    async def scenario() -> tuple[list[Any], int]:
        first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        got: list[Any] = []
        changed = asyncio.Event()

        def note(_: str, news: Any) -> None:
            got.append(news)
            changed.set()

        try:
            if kind == "presence":
                sub, channel = second.subscribe_presence("t1", note), PRESENCE + "t1"
            elif kind == "note":
                sub, channel = second.subscribe_note("topic", note), NOTES + "topic"
            else:
                sub, channel = second.subscribe_revocations(note), REVOKED + "site"
            await sub.ready()
            client = await first._connect()
            await client.publish(prefix + channel, DEEP)
            if kind == "presence":
                await first.publish_presence("t1", PresenceNote("w1", frozenset({1})))
            elif kind == "note":
                await first.publish_note("topic", {"kind": "turns"})
            else:
                await first.publish_revocation(Revocation("p1", "g1"))
            await _until(lambda: bool(got), changed)
            return got, second.dropped
        finally:
            await first.close()
            await second.close()

    got, dropped = asyncio.run(scenario())
    assert len(got) == 1 and dropped == 1
