"""``benchmarks/bench_server.py --client-gc`` (issue 28, fair benchmarks): the clients'
process keeps its own collections from sending the people's acts in clumps.

At 1,000 people the benchmark's client process had full collections of up to 100 ms, after
which every act that had fallen due left at once; the server's loop then worked through the
clump while its updates waited, which is the benchmark's tail, not one real people would
cause (docs/SERVER.md, "The forty-ninth to fifty-first passes together").
"""

from __future__ import annotations

import gc
import inspect
from collections.abc import Iterator
from types import ModuleType

import pytest

from script_loader import load_script


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("benchmarks/bench_server.py")


@pytest.fixture
def collector() -> Iterator[None]:
    """Whatever a test does to this process's collector is undone after it."""
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:  # pragma: no cover (pytest runs with the collector on)
        gc.disable()


def test_off_freezes_the_seated_clients_and_stops_collections(bench: ModuleType,
                                                              collector: None) -> None:
    """The default: what the seated people hold is frozen (a full collection no longer
    walks it) and no collection runs while the step is measured; restored afterwards."""
    held = [[i] for i in range(1000)]  # stands for the seated people's objects
    bench.quiet_clients("off")
    assert not gc.isenabled()
    assert gc.get_freeze_count() >= len(held)
    bench.restore_clients("off")
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_freeze_keeps_young_collections(bench: ModuleType, collector: None) -> None:
    """``freeze``: frozen, the collector still on."""
    held = [[i] for i in range(1000)]
    bench.quiet_clients("freeze")
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(held)
    bench.restore_clients("freeze")
    assert gc.get_freeze_count() == 0


def test_default_leaves_the_collector_alone(bench: ModuleType, collector: None) -> None:
    """``default``: the method before 2026-12-07, nothing changed."""
    frozen = gc.get_freeze_count()
    bench.quiet_clients("default")
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    bench.restore_clients("default")
    assert gc.isenabled()


def test_an_unknown_mode_is_refused(bench: ModuleType, collector: None) -> None:
    """A mode the benchmark does not know changes nothing and names the choices, from the
    function and from the command line."""
    with pytest.raises(ValueError, match="off, freeze, default"):
        bench.quiet_clients("sometimes")
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        bench.main(["--client-gc", "sometimes"])


def test_off_is_the_default_of_the_command_line(bench: ModuleType) -> None:
    """The ramp measures the server without the clients' clumps unless asked otherwise."""
    assert bench.CLIENT_GC[0] == "off"
    assert inspect.signature(bench.ramp).parameters["client_gc"].default == "off"
