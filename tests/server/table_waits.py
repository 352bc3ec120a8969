"""Waiting for a table in tests by its published changes, never by counting turns of the
event loop (a bot's move may wait on a thread, for as long as a busy machine makes it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from chicago.server.tables import TableManager

LIMIT = 120.0
"""Seconds after which a wait fails rather than hangs: a guard, never what decides a result."""


async def until_table(manager: TableManager, table_id: str, done: Callable[[], bool]) -> None:
    """Return once ``done()`` holds, checking it again after every change the table
    publishes (a change is stored, applied and scheduled before it is published)."""
    moved = asyncio.Event()
    subscription = manager.bus.subscribe(table_id, lambda _table, _entries: moved.set())
    try:
        async with asyncio.timeout(LIMIT):
            while not done():
                moved.clear()
                await moved.wait()
    finally:
        subscription.close()
