"""A tournament on two ``chicago serve`` workers (one PostgreSQL, one Redis; docs/CLUB.md):
the player seated through one worker reconnects through the other and finishes the game;
when the round's last game ends, both workers try to move the tournament on at once (and
keep trying), and the next round starts exactly once: one round row, one set of tables.
Then the organizer ends the three-round tournament after round 2 through one worker; the
player finishes round 2 through the other while both keep trying to move on: the
tournament finishes exactly once after round 2, and no round 3 starts on either worker."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from scale_fixtures import (  # noqa: F401 (fixtures)
    pg_url_fixture,
    redis_url_fixture,
    workers_fixture,
)
from scale_support import WAIT, Player, Worker, play
from sqlalchemy import select

from chicago.server.storage import Store
from chicago.server.storage.club import ClubStore
from chicago.server.storage.models import tables

pytestmark = pytest.mark.timeout(240)


def _post(worker: Worker, path: str, body: Any = None, **headers: str) -> Any:
    response = httpx.post(worker.url + path, json=body, headers=headers, timeout=WAIT)
    assert response.status_code in (200, 201), response.text
    return response.json()


def _state(worker: Worker, tid: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{worker.url}/api/tournaments/{tid}",
                                     timeout=WAIT).json()
    return data


def test_a_round_moves_on_exactly_once_when_both_workers_try(
        workers: tuple[Worker, Worker], pg_url: str) -> None:
    a, b = workers
    secret = _post(a, "/api/profiles", {"name": "Anna"})["secret"]
    created = _post(a, "/api/tournaments", {
        "name": "Two workers", "tables": 2, "table_size": 2, "rounds": 3, "deals": 1,
        "duplicate": True, "bot": "basic", "clock": None, "bot_delay": 0})
    tid, organizer = created["tournament"]["id"], created["organizer_secret"]
    _post(b, f"/api/tournaments/{tid}/join", **{"X-Chicago-Profile": secret})
    _post(b, f"/api/tournaments/{tid}/start", **{"X-Chicago-Organizer": organizer})
    seat = _post(a, f"/api/tournaments/{tid}/seat", **{"X-Chicago-Profile": secret})
    player = Player(seat["table"], seat["token"], seed=5)
    attempts: list[bool] = []
    stop = False

    def hammer(worker: Worker, done: Any) -> None:
        """Ask the worker to move the tournament on, again and again, until done(state)."""
        while not stop:
            response = httpx.post(f"{worker.url}/api/tournaments/{tid}/advance",
                                  headers={"X-Chicago-Organizer": organizer}, timeout=WAIT)
            assert response.status_code == 200, response.text
            attempts.append(bool(response.json()["advanced"]))
            if done(response.json()["tournament"]):
                return

    async def scenario() -> None:
        await player.connect(a)  # seated through worker A …
        await play(player, stop=lambda p: p.seq >= 6)
        await player.connect(b)  # … reconnects through worker B and finishes there
        assert player.you == seat["seat"]
        await play(player)

    def race(done: Any, what: str, game: Any) -> None:
        """Both workers hammer ``advance`` while ``game`` is played, until done(state)."""
        nonlocal stop
        stop = False
        attempts.clear()
        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(hammer, w, done) for w in (a, b)]
            try:
                asyncio.run(game())
                # the tournament's state is told to no socket: asked again after each
                # answer (the pause only spares the cores) until a deadline for a hang
                deadline = time.monotonic() + WAIT
                while not done(_state(a, tid)):
                    assert time.monotonic() < deadline, what
                    time.sleep(0.05)
            finally:
                stop = True
                for future in futures:
                    future.result()
        assert sum(attempts) <= 1  # the finishing worker usually wins; never two

    race(lambda s: s["round"] >= 2, "round 2 never started", scenario)
    assert player.over and player.connections == 2

    ending = _post(b, f"/api/tournaments/{tid}/end-after-round",
                   **{"X-Chicago-Organizer": organizer})
    assert ending["ends_after"] == 2 and ending["status"] == "playing"
    seat = _post(a, f"/api/tournaments/{tid}/seat", **{"X-Chicago-Profile": secret})
    last = Player(seat["table"], seat["token"], seed=6)

    async def round_two() -> None:
        await last.connect(a)
        await play(last)

    race(lambda s: s["status"] == "finished", "the tournament never finished", round_two)
    assert last.over
    store = Store(pg_url)
    try:
        club = ClubStore(store)
        assert [r.number for r in club.rounds(tid)] == [1, 2]
        assert [r.status for r in club.rounds(tid)] == ["finished", "finished"]
        placed = club.tournament_tables(tid)
        assert sorted((t.round, t.number) for t in placed) == [(1, 1), (1, 2), (2, 1), (2, 2)]
        with store.engine.connect() as conn:
            stored = [r[0] for r in conn.execute(select(tables.c.options)).all()]
        assert sum(1 for options in stored if tid in options) == 4  # no stray tables
    finally:
        store.close()
    for worker in (a, b):  # both workers tell the same state
        told = _state(worker, tid)
        assert [r["number"] for r in told["rounds_played"]] == [1, 2]
        assert (told["status"], told["rounds"], told["ends_after"]) == ("finished", 2, 2)
