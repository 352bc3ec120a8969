"""A :class:`~chicago.server.bus.TableBus` over Redis pub/sub, for several server workers.

Each table has two channels: ``{prefix}table:{id}`` carries its stored log entries and
``{prefix}presence:{id}`` its presence notes (which seats are connected to which worker); one
more, ``{prefix}revoked:site``, carries the site's revocations (every worker subscribes). A
worker subscribes to both channels of every table it has in memory (the tables its clients
watch) and publishes there. An entry's payload is the stored
:class:`~chicago.server.storage.LogEntry` as JSON, or a burst's entries in one message
(:func:`encode_burst`: a person's action and the bots' replies, so that a batched client
of another worker gets them in one batch too), a note's the
:class:`~chicago.server.bus.PresenceNote`; each carries the id of the publishing bus, which
skips its own messages (its own handlers were already called in-process, at once and in
order).

Redis only carries news; PostgreSQL is the record of truth. A message that is lost (Redis
restarted, a worker killed between storing and publishing) shows up as a gap in the sequence
numbers of the next one, and the receiving worker then reads the missing entries from the
database (:mod:`chicago.server.cache`). A lost presence note is repeated within seconds
(:mod:`chicago.server.presence`). So Redis needs no persistence.

A bus publishes on one connection, through one task (:meth:`RedisBus._flush`): the messages
asked for while a round trip is under way wait, then go in the next pipeline, in the order
they were asked for. So a crowd of tables publishing at once (their presence notes when a
worker starts) takes no connection per message, and never meets the cap of redis-py's
connection pool (docs/SCALING.md, "One publisher per bus").

The prefix keeps sites apart on one Redis server: by default it is derived from the database
(:func:`channel_prefix`), so workers share channels exactly when they share tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import make_url

from chicago.server.core.ports import (
    SITE,
    EntryHandler,
    NoteHandler,
    PresenceHandler,
    PresenceNote,
    Revocation,
    RevocationHandler,
    Subscription,
)
from chicago.server.core.rows import LogEntry
from chicago.server.tasks import wait_woken

__all__ = [
    "RedisBus",
    "channel_prefix",
    "decode_entries",
    "decode_entry",
    "decode_note",
    "decode_presence",
    "decode_revocation",
    "encode_burst",
    "encode_entry",
    "encode_note",
    "encode_presence",
    "encode_revocation",
]

log = logging.getLogger("chicago.server")

READY_TIMEOUT = 5.0
"""Seconds :meth:`_RedisSubscription.ready` waits for Redis to confirm a subscription."""

ENTRIES, PRESENCE, REVOKED, NOTES = "table:", "presence:", "revoked:", "note:"
"""The kinds of channel: a table's two, ``{prefix}{kind}{table id}``, the site's
revocations, ``{prefix}revoked:site``, and the site's notes for a person,
``{prefix}note:{topic}``."""


def channel_prefix(db_url: str) -> str:
    """``chicago:`` and a short digest of the database's host, port and name.

    >>> channel_prefix("postgresql://a:secret@db:5432/chicago") == channel_prefix(
    ...     "postgresql+psycopg://b:other@db:5432/chicago")
    True
    """
    url = make_url(db_url)
    place = f"{url.host or ''}:{url.port or ''}/{url.database or ''}"
    return "chicago:" + hashlib.sha256(place.encode("utf-8")).hexdigest()[:12] + ":"


BUS_VERSION = 2
"""The version of the entry messages this worker writes: 1 (no ``v``) is one entry; 2 is a
burst, its last entry's fields at the top level as in version 1 and the entries before it
in ``before`` (docs/SCALING.md, "The bus")."""


def _entry_fields(entry: LogEntry) -> dict[str, Any]:
    return {"seq": entry.seq, "game": entry.game, "kind": entry.kind, "seat": entry.seat,
            "data": entry.data, "created_at": entry.created_at}


def encode_entry(origin: str, entry: LogEntry) -> str:
    """The JSON payload of one published entry (version 1)."""
    return json.dumps({"origin": origin, **_entry_fields(entry)}, separators=(",", ":"))


def encode_burst(origin: str, entries: Sequence[LogEntry]) -> str:
    """The JSON payload of one burst's entries (in order, following each other): version 1
    for a single entry; else version 2, which a reader of version 1 takes for the burst's
    last entry (it then reads the others from the database, as after any lost message)."""
    *before, last = entries
    if not before:
        return encode_entry(origin, last)
    return json.dumps({"origin": origin, "v": BUS_VERSION, **_entry_fields(last),
                       "before": [_entry_fields(e) for e in before]}, separators=(",", ":"))


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"an entry's {what} must be a whole number, not {value!r}")
    return value


def _entry_of(raw: Any) -> LogEntry:
    """A :class:`LogEntry` from its fields in a payload; ``ValueError`` for wrong types."""
    if not isinstance(raw, dict):
        raise ValueError(f"an entry is a JSON object, not {type(raw).__name__}")
    seat, data, kind, at = raw["seat"], raw["data"], raw["kind"], raw["created_at"]
    if seat is not None:
        seat = _whole(seat, "seat")
    if not isinstance(data, dict) or not isinstance(kind, str):
        raise ValueError("an entry's kind is a string and its data an object")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise ValueError(f"an entry's created_at must be a number, not {at!r}")
    return LogEntry(_whole(raw["seq"], "seq"), _whole(raw["game"], "game"), kind, seat, data,
                    float(at))


def decode_entry(payload: str | bytes) -> tuple[str, LogEntry]:
    """(origin, entry) of a payload made by :func:`encode_entry`; of a later version's
    payload, its last entry (the top level of every version is one).

    >>> decode_entry(encode_entry("w1", LogEntry(3, 1, "chat", 0, {"text": "hi"}, 1.5)))
    ('w1', LogEntry(seq=3, game=1, kind='chat', seat=0, data={'text': 'hi'}, created_at=1.5))
    """
    raw = json.loads(payload)
    if not isinstance(raw, dict):
        raise ValueError(f"a bus message is a JSON object, not {type(raw).__name__}")
    return str(raw["origin"]), _entry_of(raw)


def decode_entries(payload: str | bytes) -> tuple[str, list[LogEntry]]:
    """(origin, entries) of an entry payload of any version: version 1, one entry; version
    2, a burst (``ValueError`` when its entries do not follow each other); a later version,
    its last entry only (the worker reads the rest from the database when it sees the gap).

    >>> burst = [LogEntry(4, 1, "act", 0, {"action": "play Kh"}, 2.0),
    ...          LogEntry(5, 1, "act", 1, {"action": "play 2h", "by": "bot"}, 2.0)]
    >>> decode_entries(encode_burst("w1", burst)) == ("w1", burst)
    True
    """
    raw = json.loads(payload)
    if not isinstance(raw, dict):
        raise ValueError(f"a bus message is a JSON object, not {type(raw).__name__}")
    version = _whole(raw.get("v", 1), "message version")
    last = _entry_of(raw)
    if version != BUS_VERSION:
        return str(raw["origin"]), [last]
    before = raw["before"]
    if not isinstance(before, list):
        raise ValueError("a burst's earlier entries are a list")
    entries = [*(_entry_of(e) for e in before), last]
    if any(b.seq != a.seq + 1 for a, b in itertools.pairwise(entries)):
        raise ValueError(f"a burst's entries must follow each other, not "
                         f"{[e.seq for e in entries]}")
    return str(raw["origin"]), entries


def encode_presence(origin: str, note: PresenceNote) -> str:
    """The JSON payload of one published presence note."""
    return json.dumps({"origin": origin, "worker": note.worker, "seats": sorted(note.seats),
                       "ask": note.ask}, separators=(",", ":"))


def decode_presence(payload: str | bytes) -> tuple[str, PresenceNote]:
    """(origin, note) of a payload made by :func:`encode_presence`; ``ValueError`` for
    anything else (seats that are not whole numbers, say).

    >>> decode_presence(encode_presence("b1", PresenceNote("w1", frozenset({2, 0}), True)))
    ('b1', PresenceNote(worker='w1', seats=frozenset({0, 2}), ask=True))
    """
    raw = json.loads(payload)
    seats = raw["seats"]
    if not isinstance(seats, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in seats):
        raise ValueError(f"presence seats must be a list of seat numbers, not {seats!r}")
    return str(raw["origin"]), PresenceNote(str(raw["worker"]), frozenset(seats),
                                            raw.get("ask") is True)


def encode_note(origin: str, note: dict[str, Any]) -> str:
    """The JSON payload of one published site note."""
    return json.dumps({"origin": origin, "note": note}, separators=(",", ":"))


def decode_note(payload: str | bytes) -> tuple[str, dict[str, Any]]:
    """(origin, note) of a payload made by :func:`encode_note`; ``ValueError`` for anything
    else."""
    raw = json.loads(payload)
    note = raw["note"]
    if not isinstance(note, dict):
        raise ValueError(f"a note is a JSON object, not {note!r}")
    return str(raw["origin"]), note


def encode_revocation(origin: str, note: Revocation) -> str:
    """The JSON payload of one published revocation."""
    return json.dumps({"origin": origin, "profile": note.profile, "grant": note.grant},
                      separators=(",", ":"))


def decode_revocation(payload: str | bytes) -> tuple[str, Revocation]:
    """(origin, note) of a payload made by :func:`encode_revocation`.

    >>> decode_revocation(encode_revocation("b1", Revocation("p1", "g2")))
    ('b1', Revocation(profile='p1', grant='g2'))
    """
    raw = json.loads(payload)
    profile, grant = raw["profile"], raw["grant"]
    if not isinstance(profile, str) or not isinstance(grant, str):
        raise ValueError(f"a revocation names a profile and a grant, not {raw!r}")
    return str(raw["origin"]), Revocation(profile, grant)


_DECODERS: dict[str, Callable[[str | bytes], tuple[str, Any]]] = {
    ENTRIES: decode_entries, PRESENCE: decode_presence, REVOKED: decode_revocation,
    NOTES: decode_note,
}


@dataclass(frozen=True, slots=True)
class _Outgoing:
    """A message waiting for the bus's publisher; ``done`` is resolved once it was sent
    (or its failure logged)."""

    channel: str
    payload: str
    what: str
    done: asyncio.Future[None]


def _settle(messages: Sequence[_Outgoing]) -> None:
    """Resolve the futures of ``messages`` that nobody resolved or cancelled yet."""
    for message in messages:
        if not message.done.done():
            message.done.set_result(None)


class _RedisSubscription:
    def __init__(self, bus: RedisBus, channel: str, handler: Callable[[str, Any], None]) -> None:
        self._bus = bus
        self._channel = channel
        self._handler = handler

    def close(self) -> None:
        self._bus._remove(self._channel, self._handler)

    async def ready(self) -> None:
        await self._bus._ready(self._channel)


class RedisBus:
    """The bus of several workers: in-process handlers at once, other workers via Redis.

    ``RedisBus(url, prefix)``; ``url`` like ``redis://host:6379/0``. The connection is made
    on first use, inside the server's event loop.
    """

    def __init__(self, url: str, prefix: str = "chicago:") -> None:
        self.url = url
        self.prefix = prefix
        self.origin = secrets.token_hex(8)
        """This worker's id in the payloads."""
        self._handlers: dict[str, list[Callable[[str, Any], None]]] = {}  # channel -> them
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._commands: asyncio.Lock | None = None
        self._sent: dict[str, int] = {}  # channel -> SUBSCRIBE commands sent
        self._confirmed: dict[str, int] = {}  # channel -> their confirmations received
        self._events: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._bursts: dict[str, list[LogEntry]] = {}  # table id -> a burst's entries so far
        self._outbox: list[_Outgoing] = []  # asked for, not yet handed to the publisher
        self._publisher: asyncio.Task[None] | None = None
        self.received = 0
        """Log entries from other workers handled so far (for tests and status pages)."""
        self.received_messages = 0
        """Entry messages from other workers handled so far (a burst is one)."""
        self.received_presence = 0
        """Presence notes from other workers handled so far."""
        self.dropped = 0
        """Messages dropped because they could not be read (each logged)."""

    # ------------------------------------------------------------------ TableBus
    async def publish(self, table_id: str, entry: LogEntry) -> None:
        """Call this worker's entry handlers of ``table_id``, then publish to the others
        (inside :meth:`burst`: when the burst ends, with its other entries).

        A failed publish is logged, not raised: the entry is stored, and the other workers
        read it from the database when they notice the gap.
        """
        gathered = self._bursts.get(table_id)
        if gathered is not None:
            self._call(self.prefix + ENTRIES + table_id, table_id, (entry,))
            gathered.append(entry)
            return
        await self._publish(self.prefix + ENTRIES + table_id, (entry,),
                            encode_entry(self.origin, entry), f"seq {entry.seq}")

    @contextlib.asynccontextmanager
    async def burst(self, table_id: str) -> AsyncIterator[None]:
        """Within: the entries published on ``table_id`` reach this worker's handlers at
        once and the other workers in one message when the burst ends (:func:`encode_burst`;
        also when it ends by an exception: the entries are stored)."""
        if table_id in self._bursts:  # within a burst of the table already: that one sends
            yield
            return
        gathered: list[LogEntry] = []
        self._bursts[table_id] = gathered
        try:
            yield
        finally:
            del self._bursts[table_id]
            if gathered:
                await self._send(self.prefix + ENTRIES + table_id,
                                 encode_burst(self.origin, gathered),
                                 f"seq {gathered[0].seq}-{gathered[-1].seq}")

    def subscribe(self, table_id: str, handler: EntryHandler) -> Subscription:
        """Call ``handler`` for the entries of ``table_id`` (this worker's and the others');
        the Redis subscription is made in the background (:meth:`ready` waits for it)."""
        return self._subscribe(self.prefix + ENTRIES + table_id, handler)

    async def publish_presence(self, table_id: str, note: PresenceNote) -> None:
        """Call this worker's presence handlers of ``table_id``, then publish to the others
        (a failed publish is logged: the note is repeated soon)."""
        await self._publish(self.prefix + PRESENCE + table_id, note,
                            encode_presence(self.origin, note), "presence")

    def subscribe_presence(self, table_id: str, handler: PresenceHandler) -> Subscription:
        """Call ``handler`` for the presence notes of ``table_id``."""
        return self._subscribe(self.prefix + PRESENCE + table_id, handler)

    async def publish_note(self, topic: str, note: dict[str, Any]) -> None:
        """Call this worker's note handlers of ``topic``, then publish to the others (a
        failed publish is logged: notes are news, the database holds what they tell)."""
        await self._publish(self.prefix + NOTES + topic, note, encode_note(self.origin, note),
                            "note")

    def subscribe_note(self, topic: str, handler: NoteHandler) -> Subscription:
        """Call ``handler`` for the notes of ``topic`` (this worker's and the others')."""
        return self._subscribe(self.prefix + NOTES + topic, handler)

    def note_heard(self, topic: str) -> bool:
        """Always: another worker may have a handler of ``topic`` (which this one does not
        know)."""
        return True

    async def publish_revocation(self, note: Revocation) -> None:
        """Call this worker's revocation handlers, then publish to the others (a failed
        publish is logged: the other workers' connections then end at their next
        ``hello``, which checks the grant)."""
        await self._publish(self.prefix + REVOKED + SITE, note,
                            encode_revocation(self.origin, note), "a revocation")

    def subscribe_revocations(self, handler: RevocationHandler) -> Subscription:
        """Call ``handler`` for every revocation of the site."""
        return self._subscribe(self.prefix + REVOKED + SITE, handler)

    async def close(self) -> None:
        """Stop the reader and close the connections."""
        self._closed = True
        self._handlers.clear()
        tasks = list(self._tasks)
        for task in (self._reader, self._publisher):
            if task is not None:
                tasks.append(task)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        _settle(self._outbox)
        self._outbox = []
        for resource in (self._pubsub, self._client):
            if resource is not None:
                with contextlib.suppress(Exception):
                    await resource.aclose()
        self._pubsub = self._client = None

    # ------------------------------------------------------------------ internals
    async def _publish(self, channel: str, news: Any, payload: str, what: str) -> None:
        self._call(channel, self._table_of(channel)[1], news)
        await self._send(channel, payload, what)

    def _call(self, channel: str, table_id: str, news: Any) -> None:
        """This worker's handlers of ``channel``, at once."""
        for handler in list(self._handlers.get(channel, ())):
            handler(table_id, news)

    async def _send(self, channel: str, payload: str, what: str) -> None:
        """Publish to the other workers (queued for :meth:`_flush`); returns once the
        message went to Redis, or its failure was logged."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._outbox.append(_Outgoing(channel, payload, what, done))
        if self._publisher is None or self._publisher.done():
            self._publisher = loop.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        """The bus's one publisher: until the outbox is empty, send what is in it in one
        pipeline (one round trip, one connection); a failure is logged per message (Redis
        only carries news: the receivers read lost entries from the database)."""
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                client = await self._connect()
                async with client.pipeline(transaction=False) as pipe:
                    for message in batch:
                        pipe.publish(message.channel, message.payload)
                    await pipe.execute()
            except Exception as exc:
                for message in batch:
                    log.warning("table %s: publishing %s on Redis failed: %s",
                                self._table_of(message.channel)[1], message.what, exc)
            finally:  # also when cancelled (the bus closed): nobody waits for ever
                _settle(batch)

    def _subscribe(self, channel: str, handler: Callable[[str, Any], None]) -> Subscription:
        handlers = self._handlers.setdefault(channel, [])
        handlers.append(handler)
        if len(handlers) == 1:
            self._events[channel] = asyncio.Event()
            self._spawn(self._command("SUBSCRIBE", channel))
        return _RedisSubscription(self, channel, handler)

    def _table_of(self, channel: str) -> tuple[str, str]:
        """(kind, table id) of one of this bus's table channels, or ("", "")."""
        for kind in _DECODERS:
            start = self.prefix + kind
            if channel.startswith(start):
                return kind, channel[len(start):]
        return "", ""

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _connect(self) -> Any:
        if self._client is None:
            from redis.asyncio import Redis

            self._client = Redis.from_url(self.url, health_check_interval=30)
        return self._client

    def _remove(self, channel: str, handler: Callable[[str, Any], None]) -> None:
        handlers = self._handlers.get(channel)
        if handlers and handler in handlers:
            handlers.remove(handler)
            if not handlers:
                del self._handlers[channel]
                self._events.pop(channel, None)
                if not self._closed:
                    self._spawn(self._command("UNSUBSCRIBE", channel))

    async def _command(self, command: str, channel: str) -> None:
        """SUBSCRIBE or UNSUBSCRIBE, one at a time, in the order asked; starts the reader."""
        if self._commands is None:
            self._commands = asyncio.Lock()
        async with self._commands:
            try:
                client = await self._connect()
                if self._pubsub is None:
                    self._pubsub = client.pubsub()
                    # one channel that stays subscribed, so the reader always has a stream
                    await self._pubsub.subscribe(self.prefix + "workers")
                if command == "SUBSCRIBE":
                    self._sent[channel] = self._sent.get(channel, 0) + 1
                    await self._pubsub.subscribe(channel)
                else:
                    await self._pubsub.unsubscribe(channel)
            except Exception as exc:
                log.warning("Redis %s %s failed: %s", command, channel, exc)
                return
            if self._reader is None and not self._closed:
                self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _ready(self, channel: str) -> None:
        event = self._events.get(channel)
        if event is None or event.is_set():
            return
        if not await wait_woken(event, READY_TIMEOUT):
            log.warning("Redis did not confirm the subscription to %s in %g s", channel,
                        READY_TIMEOUT)

    async def _read(self) -> None:
        """Receive messages until closed; reconnects (and resubscribes) after errors."""
        while not self._closed:
            try:
                message = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Redis bus: %s; reconnecting", exc)
                for channel, event in self._events.items():
                    event.clear()
                    self._confirmed[channel] = self._sent[channel] = 0
                await asyncio.sleep(0.5)
                continue
            if message is not None:
                self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        channel = message.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode("utf-8")
        if not isinstance(channel, str):
            return
        if kind == "subscribe":
            # after a reconnect redis-py resubscribes by itself: count those too
            self._confirmed[channel] = self._confirmed.get(channel, 0) + 1
            self._sent[channel] = max(self._sent.get(channel, 0), self._confirmed[channel])
            event = self._events.get(channel)
            if event is not None and self._confirmed[channel] >= self._sent[channel]:
                event.set()
            return
        news_kind, table_id = self._table_of(channel)
        if kind != "message" or not news_kind:
            return
        try:
            origin, news = _DECODERS[news_kind](message["data"])
        except Exception as exc:  # any payload at all: nested too deep, wrong types …
            log.warning("Redis bus: a bad message on %s dropped: %s", channel,
                        f"{type(exc).__name__}: {exc}"[:200])
            self.dropped += 1
            return
        if origin == self.origin:
            return
        if news_kind == ENTRIES:
            self.received += len(news)
            self.received_messages += 1
        elif news_kind == PRESENCE:
            self.received_presence += 1
        for handler in list(self._handlers.get(channel, ())):
            try:
                handler(table_id, news)
            except Exception:
                log.exception("table %s: handling a message on %s failed", table_id, channel)
