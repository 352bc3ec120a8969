"""The garbage collector of a serving process (``Settings.tune_gc``, set by ``chicago
serve``): once the app has started, what start-up made is frozen out of later collections
and the youngest generation's threshold is raised; without the setting (every test's app)
the process's collector is left as it was."""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Iterator

import pytest
from server_support import close_all
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.gc_tuning import YOUNG_THRESHOLD


@pytest.fixture
def collector() -> Iterator[None]:
    """The process's collector as it was, given back after the test."""
    threshold = gc.get_threshold()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_a_serving_app_tunes_the_collector_once_started(settings: Settings,
                                                        collector: None) -> None:
    before = gc.get_threshold()
    app = create_app(dataclasses.replace(settings, tune_gc=True))
    assert gc.get_freeze_count() == 0  # nothing before start-up
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
        finally:
            close_all()


def test_an_app_without_the_setting_leaves_the_collector_alone(settings: Settings,
                                                                collector: None) -> None:
    before = gc.get_threshold()
    assert settings.tune_gc is False
    with TestClient(create_app(settings)) as client:
        try:
            assert client.get("/api/health").status_code == 200
            assert gc.get_freeze_count() == 0
            assert gc.get_threshold() == before
        finally:
            close_all()
