"""What the server's loop did, counted (issue 28, fifty-second pass; docs/SERVER.md, "What
the loop's lags are made of"): :mod:`chicago.server.loop_census` wraps nothing until it is
installed, counts what it names once installed, changes nothing of what the wrapped methods
do, and puts every method back when undone. The load benchmark prints the counts of each
lag, and reads lags of a server from before (no counts) as well.

Every wait is on an event or a future, never a time."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest
from test_socket_layer import accepted_socket

from chicago.server import tables, transport, writer
from chicago.server.core.rows import Change
from chicago.server.loop_census import KINDS, LoopCensus, install
from chicago.server.transport import DIRECT_FRAMES, protocol_classes
from script_loader import load_script

pytestmark = pytest.mark.timeout(60)


class Storage:
    """Stores everything at once."""

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        return [None] * len(changes)


def _methods(ws_protocol: type) -> dict[str, object]:
    return {
        "put": transport.DirectMessages.__dict__["put"],
        "write_text": transport.DirectFrames.__dict__["write_text"],
        "act": tables.TableManager.__dict__["act"],
        "_bot_turn": tables.TableManager.__dict__["_bot_turn"],
        "_settle": writer._settle,
        **{name: getattr(ws_protocol, name) for name in (
            "data_received", "send_keepalive_ping", "handle_pong", "connection_made")},
    }


def test_nothing_is_wrapped_unless_installed() -> None:
    """Off by default: the server's methods are their own (no counting call in them)."""
    _, ws_protocol = protocol_classes()
    for name, method in _methods(ws_protocol).items():
        assert not hasattr(method, "__wrapped__"), name


def test_installed_it_counts_and_undone_every_method_is_back() -> None:
    """Frames written, messages handed over, connections made and reads, and the writer's
    settled commits with their changes, counted; the frames are the same bytes; undone,
    the very same methods as before."""
    async def main() -> None:
        _, ws_protocol = protocol_classes()
        before = _methods(ws_protocol)
        own = dict(ws_protocol.__dict__)  # its own methods (data_received among them)
        census = LoopCensus()
        start = census.snapshot()
        undo = install(census, ws_protocol)
        try:
            _, fake, scope, done = await accepted_socket(ws_protocol)
            assert scope["extensions"][DIRECT_FRAMES].write_text("{}")
            assert fake.take() == b"\x81\x02{}"
            group = writer.GroupWriter(Storage())  # type: ignore[arg-type]
            await asyncio.gather(*(group.commit(Change(table_id=t)) for t in "abc"))
            await group.stop()
            done.set()
        finally:
            undo()
        counted = census.since(start)
        assert counted["frames"] == 1
        assert counted["connections"] == 1
        assert counted["reads"] >= 1
        assert counted["changes"] == 3
        assert 1 <= counted["settled"] <= 3
        assert set(counted) <= set(KINDS)
        assert _methods(ws_protocol) == before
        assert dict(ws_protocol.__dict__) == own

    asyncio.run(main())


def test_since_names_only_what_grew() -> None:
    census = LoopCensus()
    census.add("pings", 3)
    start = census.snapshot()
    census.add("pongs")
    assert census.since(start) == {"pongs": 1}
    assert census.since({}) == {"pings": 3, "pongs": 1}


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("benchmarks/bench_server.py")


def test_the_benchmark_prints_each_lags_counts(bench: ModuleType, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``--stalls``: a lag's counts on its line; a lag of a server from before (no counts)
    and odd events are read without them; the collector's tuning hook's own time after a
    collection (its counts of the frozen objects) on a line of its own."""
    path = tmp_path / "stalls.jsonl"
    events = [
        {"kind": "lag", "at": 101.0, "wall": 0.08, "cpu": 0.08,
         "counts": {"pings": 640, "pongs": 12}},
        {"kind": "lag", "at": 105.0, "wall": 0.06, "cpu": 0.01},  # from before: no counts
        {"kind": "second", "at": 102.0, "counts": {"pings": 700}},
        {"kind": "second", "at": 103.0, "counts": {}},
        {"kind": "hook", "at": 104.0, "wall": 0.12, "cpu": 0.11, "counts": [3],
         "frozen": 1_300_000},
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    watch = bench.Watch()
    try:
        bench.print_stalls(path, watch, [], 100.0, 110.0, 90.0)
    finally:
        watch.close()  # its collector hook must not outlive the test (it reads the clock)
    out = capsys.readouterr().out
    assert "in it pings 640, pongs 12" in out
    assert "lag 60 ms" in out
    assert "pings 350/700 (+2)" in out
    assert "+4.0 s 120 ms (cpu 110, 1,300,000 frozen)" in out
