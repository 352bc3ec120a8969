"""The group writer (:class:`chicago.server.writer.GroupWriter`): its own thread stores
queued changes in one transaction, and a change is acknowledged only once the write that
holds it returned (stored before anyone hears of it); one change's refusal never fails the
others; stopping stores what was queued first. Every wait is on an event, never a time."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest

from chicago.server.core.rows import Change
from chicago.server.storage import Conflict
from chicago.server.writer import GroupWriter

pytestmark = pytest.mark.timeout(60)


class GatedStorage:
    """A storage whose writes wait for :attr:`gate` and record what they stored."""

    failures: tuple[type[BaseException], ...] = ()

    def __init__(self, refuse: frozenset[str] = frozenset(), fail: bool = False) -> None:
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.batches: list[list[str]] = []
        self.refuse = refuse
        self.fail = fail
        self.thread_names: set[str] = set()

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        self.thread_names.add(threading.current_thread().name)
        self.entered.set()
        self.gate.wait()
        if self.fail:
            raise OSError("the disk is gone")
        self.batches.append([c.table_id for c in changes])
        return [Conflict(c.table_id) if c.table_id in self.refuse else None for c in changes]


def _change(table_id: str) -> Change:
    return Change(table_id=table_id)


def test_a_change_is_acknowledged_only_after_its_write_returned() -> None:
    async def run() -> None:
        storage = GatedStorage()
        writer = GroupWriter(storage)  # type: ignore[arg-type]
        writer.start()
        first = asyncio.create_task(writer.commit(_change("a")))
        await asyncio.to_thread(storage.entered.wait)  # the write of "a" is under way
        later = [asyncio.create_task(writer.commit(_change(t))) for t in ("b", "c")]
        await asyncio.sleep(0)
        assert not first.done() and not any(t.done() for t in later)
        assert storage.batches == []
        storage.gate.set()
        await asyncio.gather(first, *later)
        assert storage.batches[0] == ["a"]
        assert sorted(t for batch in storage.batches[1:] for t in batch) == ["b", "c"]
        assert writer.commits == 3 and writer.batches == len(storage.batches)
        assert storage.thread_names == {"chicago-writer"}
        await writer.stop()

    asyncio.run(run())


def test_changes_queued_together_share_one_transaction() -> None:
    async def run() -> None:
        storage = GatedStorage()
        writer = GroupWriter(storage)  # type: ignore[arg-type]
        writer.start()
        block = asyncio.create_task(writer.commit(_change("first")))
        await asyncio.to_thread(storage.entered.wait)
        queued = [asyncio.create_task(writer.commit(_change(f"t{i}"))) for i in range(20)]
        await asyncio.sleep(0)  # all twenty are queued while the first write waits
        storage.gate.set()
        await asyncio.gather(block, *queued)
        assert storage.batches == [["first"], [f"t{i}" for i in range(20)]]
        await writer.stop()

    asyncio.run(run())


def test_a_refused_change_fails_alone_and_a_failed_store_fails_its_batch() -> None:
    async def run() -> None:
        storage = GatedStorage(refuse=frozenset({"bad"}))
        storage.gate.set()
        writer = GroupWriter(storage)  # type: ignore[arg-type]
        writer.start()
        results = await asyncio.gather(writer.commit(_change("bad")),
                                       writer.commit(_change("good")), return_exceptions=True)
        assert isinstance(results[0], Conflict) and results[1] is None
        await writer.stop()

        broken = GatedStorage(fail=True)
        broken.gate.set()
        writer = GroupWriter(broken)  # type: ignore[arg-type]
        writer.start()
        with pytest.raises(OSError, match="the disk is gone"):
            await writer.commit(_change("x"))
        broken.fail = False
        await writer.commit(_change("y"))
        assert broken.batches == [["y"]]
        await writer.stop()

    asyncio.run(run())


def test_stop_stores_what_was_queued_first() -> None:
    async def run() -> None:
        storage = GatedStorage()
        writer = GroupWriter(storage)  # type: ignore[arg-type]
        writer.start()
        commits = [asyncio.create_task(writer.commit(_change(f"t{i}"))) for i in range(5)]
        await asyncio.to_thread(storage.entered.wait)
        stopping = asyncio.create_task(writer.stop())
        await asyncio.sleep(0)
        storage.gate.set()
        await stopping
        await asyncio.gather(*commits)
        assert sorted(t for batch in storage.batches for t in batch) == [
            f"t{i}" for i in range(5)]
        # a commit after stop starts the thread again rather than waiting for ever
        await writer.commit(_change("after"))
        assert storage.batches[-1] == ["after"]
        await writer.stop()

    asyncio.run(run())


def test_a_commit_while_stopping_is_stored_by_a_new_thread() -> None:
    """The stop mark ends the old thread alone: a change committed while it finishes its
    batch goes to a new thread (with a queue of its own) and is stored; a second stop is
    harmless."""
    async def run() -> None:
        storage = GatedStorage()
        writer = GroupWriter(storage)  # type: ignore[arg-type]
        writer.start()
        first = asyncio.create_task(writer.commit(_change("before")))
        await asyncio.to_thread(storage.entered.wait)
        stopping = asyncio.create_task(writer.stop())
        await asyncio.sleep(0)
        during = asyncio.create_task(writer.commit(_change("during")))
        await asyncio.sleep(0)
        storage.gate.set()
        await asyncio.gather(first, during, stopping)
        assert sorted(t for batch in storage.batches for t in batch) == ["before", "during"]
        await writer.stop()  # the new thread's stop
        await writer.stop()  # and a second one: nothing to stop

    asyncio.run(run())
