"""``benchmarks/bench_workers.py``'s load runs against real workers (issue 28: it still
imported the clients of an old ``bench_server.py`` and failed at once, unseen, since only
``make bench`` ran it): a short run of two workers on PostgreSQL and Redis, each table created
on one worker and its person on the other, seats its people, sees them move and meets no
error. Skips without the services, as the other several-worker tests do."""

from __future__ import annotations

import asyncio
import math
import sys
from types import ModuleType

import pytest
from scale_fixtures import pg_url_fixture, redis_url_fixture  # noqa: F401 (fixtures)

from script_loader import ROOT, load_script


@pytest.fixture(name="bench", scope="module")
def bench_fixture() -> ModuleType:
    """The script as a module (its ``bench_server`` import found as when it is run)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return load_script("benchmarks/bench_workers.py")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_two_workers_carry_the_load_of_people_and_bots(bench: ModuleType, pg_url: str,
                                                       redis_url: str) -> None:
    workers = []
    try:
        for index in range(2):
            workers.append(bench.start_worker(pg_url, redis_url, index))
        result = asyncio.run(bench.run_load(workers, 4, think=0.02, warmup=0.0, seconds=0.0,
                                            seed=3, at_least=12))
    finally:
        for worker in workers:
            worker.stop()
    assert result["people"] == 4
    assert result["errors"] == {}
    assert result["moves_s"] > 0 and result["actions_s"] > result["moves_s"]  # bots replied
    assert math.isfinite(result["p99"]) and math.isfinite(result["turn_p50"])
    assert all(worker.proc.returncode is not None for worker in workers)
