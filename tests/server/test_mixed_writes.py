"""A move's storage cost (issue 28, fifty-first pass): a JSON column's text from a C encoder
made once, and a batch holding a change that is not plain (a game's end, a new game, a
seat taken) writing its moves on the driver's cursor all the same.

The rows stored equal those of SQLAlchemy's general path for seeded games (SQLite and
PostgreSQL); a restart rebuilds every table where it was; a batch that fails is rolled back
whole, fails only its own caller and stores nothing of its change."""

from __future__ import annotations

import asyncio
import json
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import event, select

import chicago.server.storage.plain as plain_module
from chicago import Rules
from chicago.server.core import decide
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState, build_table
from chicago.server.storage import Change, Conflict, LogEntry, Store
from chicago.server.storage.models import (
    game_players,
    games,
    log,
    rated_games,
    seat_holders,
    tables,
)
from chicago.server.storage.plain import compact_json
from chicago.server.writer import GroupWriter

pytestmark = pytest.mark.timeout(180)

T0 = 1_700_000_000.0
STORED = (tables, games, log, seat_holders, game_players, rated_games)


# ---------------------------------------------------------------------- compact_json
def _stdlib(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=6) | st.integers() | st.booleans() | st.none(), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_compact_json_is_the_stdlib_text(value: Any) -> None:
    """Any JSON value (floats infinite and NaN, text beyond ASCII, keys that are not text)
    gets the stdlib's compact text, to the byte."""
    assert compact_json(value) == _stdlib(value)


def test_compact_json_fails_as_the_stdlib_does() -> None:
    """Hostile values: the same error types and words as ``json.dumps``; a value that holds
    itself is named a circular reference, and an encoding that failed leaves nothing
    behind for the next one."""
    looped: list[Any] = []
    looped.append(looped)
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    for bad in ({"a": object()}, {1j: 1}, [{1, 2}], looped, deep, {"x": math.inf, "y": [looped]}):
        with pytest.raises(Exception) as ours:
            compact_json(bad)
        with pytest.raises(Exception) as theirs:
            _stdlib(bad)
        assert type(ours.value) is type(theirs.value)
        assert str(ours.value) == str(theirs.value)
    assert compact_json({"after": [1.5, "é"]}) == _stdlib({"after": [1.5, "é"]})


def test_compact_json_makes_no_encoder_per_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C encoder is made once, not for every value (before: one made per value, about
    half the cost of an action's text)."""
    made: list[object] = []
    real = json.encoder.c_make_encoder  # type: ignore[attr-defined]
    assert real is not None

    def counting(*args: Any) -> Any:
        made.append(args)
        return real(*args)

    texts = [_stdlib({"action": f"play {n}h", "by": "bot"}) for n in range(10)]
    monkeypatch.setattr(json.encoder, "c_make_encoder", counting)
    assert [compact_json({"action": f"play {n}h", "by": "bot"}) for n in range(10)] == texts
    assert made == []
    assert plain_module._C_ENCODE is not None


# ---------------------------------------------------------------------- seeded games
def _games(seed: int, live: dict[str, TableState], count: int = 4) -> Iterator[Change]:
    """The changes of ``count`` seeded tables of one person and three random players, in an
    interleaved order as the server stores them: each table made, its seat taken (holders:
    not plain), its actions and chat lines (plain), its game's end (not plain) and the next
    game begun (not plain), twice. ``live``: each table's state once they are all stored,
    by id."""
    rng = random.Random(seed)
    states: list[TableState] = []
    pending: list[list[Change]] = []
    for n in range(count):
        rules = Rules.preset(rng.choice(["pagat", "denexa", "wikipedia"])).replace(max_deals=1)
        state, change = decide.new_table(
            TableSpec(rules, ["open", "bot:random", "bot:random", "bot:random"],
                      TableOptions()),
            table_id=f"t{seed}x{n}", secret="s" * 16, seed=seed * 100 + n, at=T0)
        states.append(state)
        live[state.id] = state
        pending.append([change])
    at = T0 + 1
    rounds = [0] * count
    while any(pending) or any(r < 2 for r in rounds):
        n = rng.randrange(count)
        state = states[n]
        if pending[n]:
            yield pending[n].pop(0)
            continue
        at += 0.25
        if state.seats[0].kind == "open":
            _, change = decide.join(state, 0, f"p{n}", None, token_hash=hash_token(f"k{n}"),
                                    seed=1, at=at)
            _apply(state, change)
            pending[n].append(change)
        elif not state.current.is_over:
            game = state.current
            seat = game.to_act
            move = decide.act(state, seat, str(rng.choice(game.legal_actions())),
                              "player" if seat == 0 else "bot", at=at)
            _apply(state, move.change, move.games)
            pending[n].append(move.change)
            if rng.random() < 0.05:
                chat = Change(state.id, [state.entry("chat", 0, {"text": f"hi 'é' %s {at}"},
                                                     at)])
                _apply(state, chat)
                pending[n].append(chat)
        elif rounds[n] < 2:
            rounds[n] += 1
            change = decide.agree(state, 0, seed=rng.randrange(10**6), at=at)
            assert change is not None and change.new_game is not None
            _apply(state, change)
            pending[n].append(change)
        else:
            continue


def _apply(state: TableState, change: Change | None, games_: Any = None) -> None:
    assert change is not None
    for index, entry in enumerate(change.entries):
        state.apply(entry, games_[index] if games_ else None)


def _batches(seed: int, live: dict[str, TableState] | None = None) -> list[list[Change]]:
    """The seeded games' changes cut into group commits of 1-12 changes, a table's changes
    in their order (``live``: filled with the tables' states after them)."""
    rng = random.Random(seed + 1)
    changes = list(_games(seed, {} if live is None else live))
    out = []
    while changes:
        size = rng.randint(1, 12)
        out.append(changes[:size])
        changes = changes[size:]
    return out


def _contents(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    with store.engine.connect() as conn:
        return {t.name: sorted(tuple(r) for r in conn.execute(select(t)).all())
                for t in STORED}


def _wipe(store: Store) -> None:
    with store.engine.begin() as conn:
        for table in (log, seat_holders, game_players, rated_games, games, tables):
            conn.execute(table.delete())


@pytest.mark.parametrize("seed", [3, 8])
def test_seeded_games_store_the_rows_of_the_general_path(db_url: str, seed: int) -> None:
    """Every change of seeded games, in mixed group commits (game ends, new games and seats
    taken among other tables' moves), stores the same rows in every table as SQLAlchemy's
    general path stores them; and a restart rebuilds each table where the writes left it."""
    live: dict[str, TableState] = {}
    batches = _batches(seed, live)
    assert any(not all(plain_module.plain(c) for c in b) and any(plain_module.plain(c) for c in b)
               for b in batches)  # mixed batches are there
    store = Store(db_url)
    store.migrate()
    for batch in batches:
        assert store.write(batch) == [None] * len(batch)
    fast = _contents(store)
    assert len(fast["log"]) > 200 and len(fast["games"]) == 12
    restarted = Store(db_url)
    expected = {}
    for row in fast["tables"]:
        loaded = restarted.load(row[0])
        assert loaded is not None
        table = build_table(loaded.table, loaded.entries)
        state = live[row[0]]
        assert table.seq == state.seq == max(r[1] for r in fast["log"] if r[0] == row[0])
        assert table.game_number == state.game_number == 3
        actions = [str(a) for _, a in table.current.actions_between(-1)]
        assert actions == [str(a) for _, a in state.current.actions_between(-1)]
        expected[row[0]] = (table.seq, actions)
    restarted.close()
    _wipe(store)
    store.close()
    general = Store(db_url, driver_writes=False)
    for batch in batches:
        assert general.write(batch) == [None] * len(batch)
    assert _contents(general) == fast
    for table_id, (seq, actions) in expected.items():
        loaded = general.load(table_id)
        assert loaded is not None
        table = build_table(loaded.table, loaded.entries)
        assert (table.seq, [str(a) for _, a in table.current.actions_between(-1)]) == (
            seq, actions)
    general.close()


def test_a_mixed_batch_runs_sqlalchemy_only_for_what_is_not_plain(db_url: str) -> None:
    """A batch with a seat taken among the moves of other tables: SQLAlchemy executes the
    seat's statements alone; the log rows and the moves' row updates go on the driver's
    cursor (before, every statement of the batch went through SQLAlchemy)."""
    batches = _batches(5)
    store = Store(db_url)
    store.migrate()
    executed: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_: executed.append(statement))
    mixed = 0
    for batch in batches:
        executed.clear()
        assert store.write(batch) == [None] * len(batch)
        if all(plain_module.plain(c) for c in batch):
            assert executed == []
            continue
        mixed += 1
        words = [" ".join(s.split()).upper() for s in executed]
        assert not any(w.startswith("INSERT INTO LOG") for w in words), words
        # a table row update by SQLAlchemy for each change that is not plain, none for a move
        assert sum(w.startswith("UPDATE TABLES") for w in words) == sum(
            1 for c in batch if c.table_updates and not plain_module.plain(c)), words
    assert mixed >= 3
    store.close()


def test_a_mixed_batch_that_fails_is_rolled_back_and_fails_alone(db_url: str) -> None:
    """Hostile: a mixed batch whose last change takes a seq already stored. The batch's
    transaction is rolled back whole (the new table and the moves' row updates written
    before the failing insert included), then each change is stored alone: the clash is
    refused (Conflict) and nothing of it is written; through the group writer, only its
    caller hears of it."""
    batches = _batches(4)
    store = Store(db_url)
    store.migrate()
    at = next(i for i, b in enumerate(batches) if i and any(not plain_module.plain(c) for c in b)
              and any(plain_module.plain(c) and c.table_updates for c in b))
    first = [c for b in batches[:at] for c in b]
    second = batches[at]
    assert store.write(first) == [None] * len(first)
    before = _contents(store)
    stored = next(c for c in first if c.entries and c.table_updates == {} and c.new_table)
    clash = Change(stored.table_id, [LogEntry(stored.entries[0].seq, 1, "act", 0,
                                              {"action": "x", "by": "player"}, T0)],
                   table_updates={"to_act": 3, "status": "broken"})
    assert any(not plain_module.plain(c) for c in second)
    assert any(plain_module.plain(c) and c.table_updates for c in second)
    results = store.write([*second, clash])
    assert results[:-1] == [None] * len(second)
    assert isinstance(results[-1], Conflict)
    after = _contents(store)
    # the clash stored nothing: its table row is not "broken", its entry not written twice
    assert not any("broken" in row for row in after["tables"])
    assert [r for r in after["log"] if r[0] == clash.table_id and r[1] == clash.entries[0].seq] \
        == [r for r in before["log"] if r[0] == clash.table_id and r[1] == clash.entries[0].seq]
    # the others are all there, as stored alone
    ref = Store(db_url, driver_writes=False)
    _wipe(ref)
    assert ref.write(first) == [None] * len(first)
    for change in second:
        assert ref.write([change]) == [None]
    assert _contents(ref) == after
    ref.close()
    store.close()


def test_a_failed_change_fails_its_own_caller_alone() -> None:
    """Through the group writer on SQLite: a change that clashes is refused to its caller
    alone (Conflict), the change committed beside it returns, and nothing of the clash is
    stored."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'w.sqlite3'}"
        store = Store(url)
        store.migrate()
        first = _batches(6)[0]
        assert store.write(first) == [None] * len(first)
        made = [c for c in first if c.new_table is not None]
        loaded = store.load(made[0].table_id)
        assert loaded is not None
        good = Change(made[0].table_id, [LogEntry(loaded.entries[-1].seq + 1, 1, "chat", 0,
                                                  {"text": "ok"}, T0)])
        clash = Change(made[1].table_id, [LogEntry(1, 1, "chat", 0, {"text": "no"}, T0)],
                       table_updates={"status": "broken"})

        async def commits() -> list[BaseException | None]:
            writer = GroupWriter(store)
            writer.start()
            out = await asyncio.gather(writer.commit(good), writer.commit(clash),
                                       return_exceptions=True)
            await writer.stop()
            return list(out)

        results = asyncio.run(commits())
        assert results[0] is None and isinstance(results[1], Conflict)
        contents = _contents(store)
        assert not any("broken" in row for row in contents["tables"])
        assert sum(r[5] == '{"text":"ok"}' for r in contents["log"]) == 1
        assert not any(r[5] == '{"text":"no"}' for r in contents["log"])
        store.close()
