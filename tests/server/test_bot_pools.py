"""Bots decide in thread pools of their own (docs/SERVER.md, "Bots, clocks, stand-ins"):
external programs in one, built-in bots in another, neither of them the default executor that
stores every change. So programs that hang until their time limit, more of them than the
default executor has threads, delay neither another table's basic bot nor the database."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import WsPlayer, close_all, create_table, join
from starlette.testclient import TestClient

from chicago.bots.external import ExternalBot
from chicago.server import Settings, create_app
from chicago.server.settings import default_bot_workers

pytestmark = pytest.mark.timeout(120)

HANG_MS = 4000
HANG = f"time_ms={HANG_MS} startup_ms=0 sleep 600"
"""A program that never answers: each of its decisions holds a thread for 4.1 s, then the
fallback bot plays the turn."""

DEFAULT_EXECUTOR = min(32, (os.cpu_count() or 1) + 4)
"""The threads of asyncio's default executor (what ``asyncio.to_thread`` uses)."""

HANGING = DEFAULT_EXECUTOR + 2
"""More hanging programs than the default executor has threads: before the bots had pools of
their own they took every thread, and every table (and every write) waited for them."""


@pytest.fixture
def hang_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'pools.sqlite3'}", static_dir=None,
                        seed=41, external_bots={"hang": HANG},
                        external_bot_workers=HANGING,
                        # this many tables of bots only from one address, all at once
                        max_bot_tables_per_address=HANGING + 1, create_burst=HANGING + 2)
    with TestClient(create_app(settings)) as client:
        try:
            yield client
        finally:
            close_all()


def test_hanging_external_bots_do_not_delay_another_tables_basic_bot(
        hang_client: TestClient) -> None:
    client = hang_client
    manager = client.app.state.manager  # type: ignore[attr-defined]
    began = time.monotonic()
    hanging = [create_table(client, ["bot:hang", "bot:hang"])["id"] for _ in range(HANGING)]
    took = time.monotonic() - began  # each creation is stored while the earlier tables' bots hang
    assert took < HANG_MS / 2000, f"storing the tables waited for the programs ({took:.2f} s)"

    def thinking() -> int:  # programs asked for a decision that have not answered
        return sum(1 for table_id in hanging for bot in manager.tables[table_id].bots.values()
                   if isinstance(bot, ExternalBot) and bot.decisions)

    deadline = time.monotonic() + 3
    while thinking() < HANGING and time.monotonic() < deadline:
        time.sleep(0.02)
    assert thinking() == HANGING
    start = time.monotonic()
    # a table of people and a basic bot: joining stores changes (the database is not kept
    # waiting), and the bot's every decision comes while all the programs still hang
    info = create_table(client, ["open", "bot:basic"], rules={"max_deals": 1})
    me = WsPlayer(client, info["id"], join(client, info["id"], 0))
    rng = random.Random(9)
    bot_moves = 0
    while bot_moves < 6 and not me.over:
        if me.state["to_act"] == 0:
            me.send(type="act", action=rng.choice(me.state["legal_actions"]), seq=me.seq)
        frame = me.until(lambda f: f["type"] in ("update", "game_over"))
        if frame["type"] == "update" and frame["seat"] == 1:
            bot_moves += 1
    elapsed = time.monotonic() - start
    assert bot_moves >= 6 or me.over
    assert elapsed < HANG_MS / 2000, f"the basic bot's table took {elapsed:.2f} s"
    assert all(all(not b.failures["timeout"] for b in manager.tables[t].bots.values()
                   if isinstance(b, ExternalBot)) for t in hanging), "the check came too late"


def test_the_pools_are_bounded_and_sized_from_the_cores(tmp_path: Path) -> None:
    assert default_bot_workers(1) == 8 and default_bot_workers(4) == 16
    assert default_bot_workers(64) == 32
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'sizes.sqlite3'}", static_dir=None,
                        bot_workers=3, external_bot_workers=5)
    with TestClient(create_app(settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.scheduler._bot_pool._max_workers == 3
        assert manager.scheduler._external_pool._max_workers == 5
    with TestClient(create_app(Settings(db_url=settings.db_url, static_dir=None))) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.scheduler._bot_pool._max_workers == default_bot_workers()
        assert manager.scheduler._external_pool._max_workers == 64
