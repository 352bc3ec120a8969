"""Poker hand categories (R-HAND-1): the ten kinds of five-card hand, low to high.

Their own module because both the evaluator (:mod:`chicago.poker`) and the rules
(:mod:`chicago.rules`: points per category) need them, and the evaluator reads the rules.

>>> Category.parse("two pairs"), Category.FULL_HOUSE.text
(<Category.TWO_PAIR: 2>, 'full house')
"""

from __future__ import annotations

import enum

__all__ = ["Category"]


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
