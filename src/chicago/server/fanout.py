"""Fan-out: the frames of a table's stored entries, built once per audience and sent to each
of this process's connections of that table.

An audience is a seat or the spectators (None). For each entry the frames are built once per
audience and shared by that audience's connections (:func:`send`); a reconnecting client
gets exactly the frames it missed (:func:`replay`) or a snapshot (:func:`snapshot`).
docs/PROTOCOL.md describes the frames, docs/SERVER.md ("Frames and secrecy") what each
audience may see.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from chicago.engine.actions import Action, ActionKind
from chicago.server import protocol
from chicago.server.core.rows import LogEntry
from chicago.server.live import LiveTable

__all__ = ["broadcast", "clock_info", "entry_frames", "pause_info", "replay", "send",
           "send_unsent", "snapshot"]

_HIDDEN_KINDS = (ActionKind.DISCARD, ActionKind.ONE_UP)


def _action_kind(text: str) -> tuple[str, bool]:
    """An action's kind word, and whether its text may be shown to every seat: the cards of a
    discard (R-EX-2) or of a one-up request (V-ONE-UP) are for the actor's eyes only."""
    action = Action.parse(text)
    return action.kind.value, not (action.kind in _HIDDEN_KINDS and action.cards)


def clock_info(table: LiveTable, loop_time: float) -> dict[str, int] | None:
    """The table's running turn clock at ``loop_time``: ``{"seat", "ms"}`` left, or None."""
    if table.deadline is None:
        return None
    seat, deadline = table.deadline
    return {"seat": seat, "ms": max(0, int((deadline - loop_time) * 1000))}


def pause_info(table: LiveTable) -> dict[str, Any] | None:
    """The pause after a deal as frames carry it (``{"deal", "ms", "waiting"}``), or None."""
    return table.pause.info(time.time()) if table.pause is not None else None


def entry_frames(
    table: LiveTable, entry: LogEntry, audience: int | None, *, state: bool,
    loop_time: float, public: dict[str, Any] | None = None,
) -> list[str]:
    """The frames of one stored entry (already applied) for one audience.

    ``state``: include the update's ``state`` (true for live frames and the last frame of a
    replay; the state is the table's current one). ``public``: the game's
    :func:`~chicago.server.protocol.public_state`, when the caller shares it between
    audiences (its JSON is cached in it).
    """
    kind = entry.kind
    if kind == "act":
        game = table.current
        start, end = table.spans[entry.seq]
        events = [e.to_json() for e in game.events[start:end] if e.visible_to(audience)]
        text = entry.data["action"]
        kind, shown = _action_kind(text)
        frame: dict[str, Any] = {
            "type": "update", "seq": entry.seq, "game": entry.game, "seat": entry.seat,
            "action": text if shown or audience == entry.seat else None, "kind": kind,
            "by": entry.data.get("by", "player"), "events": events, "state": None,
            "clock": None,
        }
        if state:
            if public is None:
                public = protocol.public_state(game)
            frame["clock"] = clock_info(table, loop_time)
            frame["pause"] = pause_info(table)
            del frame["state"]
            head = protocol.dumps(frame)
            # the public part of the state is encoded once per action and shared
            public_json = public.get("__json__")
            if public_json is None:
                public_json = public["__json__"] = protocol.dumps(public)
            private = protocol.dumps(protocol.seat_state(game, audience, {}))
            out = [f'{head[:-1]},"state":{public_json[:-1]},{private[1:]}}}']
        else:
            out = [protocol.dumps(frame)]
        end_event = next((e for e in events if e["type"] == "game_end"), None)
        if end_event is not None:
            out.append(protocol.dumps({
                "type": "game_over", "seq": entry.seq, "game": entry.game,
                "winners": end_event["winners"], "scores": end_event["scores"],
                "settlement": end_event["settlement"],
                "record": f"/api/games/{table.id}/{entry.game}",
            }))
        return out
    if kind in ("join", "away", "back"):
        # status: a join that takes the last open seat starts the game ("playing");
        # clock: the turn clock as it runs now (it starts then, stops while a stand-in
        # plays, and starts again when the seat to act is given back)
        return [protocol.dumps({
            "type": "seats", "seq": entry.seq, "change": kind, "seat": entry.seat,
            "seats": table.seat_infos(), "status": table.status,
            "clock": clock_info(table, loop_time),
        })]
    if kind == "continue":
        # a person pressed Continue after a deal, or the pause ran out (seat null); the
        # next deal starts when "pause" is null, and its first turn clock with it
        return [protocol.dumps({
            "type": "continue", "seq": entry.seq, "seat": entry.seat,
            "pause": pause_info(table), "clock": clock_info(table, loop_time),
        })]
    if kind == "chat":
        seat = entry.seat if entry.seat is not None else -1
        return [protocol.dumps({
            "type": "chat", "seq": entry.seq, "seat": entry.seat,
            "name": table.seats[seat].name, "text": entry.data["text"],
        })]
    # a new game
    return [snapshot(table, audience, "rematch", loop_time)]


def snapshot(table: LiveTable, audience: int | None, reason: str, loop_time: float) -> str:
    """A ``snapshot`` frame for one audience."""
    return protocol.dumps({
        "type": "snapshot", "seq": table.seq, "reason": reason, "you": audience,
        "table": table.info(), "view": table.current.view(audience),
        "clock": clock_info(table, loop_time),
    })


def replay(table: LiveTable, audience: int | None, last_seq: int,
           loop_time: float) -> list[str] | None:
    """The frames after ``last_seq`` for a reconnecting client, or None when only a snapshot
    will do (``last_seq`` before the current game or beyond the table's seq)."""
    if last_seq < table.game_start_seq or last_seq > table.seq:
        return None
    missed = [e for e in table.entries if e.seq > last_seq]
    last_act = max((e.seq for e in missed if e.kind == "act"), default=None)
    out: list[str] = []
    for entry in missed:
        out.extend(entry_frames(table, entry, audience, state=entry.seq == last_act,
                                loop_time=loop_time))
    out.append(protocol.dumps({
        "type": "resumed", "seq": table.seq, "you": audience, "table": table.info(),
        "clock": clock_info(table, loop_time),
    }))
    return out


def send(table: LiveTable, entry: LogEntry) -> None:
    """Send the frames of an applied entry to this process's connections, once."""
    if entry.seq <= table.sent:
        return
    table.sent = entry.seq
    if not table.conns:
        return
    loop_time = asyncio.get_running_loop().time()
    cache: dict[int | None, list[str]] = {}
    public = protocol.public_state(table.current) if entry.kind == "act" else None
    for conn in list(table.conns):
        audience = conn.seat
        frames = cache.get(audience)
        if frames is None:
            frames = entry_frames(table, entry, audience, state=True, loop_time=loop_time,
                                  public=public)
            cache[audience] = frames
        for text in frames:
            conn.send(text)


def send_unsent(table: LiveTable) -> None:
    """Send the entries applied but not yet sent, in order (before a new connection is
    brought up to date, so that the others get them first)."""
    for entry in table.entries:
        if entry.seq > table.sent:
            send(table, entry)


def broadcast(table: LiveTable, text: str) -> None:
    """Send one frame to every connection of the table in this process."""
    for conn in list(table.conns):
        conn.send(text)
