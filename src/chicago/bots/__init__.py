"""Bots that play Chicago, and the search machinery they use.

Every bot implements :class:`Bot` (``decide(view, legal_actions, rng) -> Action``, ``view``
the seat's typed :class:`~chicago.engine.viewtypes.SeatView`); get one with :func:`make_bot`
(``"random"``, ``"basic"``, ``"ev"``, ``"expert"``).
"""

from chicago.bots.base import BOT_LEVELS, Bot, RandomBot, make_bot, register_bot

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "make_bot", "register_bot"]
