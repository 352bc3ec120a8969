"""chicago: the Swedish card game Chicago — rules engine, bots, terminal and browser play.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=7)
>>> game.apply(game.legal_actions()[0])
>>> len(game.view(game.to_act)["hand"])
5
"""

from chicago.cards import Card, parse_cards
from chicago.engine import (
    Action,
    ActionKind,
    Event,
    Game,
    IllegalAction,
    NotationError,
    Phase,
    WorldError,
    settlement,
)
from chicago.poker import Category, HandValue, evaluate
from chicago.rules import Rules, RulesError

__all__ = [
    "Action",
    "ActionKind",
    "Card",
    "Category",
    "Event",
    "Game",
    "HandValue",
    "IllegalAction",
    "NotationError",
    "Phase",
    "Rules",
    "RulesError",
    "WorldError",
    "evaluate",
    "parse_cards",
    "settlement",
]

__version__ = "0.1.0"
