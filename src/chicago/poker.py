"""Poker hands: categories, exact comparison and the staged reveal (R-HAND-1 … R-HAND-4).

``evaluate(cards)`` gives a :class:`HandValue` for five cards (or the best five of six, for
V-LOCK-6). Values are hashable and totally ordered: a higher value beats a lower one and
equal values are exactly equal (suits never break ties unless a ``suit_order`` is given,
V-TIE-SUIT).

>>> from chicago.cards import parse_cards
>>> a = evaluate(parse_cards("8c 8d 8h Ks 2c"))
>>> b = evaluate(parse_cards("8s 8c 8d Qh Jc"))
>>> a.category.name, a > b, a.reveal_stages()
('THREE_OF_A_KIND', True, (8, 13, 2))
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from chicago.cards import RANKS, SUITS, Card

if TYPE_CHECKING:
    from chicago.rules import Rules

__all__ = [
    "DEFAULT_SUIT_ORDER",
    "Category",
    "HandValue",
    "evaluate",
    "rank_value",
]


class Category(enum.IntEnum):
    """Poker hand categories, low to high (R-HAND-1)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def text(self) -> str:
        """The category in words as used in the text notation: ``two pair``."""
        return self.name.lower().replace("_", " ")

    @classmethod
    def parse(cls, text: str) -> Category:
        """Parse ``pair``, ``two pair``/``two pairs``, ``THREE_OF_A_KIND``, ``full-house``…"""
        key = " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
        key = _CATEGORY_ALIASES.get(key, key)
        for category in cls:
            if category.text == key:
                return category
        valid = ", ".join(c.text for c in cls)
        raise ValueError(f"{text!r} is not a poker hand category (valid: {valid})")


_CATEGORY_ALIASES = {
    "two pairs": "two pair",
    "one pair": "pair",
    "trips": "three of a kind",
    "set": "three of a kind",
    "quads": "four of a kind",
    "full": "full house",
    "royal": "royal flush",
    "high": "high card",
    "nothing": "high card",
}

DEFAULT_SUIT_ORDER = "hdsc"
"""V-TIE-SUIT's usual order, highest first: hearts > diamonds > spades > clubs."""


@dataclass(frozen=True, eq=False, slots=True)
class HandValue:
    """The value of a poker hand: category, defining ranks and the five cards that make it.

    Compare values with ``<``, ``==`` …; ``key`` is the integer they compare by.
    """

    category: Category
    ranks: tuple[int, ...]
    """Rank values (2 … 14, a wheel's ace counts as 1 in a straight) in comparison order."""
    cards: tuple[Card, ...]
    """The five cards, most significant first."""
    key: int = field(repr=False)
    """Integer that orders values exactly like poker (with the suit tie-break if enabled)."""
    suit_rank: int | None = field(default=None, repr=False)
    """Under V-TIE-SUIT: 3 for the best suit of the order … 0 for the worst, else None."""

    def reveal_stages(self) -> tuple[int, ...]:
        """Rank values in the order the staged tie-break reveals them (R-ANN-3).

        First the rank that defines the combination, then the next defining rank, then the
        odd cards one by one, highest first. A straight (or straight flush) is defined by its
        top card alone; a flush reveals all five ranks.
        """
        return self.ranks

    @property
    def text(self) -> str:
        """A description in words: ``pair of nines, K 7 2 kickers`` style, short."""
        names = [RANKS[r - 2] if r >= 2 else "A" for r in self.ranks]
        return f"{self.category.text} ({' '.join(names)})"

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def rank_value(category: Category, ranks: Sequence[int]) -> int:
    """Pack a category and its comparison ranks into one comparable integer."""
    value = int(category)
    for position in range(5):
        value = value * 16 + (ranks[position] if position < len(ranks) else 0)
    return value


def _options(
    rules: Rules | None, wheel: bool | None, royal: bool | None, suit_order: str | None
) -> tuple[bool, bool, str | None]:
    if rules is not None:
        wheel = rules.wheel_straight if wheel is None else wheel
        royal = rules.royal_separate if royal is None else royal
        suit_order = rules.suit_order if suit_order is None else suit_order
    return (True if wheel is None else wheel, True if royal is None else royal, suit_order)


def evaluate(
    cards: Iterable[int | str],
    rules: Rules | None = None,
    *,
    wheel: bool | None = None,
    royal: bool | None = None,
    suit_order: str | None = None,
) -> HandValue:
    """Evaluate five cards, or the best five of six.

    Options come from ``rules`` (``wheel_straight``, ``royal_separate``, ``suit_order``) and
    can be overridden one by one: ``wheel`` (A-2-3-4-5 is a straight, R-HAND-3, default on),
    ``royal`` (an ace-high straight flush is ROYAL_FLUSH, not STRAIGHT_FLUSH; V-ROYAL, default
    on), ``suit_order`` (V-TIE-SUIT: suit letters highest first, e.g. ``"hdsc"``; default
    none, so exactly equal hands stay equal).
    """
    hand = tuple(Card(c) for c in cards)
    if len(set(hand)) != len(hand):
        raise ValueError("a hand cannot hold the same card twice")
    use_wheel, use_royal, order = _options(rules, wheel, royal, suit_order)
    if order is not None:
        _check_suit_order(order)
    if len(hand) == 5:
        return _evaluate5(hand, use_wheel, use_royal, order)
    if len(hand) == 6:
        return max(_evaluate5(five, use_wheel, use_royal, order) for five in combinations(hand, 5))
    raise ValueError(f"a poker hand has 5 cards (or 6 to choose from), not {len(hand)}")


def _check_suit_order(order: str) -> None:
    if sorted(order) != sorted(SUITS):
        raise ValueError(f"suit order {order!r} must name each of c, d, h, s once, highest first")


def _evaluate5(
    hand: Sequence[Card], wheel: bool, royal: bool, suit_order: str | None
) -> HandValue:
    by_rank = sorted(hand, key=lambda c: (c.rank, _suit_rank(c, suit_order)), reverse=True)
    counts: dict[int, int] = {}
    for card in by_rank:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    # groups: most cards first, then higher rank first
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    is_flush = len({c.suit for c in hand}) == 1
    distinct = [rank for rank, _ in groups]
    top_of_straight = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top_of_straight = distinct[0]
        elif wheel and distinct == [14, 5, 4, 3, 2]:
            top_of_straight = 5

    cards: tuple[Card, ...]
    if top_of_straight:
        if is_flush:
            category = (
                Category.ROYAL_FLUSH if royal and top_of_straight == 14 else Category.STRAIGHT_FLUSH
            )
        else:
            category = Category.STRAIGHT
        ranks: tuple[int, ...] = (top_of_straight,)
        if top_of_straight == 5:  # the ace plays low
            cards = (*by_rank[1:], by_rank[0])
        else:
            cards = tuple(by_rank)
    else:
        shape = tuple(count for _, count in groups)
        category = Category.FLUSH if is_flush else _CATEGORY_OF_SHAPE[shape]
        ranks = tuple(distinct)
        order = {rank: index for index, rank in enumerate(distinct)}
        cards = tuple(sorted(by_rank, key=lambda c: order[c.rank]))

    key = rank_value(category, ranks)
    suit_rank: int | None = None
    if suit_order is not None:
        # the highest-ranked card (a wheel's five), best suit first among equal ranks
        highest = cards[0] if top_of_straight == 5 else by_rank[0]
        suit_rank = _suit_rank(highest, suit_order)
        key = key * 4 + suit_rank
    return HandValue(category, ranks, cards, key, suit_rank)


def _suit_rank(card: Card, suit_order: str | None) -> int:
    if suit_order is None:
        return 0
    return 3 - suit_order.index(card.suit_letter)


_CATEGORY_OF_SHAPE = {
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.PAIR,
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
}
