"""Bots that play Chicago, and the search machinery they use.

Every bot implements :class:`Bot` (``decide(view, legal_actions, rng) -> Action``, ``view``
the seat's typed :class:`~chicago.engine.viewtypes.SeatView`); get one with :func:`make_bot`
(a level of :data:`LEVELS`: ``"random"``, ``"basic"``, ``"ev"``, ``"expert"`` …;
:func:`bot_levels` names those installed).
"""

from chicago.bots.base import (
    BOT_LEVELS,
    LEVELS,
    Bot,
    BotLevel,
    RandomBot,
    bot_levels,
    level_names,
    make_bot,
    register_bot,
)

__all__ = ["BOT_LEVELS", "LEVELS", "Bot", "BotLevel", "RandomBot", "bot_levels", "level_names",
           "make_bot", "register_bot"]
