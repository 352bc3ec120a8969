"""A seeded game played through a :class:`~chicago.server.tables.TableManager` with recording
clients, and the replays (Resync) computed after it, for tests/server/test_replay_batches.py.

Kept in a module of its own so that the frames of the unbatched replays can be recorded
from another checkout's code (the golden file tests/data/replay_unbatched.json was made
by the code before replays took batches: ``python tests/server/replay_support.py OUT``
with that checkout's ``src`` first on ``PYTHONPATH``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from chicago import Rules
from chicago.server import Settings, fanout, protocol
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions
from chicago.server.live import LiveTable
from chicago.server.storage import Store
from chicago.server.tables import TableManager

SEATS = ["open", "bot:basic", "bot:basic", "bot:random"]
AUDIENCES = (0, None)
"""The seat's person and a spectator."""
STEP = 4
"""Every STEP-th last seq of the game is replayed from (and the last few)."""
VARYING = ("created", "updated", "ms", "id", "record")
"""The fields of frames that differ from run to run: times, and the table's id."""


@dataclass(eq=False)
class Recorder:
    """A :class:`~chicago.server.core.ports.Client` that keeps the texts it is sent."""

    seat: int | None
    batched: bool
    token_hash: str | None = None
    grant: str | None = None
    closed: bool = False
    texts: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, text: str) -> None:
        self.texts.append(text)
        self.changed.set()

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


@dataclass
class Played:
    """What one seeded game gave: each live client's texts (by audience and batched), and
    the replays computed at two moments (mid-game, in a deal's pause, and at the end):
    (moment, audience, batched, last_seq) -> texts."""

    live: dict[tuple[int | None, bool], list[str]]
    replays: dict[tuple[str, int | None, bool, int], list[str] | None]


def _replays(manager: TableManager, table: Any, moment: str, batched_too: bool,
             out: dict[tuple[str, int | None, bool, int], list[str] | None]) -> None:
    state = table.state
    loop_time = asyncio.get_running_loop().time()
    seqs = sorted(set(range(state.game_start_seq, state.seq + 1, STEP))
                  | set(range(max(state.game_start_seq, state.seq - 3), state.seq + 1)))
    for audience in AUDIENCES:
        for last_seq in seqs:
            out[(moment, audience, False, last_seq)] = fanout.replay(
                table, audience, last_seq, loop_time) or []
            if batched_too:  # None: a snapshot instead (too long an absence)
                out[(moment, audience, True, last_seq)] = fanout.replay(
                    table, audience, last_seq, loop_time, True)


@contextlib.asynccontextmanager
async def _manager(path: str) -> AsyncIterator[TableManager]:
    url = f"sqlite:///{path}"
    store = Store(url)
    store.migrate()
    manager = TableManager(store, Settings(db_url=url, seed=9, review_workers=0,
                                           resume_tables=False))
    await manager.start()
    try:
        yield manager
    finally:
        await manager.stop()


async def _new_table(manager: TableManager) -> tuple[LiveTable, str, int]:
    table = await manager.create(TableSpec(
        Rules.preset("pagat").replace(max_deals=3), SEATS, TableOptions(deal_pause=60)))
    token, seat = await manager.join(table.id, 0, "Pia")
    return table, token, seat


async def _play_game(manager: TableManager, table: LiveTable, seat: int, watch: Recorder,
                     in_pause: Callable[[int], None] = lambda moves: None) -> None:
    """The person's seeded moves until the game is over (``in_pause(moves)`` in each deal's
    pause, before Continue); ``watch``: a client of the table, whose frames are waited on
    while the bots think."""
    rng = random.Random(4)
    moves = 0
    while not table.state.current.is_over:
        game = table.state.current
        if table.state.pause is not None:
            in_pause(moves)
            await manager.continue_deal(table, seat)
        elif game.to_act == seat:
            legal = sorted(str(a) for a in game.legal_actions())
            await manager.act(table, seat, rng.choice(legal))
            moves += 1
            if moves % 5 == 0:
                await manager.chat(table, seat, f"move {moves}")
        else:
            watch.changed.clear()
            await asyncio.wait_for(watch.changed.wait(), 60)


@contextlib.asynccontextmanager
async def play_table(path: str) -> AsyncIterator[LiveTable]:
    """The seeded game of :func:`play` played to its end; the table while its manager runs
    (benchmarks/bench_replay.py)."""
    async with _manager(path) as manager:
        table, token, seat = await _new_table(manager)
        watch = Recorder(seat, False)
        await manager.hello(table, watch, token, None, False)
        await _play_game(manager, table, seat, watch)
        yield table


async def play(path: str, *, batched_too: bool = True) -> Played:
    """Play one seeded game of a person (seat 0, first legal action by a seeded choice,
    a chat line now and then, Continue after each deal) and three bots; record the live
    frames of a batched and an unbatched client for the seat and for a spectator, and the
    replays mid-game and at the end (``batched_too``: the batched replays as well)."""
    async with _manager(path) as manager:
        table, token, seat = await _new_table(manager)
        clients = {(a, b): Recorder(a, b) for a in AUDIENCES for b in (False, True)}
        for (audience, batched), client in clients.items():
            await manager.hello(table, client, token if audience == seat else None, None,
                                batched)
        replays: dict[tuple[str, int | None, bool, int], list[str] | None] = {}

        def in_pause(moves: int) -> None:
            if moves > 12 and "middle" not in {k[0] for k in replays}:
                _replays(manager, table, "middle", batched_too, replays)

        await _play_game(manager, table, seat, clients[(seat, False)], in_pause)
        _replays(manager, table, "end", batched_too, replays)
        return Played({k: c.texts for k, c in clients.items()}, replays)


def steady(value: Any) -> Any:
    """A frame (decoded) without the fields that differ from run to run."""
    if isinstance(value, dict):
        return {k: steady(v) for k, v in value.items() if k not in VARYING}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


def unbatched_golden(played: Played) -> dict[str, str]:
    """The unbatched replays, keyed ``moment/audience/last_seq``: the SHA-256 of their frames
    without what varies (each frame's JSON as the server writes it, one a line)."""
    golden = {}
    for (moment, audience, batched, last_seq), texts in played.replays.items():
        if not batched:
            assert texts is not None
            lines = "\n".join(protocol.dumps(steady(json.loads(t))) for t in texts)
            golden[f"{moment}/{audience}/{last_seq}"] = hashlib.sha256(
                lines.encode("utf-8")).hexdigest()
    return golden


if __name__ == "__main__":  # record the golden file from the code on PYTHONPATH
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        result = asyncio.run(play(f"{scratch}/golden.sqlite3", batched_too=False))
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(unbatched_golden(result), out, sort_keys=True, indent=0)
        out.write("\n")
