"""Reviews with two ``chicago serve`` workers on one PostgreSQL database and one Redis: each
review is computed exactly once, whichever worker stored the game's end or was asked, and
both workers serve the same stored review. (The workers have one review process each, the
default, at start_worker's quick level.)"""

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
from scale_support import WAIT, Player, Worker, create_table, join, play
from sqlalchemy import select

from chicago.review import Review, review_game
from chicago.server.storage import Store
from chicago.server.storage.models import reviews
from chicago.server.storage.reviews import AUTOMATIC, ON_DEMAND

pytestmark = pytest.mark.timeout(300)

LEVEL = "ev:samples=1"


def _review(worker: Worker, table: str, seat: int) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{worker.url}/api/games/{table}/1/reviews/{seat}",
                                       timeout=WAIT).json()
    return answer


def test_each_review_is_computed_once_by_two_workers(
    workers: tuple[Worker, Worker], pg_url: str
) -> None:
    a, b = workers
    table = create_table(a, ["open", "open", "bot:basic", "bot:random"])["id"]
    zero = Player(table, join(a, table, 0), seed=1)
    one = Player(table, join(b, table, 1), seed=2)

    async def scenario() -> None:
        await zero.connect(a)
        await one.connect(b)
        await asyncio.gather(play(zero), play(one))
        await zero.close()
        await one.close()

    asyncio.run(scenario())
    # the bots' seats asked for at both workers at once (seat 2 at both)
    asks = [(a, 2), (b, 2), (b, 3), (a, 3)]
    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda ask: httpx.post(
            f"{ask[0].url}/api/games/{table}/1/reviews/{ask[1]}", timeout=WAIT).status_code,
            asks))
    assert sorted(codes).count(202) >= 2 and set(codes) <= {200, 202}
    # a review's progress is pushed to no one: the statuses are the only observable, asked
    # until a deadline for a hang (four reviews on a busy machine may take minutes)
    deadline = time.monotonic() + 8 * WAIT
    while not all(_review(a, table, seat)["status"] == "ready" for seat in range(4)):
        assert time.monotonic() < deadline, [_review(a, table, s) for s in range(4)]
        time.sleep(0.1)  # spares the cores between two looks; the deadline is the bound
    store = Store(pg_url)
    with store.engine.connect() as conn:
        rows = conn.execute(select(reviews.c.seat, reviews.c.attempts, reviews.c.priority)
                            .where(reviews.c.table_id == table)
                            .order_by(reviews.c.seat)).all()
    record = store.game(table, 1)
    store.close()
    # one run each: the people's queued by the game's end, the bots' asked for
    assert [tuple(r) for r in rows] == [(0, 1, AUTOMATIC), (1, 1, AUTOMATIC),
                                        (2, 1, ON_DEMAND), (3, 1, ON_DEMAND)]
    computed = [httpx.get(f"{w.url}/api/health", timeout=WAIT).json()["reviews"]
                for w in (a, b)]
    assert sum(computed) == 4
    assert record is not None and record.record is not None
    for seat in range(4):
        here, there = _review(a, table, seat), _review(b, table, seat)
        assert here == there
        name = f"P{seat}" if seat < 2 else None  # a person's name (bots: none)
        assert Review.from_json(here["review"]) == review_game(
            record.record, seat, level=LEVEL, hindsight=True, name=name)
