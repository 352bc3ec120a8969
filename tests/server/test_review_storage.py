"""The reviews' queue in the database, on SQLite and on PostgreSQL: the seats due at a game's
end become rows once, a review is claimed by one worker only (also when many claim at once),
a dead worker's review is taken over after the stale limit and fails after three runs, the
worker that lost a claim can store nothing, the queue is bounded, and the migration goes
down and up again."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import inspect, select, text

from chicago import Rules
from chicago.server.storage import Change, GameRow, LogEntry, Store, TableRow
from chicago.server.storage.models import games
from chicago.server.storage.reviews import (
    AUTOMATIC,
    FAILED,
    MAX_ATTEMPTS,
    ON_DEMAND,
    PLAYERS,
    QUEUED,
    READY,
    RUNNING,
    Asker,
    QueueFull,
    ReviewKey,
    ReviewStore,
    ShareFull,
)

pytestmark = pytest.mark.timeout(180)

LEVEL = "ev:samples=1,exchange=0,holds=0"


def _finished_games(store: Store, table_id: str, count: int, due: list[int] | None) -> None:
    """A table with ``count`` finished games, each due for review at ``due`` (or none)."""
    now = time.time()
    rules = Rules.preset("pagat").to_dict()
    row = TableRow(id=table_id, name="", players=4, preset="pagat", rules=rules,
                   variations=[], seats=["open"] * 4, options={}, private=False,
                   secret="s" * 32, status="finished", open_seats=0, game=count,
                   created_at=now, updated_at=now)
    changes = []
    for number in range(1, count + 1):
        game = GameRow(table_id=table_id, number=number, seed=number, rules=rules, players=4,
                       status="playing", started_at=now)
        updates: dict[str, object] = {"status": "finished", "finished_at": now + number,
                                      "record": {"players": 4}, "result": {}}
        if due is not None:
            updates["review_due"] = due
        changes.append(Change(table_id, [LogEntry(number, number, "game", None,
                                                  {"number": number, "seed": number}, now)],
                              new_table=row if number == 1 else None, new_game=game,
                              game_updates=updates, game_number=number))
    assert store.write(changes) == [None] * count


@pytest.fixture
def store(db_url: str) -> Store:
    store = Store(db_url)
    store.migrate()
    yield store
    store.close()


def _enqueue(rows: ReviewStore, limit: int = 100) -> int:
    return rows.enqueue_due(level=LEVEL, seed=0, hindsight=True, limit=limit, now=time.time())


def test_due_seats_become_rows_once_and_the_rest_stay_due(store: Store) -> None:
    rows = ReviewStore(store)
    _finished_games(store, "t", 3, [0, 2])
    _finished_games(store, "u", 1, None)  # a game of bots only: nothing due
    assert _enqueue(rows, limit=1) == 2  # the oldest game's two seats; the others wait
    found, due = rows.of_game("t", 1)
    assert [(r.key.seat, r.status, r.priority) for r in found] == [(0, QUEUED, AUTOMATIC),
                                                                   (2, QUEUED, AUTOMATIC)]
    assert due == []
    assert rows.of_game("t", 2) == ([], [0, 2])  # still due, stored in the game's row
    assert _enqueue(rows, limit=1) == 0  # the queue is full
    assert _enqueue(rows) == 4
    assert _enqueue(rows) == 0  # made once
    assert rows.of_game("u", 1) == ([], [])
    with store.engine.connect() as conn:
        assert conn.execute(select(games.c.review_due)
                            .where(games.c.review_due.is_not(None))).all() == []
    assert rows.counts() == {QUEUED: 6, RUNNING: 0, READY: 0, FAILED: 0}


def test_one_claim_per_review_and_only_its_holder_writes(store: Store) -> None:
    rows, other = ReviewStore(store), ReviewStore(Store(store.url))
    _finished_games(store, "t", 1, [0, 1])
    _enqueue(rows)
    now = time.time()
    first = rows.claim("A", now=now, stale_before=now - 60)
    second = other.claim("B", now=now, stale_before=now - 60)
    assert first is not None and second is not None
    assert {first.key.seat, second.key.seat} == {0, 1}
    assert (first.status, first.worker, first.attempts) == (RUNNING, "A", 1)
    assert rows.claim("C", now=now, stale_before=now - 60) is None  # nothing left
    key = first.key
    assert not other.progress(key, "B", done=3, total=9, now=now)  # not B's
    assert rows.progress(key, "A", done=3, total=9, now=now)
    assert not other.finish(key, "B", review="{}", accuracy=1.0, loss=0.0, done=9, now=now)
    assert rows.review_text(key) is None  # not ready
    assert rows.finish(key, "A", review='{"x":1}', accuracy=80.5, loss=2.0, done=9, now=now)
    ready = rows.get(key)
    assert ready is not None and (ready.status, ready.done, ready.total, ready.accuracy,
                                  ready.worker) == (READY, 9, 9, 80.5, None)
    assert rows.review_text(key) == '{"x":1}'
    assert not rows.fail(key, "A", error="late", now=now)  # the claim ended with it
    other.store.close()


def test_many_workers_claiming_at_once_each_review_once(store: Store) -> None:
    _finished_games(store, "t", 6, [0, 1, 2, 3])
    rows = ReviewStore(store)
    _enqueue(rows)
    stores = [Store(store.url) for _ in range(4)]
    claimed: list[tuple[str, ReviewKey]] = []
    lock = threading.Lock()

    def work(name: str, worker_rows: ReviewStore) -> None:
        while True:
            now = time.time()
            row = worker_rows.claim(name, now=now, stale_before=now - 60)
            if row is None:
                return
            with lock:
                claimed.append((name, row.key))

    threads = [threading.Thread(target=work, args=(f"w{i}", ReviewStore(s)))
               for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    keys = [key for _, key in claimed]
    assert len(keys) == len(set(keys)) == 24
    for other in stores:
        other.close()


def test_a_dead_workers_review_is_taken_over_then_fails_after_three_runs(store: Store) -> None:
    rows = ReviewStore(store)
    _finished_games(store, "t", 1, [0])
    _enqueue(rows)
    start = time.time()
    first = rows.claim("A", now=start, stale_before=start - 60)
    assert first is not None
    assert rows.claim("B", now=start + 30, stale_before=start - 30) is None  # A is alive
    taken = rows.claim("B", now=start + 90, stale_before=start + 30)  # A went quiet
    assert taken is not None and (taken.worker, taken.attempts) == ("B", 2)
    assert not rows.progress(first.key, "A", done=1, total=5, now=start + 91)  # A must stop
    third = rows.claim("C", now=start + 200, stale_before=start + 140)
    assert third is not None and third.attempts == MAX_ATTEMPTS
    assert rows.claim("D", now=start + 300, stale_before=start + 240) is None
    failed = rows.get(first.key)
    assert failed is not None and failed.status == FAILED
    assert failed.error is not None and "stopped 3 times" in failed.error


def test_asked_for_reviews_are_bounded_and_a_failed_one_runs_again(store: Store) -> None:
    rows = ReviewStore(store)
    _finished_games(store, "t", 1, None)
    now = time.time()

    def ask(seat: int, limit: int = 2) -> str:
        return rows.request(ReviewKey("t", 1, seat), level=LEVEL, seed=0, hindsight=True,
                            limit=limit, now=now).status

    assert ask(0) == QUEUED and ask(1) == QUEUED
    assert ask(0) == QUEUED  # asked again: the same row
    with pytest.raises(QueueFull):
        ask(2)
    assert rows.get(ReviewKey("t", 1, 2)) is None  # refused: nothing stored
    row = rows.claim("A", now=now, stale_before=now - 60)
    assert row is not None and row.priority == ON_DEMAND
    assert rows.fail(row.key, "A", error="boom " * 200, now=now)
    failed = rows.get(row.key)
    assert failed is not None and failed.status == FAILED and len(failed.error or "") == 500
    other = rows.claim("A", now=now, stale_before=now - 60)  # the other seat's
    assert other is not None and other.key != row.key
    assert ask(row.key.seat, limit=5) == QUEUED  # asked again: it runs again
    again = rows.claim("A", now=now, stale_before=now - 60)
    assert again is not None and again.key == row.key and again.attempts == 2
    assert rows.release(again.key, "A", now=now)  # the server stops: unrun, uncounted
    back = rows.get(again.key)
    assert back is not None and (back.status, back.attempts) == (QUEUED, 1)


def test_a_single_server_requeues_what_ran_before_it_stopped(store: Store) -> None:
    rows = ReviewStore(store)
    _finished_games(store, "t", 1, [0, 1])
    _enqueue(rows)
    now = time.time()
    assert rows.claim("old", now=now, stale_before=now - 60) is not None
    assert rows.requeue_running(now=now) == 1
    assert rows.counts()[QUEUED] == 2


def test_the_migration_goes_down_and_up(store: Store) -> None:
    store.downgrade("0002")
    assert "reviews" not in inspect(store.engine).get_table_names()
    assert "review_due" not in {c["name"] for c in inspect(store.engine).get_columns("games")}
    store.migrate()
    assert store.revision() == "0011_online"
    assert "reviews" in inspect(store.engine).get_table_names()


def test_a_client_share_and_the_players_priority(store: Store) -> None:
    """Issue 23: each asker (address, and apart from it a profile) has at most ``share``
    asked-for reviews waiting (``ShareFull``, nothing stored); a player's request is queued
    at the players' priority, ahead of everyone else's, and counted apart."""
    _finished_games(store, "t", 1, None)
    rows = ReviewStore(store)
    now = time.time()

    def ask(seat: int, asker: Asker) -> str:
        return rows.request(ReviewKey("t", 1, seat), level=LEVEL, seed=0, hindsight=True,
                            limit=10, now=now, asker=asker, share=1).status

    assert ask(0, Asker("192.0.2.1")) == QUEUED
    with pytest.raises(ShareFull):
        ask(1, Asker("192.0.2.1"))
    assert ask(2, Asker("192.0.2.2", "p1")) == QUEUED
    with pytest.raises(ShareFull):  # another address, the same profile
        ask(1, Asker("192.0.2.3", "p1"))
    assert rows.get(ReviewKey("t", 1, 1)) is None
    assert ask(1, Asker("192.0.2.1", player=True)) == QUEUED  # a player: counted apart
    first = rows.claim("A", now=now + 1, stale_before=now - 60)
    assert first is not None and first.key.seat == 1 and first.priority == PLAYERS
    assert rows.claim("A", now=now + 2, stale_before=now - 60).priority == ON_DEMAND  # type: ignore[union-attr]


def test_migration_0007_moves_asked_for_reviews_behind_the_players(store: Store) -> None:
    _finished_games(store, "t", 1, None)
    store.downgrade("0006_lookalike_names")
    with store.engine.begin() as conn:
        conn.execute(text("INSERT INTO reviews (table_id, number, seat, status, priority, "
                          "level, seed, hindsight, done, attempts, created_at, updated_at) "
                          "VALUES ('t', 1, 0, 'queued', 1, 'x', 0, true, 0, 0, 1, 1)"))
    store.migrate()
    row = ReviewStore(store).get(ReviewKey("t", 1, 0))
    assert row is not None and row.priority == ON_DEMAND
    store.downgrade("0006_lookalike_names")
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT priority FROM reviews")).scalar_one() == 1
    store.migrate()
