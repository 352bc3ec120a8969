"""The hint key: exact draw odds of the seat's hand, from what the seat knows.

:func:`knowledge` follows one deal's events as the seat saw them and keeps apart the cards
whose place the seat knows: in another player's hand (shown, a face-up card taken), in the
discard pile (its own discards, rejected face-up cards), or in one of the two (a shown card
of a player who has exchanged since). None of these can be drawn from the stock. At a
reshuffle (R-EX-2) the discard pile becomes the new stock: what was known to be in the pile
can be drawn again, cards known to be in a hand still cannot, and what is discarded after
the reshuffle is out of the stock again. :func:`known_dead` is the set of cards known not to
be drawable; :func:`hint` runs :func:`chicago.odds.draw_odds` on the hand with them.

What the odds assume: every card that is neither in the hand nor known to be out of the
stock is equally likely to be drawn. That is exact before the first reshuffle of a deal.
After one, the seat's own discards from before it are certainly in the new stock unless
drawn since, so they are in fact somewhat likelier than other unseen cards; and a hold that
discards more cards than the stock holds draws the rest from the discards shuffled anew,
for which the pile counts as drawable as well.
:func:`chicago.tui.hint_words.hint_notes` says so when it applies.

A locked player (R-EX-5) gets no odds: the hint names the hand and says it cannot exchange;
a locked six-card hand (V-LOCK-6) gets the six ways to discard its one card instead.

>>> view = {"hand": ["2c", "7d", "7h", "Ks", "As"], "rules": {}, "events": []}
>>> result = hint(view)
>>> [str(c) for c in result.holds[0].keep]  # the ace too: it may take the last trick
['7d', '7h', 'As']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from chicago.advice import Advice, rank_holds
from chicago.cards import parse_cards
from chicago.odds import Hold, draw_odds
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = [
    "Hint",
    "Knowledge",
    "SixChoice",
    "category_columns",
    "hint",
    "knowledge",
    "known_dead",
]

_NO_EXCHANGE_PHASES = ("chicago", "play", "over")
"""Phases after the last exchange of a deal: there is nothing left to draw."""


@dataclass
class Knowledge:
    """Where the seat knows cards of this deal to be, outside its own hand."""

    held: dict[str, int] = field(default_factory=dict)
    """Card -> the other seat known to hold it (shown, or taken face up)."""
    pile: set[str] = field(default_factory=set)
    """Cards known to be in the discard pile (since the last reshuffle)."""
    out: set[str] = field(default_factory=set)
    """Cards known to be in someone's hand or in the discard pile, not which."""
    pending: set[str] = field(default_factory=set)
    """The seat's own one-up discard, which joins the pile when the face-up card is decided."""
    returned: set[str] = field(default_factory=set)
    """Cards known to have gone into the new stock at the last reshuffle, not seen since."""
    reshuffles: int = 0
    """Reshuffles of the discards into a new stock this deal."""

    def out_of_stock(self) -> set[str]:
        """Every card known not to be in the stock now."""
        return set(self.held) | self.pile | self.out | self.pending

    def _forget(self, card: str) -> None:
        self.held.pop(card, None)
        self.pile.discard(card)
        self.out.discard(card)
        self.returned.discard(card)

    def _exchanged(self, seat: int) -> None:
        """``seat`` discarded: the cards it was known to hold are in its hand or the pile."""
        for card in [c for c, owner in self.held.items() if owner == seat]:
            del self.held[card]
            self.out.add(card)


def _my_seat(events: list[dict[str, Any]]) -> int | None:
    """The seat of a seat's event list: private events carry it in ``"to"``."""
    for ev in events:
        if "to" in ev:
            return int(ev["to"])
    return None


def knowledge(events: Iterable[dict[str, Any]], seat: int | None = None) -> Knowledge:
    """What ``seat`` knows of where cards are, from one deal's events as it sees them.

    ``seat`` defaults to the seat the private events are addressed to.
    """
    evs = list(events)
    me = seat if seat is not None else _my_seat(evs)
    known = Knowledge()
    one_up_open: set[int] = set()  # seats whose one-up discard has not joined the pile yet
    for ev in evs:
        kind = ev.get("type")
        if kind == "deal":
            known = Knowledge()
            one_up_open.clear()
        elif kind == "exchanged":  # private: the seat's own discards and draws
            for card in ev.get("drawn", []):
                known._forget(card)
            discarded = ev.get("discarded", [])
            # the discards of an exchange join the pile after the draw (R-EX-2): any
            # reshuffle for that draw came before this event
            (known.pending if me in one_up_open else known.pile).update(discarded)
        elif kind == "exchange":
            who = int(ev["seat"])
            if ev.get("one_up"):
                one_up_open.add(who)  # its discard joins the pile at the choice
            elif who != me and ev.get("discarded", 0):
                known._exchanged(who)
        elif kind == "redeal":
            who = int(ev["seat"])
            if ev.get("redealt") and who != me:
                for card in [c for c, owner in known.held.items() if owner == who]:
                    del known.held[card]
                    known.pile.add(card)  # a thrown-in hand goes to the pile whole
        elif kind == "one_up":
            card = str(ev["card"])
            known._forget(card)
            known.held[card] = int(ev["seat"])  # face up: it is taken or put on the pile
        elif kind == "one_up_choice":
            who, card = int(ev["seat"]), str(ev["card"])
            one_up_open.discard(who)
            known._forget(card)
            if who == me:
                known.pile |= known.pending
                known.pending.clear()
            else:
                known._exchanged(who)
            if not ev.get("accepted"):
                known.pile.add(card)
            elif who != me:
                known.held[card] = who
        elif kind == "show":
            who = int(ev["seat"])
            if who == me:
                continue  # the seat's own cards: it knows them, and follows its discards
            for card in ev.get("cards", []):
                known._forget(card)
                known.held[card] = who
        elif kind == "reshuffle":
            # the pile is the new stock; what is only known to be in a hand or the pile
            # may be in it now; cards known to be in a hand are not
            known.returned = set(known.pile)
            known.pile.clear()
            known.out.clear()
            known.reshuffles += 1
    return known


def _sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=lambda c: parse_cards(c)[0])


def known_dead(
    events: Iterable[dict[str, Any]], hand: Iterable[str], seat: int | None = None
) -> list[str]:
    """Cards known not to be drawable from the stock, from one deal's events as a seat sees them.

    These are the cards known to be in another hand, in the discard pile, or in one of the
    two; after a reshuffle what was in the pile is drawable again (see :func:`knowledge`).
    """
    return _sorted_cards(knowledge(events, seat).out_of_stock() - set(hand))


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


def hint(view: dict[str, Any]) -> Hint:
    """The draw odds of the hand in ``view`` (a seat view) from what the seat knows.

    ``ValueError`` unless the hand has five cards (or six, locked under V-LOCK-6).
    """
    hand = tuple(view.get("hand", []))
    rules = Rules.from_dict(view.get("rules", {}))
    seat = view.get("seat")
    locked_flags = view.get("locked") or []
    locked = isinstance(seat, int) and 0 <= seat < len(locked_flags) and bool(locked_flags[seat])
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
    if view.get("phase") in _NO_EXCHANGE_PHASES:
        return Hint(hand, (), [], rules, category, points, can_exchange=False,
                    reason="the exchanges of this deal are over")
    known = knowledge(view.get("events", []), seat if isinstance(seat, int) else None)
    dead = tuple(_sorted_cards(known.out_of_stock() - set(hand)))
    stock, pile = view.get("stock"), view.get("discard_pile")
    limit = rules.max_discard
    if isinstance(stock, int) and isinstance(pile, int):
        limit = min(limit, stock + pile)  # the engine's limit (R-EX-2)
    holds = draw_odds(hand, dead, rules, max_discard=limit)
    short_stock: int | None = None
    if isinstance(stock, int) and stock < limit:
        # a larger discard empties the stock and draws the rest from the pile shuffled anew:
        # then only cards known to be in another hand cannot come
        in_hands = _sorted_cards(set(known.held) - set(hand))
        beyond = draw_odds(hand, in_hands, rules, max_discard=limit)
        holds = ([h for h in holds if len(h.discard) <= stock]
                 + [h for h in beyond if len(h.discard) > stock])
        short_stock = stock
    returned = tuple(_sorted_cards(known.returned - set(hand)))
    advice = rank_holds(view, holds)  # the one ranking both shells use
    return Hint(hand, dead, [a.hold for a in advice], rules, category, points,
                short_stock=short_stock, returned=returned, advice=advice)


def category_columns(rules: Rules) -> list[str]:
    """The categories worth a column, best first (royal flush only if scored apart)."""
    return [
        c.name for c in sorted(Category, reverse=True)
        if c is not Category.HIGH_CARD and (c is not Category.ROYAL_FLUSH or rules.royal_separate)
    ]
