"""Views and knowledge worked out once and shared are the ones worked out afresh (issue 28).

The table server builds a state's public view once and makes each audience's view from it
(:func:`chicago.engine.views.seat_view_from`), and a game and its copies share a memo of
the deal (:mod:`chicago.engine.carried`): per seat, the events it may see and the facts
folded from them (the places behind ``known_out``, the walk of
:func:`~chicago.engine.knowledge.knowledge`, the public scoring rounds), carried on from
where the seat's last fold stopped. On random games of every preset and variation, at every
action and for every seat and the spectators, what is carried equals what is made from
nothing, across copies that go their own ways and tables that take turns, and what is
given out is each caller's own.
"""

from __future__ import annotations

import dataclasses
import gc
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator_cases import copies_along
from chicago import Game, Rules
from chicago.engine import knowledge as knowledge_module
from chicago.engine import views as views_module
from chicago.engine.carried import SeatLog, SeenEvents
from chicago.engine.knowledge import Knowledge, card_places, knowledge
from chicago.engine.views import public_view, seat_view, seat_view_from
from chicago.engine.viewtypes import SeatView
from test_engine_properties import Case, cases


def _states(case: Case, most: int = 160) -> list[Game]:
    """Copies of a random game of ``case`` after each of its first ``most`` actions."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    rng = random.Random(case.seed)
    return copies_along(game, rng, most + 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_a_seat_view_made_from_the_public_view_is_the_seat_view_V_HIDDEN(case: Case) -> None:
    """``seat_view_from(public_view(game), game, seat)`` equals ``seat_view(game, seat)``
    for every seat and the spectators (None): no other seat's cards, the seat's own
    events only."""
    for game in _states(case):
        public = public_view(game)
        for seat in [None, *range(game.players)]:
            assert seat_view_from(public, game, seat) == seat_view(game, seat)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_card_places_kept_for_a_views_events_are_the_places_worked_out_afresh(
        case: Case) -> None:
    """After a view is made (its ``known_out`` worked out the places), the places and the
    knowledge of that view equal those of the same events in a new tuple (worked out
    afresh); changing the places given out changes nothing of what a later call gets."""
    for game in _states(case):
        for seat in range(game.players):
            view = seat_view(game, seat)
            fresh_events = tuple(list(view.events))
            assert fresh_events is not view.events
            kept = card_places(view.events, seat)
            assert kept == knowledge_module._fold_places(fresh_events, seat)
            kept.held[0] = seat  # the caller's own copy
            kept.pile.add(51)
            assert card_places(view.events, seat) == card_places(fresh_events, seat)
            assert card_places(view.events, seat) == card_places(list(view.events), seat)
            fresh_view = dataclasses.replace(view, events=fresh_events)
            assert knowledge(view) == knowledge(fresh_view)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_card_places_carried_on_from_a_seats_last_view_are_the_places_afresh(
        case: Case) -> None:
    """Each seat's views one after the other, through every deal (reshuffles, one-up cards,
    shown hands and redeals included where the case's rules have them): the places worked
    on from the seat's last tuple of events (the same events and more) equal those worked
    out from nothing, every seat's places interleaved with the others' as a server's bots
    and updates ask for them."""
    for game in _states(case):
        for seat in [None, *range(game.players)]:
            events = seat_view(game, seat).events
            assert card_places(events, seat) == knowledge_module._fold_places(events, seat)


def _afresh(game: Game) -> Game:
    """A copy of ``game`` whose memo is its own and empty (every fact folded from nothing)."""
    fresh = game.copy()
    fresh.events = list(fresh.events)  # setting the log drops the memo
    return fresh


def _knowledge_afresh(view: SeatView) -> Knowledge:
    return knowledge(dataclasses.replace(view, events=tuple(view.events)))


def test_card_places_are_not_carried_on_from_events_that_only_look_alike() -> None:
    """A tuple that begins with a view's first event and holds its last event at the same
    place, but not one of the events between them, is folded afresh: only a view's own
    events (those its seat's log gave out) carry the log's places."""
    game = Game(seed=5)
    rng = random.Random(5)
    while len(game.deal_events) < 14:
        game.apply(rng.choice(game.legal_actions()))
    seat = 0
    events = game.view(seat).events
    exchanged = next(i for i, e in enumerate(events) if type(e).__name__ == "Exchanged")
    other = next(e for e in game.deal_events if e.audience not in (None, seat))
    after = tuple(other if i == exchanged else e for i, e in enumerate(events))
    assert after[0] is events[0] and after[-1] is events[-1]
    assert knowledge_module._fold_places(after, seat) != knowledge_module._fold_places(
        events, seat)  # a case that tells the two apart
    assert card_places(after, seat) == knowledge_module._fold_places(after, seat)
    assert card_places(events, seat) == knowledge_module._fold_places(events, seat)


def test_a_views_events_are_a_tuple_that_pickles_without_its_log() -> None:
    game = Game(seed=2)
    events = game.view(0).events
    assert type(events) is SeenEvents and events == tuple(events)
    plain = pickle.loads(pickle.dumps(events))
    assert type(plain) is tuple and plain == events
    assert pickle.loads(pickle.dumps(game.view(0))) == game.view(0)


def test_a_deals_seat_logs_are_freed_without_the_garbage_collector() -> None:
    """A seat's log and the facts folded from it hold no cycle: when the game and its
    views go, reference counting frees them (issue 28: at 1,000 people every deal's logs
    waited for a full collection, about 800,000 objects in one run's 20 s window)."""
    def seat_logs() -> set[int]:
        return {id(o) for o in gc.get_objects() if type(o) is SeatLog}

    collecting = gc.isenabled()
    gc.collect()  # other tests' garbage
    gc.disable()
    try:
        others = seat_logs()  # other tests' logs that still live (CI: an earlier test's)
        game = Game(seed=3)
        rng = random.Random(3)
        for _ in range(12):
            for seat in range(game.players):
                knowledge(game.view(seat))
            game.apply(rng.choice(game.legal_actions()))
        events = game.view(0).events
        assert type(events) is SeenEvents
        assert seat_logs() - others  # this game's
        del game, events
        assert seat_logs() - others == set()
    finally:
        if collecting:
            gc.enable()


def _counting_folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the events the places fold and the knowledge walk read (a list to add to)."""
    counted = [0]
    fold, walk = knowledge_module._fold, knowledge_module._walk

    def counting_fold(events: Any, *args: Any) -> Any:
        events = list(events)
        counted[0] += len(events)
        return fold(events, *args)

    def counting_walk(state: Any, events: Any, *args: Any) -> Any:
        events = list(events)
        counted[0] += len(events)
        return walk(state, events, *args)

    monkeypatch.setattr(knowledge_module, "_fold", counting_fold)
    monkeypatch.setattr(knowledge_module, "_walk", counting_walk)
    return counted


def test_each_seat_folds_each_event_once_across_interleaved_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As a server's tables do (issue 28): many tables, each state a copy of the one before,
    every seat's view and the knowledge of it made after every action, the tables taking
    turns. Each seat's facts are carried on in its table's memo, so each event a seat sees
    is folded once per fact (the places and the knowledge walk), however the tables
    interleave; the module-wide cache of one entry per seat this replaced folded a seat's
    whole deal again whenever another table had asked in between. Every view and every
    knowledge equals the one made afresh."""
    counted = _counting_folds(monkeypatch)
    tables = [Game(Rules.preset("pagat"), players=4, seed=seed) for seed in range(6)]
    rngs = [random.Random(seed) for seed in range(6)]
    seen = 0  # events of the seats' logs, summed over the views made
    for _ in range(40):
        for number, game in enumerate(tables):
            after = game.copy()
            after.apply(rngs[number].choice(after.legal_actions()))
            tables[number] = game = after
            fresh = _afresh(game)
            for seat in range(4):
                view = game.view(seat)
                assert view == fresh.view(seat)
                assert knowledge(view) == _knowledge_afresh(fresh.view(seat))
    counted[0] = 0
    for number, game in enumerate(tables):
        after = game.copy()
        after.apply(rngs[number].choice(after.legal_actions()))
        for seat in range(4):
            before = len(game.view(seat).events) if after.deal_number == game.deal_number else 0
            knowledge(after.view(seat))
            seen += len(after.view(seat).events) - before
    assert counted[0] <= 2 * seen  # the new events only: twice (places, walk) at most


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.randoms(use_true_random=False))
def test_copies_that_go_their_own_ways_see_what_they_would_alone(
        case: Case, rng: random.Random) -> None:
    """A game and copies of it that go different ways, asked for views and knowledge in a
    random order (older states after newer ones too, as a bot deciding on a copy and the
    table's updates would): every answer equals the one made afresh, and asking on a copy
    never changes what the original gives (a bot's decision changes no stored game)."""
    root = Game(case.rules, players=case.players, seed=case.seed)
    for _ in range(rng.randrange(40)):
        if root.is_over:
            break
        root.apply(rng.choice(root.legal_actions()))
    before = {seat: root.view(seat) for seat in [None, *range(root.players)]}
    games = [root]
    for _ in range(30):
        game = rng.choice(games)
        if rng.random() < 0.4 and not game.is_over:
            branch = game.copy()
            for _ in range(rng.randrange(1, 12)):
                if branch.is_over:
                    break
                branch.apply(rng.choice(branch.legal_actions()))
            games.append(branch)
        seat = rng.choice([None, *range(game.players)])
        view = game.view(seat)
        fresh = _afresh(game)
        assert view == fresh.view(seat)
        assert card_places(view.events, seat) == knowledge_module._fold_places(
            tuple(view.events), seat)
        if seat is not None:
            assert knowledge(view) == _knowledge_afresh(view)
    assert {seat: root.view(seat) for seat in before} == before


def test_an_older_view_is_folded_afresh_and_the_kept_facts_stay() -> None:
    """Knowledge of a view older than the seat's log's facts is worked out for its own
    events, and a later view still carries on."""
    game = Game(seed=11)
    rng = random.Random(11)
    states = [game]
    for _ in range(25):
        game = game.copy()
        game.apply(rng.choice(game.legal_actions()))
        states.append(game)
    newest = knowledge(states[-1].view(0))
    oldest = knowledge(states[3].view(0))
    assert oldest == _knowledge_afresh(states[3].view(0))
    assert newest == _knowledge_afresh(states[-1].view(0))
    game = game.copy()
    game.apply(rng.choice(game.legal_actions()))
    assert knowledge(game.view(0)) == _knowledge_afresh(game.view(0))


def test_a_deal_dealt_again_gets_a_memo_of_its_own() -> None:
    """A test aid that rewinds a deal (the log changed in place) and a new deal start new
    logs: no seat keeps the facts of the events that went."""
    game = Game(Rules.preset("pagat"), players=4, seed=9)
    rng = random.Random(9)
    deal = game.deal_number
    while game.deal_number == deal:
        for seat in range(4):
            assert game.view(seat) == _afresh(game).view(seat)
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(4):
        view = game.view(seat)
        assert view == _afresh(game).view(seat)
        assert knowledge(view) == _knowledge_afresh(view)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_views_written_slot_by_slot_equal_the_dataclass_made_ones(case: Case) -> None:
    """The engine writes a view's slots directly (not through the frozen dataclass's
    ``__init__``): every field is set, and the view equals (and prints as) the one
    ``SeatView(**fields)`` makes from the same values, for every seat and the spectators."""
    for game in _states(case, most=60):
        public = public_view(game)
        for seat in [None, *range(game.players)]:
            for view in (seat_view(game, seat), seat_view_from(public, game, seat)):
                fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)}
                made = SeatView(**fields)
                assert made == view and repr(made) == repr(view)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_scoring_parts_shared_between_states_are_the_ones_made_afresh(case: Case) -> None:
    """The announcements, reveals and round results a view holds are made once per change
    of the deal's scoring rounds and shared by the views of the next states (a server's
    table makes a view of every state): at every state of a random game of every preset
    and variation, each view equals the one made from nothing; while no scoring event
    happens the tuples are the very same objects, and the scoring round shown (which holds
    a dict) is each view's own."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    rng = random.Random(case.seed)
    last: SeatView | None = None
    scoring = True  # whether the last action's events hold one of a scoring round's kinds
    shared = 0
    words = False
    while not game.is_over and len(game.actions) < 200:
        view = public_view(game)
        assert view == public_view(_afresh(game))
        if last is not None and not scoring:
            assert view.announcements is last.announcements
            assert view.reveals is last.reveals
            assert view.round_results is last.round_results
            shared += bool(view.announcements)  # (an empty tuple is always the same one)
            if view.scoring_round is not None and last.scoring_round is not None:
                assert view.scoring_round.stages is not last.scoring_round.stages
        last = view
        game = game.copy()
        before = len(game.events)
        game.apply(rng.choice(game.legal_actions()))
        scoring = any(type(e) in views_module._SCORING_KINDS for e in game.events[before:])
        words = words or bool(view.announcements)
    assert shared or not words  # a game with words shares them
