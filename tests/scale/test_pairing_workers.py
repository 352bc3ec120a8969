"""Pairing across workers (issue 26): two ``chicago serve`` workers on one PostgreSQL and
one Redis; people who queue on either end at one table, never two tables, never a person at
two tables (the database's pairing lock arbitrates the passes of both workers)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
import pytest
from scale_fixtures import (  # noqa: F401 (fixtures)
    pg_url_fixture,
    redis_url_fixture,
    workers_fixture,
)
from scale_support import WAIT, Worker
from websockets.asyncio.client import ClientConnection, connect

pytestmark = pytest.mark.timeout(240)


async def _queue(worker: Worker, players: int) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(f"{worker.ws}/ws/pairing", open_timeout=WAIT)
    await ws.send(json.dumps({"type": "queue", "preset": "pagat", "players": players,
                              "wait": None, "rated": False, "name": None}))
    return ws, await _until(ws, "queued")


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert frame["type"] != "error", frame
        if frame["type"] == kind:
            return frame


def test_people_on_two_workers_end_at_one_table(workers: tuple[Worker, Worker]) -> None:
    a, b = workers

    async def run() -> list[dict[str, Any]]:
        sockets = []
        for worker in (a, b, a, b):  # one at a time: the fourth completes the table
            sockets.append(await _queue(worker, 4))
        paired = [await _until(ws, "paired") for ws, _ in sockets]
        for ws, _ in sockets:
            await ws.close()
        return paired

    paired = asyncio.run(run())
    assert len({p["table"] for p in paired}) == 1
    assert sorted(p["seat"] for p in paired) == [0, 1, 2, 3]
    info = httpx.get(f"{b.url}/api/tables/{paired[0]['table']}", timeout=WAIT).json()
    assert [s["kind"] for s in info["seats"]] == ["human"] * 4


def test_a_rush_on_both_workers_seats_each_person_once(workers: tuple[Worker, Worker]) -> None:
    """Eight people at once, four on each worker, for tables of two: four tables of two,
    whichever worker's pass formed each."""
    a, b = workers

    async def run() -> list[dict[str, Any]]:
        sockets = await asyncio.gather(*(_queue(w, 2) for w in [a, b] * 4))
        paired = await asyncio.gather(*(_until(ws, "paired") for ws, _ in sockets))
        for ws, _ in sockets:
            await ws.close()
        return list(paired)

    paired = asyncio.run(run())
    tables = Counter(p["table"] for p in paired)
    assert len(tables) == 4 and set(tables.values()) == {2}
    for table_id in tables:
        seats = sorted(p["seat"] for p in paired if p["table"] == table_id)
        assert seats == [0, 1]
    assert httpx.get(f"{a.url}/api/pairing", timeout=WAIT).json()["queues"] == []
