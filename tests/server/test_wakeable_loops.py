"""The server's background loops (pairing passes, reviews, mail) sleep until woken or a
timeout, and must end when cancelled at shutdown even if they were woken at that moment.

On Python 3.11, ``asyncio.wait_for(event.wait(), timeout)`` returns normally when its task
is cancelled in the same turn of the loop as the event is set (CPython gh-86296, fixed in
3.12): a ``while True`` loop around it then never ends, and the app's shutdown waits for it
forever (a CI run hung so in a test's teardown). :func:`chicago.server.tasks.wait_woken`
keeps the cancellation.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from chicago.server.tasks import wait_woken

SERVER = Path(__file__).resolve().parents[2] / "src" / "chicago" / "server"


def test_woken_and_cancelled_at_once_the_wait_is_cancelled() -> None:
    async def main() -> None:
        wake = asyncio.Event()
        laps = 0

        async def loop() -> None:  # the shape of Pairing._run, Reviews._run, Mailer._run
            nonlocal laps
            while True:
                laps += 1
                await wait_woken(wake, 3600.0)
                wake.clear()

        task = asyncio.create_task(loop())
        await asyncio.sleep(0)  # the loop now waits
        wake.set()  # woken ...
        task.cancel()  # ... and stopped in the same turn
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(task), 60.0)  # a bound for a hang only
        assert task.cancelled() and laps == 1

    asyncio.run(main())


def test_woken_returns_true_timed_out_returns_false() -> None:
    async def main() -> tuple[bool, bool]:
        wake = asyncio.Event()
        wake.set()
        woken = await wait_woken(wake, 3600.0)
        never = asyncio.Event()
        return woken, await wait_woken(never, 0.0)

    assert asyncio.run(main()) == (True, False)


def test_no_server_loop_waits_for_an_event_with_wait_for() -> None:
    """``asyncio.wait_for(<event>.wait(), …)`` anywhere in the server is the pattern above."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "wait_for" and node.args
                    and isinstance(node.args[0], ast.Call)
                    and isinstance(node.args[0].func, ast.Attribute)
                    and node.args[0].func.attr == "wait"):
                found.append(f"{path.relative_to(SERVER)}:{node.lineno}")
    assert found == []
