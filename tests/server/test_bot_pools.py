"""Bots decide in thread pools of their own (docs/SERVER.md, "Bots, clocks, stand-ins"):
external programs in one, built-in bots in another, neither of them the default executor that
stores every change. So programs that hang until their time limit, more of them than the
default executor has threads, delay neither another table's basic bot nor the database."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import GatedProgram, WsPlayer, close_all, create_table, join
from starlette.testclient import TestClient

from chicago.bots.external import ExternalBot
from chicago.server import Settings, create_app
from chicago.server.settings import default_bot_workers

pytestmark = pytest.mark.timeout(120)

DEFAULT_EXECUTOR = min(32, (os.cpu_count() or 1) + 4)
"""The threads of asyncio's default executor (what ``asyncio.to_thread`` uses)."""

HANGING = DEFAULT_EXECUTOR + 2
"""More thinking programs than the default executor has threads: before the bots had pools
of their own they took every thread, and every table (and every write) waited for them."""


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[tuple[TestClient, GatedProgram]]:
    """An app whose ``hang`` bot is a program that thinks until the test opens its gate
    (an hour's time limit, which no test runs out: it is not a test of the limit)."""
    with GatedProgram(tmp_path) as program:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'pools.sqlite3'}", static_dir=None,
                            seed=41, external_bots={"hang": f"time_ms=3600000 {program.command}"},
                            external_bot_workers=HANGING,
                            # this many tables of bots only from one address, all at once
                            max_bot_tables_per_address=HANGING + 1, create_burst=HANGING + 2)
        with TestClient(create_app(settings)) as client:
            try:
                yield client, program
            finally:
                close_all()
                program.open_gate()  # the programs answer: the app's stop waits for none


def test_thinking_external_bots_do_not_delay_another_tables_basic_bot(
        gated: tuple[TestClient, GatedProgram]) -> None:
    """Programs think (each holds a thread of the programs' pool) until the test lets them
    answer; meanwhile tables are created and stored, and a table of a person and a basic bot
    is played: were any of it to wait for a program's thread, it would wait until the test's
    timeout (the bound for a hang), as nothing lets the programs answer before it is done."""
    client, program = gated
    manager = client.app.state.manager  # type: ignore[attr-defined]
    hanging = []
    for _ in range(HANGING):  # each creation is stored while the earlier tables' bots think
        hanging.append(create_table(client, ["bot:hang", "bot:hang"])["id"])
    program.asked(HANGING)  # every table's program to act was asked, and thinks
    # a table of people and a basic bot: joining stores changes (the database is not kept
    # waiting), and the bot's every decision comes while all the programs still think
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
    assert bot_moves >= 6 or me.over
    programs = [b for t in hanging for b in manager.tables[t].bots.values()
                if isinstance(b, ExternalBot)]
    assert len(programs) == HANGING and all(b.decisions == 1 for b in programs)
    assert not any(sum(b.failures.values()) for b in programs)  # none has answered


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
