"""A bot's view is what a person in its seat is shown (issue 28, twenty-sixth pass).

:meth:`chicago.server.views.PublicViews.seat_view` makes a bot's view of each new state of
a table from the state's public view, its seat's facts carried on in the deal's memo. It
is exactly the plain ``game.view(seat)`` of the same state with nothing carried (a pickled
copy, whose memo matches no deal), every field and its type equal, and it names no card of
another hand that the seat was never shown; with the accelerator and without
(``CHICAGO_PURE_PYTHON=1`` runs the same test on the Python path).
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS, derandomized, differences, draw_table
from chicago import Game, Rules
from chicago.cards import Card
from chicago.engine.events import Event
from chicago.engine.viewtypes import SeatView
from chicago.server.views import PublicViews


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Rules (a preset, up to four variations, up to two options), seats and a seed."""
    return draw_table(draw, OPTIONS, max_deals=3)


def hidden_cards(game: Game, seat: int) -> set[Card]:
    """The cards in the other seats' hands that ``seat`` was never shown: not in a public
    event (R-EX-4's shown hands, V-ONE-UP's face-up cards, the plays), nor in one of its
    own (its cards dealt and drawn, which a reshuffle may have given another seat since,
    R-EX-2)."""
    known = {card for cards in game.shown.values() for card in cards}
    if game.one_up_card is not None:
        known.add(game.one_up_card[1])
    for event in game.seen_by(seat):
        known.update(_cards_of(event))
    return {card for other, hand in enumerate(game.hands) if other != seat
            for card in hand} - known


def _cards_of(event: Event) -> set[Card]:
    found: set[Card] = set()
    for name in event.fields:
        value = getattr(event, name)
        if isinstance(value, Card):
            found.add(value)
        elif isinstance(value, tuple):
            found.update(v for v in value if isinstance(v, Card))
    return found


def cards_in(view: SeatView) -> set[Card]:
    """Every card a view names, wherever it is (its events' cards among them)."""
    found = {*view.hand, *view.discarded, *view.known_out}
    found.update(card for cards in view.shown.values() for card in cards)
    found.update(card for cards in view.played for card in cards)
    found.update(p.card for p in view.trick)
    found.update(p.card for t in view.tricks for p in t.cards)
    if view.one_up is not None:
        found.add(view.one_up.card)
    for event in view.events:
        found.update(_cards_of(event))
    return found


@derandomized(40)
@given(tables())
def test_a_bots_view_is_the_plain_view_of_its_seat(table: tuple[Rules, int, int]) -> None:
    """Every preset and variation (R-EX-2 reshuffles, R-EX-4 shown hands, R-ANN-1 …
    R-ANN-4 scoring rounds, V-ONE-UP, V-QUADS-RESET, V-LOCK-6 …), played as a table plays
    (each state a copy of the last): the view :class:`PublicViews` gives the seat to act,
    its facts carried on in the deal's memo, equals ``game.view(seat)`` of a copy with
    nothing carried, field by field and type by type; it names no card of another hand the
    seat was not shown, and holds only events the seat may see. The same state's public
    part (a person's update), asked after from the held view, equals one made afresh."""
    rules, players, seed = table
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    views = PublicViews()
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        fast = views.seat_view(game, seat)
        plain = pickle.loads(pickle.dumps(game)).view(seat)
        found = list(differences(fast, plain, f"seat {seat}'s view"))
        assert not found, found
        assert fast == plain
        assert all(event.visible_to(seat) for event in fast.events)
        assert not cards_in(fast) & hidden_cards(game, seat)
        assert views.public_state(game) == views.public_state(pickle.loads(pickle.dumps(game)))
        game = game.copy()
        game.apply(rng.choice(game.legal_actions()))
        views.keep(game)

