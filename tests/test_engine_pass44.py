"""A game's memo asks in C, and the folds carried in a seat's log (issue 28, forty-fourth
pass).

With the accelerator built, ``Game.seen_by``, ``Game.seat_log`` and ``Game._from_memo`` are
C methods; the Python ones stay as ``_seen_by_python``, ``_seat_log_python`` and
``_from_memo_python`` (the twins of ``ACCELERATED_METHODS``). On random games of every
preset and variation, played twice alike, asked in the same random order (newer and older
states, copies that went another way, every seat and the spectators), the two paths give
equal answers and share their memos alike. The folds carried in a log (the card places,
the cards known out of the stock, the scoring rounds, a seat's knowledge) equal a fold of
the seat's events afresh; another seat's exchange keeps the set of cards known out that
readers share (it moves no card into or out of the stock as the seat knows it).
"""

from __future__ import annotations

import dataclasses
import random
import threading
import types
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator_cases import copies_along, run_in_threads
from chicago import Game
from chicago.engine import knowledge as knowledge_module
from chicago.engine.carried import DealMemo, SeatLog, SeenEvents
from chicago.engine.events import Event, Exchange
from chicago.engine.knowledge import (
    CardPlaces,
    _advance_places,
    _advance_places_python,
    _carried_out,
    _carried_out_python,
    _fold_places,
    _fold_python,
    _Placing,
    card_places,
    knowledge,
    log_out_of_stock,
    out_of_stock,
)
from chicago.engine.native import ENGINE
from chicago.engine.views import SCORING, _Scoring, _scoring_add, _scoring_parts_of
from test_engine_properties import Case, cases

ACCELERATED = pytest.mark.skipif(ENGINE is None, reason="the accelerator is not built")


def _visible(event: Event, seat: int | None) -> bool:
    return not event.private or (seat is not None and event.audience == seat)


def _states(case: Case, choices: int, most: int = 70) -> list[Game]:
    """Copies of a random game after each action, and copies of some of them that went
    another way; the same list (equal games, none shared) for the same ``choices``."""
    rng = random.Random(choices)
    game = Game(case.rules, players=case.players, seed=case.seed)
    states = [game.copy()]
    while not game.is_over and len(states) <= most:
        legal = game.legal_actions()
        if rng.random() < 0.1 and len(legal) > 1:
            other = game.copy()
            other.apply(legal[rng.randrange(len(legal))])
            states.append(other)
        game.apply(legal[rng.randrange(len(legal))])
        states.append(game.copy())
    return states


def _ask(game: Game, mode: str, seat: Any, python: bool) -> Any:
    """One ask of the memo, by the C methods or their Python twins."""
    if mode == "seen":
        return (Game._seen_by_python if python else Game.seen_by)(game, seat)
    if mode == "log":
        return (Game._seat_log_python if python else Game.seat_log)(game, seat)
    ask = DealMemo.seen if mode == "from seen" else DealMemo.log
    return (Game._from_memo_python if python else Game._from_memo)(game, seat, ask)


def _outcome(game: Game, mode: str, seat: Any, python: bool) -> Any:
    try:
        return _ask(game, mode, seat, python)
    except (ValueError, TypeError) as exc:
        return (type(exc), str(exc))


def _made_state(game: Game) -> tuple[Any, ...]:
    return (len(game._events), game._event_count, game._pending_count, game._pending_offset,
            game._pending_base, len(game._pending), game.events_between(0))


@ACCELERATED
def test_the_asks_are_c_methods_with_python_twins() -> None:
    """With the accelerator, the asks are its C methods, the Python ones kept as twins."""
    for name in ("seen_by", "seat_log", "_from_memo"):
        assert isinstance(Game.__dict__[name], types.MethodDescriptorType), name
        twin = Game.__dict__[f"_{name.lstrip('_')}_python"]
        assert isinstance(twin, types.FunctionType) and twin.__module__ == "chicago.engine.game"


@ACCELERATED
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.integers(0, 2**32))
def test_the_c_asks_are_the_python_asks_V_HIDDEN(case: Case, order: int) -> None:
    """Every preset and variation: two plays of the same game, one asked through the C
    methods, the other through the Python twins, in the same random order: equal answers
    (the seat's events, a log and its count), the same sharing of memos (a state gets a
    memo of its own on both paths or on neither), equal logs; a seat is given only what it
    may see (V-HIDDEN); a bad seat raises alike."""
    c_states, py_states = _states(case, order), _states(case, order)
    rng = random.Random(order)
    asks = [(i, seat) for i in range(len(c_states))
            for seat in [None, *range(case.players)]]
    rng.shuffle(asks)
    memo_pairs: dict[int, int] = {}
    for i, seat in asks[:200]:
        mode = rng.choice(("seen", "log", "from seen", "from log"))
        c_game, py_game = c_states[i], py_states[i]
        c_found, py_found = _ask(c_game, mode, seat, False), _ask(py_game, mode, seat, True)
        # the events not made yet made alike (in C for a game whose records are its own)
        assert _made_state(c_game) == _made_state(py_game)
        assert c_game._memo is not None and py_game._memo is not None
        # one memo on one path is one memo on the other
        assert memo_pairs.setdefault(id(c_game._memo), id(py_game._memo)) == id(py_game._memo)
        deal = c_game.deal_events
        expected = tuple(e for e in deal if _visible(e, seat))
        if mode in ("seen", "from seen"):
            assert type(c_found) is SeenEvents and type(py_found) is SeenEvents
            assert c_found == py_found == expected
            assert c_found.log is c_game._memo.logs[seat]
        else:
            (log, count), (py_log, py_count) = c_found, py_found
            assert type(log) is SeatLog and log is c_game._memo.logs[seat]
            assert count == py_count == len(expected)
            assert log._seen[:count] == py_log._seen[:count] == expected
    assert len(set(memo_pairs.values())) == len(memo_pairs)
    for c_game, py_game in zip(c_states, py_states, strict=True):
        c_memo, py_memo = c_game._memo, py_game._memo
        assert (c_memo is None) == (py_memo is None)
        if c_memo is not None and py_memo is not None:
            assert c_memo.deal == py_memo.deal and set(c_memo.logs) == set(py_memo.logs)
            for seat, log in c_memo.logs.items():
                assert log._seen == py_memo.logs[seat]._seen
                assert all(_visible(e, seat) for e in log._seen)  # V-HIDDEN
    game = c_states[-1]
    for seat in (case.players, -1, True, "1", 1.0, None):
        for mode in ("seen", "log", "from seen"):
            assert _outcome(game, mode, seat, False) == _outcome(game, mode, seat, True)


@ACCELERATED
def test_a_subclass_and_another_ask_go_to_the_python_method() -> None:
    """A game of a subclass is asked by the Python method; an ask of another kind is
    called as the Python calls it, with the memo and the deal's bounds."""

    class Other(Game):
        pass

    game = Other(seed=5)
    assert game.seen_by(1) == Game._seen_by_python(Game(seed=5), 1)
    calls: list[tuple[Any, ...]] = []

    def ask(memo: DealMemo, seat: int | None, events: list[Event], start: int,
            stop: int) -> str:
        calls.append((memo, seat, start, stop))
        return "asked"

    plain = Game(seed=5)
    assert plain._from_memo(2, ask) == "asked"
    assert calls == [(plain._memo, 2, plain._deal_start_event, plain.event_count)]


def _fresh_knowledge(view: Any) -> Any:
    """The knowledge of a view whose events are a plain tuple: folded afresh."""
    return knowledge(dataclasses.replace(view, events=tuple(view.events)))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.integers(0, 2**32))
def test_the_carried_folds_are_a_fresh_fold_V_HIDDEN(case: Case, order: int) -> None:
    """Every preset and variation, every seat and the spectators, states asked in a random
    order: the card places, the cards known out of the stock (shared or copied), the
    scoring rounds and a seat's knowledge carried in the log equal those folded afresh from
    the seat's events, which hold nothing the seat may not see (V-HIDDEN)."""
    states = _states(case, order, most=60)
    rng = random.Random(order)
    asks = [(game, seat) for game in states for seat in [None, *range(case.players)]]
    rng.shuffle(asks)
    for game, seat in asks[:160]:
        seen = game.seen_by(seat)
        plain = tuple(seen)
        assert all(_visible(e, seat) for e in plain)
        fresh = _fold_places(plain, seat)
        assert card_places(seen, seat) == fresh
        known_out = fresh.out_of_stock()
        assert log_out_of_stock(*game.seat_log(seat)) == known_out
        assert out_of_stock(seen, seat) == known_out
        if seat is None:
            log, count = game.seat_log(None)
            assert log.read(SCORING, count, _Scoring.parts) == _Scoring(plain).parts()
        elif not game.is_over:
            view = game.view(seat)
            assert knowledge(view) == _fresh_knowledge(view)


def _places_state(places: CardPlaces, open_seats: set[int]) -> tuple[Any, ...]:
    """Everything of the places, their dict's and sets' orders too."""
    return (list(places.held.items()), list(places.pile), list(places.out),
            list(places.pending), list(places.returned), places.reshuffles, list(open_seats))


@ACCELERATED
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.integers(0, 2**32))
def test_the_c_places_fold_is_the_python_fold_V_HIDDEN(case: Case, order: int) -> None:
    """Every preset and variation, every seat and the spectators: the seat's events of the
    whole game (deal after deal), folded in random batches by the C fold and by the Python
    one, give the same places (the same cards in the same order of each dict and set), the
    same open one-up seats and the same cards known out; each seat folds only what it may
    see (V-HIDDEN)."""
    assert knowledge_module._fold is ENGINE.places_fold  # type: ignore[union-attr]
    assert _advance_places is ENGINE.advance_places  # type: ignore[union-attr]
    rng = random.Random(order)
    game = Game(case.rules, players=case.players, seed=case.seed)
    while not game.is_over and game.event_count < 400:
        game.apply(rng.choice(game.legal_actions()))
    for seat in [None, *range(case.players)]:
        events = game.events_for(seat)
        assert all(_visible(e, seat) for e in events)
        c_places, c_open = CardPlaces(), set[int]()
        py_places, py_open = CardPlaces(), set[int]()
        log = SeatLog(seat, case.players, case.rules)
        c_state, py_state = _Placing(), _Placing()
        at = 0
        while at < len(events):
            batch = tuple(events[at:at + rng.randint(1, 12)])
            at += len(batch)
            c_places, c_open = ENGINE.places_fold(  # type: ignore[union-attr]
                batch if rng.random() < 0.5 else list(batch), seat, c_places, c_open)
            py_places, py_open = _fold_python(batch, seat, py_places, py_open)
            assert type(c_places) is CardPlaces
            assert _places_state(c_places, c_open) == _places_state(py_places, py_open)
            assert c_places.out_of_stock() == py_places.out_of_stock()
            # the carried state's advance and shared read, C and Python
            assert _advance_places(c_state, batch, log) is c_state
            assert _advance_places_python(py_state, batch, log) is py_state
            assert (_places_state(c_state.places, c_state.one_up_open)
                    == _places_state(py_state.places, py_state.one_up_open))
            assert (c_state.out is None) == (py_state.out is None)
            if rng.random() < 0.6:
                kept = c_state.out
                c_out, py_out = _carried_out(c_state), _carried_out_python(py_state)
                assert c_out == py_out == py_state.places.out_of_stock()
                assert c_out is c_state.out and (kept is None or kept is c_out)


def _scoring_state(scoring: _Scoring) -> tuple[Any, ...]:
    return (scoring.announcements, scoring.reveals, scoring.results, scoring._start,
            scoring._words, scoring._result)


@ACCELERATED
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.integers(0, 2**32))
def test_the_c_scoring_fold_is_the_python_fold(case: Case, order: int) -> None:
    """Every preset and variation: a whole game's public events (deal after deal), added
    in random batches by the C and the Python ``_Scoring.add``, give the same rounds
    (R-ANN-1 … R-ANN-3: words, reveals, results, the round shown) and the same parts, kept
    alike until a scoring event changes them; every seat's events give the same too."""
    assert _scoring_add is ENGINE.scoring_add  # type: ignore[union-attr]
    rng = random.Random(order)
    game = Game(case.rules, players=case.players, seed=case.seed)
    while not game.is_over and game.event_count < 400:
        game.apply(rng.choice(game.legal_actions()))
    for seat in (None, rng.randrange(case.players)):
        events = game.events_for(seat)
        c_scoring, py_scoring = _Scoring(), _Scoring()
        at = 0
        while at < len(events):
            batch = tuple(events[at:at + rng.randint(1, 8)])
            at += len(batch)
            kept = c_scoring._parts
            assert _scoring_add(c_scoring, batch if rng.random() < 0.5 else list(batch),
                                None) is c_scoring
            assert _Scoring.add(py_scoring, batch) is py_scoring
            assert _scoring_state(c_scoring) == _scoring_state(py_scoring)
            assert (c_scoring._parts is None) == (py_scoring._parts is None)
            if kept is not None and c_scoring._parts is not None:
                assert c_scoring._parts is kept
            if rng.random() < 0.5:
                c_parts = _scoring_parts_of(c_scoring)
                assert c_parts == _Scoring.parts(py_scoring) == _Scoring(events[:at]).parts()
                assert _scoring_parts_of(c_scoring) is c_parts


@ACCELERATED
def test_places_of_another_shape_are_folded_in_python() -> None:
    """A generator of events, or places of a subclass, go to the Python fold."""

    class Other(CardPlaces):
        pass

    game = Game(seed=6)
    rng = random.Random(6)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    events = game.events_for(1)
    want = _fold_python(events, 1, CardPlaces(), set())
    got = ENGINE.places_fold(iter(events), 1, CardPlaces(), set())  # type: ignore[union-attr]
    assert _places_state(*got) == _places_state(*want)
    other = ENGINE.places_fold(events[:1], 1, Other(), set())  # type: ignore[union-attr]
    assert type(other[0]) is CardPlaces  # (the deal's fresh places, made by the Python fold)


def _exchange_of_another(seed: int, watcher: int) -> tuple[Game, Game, frozenset[Any]]:
    """A state of a pagat game in an exchange round with another seat than ``watcher`` to
    act, the state after its exchange of two cards (a copy made after the watcher's known
    cards were read: they share the memo, as a table's states do), and the set read."""
    game = Game(seed=seed)
    while game.to_act == watcher:
        game.apply(next(a for a in game.legal_actions() if len(a.cards) == 2))
    shared = log_out_of_stock(*game.seat_log(watcher))
    after = game.copy()
    after.apply(next(a for a in after.legal_actions() if len(a.cards) == 2))
    return game, after, shared  # type: ignore[return-value]


def test_another_seats_exchange_keeps_the_shared_set_of_cards_known_out() -> None:
    """The cards known out of the stock, as readers share them (a view's ``known_out``), are
    the same set after another seat's exchange (its public Exchange moves no card into or
    out of the stock as this seat knows it) and a new one after the seat's own, each equal
    to a fresh fold."""
    for seed in range(6):
        watcher = seed % 4
        before, after, shared = _exchange_of_another(seed, watcher)
        assert after._memo is before._memo
        new = after.seen_by(watcher)[len(before.seen_by(watcher)):]
        assert [type(e) for e in new] == [Exchange]  # another's exchange, as the seat sees it
        kept = log_out_of_stock(*after.seat_log(watcher))
        assert kept is shared
        assert kept == _fold_places(tuple(after.seen_by(watcher)), watcher).out_of_stock()
        # the seat's own exchange (its Exchanged: its discards known out) makes a new set
        own = after.copy()
        for _ in range(60):  # to the watcher's next exchange of two cards
            actor = own.to_act
            two = [a for a in own.legal_actions() if len(a.cards) == 2]
            own.apply(two[0] if two else own.legal_actions()[0])
            if actor == watcher and two:
                break
        mine = log_out_of_stock(*own.seat_log(watcher))
        assert mine is not kept
        assert mine == _fold_places(tuple(own.seen_by(watcher)), watcher).out_of_stock()
        assert len(mine) >= 2


def test_threads_asking_copies_get_what_one_thread_gets() -> None:
    """Four threads ask the copies of one game (one memo) about every seat at once, with
    switches as often as Python allows: each answer is the one a lone reader gets, and the
    carried places are a fresh fold's."""
    game = Game(seed=21)
    rng = random.Random(21)
    states = copies_along(game, rng, 40)
    wanted = {(i, seat): tuple(e for e in g.deal_events if _visible(e, seat))
              for i, g in enumerate(states) for seat in [None, 0, 1, 2, 3]}
    wrong: list[object] = []
    ready = threading.Barrier(4)

    def work(order: int) -> None:
        try:
            mine = list(wanted)
            random.Random(order).shuffle(mine)
            ready.wait()
            for i, seat in mine:
                seen = states[i].seen_by(seat)
                if seen != wanted[i, seat]:
                    wrong.append((i, seat))
                if card_places(seen, seat) != _fold_places(wanted[i, seat], seat):
                    wrong.append(("places", i, seat))
        except Exception as exc:  # reaches the assertion below
            wrong.append(exc)

    run_in_threads(work)
    assert wrong == []
