"""The rules engine: pure, deterministic, no I/O.

:class:`Game` holds the state; :class:`Action` is what a player does; :class:`Event` is what
happened and who may see it; :func:`settlement` turns final scores into money.
"""

from chicago.engine.actions import Action, ActionKind, NotationError
from chicago.engine.errors import IllegalAction, WorldError
from chicago.engine.events import Event
from chicago.engine.game import Game, Phase
from chicago.engine.settlement import settlement

__all__ = [
    "Action",
    "ActionKind",
    "Event",
    "Game",
    "IllegalAction",
    "NotationError",
    "Phase",
    "WorldError",
    "settlement",
]
