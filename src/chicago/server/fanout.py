"""Fan-out: the frames of a table's stored entries sent to each of this process's connections
of that table, encoded once per audience.

The frames themselves are the core's (:mod:`chicago.server.core.frames`); this module adds
the moment (the turn clock as this process runs it, the time) and the connections. For each
entry, every audience's frames are encoded once and the text is shared by that audience's
connections (:func:`send`); a reconnecting client gets exactly the frames it missed
(:func:`replay`) or a snapshot (:func:`snapshot`). docs/PROTOCOL.md describes the frames,
docs/SERVER.md ("Frames and secrecy") what each audience may see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from chicago.server import credentials, protocol
from chicago.server.core import frames
from chicago.server.core.frames import ClockInfo, Frame
from chicago.server.core.rows import LogEntry
from chicago.server.live import LiveTable

__all__ = ["broadcast", "clock_info", "encode", "replay", "send", "send_unsent", "snapshot"]


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
    """A ``snapshot`` frame for one audience, encoded."""
    return protocol.dumps(frames.snapshot(table.state, audience, reason,
                                          clock=clock_info(table, loop_time),
                                          at=table.clock.time()))


def replay(table: LiveTable, audience: int | None, last_seq: int,
           loop_time: float) -> list[str] | None:
    """The frames after ``last_seq`` for a reconnecting client, encoded, or None when only
    a snapshot will do (:func:`chicago.server.core.frames.replay`)."""
    batch = frames.replay(table.state, audience, last_seq,
                          clock=clock_info(table, loop_time), at=table.clock.time())
    return None if batch is None else encode(batch)


def send(table: LiveTable, entry: LogEntry) -> None:
    """Send the frames of an applied entry to this process's connections, once: each
    audience's frames are built and encoded once, for all its connections."""
    if entry.seq <= table.sent:
        return
    table.sent = entry.seq
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
    for conn in list(table.conns):
        audience = conn.seat
        texts = encoded.get(audience)
        if texts is None:
            seat_state = None
            if entry.kind == "act":  # the public part: made once a state (table.views)
                seat_state = protocol.seat_state(state.current, audience,
                                                 table.views.public_state(state.current))
            texts = encoded[audience] = encode(frames.entry_frames(
                state, entry, audience, with_state=True, clock=clock, at=at,
                seat_state=seat_state))
        for text in texts:
            conn.send(text)


def send_unsent(table: LiveTable) -> None:
    """Send the entries applied but not yet sent, in order (before a new connection is
    brought up to date, so that the others get them first)."""
    for entry in table.state.entries:
        if entry.seq > table.sent:
            send(table, entry)


def broadcast(table: LiveTable, frame: Frame) -> None:
    """Send one frame to every connection of the table in this process."""
    text = protocol.dumps(frame)
    for conn in list(table.conns):
        conn.send(text)
