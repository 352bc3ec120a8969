"""Views and knowledge worked out once and shared are the ones worked out afresh (issue 28).

The table server builds a state's public view once and makes each audience's view from it
(:func:`chicago.engine.views.seat_view_from`), and :func:`~chicago.engine.knowledge.card_places`
keeps, per seat, the places of the last tuple of events it was asked about (a view's
``known_out``, then the bot's :func:`~chicago.engine.knowledge.knowledge` of that view) and
carries them on to a tuple that begins with the same events. On random games of
every preset and variation, at every action and for every seat and the spectators, both are
equal to what is made from nothing, and the places given out are each caller's own.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings

from chicago import Game
from chicago.engine import knowledge as knowledge_module
from chicago.engine.knowledge import card_places, knowledge
from chicago.engine.views import public_view, seat_view, seat_view_from
from test_engine_properties import Case, cases


def _states(case: Case, most: int = 160) -> list[Game]:
    """Copies of a random game of ``case`` after each of its first ``most`` actions."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    rng = random.Random(case.seed)
    states = [game.copy()]
    while not game.is_over and len(states) <= most:
        game.apply(rng.choice(game.legal_actions()))
        states.append(game.copy())
    return states


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


def test_card_places_are_not_carried_on_from_events_that_only_look_alike() -> None:
    """A tuple that begins with the last tuple's first event and holds its last event at
    the same place, but not one of the events between them, is worked out afresh: every
    event before the new ones is checked, by identity."""
    game = Game(seed=5)
    rng = random.Random(5)
    while len(game.deal_events) < 14:
        game.apply(rng.choice(game.legal_actions()))
    events = tuple(game.deal_events)
    seat = 0
    before = events[:12]
    exchanged = next(i for i, e in enumerate(before) if type(e).__name__ == "Exchanged")
    middle = [events[1] if i == exchanged else e for i, e in enumerate(before)]
    after = (*middle, *events[12:])  # first and 12th events the same objects, not all
    assert after[0] is before[0] and after[11] is before[11]
    assert knowledge_module._fold_places(after, seat) != knowledge_module._fold_places(
        events, seat)  # a case that tells the two apart
    card_places(before, seat)
    assert card_places(after, seat) == knowledge_module._fold_places(after, seat)
