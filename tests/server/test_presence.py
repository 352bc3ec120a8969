"""Presence (who is connected) on its own bus channel, worked out in one place.

- The in-process bus keeps entries and presence notes apart: an entry handler never sees a
  note and a presence handler never sees an entry.
- ``Presence``: a seat is connected when it is a bot's, or a person's connected here or at
  another worker that said so in the last ``PRESENCE_TTL`` seconds; a change is kept in
  ``TableState.connected`` and told to the table's clients once; another worker's note that
  asks is answered; a dead worker's note stops counting.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core.ports import PresenceNote
from chicago.server.core.state import TableState
from chicago.server.live import LiveTable
from chicago.server.presence import PRESENCE_TTL, Presence
from chicago.server.storage import LogEntry, TableRow
from chicago.server.tasks import Tasks

WAIT = 30.0
"""Seconds a test waits for one note before it fails: the bound for a hang."""


class FakeClient:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.token_hash: str | None = None
        self.grant: str | None = None
        self.closed = False
        self.batched = False
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def _table(seats: list[str]) -> LiveTable:
    row = TableRow(
        id="t1", name="", players=len(seats), preset="pagat",
        rules=Rules.preset("pagat").to_dict(), variations=[], seats=seats,
        options={"clock": None, "stand_in": "random", "bot_delay": 0}, private=False,
        secret="s" * 32, status="waiting", open_seats=seats.count("open"), game=1,
        created_at=0.0, updated_at=0.0,
    )
    state = TableState(row)
    state.apply(LogEntry(1, 1, "game", None, {"number": 1, "seed": 7}, 0.0))
    return LiveTable(state)


def test_the_in_process_bus_keeps_entries_and_presence_apart() -> None:
    async def scenario() -> tuple[list[Any], list[Any]]:
        bus = InProcessBus()
        entries: list[Any] = []
        notes: list[Any] = []
        bus.subscribe("t1", lambda t, es: entries.extend((t, e.seq) for e in es))
        sub = bus.subscribe_presence("t1", lambda t, n: notes.append((t, n.worker)))
        bus.subscribe_presence("t2", lambda t, n: notes.append((t, "wrong table")))
        await bus.publish("t1", LogEntry(1, 1, "chat", 0, {"text": "hi"}, 0.0))
        await bus.publish_presence("t1", PresenceNote("w1", frozenset({0})))
        sub.close()
        await bus.publish_presence("t1", PresenceNote("w2", frozenset()))
        await bus.close()
        return entries, notes

    entries, notes = asyncio.run(scenario())
    assert entries == [("t1", 1)]
    assert notes == [("t1", "w1")]


def test_presence_is_worked_out_once_and_told_on_change() -> None:
    """Bots count as connected; a connection here, then another worker's note, make a seat
    connected; each change is one presence frame; a repeated note changes nothing."""

    async def scenario() -> tuple[LiveTable, FakeClient, list[PresenceNote], list[bool]]:
        bus, tasks = InProcessBus(), Tasks()
        told: list[PresenceNote] = []
        heard = asyncio.Event()

        def hear(_table: str, note: PresenceNote) -> None:
            told.append(note)
            heard.set()

        async def until_told(note: PresenceNote, count: int = 1) -> None:
            """Until ``note`` was published ``count`` times (a task of Presence publishes
            it): the event, not a moment that is usually long enough."""
            while told.count(note) < count:
                heard.clear()
                await asyncio.wait_for(heard.wait(), WAIT)

        bus.subscribe_presence("t1", hear)
        presence = Presence(bus, tasks, shared=True, worker="here")
        table = _table(["open", "open", "bot:random"])
        presence.track(table)
        initial = list(table.state.connected)
        await until_told(PresenceNote("here", frozenset(), ask=True))  # its question
        watcher = FakeClient(None)
        table.conns.add(watcher)
        player = FakeClient(0)
        table.conns.add(player)
        presence.changed(table)  # seat 0 connected here
        await until_told(PresenceNote("here", frozenset({0})))
        await bus.publish_presence("t1", PresenceNote("there", frozenset({1}), ask=True))
        await bus.publish_presence("t1", PresenceNote("there", frozenset({1})))  # no change
        await until_told(PresenceNote("here", frozenset({0})), 2)  # the answer to "ask"
        await tasks.stop()
        return table, watcher, told, initial

    table, watcher, told, initial = asyncio.run(scenario())
    assert initial == [False, False, True]
    assert table.state.connected == [True, True, True]
    assert [f["connected"] for f in watcher.frames if f["type"] == "presence"] == [
        [True, False, True], [True, True, True]]
    mine = [n for n in told if n.worker == "here"]
    assert mine[0] == PresenceNote("here", frozenset(), ask=True)  # on track: who is there?
    assert PresenceNote("here", frozenset({0})) in mine[1:]  # on change, and as the answer


def test_a_dead_workers_note_stops_counting() -> None:
    table = _table(["open", "open"])
    # A round instant: ``heard + PRESENCE_TTL - heard`` is exactly the TTL (with an arbitrary
    # monotonic reading it can round to a hair above it, and the note would count as stale).
    heard = 1000.0
    table.remote["gone"] = (heard, frozenset({1}))
    assert Presence.connected(table, heard + PRESENCE_TTL) == [False, True]
    assert Presence.connected(table, heard + PRESENCE_TTL + 0.1) == [False, False]
