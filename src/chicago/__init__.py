"""chicago: the Swedish card game Chicago — rules engine, bots, terminal and browser play.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=7)
>>> game.apply(game.legal_actions()[0])
>>> len(game.view(game.to_act).hand)
5

The names below are loaded on first use: ``import chicago.cards`` loads the cards alone, not
the engine (tests/test_import_weight.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chicago.cards import Card, parse_cards
    from chicago.engine import (
        Action,
        ActionKind,
        Event,
        Game,
        IllegalAction,
        NotationError,
        Phase,
        SeatView,
        WorldError,
    )
    from chicago.engine.settlement import settlement
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
    "SeatView",
    "WorldError",
    "evaluate",
    "parse_cards",
    "settlement",
]

__version__ = "0.1.0"

_HOMES = {
    "Card": "chicago.cards", "parse_cards": "chicago.cards",
    "Category": "chicago.poker", "HandValue": "chicago.poker", "evaluate": "chicago.poker",
    "Rules": "chicago.rules", "RulesError": "chicago.rules",
    **dict.fromkeys(("Action", "ActionKind", "Event", "Game", "IllegalAction", "NotationError",
                     "Phase", "SeatView", "WorldError", "settlement"), "chicago.engine"),
}
"""The module each public name of the package comes from."""


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (then it is an attribute as any)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'chicago' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
