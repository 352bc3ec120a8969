"""The garbage collector of a serving process (``Settings.tune_gc``, set by ``chicago
serve``): once the app has started, what start-up made is frozen out of later collections,
the youngest generation's threshold is set (``Settings.gc_young_threshold``, ``chicago serve
--gc-young``) and the survivors of every collection are frozen too, so that nothing is
scanned twice and the middle generation stays empty, with a whole scan (frozen cycles
collected) once the frozen objects have grown by a quarter; without the setting (every
test's app) the process's collector is left as it was."""

from __future__ import annotations

import dataclasses
import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from server_support import close_all
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.gc_tuning import (
    COUNT_EVERY_MOST,
    TABLE_SHARE,
    THAW_GROWTH,
    YOUNG_MAX,
    YOUNG_SCANS_BELOW,
    YOUNG_THRESHOLD,
    OldObjects,
    table_load,
    tune_for_serving,
    untune,
)


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


def test_the_youngest_generations_threshold_is_the_settings(settings: Settings,
                                                            collector: None) -> None:
    before = gc.get_threshold()
    app = create_app(dataclasses.replace(settings, tune_gc=True, gc_young_threshold=2_345))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            assert gc.get_threshold() == (2_345, *before[1:])
        finally:
            close_all()
    assert settings.gc_young_threshold == YOUNG_THRESHOLD


def test_a_young_threshold_below_one_is_refused(collector: None) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        tune_for_serving(0)
    assert not any(isinstance(c, OldObjects) for c in gc.callbacks)


@pytest.mark.parametrize("threshold", [YOUNG_MAX + 1, 10**12])
def test_a_young_threshold_above_the_most_is_refused(collector: None, threshold: int) -> None:
    """A threshold past ``YOUNG_MAX`` (10**12 would overflow the collector's C int) is
    refused with the setting's own error, and nothing is tuned."""
    before = gc.get_threshold()
    with pytest.raises(ValueError, match="at most"):
        tune_for_serving(threshold)
    assert gc.get_threshold() == before
    assert not any(isinstance(c, OldObjects) for c in gc.callbacks)


@pytest.mark.parametrize("threshold", ["1000001", "10000000000000"])
def test_serve_refuses_a_young_threshold_above_the_most(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], threshold: str) -> None:
    from chicago.cli import main

    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--port", "0",
                 "--gc-young", threshold])
    assert code == 2
    assert "--gc-young must be at most 1000000" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


def test_serve_refuses_a_young_threshold_below_one(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from chicago.cli import main

    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--port", "0",
                 "--gc-young", "0"])
    assert code == 2
    assert "--gc-young must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


def test_the_survivors_of_a_young_collection_are_frozen_in_a_serving_app(
        settings: Settings, collector: None) -> None:
    """An object that outlives the young collection after it was made is never scanned
    again: not by the middle generation's collections (which, under load, scanned the
    games and views of moves in flight over and over; issue 28, eighteenth pass), nor by
    the oldest's."""
    app = create_app(dataclasses.replace(settings, tune_gc=True))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            held = [[n] for n in range(100)]  # like a move's game and views
            assert scanned(held)
            gc.collect(0)
            assert not scanned(held)
            assert not any(scanned(item) for item in held[:3])
            assert not gc.get_objects(1) and not gc.get_objects(2)  # nothing left to rescan
        finally:
            close_all()


def test_a_cycle_frozen_by_a_young_collection_is_collected_after_a_quarter_more(
        collector: None) -> None:
    """The hook counts the frozen objects every ``check_every`` collections; once they have
    grown by a quarter it unfreezes them, Python's next full collection scans them all (the
    cycle is freed) and the freezing goes on."""
    gc.collect()
    gc.freeze()
    hook = OldObjects(check_every=1)
    gc.callbacks.append(hook)
    gc.disable()  # only the collections below, each one counted
    try:
        _collect_a_frozen_cycle(hook)
    finally:
        gc.enable()


def _collect_a_frozen_cycle(hook: OldObjects) -> None:
    node = Node()
    gone = weakref.ref(node)
    gc.collect(0)  # node survives its young collection and is frozen
    assert not scanned(node)
    del node
    gc.collect(0)
    gc.collect(1)  # no collection of a younger generation looks at a frozen cycle
    assert gone() is not None
    assert not hook.thawing
    more = [[n] for n in range(int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000)]
    gc.collect(0)  # more survive, are frozen and counted: a quarter more, all unfrozen
    assert hook.thawing
    assert gone() is not None and scanned(more)
    gc.collect()  # the full collection scans everything
    assert gone() is None
    assert hook.whole_scans == 1 and not hook.thawing
    assert not scanned(more)  # frozen again
    again = [[1]]
    gc.collect(0)
    assert not scanned(again)


def test_more_tables_alone_do_not_bring_a_whole_scan(collector: None) -> None:
    """With a load count (a server's tables in memory), frozen objects that grow with the
    load are not a reason to unfreeze everything: a whole scan held the loop 0.6-0.8 s at
    500 people each time the tables had grown by a quarter (issue 28, "Where the tail comes
    from"). Growth per table past ``LOAD_GROWTH`` still brings one, and frees the frozen
    cycle."""
    gc.collect()
    gc.freeze()
    tables: list[list[list[int]]] = []
    hook = OldObjects(check_every=1, load=lambda: len(tables))
    gc.callbacks.append(hook)
    size = int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000  # objects a table holds
    gc.disable()
    try:
        tables.append([[n] for n in range(size)])  # the first table, then a whole scan
        gc.collect(0)
        gc.collect(0)
        gc.collect()
        assert hook.whole_scans == 1 and hook.scanned_load == 1
        for _ in range(3):  # four times the tables, as many objects each
            tables.append([[n] for n in range(size)])
        gc.collect(0)
        gc.collect(0)
        assert not hook.thawing
        assert gc.get_freeze_count() > hook.scanned * THAW_GROWTH  # the plain rule would scan
        node = Node()
        gone = weakref.ref(node)
        gc.collect(0)
        del node
        leaked = [[n] for n in range(int(hook.allowed() - gc.get_freeze_count()) + 1_000)]
        gc.collect(0)  # more than the tables account for: everything unfrozen
        gc.collect(0)
        assert hook.thawing
        gc.collect()
        assert gone() is None
        assert hook.whole_scans == 2 and hook.scanned_load == 4
        assert len(leaked) > 0
    finally:
        gc.enable()


def test_a_serving_app_counts_its_tables_for_the_whole_scans(settings: Settings,
                                                             collector: None) -> None:
    app = create_app(dataclasses.replace(settings, tune_gc=True))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            hooks = [c for c in gc.callbacks if isinstance(c, OldObjects)]
            assert len(hooks) == 1 and hooks[0].load is not None
            assert hooks[0].load() == table_load(app.state.manager.tables.values())
            assert hooks[0].collect_soon is not None
        finally:
            close_all()


def test_the_plain_rule_stays_a_setting(settings: Settings, collector: None) -> None:
    app = create_app(dataclasses.replace(settings, tune_gc=True, gc_scan_by_load=False))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            hooks = [c for c in gc.callbacks if isinstance(c, OldObjects)]
            assert len(hooks) == 1 and hooks[0].load is None
            assert hooks[0].collect_soon is None
        finally:
            close_all()


def test_a_thaw_asks_for_its_whole_scan_at_once(collector: None) -> None:
    """Once everything is unfrozen, the hook asks for a full collection (``collect_soon``:
    a server's loop runs it next) rather than waiting for Python's own rule, which after a
    thaw took 15 s at 250 people while the heap grew (issue 28, "Where the tail comes
    from")."""
    gc.collect()
    gc.freeze()
    asked: list[bool] = []
    hook = OldObjects(check_every=1, load=lambda: 1, collect_soon=lambda: asked.append(True))
    gc.callbacks.append(hook)
    gc.disable()
    try:
        more = [[n] for n in range(int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000)]
        assert not asked
        gc.collect(0)  # the count finds a quarter more
        assert hook.thawing and asked == [True]
        gc.collect()
        assert hook.whole_scans == 1 and asked == [True]
        assert len(more) > 0
    finally:
        gc.enable()


def test_a_serving_app_runs_the_whole_scan_on_its_loop(settings: Settings,
                                                       collector: None) -> None:
    app = create_app(dataclasses.replace(settings, tune_gc=True))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            hook = next(c for c in gc.callbacks if isinstance(c, OldObjects))
            gc.unfreeze()  # as a count that found too many does
            hook.thawing = True
            assert hook.collect_soon is not None
            hook.collect_soon()
            assert client.get("/api/health").status_code == 200  # the loop went round
            assert hook.whole_scans == 1 and not hook.thawing
        finally:
            close_all()


def _hook_counting_walks(monkeypatch: pytest.MonkeyPatch) -> tuple[OldObjects, list[int]]:
    """The heap frozen, a hook that checks at every collection installed, the collector
    off (the test turns it on again), and a list that grows by one at every count of the
    frozen objects."""
    gc.collect()
    gc.freeze()
    walks: list[int] = []
    count = gc.get_freeze_count

    def counted() -> int:
        walks.append(1)
        return count()

    hook = OldObjects(check_every=1)
    monkeypatch.setattr(gc, "get_freeze_count", counted)
    gc.callbacks.append(hook)
    gc.disable()
    return hook, walks


def test_the_frozen_objects_are_not_walked_while_the_heap_has_not_grown(
        collector: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A count of the frozen objects walks them all with the loop held (60-130 ms at 500-1,000
    people, every 100 collections; issue 28, twenty-fourth pass): while the heap's memory
    blocks have not grown by half the room the frozen objects have left, no count is made;
    once they have, or after ``COUNT_EVERY_MOST`` collections, it is."""
    hook, walks = _hook_counting_walks(monkeypatch)
    try:
        for _ in range(20):  # a server at steady state: as much made as freed
            churn = [[n] for n in range(100)]
            gc.collect(0)
            del churn
        assert not walks and not hook.thawing
        for _ in range(COUNT_EVERY_MOST - 20):
            gc.collect(0)
        assert len(walks) == 1 and not hook.thawing  # at the most, one count anyway
        more = [[n] for n in range(int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000)]
        gc.collect(0)  # the heap grew by more than the room: counted, everything unfrozen
        assert len(walks) == 2 + 1 and hook.thawing  # (and the test's own count above)
        gc.collect()
        assert hook.whole_scans == 1 and len(more) > 0
    finally:
        gc.enable()


def test_young_collections_without_scans_leave_cycles_to_the_whole_scan(
        collector: None) -> None:
    """``young_scans=False`` (``Settings.gc_young_scans``): a young collection freezes what
    it would have scanned, so it scans nothing and frees no cycle; the frozen objects' growth
    brings a whole scan as before, which frees it (issue 28, twenty-fourth pass)."""
    gc.collect()
    gc.freeze()
    hook = OldObjects(check_every=1, young_scans=False)
    gc.callbacks.append(hook)
    gc.disable()
    try:
        node = Node()
        gone = weakref.ref(node)
        del node
        assert gc.collect(0) == 0  # nothing scanned, nothing found
        assert gone() is not None and not scanned(gone())
        more = [[n] for n in range(int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000)]
        gc.collect(0)  # a quarter more frozen: everything unfrozen
        assert hook.thawing
        gc.collect()
        assert gone() is None and hook.whole_scans == 1 and len(more) > 0
        again = Node()
        gone = weakref.ref(again)
        del again
        gc.collect(0)
        assert gone() is not None  # the young collections scan nothing again
    finally:
        gc.enable()


def test_the_young_scans_are_a_setting(settings: Settings, collector: None) -> None:
    for young_scans in (True, False):
        app = create_app(dataclasses.replace(settings, tune_gc=True,
                                             gc_young_scans=young_scans))
        with TestClient(app) as client:
            try:
                assert client.get("/api/health").status_code == 200
                hook = next(c for c in gc.callbacks if isinstance(c, OldObjects))
                assert hook.young_scans is young_scans
            finally:
                close_all()


def test_young_collections_stop_scanning_from_the_tables_given(collector: None) -> None:
    """``young_scans_below`` (``Settings.gc_young_scans_below``): while fewer tables are
    held a young collection scans (and frees a young cycle); from that many on it freezes
    its objects unscanned (the cycle waits for a whole scan), and scans again once the
    tables are fewer (issue 28, forty-seventh pass)."""
    gc.collect()
    gc.freeze()
    tables = [0] * 499
    hook = OldObjects(young_scans_below=500, tables=lambda: len(tables))
    gc.callbacks.append(hook)
    gc.disable()
    try:
        assert hook.scans_young()
        node = Node()
        gone = weakref.ref(node)
        del node
        assert gc.collect(0) >= 1 and gone() is None  # scanned: the cycle is freed
        assert hook.unscanned == 0
        tables.append(0)  # 500 tables
        assert not hook.scans_young()
        node = Node()
        gone = weakref.ref(node)
        del node
        assert gc.collect(0) == 0  # nothing scanned, nothing found
        assert gone() is not None and not scanned(gone()) and hook.unscanned == 1
        tables.pop()
        again = Node()
        gone_again = weakref.ref(again)
        del again
        assert gc.collect(0) >= 1 and gone_again() is None and hook.unscanned == 1
    finally:
        gc.enable()


def test_no_tables_bound_or_young_scans_off_decide_alone(collector: None) -> None:
    assert OldObjects(young_scans_below=None, tables=lambda: 10**6).scans_young()
    assert OldObjects(young_scans_below=500).scans_young()  # nothing to count
    assert not OldObjects(young_scans_below=0, tables=lambda: 0).scans_young()
    assert not OldObjects(young_scans=False, young_scans_below=500,
                          tables=lambda: 0).scans_young()


def test_the_tables_for_young_scans_are_a_setting(settings: Settings,
                                                  collector: None) -> None:
    """The setting reaches the hook, which counts the server's tables; its default is
    ``YOUNG_SCANS_BELOW``."""
    assert settings.gc_young_scans_below == YOUNG_SCANS_BELOW == 500
    app = create_app(dataclasses.replace(settings, tune_gc=True, gc_young_scans_below=1))
    with TestClient(app) as client:
        try:
            assert client.get("/api/health").status_code == 200
            hook = next(c for c in gc.callbacks if isinstance(c, OldObjects))
            assert hook.young_scans_below == 1 and hook.scans_young()  # no table yet
            made = client.post("/api/tables", json={"seats": ["bot:random"] * 4})
            assert made.status_code in (200, 201), made.text
            assert not hook.scans_young()  # one table held
        finally:
            close_all()


@pytest.mark.parametrize("bad", [-1, 2.5, "500", True])
def test_a_bad_tables_bound_for_young_scans_is_refused(settings: Settings, collector: None,
                                                      bad: Any) -> None:
    """The server's settings are user input: a bound that is not a whole number of tables
    from 0 up is refused before the app starts, with an error naming it, and nothing is
    tuned."""
    before = gc.get_threshold()
    with pytest.raises(ValueError, match="young collections stop scanning"):
        create_app(dataclasses.replace(settings, tune_gc=True, gc_young_scans_below=bad))
    with pytest.raises(ValueError, match="young collections stop scanning"):
        tune_for_serving(young_scans_below=bad)
    assert gc.get_threshold() == before
    assert not any(isinstance(c, OldObjects) for c in gc.callbacks)


def test_serve_refuses_a_negative_tables_bound_for_young_scans(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from chicago.cli import main

    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--port", "0",
                 "--gc-young-scans-below", "-1"])
    assert code == 2
    assert "--gc-young-scans-below must be at least 0" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


def _table(entries: int) -> Any:
    """What :func:`table_load` reads of a live table: its state's current game's entries."""
    return SimpleNamespace(state=SimpleNamespace(entries=[None] * entries))


def test_a_tables_load_is_its_share_and_its_games_entries() -> None:
    """Issue 28, fifty-second pass: a table weighs :data:`TABLE_SHARE` plus its current
    game's log entries; no tables, no load."""
    assert table_load([]) == 0
    assert table_load([_table(0), _table(250)]) == 2 * TABLE_SHARE + 250


def test_games_that_go_on_do_not_bring_a_whole_scan(collector: None) -> None:
    """Issue 28, fifty-second pass: the same tables, their games' logs grown (a table's
    objects with them, about four an entry): counted by tables alone (as before) the
    frozen objects per table passed ``LOAD_GROWTH`` times what the first whole scan saw
    early in the games, and everything was unfrozen for a whole scan of the full heap (1.3
    s of CPU at 1,000 people); weighed with their entries, they are within the allowance.
    A frozen cycle beyond it still brings the whole scan that frees it."""
    gc.collect()
    gc.freeze()
    per_entry = 4
    tables = [_table(0) for _ in range(4)]
    held: list[list[list[int]]] = []

    def play(entries: int) -> None:  # every table's game to ``entries`` entries
        for table in tables:
            table.state.entries = [None] * entries
        held[:] = [[[n] for n in range((TABLE_SHARE + entries) * per_entry)]
                   for _ in tables]

    by_entries = OldObjects(check_every=1, load=lambda: table_load(tables))
    by_tables = OldObjects(check_every=1, load=lambda: len(tables))
    size = int(gc.get_freeze_count() * (THAW_GROWTH - 1)) + 1_000
    gc.disable()
    try:
        for hook in (by_entries, by_tables):
            gc.callbacks.append(hook)
            play(size // (4 * per_entry))  # early in the games: the first whole scan
            gc.collect(0)
            gc.collect(0)
            gc.collect()
            assert hook.whole_scans == 1
            play(size)  # the games went on: each table's objects many times as many
            gc.collect(0)
            gc.collect(0)
            thawed = hook.thawing
            gc.collect()
            gc.callbacks.remove(hook)
            if hook is by_tables:
                assert thawed  # the rule before: a whole scan of everything
            else:
                assert not thawed and hook.whole_scans == 1
        gc.callbacks.append(by_entries)
        node = Node()
        gone = weakref.ref(node)
        gc.collect(0)
        del node
        leaked = [[n] for n in range(int(by_entries.allowed() - gc.get_freeze_count()) + 1_000)]
        gc.collect(0)  # more than the tables' games account for: everything unfrozen
        gc.collect(0)
        assert by_entries.thawing
        gc.collect()
        assert gone() is None and by_entries.whole_scans == 2
        assert len(leaked) > 0
    finally:
        gc.enable()


def test_a_steady_heap_is_not_walked_every_thousand_collections(
        collector: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28, fifty-second pass: a count of 1.3-1.6 million frozen objects held the loop
    129-177 ms of CPU at 1,000 people, and came every 1,000 collections (about 28 s) however
    steady the heap; a leaked cycle grows the heap's blocks, which bring a count of their
    own, so the count in any case comes after :data:`COUNT_EVERY_MOST` (10,000)."""
    hook, walks = _hook_counting_walks(monkeypatch)
    try:
        for _ in range(1_000):  # as much made as freed
            churn = [[n] for n in range(20)]
            gc.collect(0)
            del churn
        assert not walks and not hook.thawing
    finally:
        gc.enable()
    assert COUNT_EVERY_MOST >= 10_000
