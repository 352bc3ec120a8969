"""Fixtures of the several-worker tests: Redis and a fresh PostgreSQL database per test.

(Imported by the test modules rather than kept in a conftest.py: tests/server imports its
own ``conftest`` by that name, which a second conftest module would shadow.)

Both come from the environment (``.ci/run`` starts the servers and exports the URLs; locally:
``export CHICAGO_TEST_PG_URL="$(bash .ci/start-postgres)"`` and
``export CHICAGO_TEST_REDIS_URL="$(bash .ci/start-redis)"``). Without them the tests skip
saying so; under CI (``CI`` set) a missing URL fails them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from scale_support import Worker, start_worker

from chicago.server.storage import normalize_url
from pg_databases import fresh_database

PG_ENV = "CHICAGO_TEST_PG_URL"
REDIS_ENV = "CHICAGO_TEST_REDIS_URL"


def _env(name: str, script: str) -> str:
    url = os.environ.get(name)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not set: .ci/run must start the server and export it")
        pytest.skip(f"several-worker tests need {name} (run: export {name}="
                    f'"$(bash .ci/{script})")')
    return url


@pytest.fixture(name="redis_url")
def redis_url_fixture() -> str:
    """The Redis server's URL."""
    pytest.importorskip("redis", reason="needs the cluster extra (the redis package)")
    return _env(REDIS_ENV, "start-redis")


@pytest.fixture(name="pg_url")
def pg_url_fixture() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    base = normalize_url(_env(PG_ENV, "start-postgres"))
    with fresh_database(base, "chicago_s_") as url:
        yield url


@contextlib.contextmanager
def two_workers(pg_url: str, redis_url: str, *extra: str) -> Iterator[tuple[Worker, Worker]]:
    """Two workers serving the same database (the first migrates it), with the options
    ``extra``; both stopped afterwards."""
    first = start_worker(pg_url, redis_url, *extra)
    try:
        second = start_worker(pg_url, redis_url, *extra)
    except BaseException:
        first.stop()
        raise
    try:
        yield first, second
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Worker.stop, (first, second)))


@pytest.fixture(name="workers")
def workers_fixture(pg_url: str, redis_url: str) -> Iterator[tuple[Worker, Worker]]:
    """Two workers serving the same database (the first migrates it)."""
    with two_workers(pg_url, redis_url) as workers:
        yield workers
