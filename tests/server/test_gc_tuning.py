"""The garbage collector of a serving process (``Settings.tune_gc``, set by ``chicago
serve``): once the app has started, what start-up made is frozen out of later collections,
the youngest generation's threshold is raised and the survivors of each full collection are
frozen too, with a whole scan (frozen cycles collected) once the frozen objects have grown
by a quarter; without the setting (every test's app) the process's collector is left as it
was."""

from __future__ import annotations

import dataclasses
import gc
import weakref
from collections.abc import Iterator

import pytest
from server_support import close_all
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.gc_tuning import THAW_GROWTH, YOUNG_THRESHOLD, OldObjects, untune


@pytest.fixture
def collector() -> Iterator[None]:
    """The process's collector as it was, given back after the test."""
    threshold = gc.get_threshold()
    gc.unfreeze()
    try:
        yield
    finally:
        untune()
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


class Node:
    """An object in a reference cycle (only the cyclic collector frees it)."""

    def __init__(self) -> None:
        self.me = self


def scanned(held: object) -> bool:
    """Whether the collector still scans ``held`` (frozen objects are not listed)."""
    return any(o is held for o in gc.get_objects())


def test_the_survivors_of_a_full_collection_are_frozen_in_a_serving_app(
        settings: Settings, collector: None) -> None:
    """A table's long-lived objects are scanned by one full collection, not by every one
    (issue 28: at 1,000 people a full collection held the loop about 1.8 s)."""
    app = create_app(dataclasses.replace(settings, tune_gc=True))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            held = [[n] for n in range(100)]  # like a table's records
            assert scanned(held)
            gc.collect()
            assert not scanned(held)
            assert not any(scanned(item) for item in held[:3])
        finally:
            close_all()
    assert not any(isinstance(c, OldObjects) for c in gc.callbacks)  # given up at shutdown


def test_a_frozen_cycle_is_collected_once_the_frozen_objects_grow_by_a_quarter(
        collector: None) -> None:
    gc.collect()
    gc.freeze()  # as start-up's objects are
    hook = OldObjects()
    gc.callbacks.append(hook)
    node = Node()
    gone = weakref.ref(node)
    gc.collect()  # node survives and is frozen
    assert not scanned(node)
    del node
    gc.collect()  # a frozen cycle is not looked at...
    assert gone() is not None
    assert hook.whole_scans == 0
    more = [[n] for n in range(int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000)]
    gc.collect()  # ...until the frozen objects have grown by a quarter: frozen too
    gc.collect()  # this one scans everything
    assert gone() is None
    assert hook.whole_scans == 1
    assert len(more) > 0
