"""The hint key: exact draw odds of the seat's hand, from what the seat knows.

What the seat knows of where cards are is the engine's seat knowledge
(:func:`chicago.engine.knowledge.card_places`, the view's ``known_out``): in another player's
hand (shown, a face-up card taken), in the discard pile (its own discards, rejected face-up
cards), or in one of the two (a shown card of a player who has exchanged since). None of
these can be drawn from the stock. At a reshuffle (R-EX-2) the discard pile becomes the new
stock: what was known to be in the pile can be drawn again, cards known to be in a hand
still cannot, and what is discarded after the reshuffle is out of the stock again.
:func:`known_dead` is the set of cards known not to be drawable; :func:`hint` runs
:func:`chicago.odds.draw_odds` on the hand with them.

What the odds assume: every card that is neither in the hand nor known to be out of the
stock is equally likely to be drawn. That is exact before the first reshuffle of a deal.
After one, the seat's own discards from before it are certainly in the new stock unless
drawn since, so they are in fact somewhat likelier than other unseen cards; and a hold that
discards more cards than the stock holds draws the rest from the discards shuffled anew,
for which the pile counts as drawable as well.
:func:`chicago.tui.hint_words.hint_notes` says so when it applies.

A locked player (R-EX-5) gets no odds: the hint names the hand and says it cannot exchange;
a locked six-card hand (V-LOCK-6) gets the six ways to discard its one card instead.

>>> from chicago.cards import parse_cards
>>> from chicago.engine.views import hand_view
>>> result = hint(hand_view(parse_cards("2c 7d 7h Ks As")))
>>> [str(c) for c in result.holds[0].keep]  # the ace too: it may take the last trick
['7d', '7h', 'As']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from chicago.advice import Advice, rank_holds
from chicago.cards import Card, parse_cards
from chicago.engine.events import Event
from chicago.engine.knowledge import CardPlaces, card_places
from chicago.engine.viewtypes import SeatView
from chicago.odds import Hold, draw_odds
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = [
    "Hint",
    "SixChoice",
    "category_columns",
    "hint",
    "known_dead",
]

_NO_EXCHANGE_PHASES = ("chicago", "play", "over")
"""Phases after the last exchange of a deal: there is nothing left to draw."""


def _places(events: Iterable[Event], seat: int | None) -> CardPlaces:
    """The engine's seat knowledge of where cards are, from a view's events."""
    evs = list(events)
    if seat is None:  # the seat the private events are addressed to
        seat = next((e.audience for e in evs if e.audience is not None), None)
    return card_places(evs, seat)


def _sorted_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in sorted(cards)]


def known_dead(
    events: Iterable[Event], hand: Iterable[str], seat: int | None = None
) -> list[str]:
    """Cards known not to be drawable from the stock, from one deal's events as a seat sees them.

    These are the cards known to be in another hand, in the discard pile, or in one of the
    two; after a reshuffle what was in the pile is drawable again (the engine's
    :func:`~chicago.engine.knowledge.card_places`).
    """
    return _sorted_cards(_places(events, seat).out_of_stock() - set(parse_cards(list(hand))))


@dataclass(frozen=True)
class SixChoice:
    """One way to discard from a locked six-card hand (V-LOCK-6): the hand that stays."""

    discard: str
    keep: tuple[str, ...]
    category: str
    """The category name of the five cards kept."""
    points: int
    """What that category scores under the rules."""
    key: int = field(repr=False)
    """The poker value of the five cards kept (higher is better)."""


@dataclass(frozen=True)
class Hint:
    """The odds of a hand: its holds best first, the dead cards used, and the hand.

    When the hand cannot exchange (``can_exchange`` False: locked, or the deal's exchanges
    are over) ``holds`` is empty and ``reason`` says why; a locked six-card hand has its
    discards in ``six``. :func:`chicago.tui.hint_words.hint_notes` words the assumptions
    that matter for this hand.
    """

    hand: tuple[str, ...]
    dead: tuple[str, ...]
    holds: list[Hold]
    rules: Rules
    category: str | None = None
    """The category name of the hand now (five cards), None for six."""
    points: int = 0
    """What the hand scores now."""
    can_exchange: bool = True
    reason: str = ""
    six: list[SixChoice] = field(default_factory=list)
    short_stock: int | None = None
    """The stock's size when some holds discard more cards than it holds (R-EX-2)."""
    returned: tuple[str, ...] = ()
    """Cards the seat knows went back into the stock at a reshuffle (its earlier discards)."""
    advice: list[Advice] = field(default_factory=list)
    """The holds with what each is worth at this table (:func:`chicago.advice.rank_holds`),
    in the same order as :attr:`holds`."""


def _six_choices(hand: tuple[str, ...], rules: Rules) -> list[SixChoice]:
    choices = []
    for card in hand:
        keep = tuple(c for c in hand if c != card)
        value = evaluate(list(keep), rules)
        choices.append(SixChoice(
            card, keep, value.category.name, rules.points_for(value.category), value.key
        ))
    return sorted(choices, key=lambda c: -c.key)


def hint(view: SeatView) -> Hint:
    """The draw odds of the hand in ``view`` (a seat view) from what the seat knows.

    ``ValueError`` unless the hand has five cards (or six, locked under V-LOCK-6).
    """
    hand = tuple(str(c) for c in view.hand)
    rules = view.rules
    seat = view.seat
    locked = seat is not None and view.locked[seat]
    if len(hand) == 6 and locked:
        return Hint(
            hand, (), [], rules, can_exchange=False,
            reason="you are locked with six cards: discard exactly one, and draw none",
            six=_six_choices(hand, rules),
        )
    if len(hand) != 5:
        raise ValueError(f"the odds need a hand of five cards (you hold {len(hand)})")
    value = evaluate(list(hand), rules)
    category, points = value.category.name, rules.points_for(value.category)
    if locked:
        return Hint(hand, (), [], rules, category, points, can_exchange=False,
                    reason="you are locked and cannot exchange this deal")
    if view.phase in _NO_EXCHANGE_PHASES:
        return Hint(hand, (), [], rules, category, points, can_exchange=False,
                    reason="the exchanges of this deal are over")
    known = _places(view.events, seat)
    mine = set(view.hand)
    dead = tuple(_sorted_cards(known.out_of_stock() - mine))
    stock = view.stock
    limit = min(rules.max_discard, stock + view.discard_pile)  # the engine's limit (R-EX-2)
    holds = draw_odds(hand, dead, rules, max_discard=limit)
    short_stock: int | None = None
    if stock < limit:
        # a larger discard empties the stock and draws the rest from the pile shuffled anew:
        # then only cards known to be in another hand cannot come
        in_hands = _sorted_cards(set(known.held) - mine)
        beyond = draw_odds(hand, in_hands, rules, max_discard=limit)
        holds = ([h for h in holds if len(h.discard) <= stock]
                 + [h for h in beyond if len(h.discard) > stock])
        short_stock = stock
    returned = tuple(_sorted_cards(known.returned - mine))
    advice = rank_holds(view, holds)  # the one ranking both shells use
    return Hint(hand, dead, [a.hold for a in advice], rules, category, points,
                short_stock=short_stock, returned=returned, advice=advice)


def category_columns(rules: Rules) -> list[str]:
    """The categories worth a column, best first (royal flush only if scored apart)."""
    return [
        c.name for c in sorted(Category, reverse=True)
        if c is not Category.HIGH_CARD and (c is not Category.ROYAL_FLUSH or rules.royal_separate)
    ]
