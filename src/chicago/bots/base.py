"""The one interface every bot implements, and the registry of bot levels.

A bot decides from what its seat may know and nothing else: the seat's typed view
(:class:`~chicago.engine.viewtypes.SeatView`, from :meth:`chicago.Game.view`) and the legal
actions. It never sees the game object, the stock, other hands or the seed.

>>> import random
>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=1)
>>> bot = make_bot("random")
>>> seat = game.to_act
>>> action = bot.decide(game.view(seat), game.legal_actions(), random.Random(0))
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from chicago.engine.actions import Action
from chicago.engine.viewtypes import SeatView

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "make_bot", "register_bot"]


@runtime_checkable
class Bot(Protocol):
    """A player program: one decision at a time, from the seat's view and legal actions."""

    name: str

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of ``legal_actions`` for the seat whose ``view`` this is."""
        ...


class RandomBot:
    """``random``: uniform over the legal actions."""

    name = "random"

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Any legal action, uniformly."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        return legal_actions[rng.randrange(len(legal_actions))]


BotFactory = Callable[[str], Bot]
"""Makes a bot from its spec (the spec lets a factory read options, e.g. ``cmd:python b.py``)."""

_REGISTRY: dict[str, BotFactory] = {"random": lambda spec: RandomBot()}
BOT_LEVELS: list[str] = ["random"]
"""The bot levels from weakest to strongest (more are registered as their modules load)."""


def register_bot(prefix: str, factory: BotFactory, *, level: bool = True) -> None:
    """Register a bot kind: ``make_bot(prefix)`` or ``make_bot(prefix + ":…")`` calls factory."""
    _REGISTRY[prefix] = factory
    if level and prefix not in BOT_LEVELS:
        BOT_LEVELS.append(prefix)


def make_bot(spec: str) -> Bot:
    """A bot from its spec: ``random``, ``basic``, ``ev``, ``expert``, or ``prefix:options``."""
    _load_builtin_bots()
    name = spec.split(":", 1)[0].strip().lower()
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; valid: {', '.join(sorted(_REGISTRY))}")
    return factory(spec)


def _load_builtin_bots() -> None:
    """Import the bot modules so that they register themselves (each is optional)."""
    import importlib

    for module in ("chicago.bots.basic", "chicago.bots.ev", "chicago.bots.expert",
                   "chicago.bots.external"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
