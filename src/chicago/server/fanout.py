"""Fan-out: the frames of a table's stored entries sent to each of this process's connections
of that table, encoded once per audience.

The frames themselves are the core's (:mod:`chicago.server.core.frames`); this module adds
the moment (the turn clock as this process runs it, the time) and the connections. For each
entry, every audience's frames are encoded once and the text is shared by that audience's
connections (:func:`send`); a reconnecting client gets exactly the frames it missed
(:func:`replay`) or a snapshot (:func:`snapshot`). docs/PROTOCOL.md describes the frames,
docs/SERVER.md ("Frames and secrecy") what each audience may see.

A connection that said ``"batch": true`` in hello (:attr:`Client.batched
<chicago.server.core.ports.Client.batched>`) gets the updates of one burst (the entries a
change stored together: a person's action and the bots' replies,
:meth:`chicago.server.cache.TableCache.store_all`) in one ``batch`` frame. While a burst is
sent (:func:`bursting`), each update is gathered per audience (:attr:`LiveTable.batches`),
with the state only when it ends a trick. The gathered updates are sent (:func:`flush`) when
the burst ends, before any other frame (a burst may wait on the bus between its entries,
and a frame of the table's seq now must not come before the updates it follows) and before
a new connection is brought up to date; the last one of each audience is then given the
state as it is, which is the state after that update's action, and the batch is encoded once
per audience. A batch's states are written as JSON text
(:func:`chicago.server.protocol.seat_state_text`, the public part once a state) and put
into the batch's text in their places (:func:`chicago.server.protocol.dumps_with_states`):
the frame's encoder never walks them. So are the updates' events
(:func:`chicago.engine.eventtext.events_text`, those the audience may see, written once per
update and audience). Another worker's burst comes from the bus in one
message and is sent as a burst here too (:meth:`chicago.server.cache.TableCache._on_entry`);
an update sent outside a burst (an entry read from the store after a gap) is a batch of one.
A replay brings a batched connection the missed updates in batches as well (:func:`replay`).
Connections that did not ask get every frame as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Iterator
from typing import Any

from chicago.server import credentials, protocol
from chicago.server.core import frames
from chicago.server.core.frames import ClockInfo, Frame
from chicago.server.core.rows import LogEntry
from chicago.server.live import LiveTable

__all__ = ["broadcast", "bursting", "clock_info", "encode", "flush", "replay", "send",
           "send_unsent", "snapshot"]


def clock_info(table: LiveTable, loop_time: float) -> ClockInfo | None:
    """The table's running turn clock at ``loop_time``: the seat and the ms left, or None."""
    if table.deadline is None:
        return None
    seat, deadline = table.deadline
    return {"seat": seat, "ms": max(0, int((deadline - loop_time) * 1000))}


def encode(batch: Iterable[Frame]) -> list[str]:
    """Frames as the JSON texts sent."""
    return [protocol.dumps(frame) for frame in batch]


def snapshot(table: LiveTable, audience: int | None, reason: str, loop_time: float) -> str:
    """A ``snapshot`` frame for one audience, encoded (the batches gathered are sent first:
    a connection never gets an update older than its snapshot after it)."""
    flush(table)
    return protocol.dumps(frames.snapshot(table.state, audience, reason,
                                          clock=clock_info(table, loop_time),
                                          at=table.clock.time()))


def replay(table: LiveTable, audience: int | None, last_seq: int,
           loop_time: float, batched: bool = False) -> list[str] | None:
    """The frames after ``last_seq`` for a reconnecting client, encoded, or None when only
    a snapshot will do (:func:`chicago.server.core.frames.replay`; ``batched``: the client
    takes batches, and gets the missed updates in batches)."""
    batch = frames.replay(table.state, audience, last_seq,
                          clock=clock_info(table, loop_time), at=table.clock.time(),
                          batched=batched)
    return None if batch is None else encode(batch)


def send(table: LiveTable, entry: LogEntry) -> None:
    """Send the frames of an applied entry to this process's connections, once: each
    audience's frames are built and encoded once, for all its connections. For the
    connections that take batches, an update is gathered instead (sent by :func:`flush`,
    at once unless a burst is being sent)."""
    if entry.seq <= table.sent:
        return
    table.sent = entry.seq
    act = entry.kind == "act"
    if not act:  # a batch holds a run of updates: what came before goes first
        flush(table)
    if not table.conns:
        return
    if entry.kind == "leave":  # the person left after a game: their connections watch on
        for conn in table.conns:
            if conn.seat == entry.seat:
                conn.seat = None
    elif entry.kind == "join":  # a claim: the connections of the old token end here
        credentials.end_replaced(table)
    state = table.state
    clock = clock_info(table, asyncio.get_running_loop().time())
    at = table.clock.time()
    encoded: dict[int | None, list[str]] = {}
    after: dict[int | None, list[str]] = {}  # per batched audience: the frames after its batch
    trick: bool | None = None
    for conn in list(table.conns):
        audience = conn.seat
        if act and conn.batched:
            if audience not in after:
                if trick is None:
                    trick = frames.ends_trick(state, entry)
                after[audience] = _gather(table, entry, audience, trick, clock, at)
            continue
        texts = encoded.get(audience)
        if texts is None:
            seat_state = None
            if act:
                seat_state = _seat_state(table, audience)
            texts = encoded[audience] = encode(frames.entry_frames(
                state, entry, audience, with_state=True, clock=clock, at=at,
                seat_state=seat_state))
        for text in texts:
            conn.send(text)
    if any(after.values()):  # the game is over: its batch, then game_over
        flush(table)
        for conn in list(table.conns):
            if conn.batched:
                for text in after.get(conn.seat, ()):
                    conn.send(text)
    elif not table.bursting:
        flush(table)


def _seat_state(table: LiveTable, audience: int | None) -> dict[str, Any]:
    """The state of the table now as ``audience`` sees it, for an update; its public part
    made once a state (:attr:`LiveTable.views`)."""
    current = table.state.current
    return protocol.seat_state(current, audience, table.views.public_state(current))


def _seat_state_text(table: LiveTable, audience: int | None) -> str:
    """:func:`_seat_state` as compact JSON text, its public part written once a state
    (:meth:`chicago.server.views.PublicViews.public_text`)."""
    current = table.state.current
    return protocol.seat_state_text(current, audience, table.views.public_text(current))


def _gather(table: LiveTable, entry: LogEntry, audience: int | None, trick: bool,
            clock: ClockInfo | None, at: float) -> list[str]:
    """Gather the update of an ``act`` entry for the batched connections of ``audience``
    (with the state if it ends a trick); the frames that follow it (``game_over``),
    encoded."""
    state = table.state
    seat_state = None
    if trick:  # its state's text kept aside, a mark in its place (flush puts it in)
        table.batch_states.setdefault(audience, []).append(_seat_state_text(table, audience))
        seat_state = protocol.STATE_MARK
    update, *rest = frames.entry_frames(
        state, entry, audience, with_state=trick, clock=clock, at=at, seat_state=seat_state,
        events_texts=table.batch_events.setdefault(audience, []))
    assert update["type"] == "update"
    table.batches.setdefault(audience, []).append(update)
    return encode(rest)


def flush(table: LiveTable) -> None:
    """Send the gathered batches, one frame per audience to its batched connections; the
    last update of each is given the table's state now (the state after its action) if it
    has none."""
    batches = table.batches
    if not batches:
        return
    states = table.batch_states
    events = table.batch_events
    table.batches = {}
    table.batch_states = {}
    table.batch_events = {}
    state = table.state
    clock = clock_info(table, asyncio.get_running_loop().time())
    at = table.clock.time()
    for audience, updates in batches.items():
        to = [conn for conn in table.conns if conn.batched and conn.seat == audience]
        if not to:  # nobody to send it to (they left): no state made, nothing encoded
            continue
        texts = states.get(audience, [])
        last = updates[-1]
        if last["state"] is None:
            texts.append(_seat_state_text(table, audience))
            updates[-1] = frames.with_state(last, state, audience, clock=clock, at=at,
                                            seat_state=protocol.STATE_MARK)
        text = protocol.dumps_with_states(frames.batch(updates), texts,
                                          events.get(audience, ()))
        for conn in to:
            conn.send(text)


@contextlib.contextmanager
def bursting(table: LiveTable) -> Iterator[None]:
    """Within: the entries sent are one burst, whose updates the batched connections get
    in one ``batch`` frame when it ends (:func:`flush`); within a burst already, part of
    that one."""
    outer = table.bursting
    table.bursting = True
    try:
        yield
    finally:
        table.bursting = outer
        if not outer:
            flush(table)


def send_unsent(table: LiveTable) -> None:
    """Send the entries applied but not yet sent, in order, and the batches gathered (before
    a new connection is brought up to date, so that the others get them first)."""
    for entry in table.state.entries:
        if entry.seq > table.sent:
            send(table, entry)
    flush(table)


def broadcast(table: LiveTable, frame: Frame) -> None:
    """Send one frame to every connection of the table in this process (after the batches
    gathered: its seq is the table's now)."""
    flush(table)
    text = protocol.dumps(frame)
    for conn in list(table.conns):
        conn.send(text)
