"""chicago: the Swedish card game Chicago — rules engine, bots, terminal and browser play.

>>> from chicago import Card, parse_cards
>>> parse_cards("As Kd")
(Card('As'), Card('Kd'))
"""

from chicago.cards import Card, parse_cards
from chicago.poker import Category, HandValue, evaluate
from chicago.rules import Rules, RulesError

__all__ = [
    "Card",
    "Category",
    "HandValue",
    "Rules",
    "RulesError",
    "evaluate",
    "parse_cards",
]

__version__ = "0.1.0"
