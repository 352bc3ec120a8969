"""The rules engine: pure, deterministic, no I/O.

:class:`Game` holds the state; :class:`Action` is what a player does; :class:`Event` is what
happened and who may see it; :class:`SeatView` is what one seat knows (``Game.view``);
:func:`settlement` turns final scores into money.
"""

from chicago.engine.actions import Action, ActionKind, NotationError
from chicago.engine.errors import IllegalAction, WorldError
from chicago.engine.events import Event
from chicago.engine.game import Game
from chicago.engine.phases import Phase
from chicago.engine.settlement import settlement
from chicago.engine.viewtypes import SeatView

__all__ = [
    "Action",
    "ActionKind",
    "Event",
    "Game",
    "IllegalAction",
    "NotationError",
    "Phase",
    "SeatView",
    "WorldError",
    "settlement",
]
