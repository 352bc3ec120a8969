"""The deal memo's reads in C are the Python ones (issue 28, forty-first pass).

:mod:`chicago.engine.carried` keeps per deal the events each seat may see and the facts
folded from them. With the accelerator built, ``DealMemo.seen``, ``DealMemo.log`` and
``SeatLog.read`` are C methods; the Python ones stay as ``_seen_python``, ``_log_python``
and ``_read_python``. On random games of every preset and variation, asked in a random
order (newer and older states, copies that went another way, every seat and the
spectators), the two paths give equal answers and leave equal memos; a seat's log never
holds an event its seat may not see (V-HIDDEN); the locks the docstring promises are held.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator_cases import copies_along, run_in_threads
from chicago import Game
from chicago.engine import carried
from chicago.engine.carried import DealMemo, Fold, SeatLog, SeenEvents
from chicago.engine.events import Event
from chicago.engine.knowledge import PLACES, WALK, _copy_places
from chicago.engine.native import ENGINE
from chicago.engine.views import SCORING, _Scoring
from chicago.rules import Rules
from test_engine_properties import Case, cases

ACCELERATED = pytest.mark.skipif(ENGINE is None, reason="the accelerator is not built")


def _deal(game: Game) -> tuple[list[Event], int, int]:
    """The game's log, where its current deal begins and ends (as ``Game._from_memo``)."""
    game.seen_by(None)  # makes the game's events
    return game._events, game._deal_start_event, game._event_count


def _visible(event: Event, seat: int | None) -> bool:
    return not event.private or (seat is not None and event.audience == seat)


def _games(case: Case, rng: random.Random, most: int = 80) -> list[Game]:
    """Copies of a random game after each action, and copies of some of them that went
    another way (a different random action from the same state)."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    states = [game.copy()]
    while not game.is_over and len(states) <= most:
        if rng.random() < 0.1 and len(game.legal_actions()) > 1:
            other = game.copy()
            other.apply(rng.choice(game.legal_actions()))
            states.append(other)
        game.apply(rng.choice(game.legal_actions()))
        states.append(game.copy())
    return states


def _walk_state(walk: Any) -> str:
    return repr([(f.name, getattr(walk, f.name)) for f in dataclasses.fields(walk)])


_READS: list[tuple[Fold[Any], Callable[[Any], Any]]] = [
    (PLACES, _copy_places), (SCORING, _Scoring.parts), (WALK, _walk_state)]


class _Memos:
    """The memos of one path, kept as ``Game._from_memo`` keeps them (one per deal and way)."""

    def __init__(self, python: bool) -> None:
        self.python = python
        self.memos: list[DealMemo] = []

    def ask(self, mode: str, game: Game, seat: int | None) -> tuple[DealMemo, Any]:
        events, start, stop = _deal(game)
        first = events[start] if start < stop else None
        ask = {"seen": DealMemo._seen_python if self.python else DealMemo.seen,
               "log": DealMemo._log_python if self.python else DealMemo.log}[mode]
        for memo in self.memos:
            if memo.first is first:
                found = ask(memo, seat, events, start, stop)
                if found is not None:
                    return memo, found
        memo = DealMemo(first, game.players, game.rules)
        self.memos.append(memo)
        found = ask(memo, seat, events, start, stop)
        assert found is not None
        return memo, found

    def read(self, log: SeatLog, fold: Fold[Any], count: int,
             read: Callable[[Any], Any]) -> Any:
        return (SeatLog._read_python if self.python else SeatLog.read)(log, fold, count, read)


def _same_memos(c_memos: _Memos, py_memos: _Memos) -> None:
    assert len(c_memos.memos) == len(py_memos.memos)
    for c, p in zip(c_memos.memos, py_memos.memos, strict=True):
        assert c.first is p.first
        assert len(c.deal) == len(p.deal)
        assert all(a is b for a, b in zip(c.deal, p.deal, strict=True))
        assert set(c.logs) == set(p.logs)
        for seat, log in c.logs.items():
            other = p.logs[seat]
            assert type(log) is SeatLog
            assert log.seat == seat and log._scanned == other._scanned
            assert log._seen == other._seen and type(log._seen) is tuple
            assert set(log._facts) == set(other._facts)
            # V-HIDDEN: the log holds its seat's events of the deal read, and nothing else
            assert log._seen == tuple(e for e in c.deal[:log._scanned] if _visible(e, seat))


@ACCELERATED
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.integers(0, 2**32))
def test_the_memos_c_reads_are_the_python_reads_V_HIDDEN(case: Case, order: int) -> None:
    """Every preset and variation: asked the same things in the same random order, the C
    and the Python reads give equal answers (a SeenEvents of the seat's log, a log and a
    count, a fact folded on or afresh, None for a game that went another way) and leave
    memos whose deals, logs and kept facts are alike; a log holds only its seat's events."""
    rng = random.Random(order)
    games = _games(case, rng)
    asks = [(game, seat) for game in games for seat in [None, *range(game.players)]]
    rng.shuffle(asks)  # older and newer states, other ways, in any order
    c_memos, py_memos = _Memos(python=False), _Memos(python=True)
    for game, seat in asks[:240]:
        mode = rng.choice(("seen", "log"))
        c_memo, c_found = c_memos.ask(mode, game, seat)
        py_memo, py_found = py_memos.ask(mode, game, seat)
        assert c_memos.memos.index(c_memo) == py_memos.memos.index(py_memo)
        events, start, stop = _deal(game)
        expected = tuple(e for e in events[start:stop] if _visible(e, seat))
        if mode == "seen":
            assert type(c_found) is SeenEvents and type(py_found) is SeenEvents
            assert c_found == py_found == expected
            assert c_found.log is c_memo.logs[seat]
            log, count = c_found.log, len(c_found)
            py_log = py_found.log
        else:
            (log, count), (py_log, py_count) = c_found, py_found
            assert count == py_count == len(expected)
            assert log is c_memo.logs[seat] and py_log is py_memo.logs[seat]
        assert log._seen[:count] == expected
        for fold, read in _READS:
            if fold is WALK and seat is None:
                continue  # knowledge is a seat's
            older = rng.randrange(count + 1) if rng.random() < 0.2 else count
            assert (c_memos.read(log, fold, older, read)
                    == py_memos.read(py_log, fold, older, read))
    _same_memos(c_memos, py_memos)


@ACCELERATED
def test_the_accelerators_reads_are_on_the_classes() -> None:
    """With the accelerator, the memo's reads are its C methods, the Python ones kept."""
    assert carried.ACCELERATED
    assert type(DealMemo.__dict__["seen"]).__name__ == "method_descriptor"
    assert type(DealMemo.__dict__["log"]).__name__ == "method_descriptor"
    assert type(SeatLog.__dict__["read"]).__name__ == "method_descriptor"
    assert DealMemo._seen_python.__module__ == "chicago.engine.carried"


class _Secret:
    """An event of a kind the accelerator's table does not know: asked as Python asks."""

    private = True

    def __init__(self, seat: int, memo: list[DealMemo]) -> None:
        self._seat = seat
        self._memo = memo
        self.locked: list[bool] = []

    @property
    def audience(self) -> int:
        # asked by the memo while its lock is held (the C path asks under it too)
        self.locked.extend(m._lock.locked() for m in self._memo)
        return self._seat


@pytest.mark.parametrize("python", [False, True])
def test_an_event_of_another_kind_is_seen_by_its_seat_alone_V_HIDDEN(python: bool) -> None:
    """A private event of an unknown kind goes to its own seat's log, never to another
    seat's or the spectators', on either path, and is asked about under the memo's lock."""
    game = Game(seed=3)
    events = list(game.deal_events)
    holder: list[DealMemo] = []
    secret = _Secret(2, holder)
    events.insert(3, secret)  # type: ignore[arg-type]
    memo = DealMemo(events[0], game.players, game.rules)
    holder.append(memo)
    seen = DealMemo._seen_python if python else DealMemo.seen
    for seat in [None, 0, 1, 2, 3]:
        found = seen(memo, seat, events, 0)
        assert found is not None
        assert (secret in found) == (seat == 2)
        assert all(not e.private or e.audience == seat for e in found)


def test_a_log_holds_no_other_seats_private_events_V_HIDDEN() -> None:
    """Through the game's own path (the C reads when built): every seat's log of a played
    deal holds its own private events and no other seat's; the spectators' none."""
    game = Game(seed=11)
    rng = random.Random(11)
    for _ in range(60):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        for seat in [None, *range(game.players)]:
            seen = game.seen_by(seat)
            log, count = game.seat_log(seat)
            assert seen.log is log and count == len(seen)
            assert all(not e.private or e.audience == seat for e in log._seen)
            deal = game.deal_events
            assert list(seen) == [e for e in deal if e.audience in (None, seat)]


def test_a_fact_is_folded_and_read_under_the_logs_lock() -> None:
    """A fold's advance and its read run while the log's lock is held; the memo's lock is
    not held by then (a fold may ask the memo again)."""
    game = Game(seed=7)
    log, count = game.seat_log(1)
    held: list[bool] = []

    def advance(state: int, events: Any, on: SeatLog) -> int:
        held.append(on._lock.locked())
        return state + len(events)

    def read(state: int) -> int:
        held.append(log._lock.locked())
        return state

    fold: Fold[int] = Fold("count", lambda on: 0, advance)
    assert log.read(fold, count, read) == count
    assert log.read(fold, count, read) == count  # carried: no advance this time
    assert held == [True, True, True]
    assert not log._lock.locked()
    with pytest.raises(ValueError, match=f"the log holds {count} events, not {count + 1}"):
        log.read(fold, count + 1, read)


def test_a_fold_that_raises_leaves_the_locks_free() -> None:
    """An error in a fold's advance reaches the caller, the log's lock let go."""
    game = Game(seed=8)
    log, count = game.seat_log(0)

    def advance(state: int, events: Any, on: SeatLog) -> int:
        raise KeyError("fold")

    with pytest.raises(KeyError):
        log.read(Fold("bad", lambda on: 0, advance), count, lambda state: state)
    assert not log._lock.locked()
    memo = game._memo
    assert memo is not None and not memo._lock.locked()


def test_a_memo_read_waits_for_its_lock() -> None:
    """A memo read by another thread while one holds the memo's lock waits for it: it ends
    only after the lock is let go, with the answer a read alone gives."""
    game = Game(seed=9)
    rng = random.Random(9)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    events, start, stop = _deal(game)
    memo = DealMemo(events[start], game.players, game.rules)
    answers: list[object] = []
    started = threading.Event()

    def reader() -> None:
        started.set()
        answers.append(memo.seen(1, events, start, stop))

    with memo._lock:
        thread = threading.Thread(target=reader)
        thread.start()
        started.wait()
        assert answers == []  # the read cannot have passed the lock held here
        assert 1 not in memo.logs
    thread.join()
    assert answers == [tuple(e for e in events[start:stop] if _visible(e, 1))]


def test_threads_reading_one_memo_get_what_one_thread_gets() -> None:
    """Four threads ask one memo about every state of a deal and every seat at once, with
    switches between threads as often as Python allows: each answer is the one a lone
    reader gets, and each log holds its seat's events only."""
    game = Game(seed=12)
    rng = random.Random(12)
    states = copies_along(game, rng, 40)
    deals = [_deal(g) for g in states]
    first_deal = [d for d in deals if d[0][d[1]] is deals[0][0][deals[0][1]]]
    memo = DealMemo(first_deal[0][0][first_deal[0][1]], game.players, game.rules)
    wrong: list[object] = []
    ready = threading.Barrier(4)

    def work(order: int) -> None:
        try:
            read_all(order)
        except Exception as exc:  # reaches the assertion below, not a thread's warning
            wrong.append(exc)

    def read_all(order: int) -> None:
        mine = list(first_deal)
        random.Random(order).shuffle(mine)
        ready.wait()
        for events, start, stop in mine:
            for seat in [None, 0, 1, 2, 3]:
                found = memo.seen(seat, events, start, stop)
                want = tuple(e for e in events[start:stop] if _visible(e, seat))
                if found != want:
                    wrong.append((seat, found, want))
                log, count = found.log, len(found)
                got = log.read(PLACES, count, _copy_places)
                if got != SeatLog._read_python(log, PLACES, count, _copy_places):
                    wrong.append(("places", seat))

    run_in_threads(work)
    assert wrong == []
    for seat, log in memo.logs.items():
        assert all(_visible(e, seat) for e in log._seen)


def test_anything_of_another_shape_goes_to_the_python_reads() -> None:
    """A tuple of events, a seat given as a bool's neighbour, a start past the end: the C
    methods hand them to the Python ones, which answer or raise as before."""
    game = Game(seed=4)
    events, start, stop = _deal(game)
    memo = DealMemo(events[start], game.players, game.rules)
    as_tuple = memo.seen(0, tuple(events), start, stop)  # type: ignore[arg-type]
    assert as_tuple == tuple(e for e in events[start:stop] if _visible(e, 0))
    py = DealMemo(events[start], game.players, game.rules)
    assert memo.log(0, events, start, None) == (memo.logs[0], len(as_tuple))
    assert py.log(0, events, start) == (py.logs[0], len(as_tuple))
    with pytest.raises(TypeError):
        memo.seen(0)  # type: ignore[call-arg]
    assert DealMemo(events[start], 4, Rules()).seen(None, events, start, stop) == tuple(
        e for e in events[start:stop] if e.public)
