"""The table's stored game never keeps its shared logs in segments (issue 28, twenty-ninth
pass).

The server decides a person's action and the bots' replies on a preview, each on a copy of
the game before it (:meth:`chicago.server.tables.TableManager._replies`), then applies the
very games the preview made to the table's state: each game is a copy of the one before,
with one action more. A game shares its actions and event records with its copies and
goes on in a segment of its own only when a copy went on first
(:mod:`chicago.engine.segments`); a chain of copies, each going on once after the one
before, never does. This plays whole games of one person and three ``basic`` bots through
the table manager, as ``chicago serve`` has it, and checks after every change stored that
the table's game reads its actions and records from one list, that the parts the server
reads of it (the last action, an action's events) are what the whole log says, and that
its actions are those stored in the table's log (docs/SERVER.md, the twenty-ninth pass).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from chicago.engine.game import Game
from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core.decide import TableSpec
from chicago.server.core.rows import Change
from chicago.server.core.seats import TableOptions
from chicago.server.live import LiveTable
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage.store import Store
from chicago.server.tables import TableManager

SEATS = ["open", "bot:basic", "bot:basic", "bot:basic"]


class Person:
    """A batched client of seat 0 that acts at once with a random legal action, presses
    Continue after a deal and notes the game's end."""

    def __init__(self, manager: TableManager, table: LiveTable, seed: int) -> None:
        self.manager, self.table, self.seat = manager, table, 0
        self.rng = random.Random(seed)
        self.batched = False
        self.over = asyncio.Event()
        self.legal: list[str] = []
        self.paused = False
        self.acted_at: set[int] = set()
        self.refused: list[TableError] = []

    def send(self, text: str) -> None:
        frame = json.loads(text)
        if frame["type"] == "batch":  # its last update has the state
            frame = frame["updates"][-1]
        if frame["type"] == "game_over":
            self.over.set()
            return
        state = frame.get("view") or frame.get("state")
        if state is not None:
            self.legal = state["legal_actions"]
        if "pause" in frame or "table" in frame:
            pause = frame["table"]["pause"] if "table" in frame else frame.get("pause")
            self.paused = pause is not None
            if pause is not None and self.seat in pause["waiting"]:
                self._spawn(self.manager.continue_deal, self.seat)
        seq = frame["seq"]
        if state is not None and self.legal and not self.paused and seq not in self.acted_at:
            self.acted_at.add(seq)
            self._spawn(self.manager.act, self.seat, self.rng.choice(self.legal), seq)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Nothing to close."""

    def _spawn(self, request: Any, *args: Any) -> None:
        async def run() -> None:
            try:
                await request(self.table, *args)
            except TableError as exc:
                self.refused.append(exc)

        asyncio.get_running_loop().create_task(run())


def _flat(game: Game) -> bool:
    """Whether the game reads its actions and event records from one list each (no
    finished segments: :mod:`chicago.engine.segments`)."""
    return (game._action_base == () and game._action_offset == 0
            and game._pending_base == () and game._pending_offset == 0)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_stored_game_goes_on_in_one_list(tmp_path: Path, seed: int) -> None:
    db = tmp_path / "logs.sqlite3"
    store = Store(f"sqlite:///{db}")
    store.migrate()
    checked: list[int] = []
    forked: list[tuple[int, int, int]] = []  # seq, segments of actions, of records

    def stored(table: LiveTable, change: Change, before: int | None) -> None:
        game = table.state.current
        checked.append(table.state.seq)
        if not _flat(game):
            forked.append((table.state.seq, len(game._action_base) // 2,
                           len(game._pending_base) // 2))
        count = game.action_count
        if count:  # what the server reads of it: the last action, an action's events
            assert game.actions_between(-1) == game.actions[-1:]
            for seq, (start, end) in table.state.spans.items():
                if seq == table.state.seq:
                    assert game.events_between(start, end) == game.events[start:end]

    async def scenario() -> tuple[TableManager, LiveTable, Person]:
        settings = Settings(db_url=f"sqlite:///{db}", seed=seed, review_workers=0,
                            resume_tables=False, bot_threads=False)
        manager = TableManager(store, settings, InProcessBus())
        await manager.start()
        manager.cache.stored.append(stored)
        table = await manager.create(TableSpec(Rules.preset("pagat"), SEATS, TableOptions()))
        token, seat = await manager.join(table.id, 0, "p")
        assert seat == 0
        person = Person(manager, table, seed)
        await manager.hello(table, person, token, None, True)
        await asyncio.wait_for(person.over.wait(), 300)
        await manager.stop()
        return manager, table, person

    _, table, person = asyncio.run(scenario())
    game = table.state.current
    assert game.is_over and person.refused == []
    assert len(checked) > 100  # a whole game, change by change
    assert forked == []
    assert _flat(game)
    acts = [e for e in store.load(table.id).entries  # type: ignore[union-attr]
            if e.kind == "act" and e.game == table.state.game_number]
    assert [str(action) for _, action in game.actions] == [e.data["action"] for e in acts]
