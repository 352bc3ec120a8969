"""The writes of play on the driver's own cursor (:mod:`chicago.server.storage.plain`):
the same rows as the general path, no SQLAlchemy statement for them, and a failed batch
rolled back whole before each change is tried alone."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, select

from chicago import Rules
from chicago.server.core.rows import SeatHolder
from chicago.server.storage import Change, Conflict, GameRow, LogEntry, Store, TableRow
from chicago.server.storage.models import games, log, seat_holders, tables

pytestmark = pytest.mark.timeout(120)

ACT = {"action": "keep", "by": "player"}


def _row(table_id: str) -> TableRow:
    return TableRow(
        id=table_id, name=f"t {table_id}", players=2, preset="pagat",
        rules=Rules.preset("pagat").to_dict(), variations=[], seats=["open", "bot:random"],
        options={"clock": None, "stand_in": "random", "bot_delay": 0}, private=False,
        secret="s" * 32, status="playing", open_seats=0, game=1, created_at=1.0,
        updated_at=1.0,
    )


def _store(url: str, names: str) -> Store:
    store = Store(url)
    store.migrate()
    game = {"number": 1, "seed": 5}
    assert store.write([Change(t, [LogEntry(1, 1, "game", None, game, 1.0)],
                               new_table=_row(t),
                               new_game=GameRow(t, 1, 5, Rules.preset("pagat").to_dict(), 2,
                                                "playing", 1.0))
                        for t in names]) == [None] * len(names)
    return store


def _play(table_id: str, seq: int, **updates: Any) -> Change:
    """An action and its reply, as the table core stores them."""
    return Change(table_id, [LogEntry(seq, 1, "act", 0, ACT, 2.0 + seq),
                             LogEntry(seq + 1, 1, "act", 1, dict(ACT, by="bot"), 2.5 + seq)],
                  table_updates=updates)


def _plain_batches() -> list[list[Change]]:
    """Batches of plain changes only: several tables, updates of different columns (a JSON
    one among them), entries alone, an update alone, a chat line with text a driver must
    quote."""
    return [
        [_play("a", 2, to_act=1, turn_at=4.0, updated_at=4.0)],
        [_play("b", 2, to_act=1, turn_at=4.0, updated_at=4.0),
         _play("a", 4, to_act=0, turn_at=6.0, updated_at=6.0),
         _play("b", 4, to_act=None, status="finished", answer_by=99.0, updated_at=6.5),
         Change("a", [LogEntry(6, 1, "chat", 0, {"text": "it's 'quoted' ?, %s"}, 7.0)]),
         Change("a", table_updates={"seats": ["open", "bot:basic"], "to_act": 1})],
    ]


def _contents(store: Store) -> tuple[list[Any], list[Any]]:
    with store.engine.connect() as conn:
        logs = conn.execute(select(log).order_by(log.c.table_id, log.c.seq)).all()
        rows = conn.execute(select(tables).order_by(tables.c.id)).all()
    return [tuple(r) for r in logs], [tuple(r) for r in rows]


def test_plain_batches_store_the_rows_of_the_general_path(db_url: str) -> None:
    """The same changes stored as plain batches, and with a change that is not plain in
    each batch (which makes the whole batch take SQLAlchemy's general path): the same log
    and table rows."""
    fast = _store(db_url, "ab")
    for batch in _plain_batches():
        assert fast.write(batch) == [None] * len(batch)
    expected = _contents(fast)
    with fast.engine.begin() as conn:  # the same database again, for the general path
        for table in (log, seat_holders, games, tables):
            conn.execute(table.delete())
    fast.close()
    general = _store(db_url, "ab")
    for number, batch in enumerate(_plain_batches()):
        holder = Change("a", holders=[SeatHolder(0, None, f"{number:064d}")])  # not plain
        assert general.write([holder, *batch]) == [None] * (len(batch) + 1)
    assert _contents(general) == expected
    general.close()


def test_a_batch_of_plain_changes_runs_no_sqlalchemy_statement(db_url: str) -> None:
    """The writes of play go to the driver's cursor: SQLAlchemy executes none of their
    statements (before, each lone action cost it an insert and an update)."""
    store = _store(db_url, "ab")
    executed: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        executed.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    for batch in _plain_batches():
        assert store.write(batch) == [None] * len(batch)
    assert executed == []
    loaded = store.load("a")
    assert loaded is not None
    assert [e.seq for e in loaded.entries] == [1, 2, 3, 4, 5, 6]
    assert loaded.entries[-1].data == {"text": "it's 'quoted' ?, %s"}
    assert (loaded.table.to_act, loaded.table.seats) == (1, ["open", "bot:basic"])
    store.close()


def test_a_conflict_rolls_the_plain_batch_back_and_fails_alone(db_url: str) -> None:
    """Hostile: the last change of a plain batch takes a seq another writer stored. The
    batch's transaction is rolled back whole (the row updates written before the failing
    insert included), then each change is stored alone: the good ones are, the clash is
    refused (Conflict) and its row update is not written."""
    store = _store(db_url, "ab")
    assert store.write([_play("a", 2, to_act=1)]) == [None]
    clash = _play("a", 3, to_act=0, status="finished")  # seq 3 is taken
    results = store.write([_play("b", 2, to_act=1, turn_at=9.0), clash])
    assert results[0] is None and isinstance(results[1], Conflict)
    a, b = store.load("a"), store.load("b")
    assert a is not None and b is not None
    assert (a.table.to_act, a.table.status) == (1, "playing")
    assert [e.seq for e in a.entries] == [1, 2, 3]
    assert (b.table.to_act, b.table.turn_at, [e.seq for e in b.entries]) == (1, 9.0,
                                                                              [1, 2, 3])
    # a lone plain change that clashes: refused, nothing of it written
    assert isinstance(store.write([_play("a", 2, to_act=0)])[0], Conflict)
    assert store.load("a").table.to_act == 1  # type: ignore[union-attr]
    store.close()


def test_an_update_of_an_unknown_column_is_refused_and_stores_nothing(db_url: str) -> None:
    """Hostile: a plain change naming a column the table has not (a bug's) is not written on
    the cursor (no column name reaches SQL text unchecked): the general path refuses it,
    alone, and the other change of the batch is stored."""
    store = _store(db_url, "ab")
    bad = _play("a", 2, **{"to_act = 0; DROP TABLE log; --": 1})
    results = store.write([_play("b", 2, to_act=1), bad])
    assert results[0] is None and isinstance(results[1], Exception)
    assert store.count("log") == 4  # two game entries, b's two actions
    assert [e.seq for e in store.load("a").entries] == [1]  # type: ignore[union-attr]
    store.close()


def test_the_plain_writes_keep_one_connection_of_the_pool(db_url: str) -> None:
    """The batches of play check one connection out of the pool and keep it (before, each
    batch checked one out and gave it back, the pool rolling it back: about a third of a
    lone move's write); close gives it back."""
    store = _store(db_url, "ab")
    checkouts: list[object] = []
    event.listen(store.engine, "checkout", lambda *_: checkouts.append(_))
    seq = 2
    for _ in range(5):
        assert store.write([_play("a", seq, to_act=1), _play("b", seq, to_act=0)]) == [None] * 2
        seq += 2
    assert len(checkouts) == 1
    assert [e.seq for e in store.load("b").entries] == list(range(1, 12))  # type: ignore[union-attr]
    store.close()
    assert store.engine.pool.checkedout() == 0


def test_a_plain_write_on_a_connection_gone_stores_its_changes_on_another(
        db_url: str) -> None:
    """Hostile: the connection the plain writes keep breaks between batches (a database
    restart, an idle timeout). The next batch fails on it, is stored change by change on
    the general path as after any failed batch, and the batches after it check out a new
    connection: nothing is lost, and no caller sees the broken one."""
    store = _store(db_url, "ab")
    assert store.write([_play("a", 2, to_act=1)]) == [None]
    held = store._held
    assert held is not None
    held.driver_connection.close()  # under the pool's feet
    assert store.write([_play("a", 4, to_act=0), _play("b", 2, to_act=1)]) == [None] * 2
    assert store.write([_play("a", 6, to_act=1)]) == [None]
    assert store._held is not None and store._held is not held
    assert [e.seq for e in store.load("a").entries] == list(range(1, 8))  # type: ignore[union-attr]
    assert [e.seq for e in store.load("b").entries] == [1, 2, 3]  # type: ignore[union-attr]
    store.close()
