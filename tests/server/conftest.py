"""Fixtures of the table-server tests: a server app on a fresh SQLite file, PostgreSQL URLs."""

from __future__ import annotations

import gc
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import close_all

from pg_databases import fresh_database

with warnings.catch_warnings():  # starlette suggests httpx2, which is not needed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.clock import ShiftedClock
from chicago.server.storage import normalize_url

PG_ENV = "CHICAGO_TEST_PG_URL"



@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Server settings on a fresh SQLite file, no static files, no reviews (the tests of
    reviews, tests/server/test_reviews.py, turn them on)."""
    return Settings(db_url=f"sqlite:///{tmp_path / 'chicago.sqlite3'}", static_dir=None,
                    seed=20250131, review_workers=0)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A running app (lifespan entered: migrated, writer started)."""
    with TestClient(create_app(settings)) as test_client:
        try:
            yield test_client
        finally:
            close_all()


def pg_base_url() -> str | None:
    """The PostgreSQL URL from the environment; under CI its absence is an error."""
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set: .ci/run must start PostgreSQL and export it")
        pytest.skip(f"PostgreSQL tests need {PG_ENV} (run: export {PG_ENV}="
                    '"$(bash .ci/start-postgres)")')
    return normalize_url(url)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    base = pg_base_url()
    assert base is not None
    with fresh_database(base, "chicago_t_") as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on a SQLite file and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def clock() -> ShiftedClock:
    """A clock the test moves forward (never sleeps on)."""
    return ShiftedClock()


@pytest.fixture
def clocked_client(settings: Settings, clock: ShiftedClock) -> Iterator[TestClient]:
    """A running app whose time is :func:`clock`'s."""
    with TestClient(create_app(settings, clock=clock)) as test_client:
        try:
            yield test_client
        finally:
            close_all()


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The cyclic garbage collector off for the test (only reference counting frees)."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
