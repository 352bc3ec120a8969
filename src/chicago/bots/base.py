"""The one interface every bot implements, and the registry of bot levels (:data:`LEVELS`).

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from chicago.engine.actions import Action
from chicago.engine.viewtypes import SeatView

__all__ = [
    "BOT_LEVELS",
    "LEVELS",
    "Bot",
    "BotLevel",
    "RandomBot",
    "bot_levels",
    "level_names",
    "make_bot",
    "register_bot",
    "spec_options",
]


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


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A level of chicago's own bots: its name (the spec's prefix) and the module that
    registers it (:func:`register_bot`) when imported."""

    name: str
    module: str


LEVELS: tuple[BotLevel, ...] = (
    BotLevel("random", __name__),
    BotLevel("basic", "chicago.bots.basic"),
    BotLevel("ev", "chicago.bots.ev"),
    BotLevel("expert", "chicago.bots.expert"),
    BotLevel("master", "chicago.bots.master"),
)
"""Every level of chicago's own bots, weakest first: the one list that the lobby, the
terminal, ``chicago simulate`` and the table server read (through :func:`bot_levels`). A new
level is one line here and its module, which registers the level's factory."""

_OTHER_KINDS = ("chicago.bots.external",)
"""Modules of the kinds of bot that are no level (``cmd:``: a program, docs/BOT_PROTOCOL.md)."""

_REGISTRY: dict[str, BotFactory] = {"random": lambda spec: RandomBot()}
BOT_LEVELS: list[str] = ["random"]
"""The levels registered so far, weakest first (:data:`LEVELS`' order, then any other level
registered); complete once :func:`bot_levels` (or :func:`make_bot`) has loaded the bots."""


def register_bot(prefix: str, factory: BotFactory, *, level: bool = True) -> None:
    """Register a bot kind: ``make_bot(prefix)`` or ``make_bot(prefix + ":…")`` calls factory.

    ``level``: a level of play (offered by the lobby, the terminal and simulate), in the
    order of :data:`LEVELS` (a level not there comes after them)."""
    _REGISTRY[prefix] = factory
    if level and prefix not in BOT_LEVELS:
        BOT_LEVELS.append(prefix)
        rank = {lv.name: i for i, lv in enumerate(LEVELS)}
        BOT_LEVELS.sort(key=lambda name: rank.get(name, len(rank)))


def bot_levels() -> list[str]:
    """The levels this installation has, weakest first (a level whose module cannot be
    imported, for a missing optional dependency, is left out)."""
    _load_bots()
    return list(BOT_LEVELS)


def level_names() -> tuple[str, ...]:
    """The names of every level of :data:`LEVELS`, installed or not."""
    return tuple(level.name for level in LEVELS)


def spec_options(spec: str, names: Sequence[str], usage: str, *,
                 kind: str = "bot spec") -> dict[str, float]:
    """The numeric ``key=value`` options after the colon of a bot spec such as
    ``expert:samples=32,budget=0.2``, separated by ``,`` or ``;`` (use ``;`` inside
    ``--bots``, which splits on commas); ValueError naming the problem (and ``usage``) for an
    unknown key, a missing value or one that is not a number. ``kind`` names what the spec is
    in the errors (a review level is parsed the same way)."""
    _, _, rest = spec.partition(":")
    options: dict[str, float] = {}
    for part in rest.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in names:
            raise ValueError(f"bad option {part!r} in {kind} {spec!r}: use {usage}")
        try:
            options[key] = float(value)
        except ValueError:
            raise ValueError(
                f"option {key} of {kind} {spec!r} needs a number, not {value!r}"
            ) from None
    return options


def require_whole(options: Mapping[str, float], names: Iterable[str], spec: str) -> None:
    """ValueError naming the option if one of ``names`` in ``options`` (parsed by
    :func:`spec_options`) is not a whole number: a count such as ``samples=10.5`` is refused,
    never cut to 10."""
    for name in names:
        number = options.get(name)
        if number is not None and number % 1:
            raise ValueError(f"option {name} of {spec!r} must be a whole number, not {number:g}")


def make_bot(spec: str) -> Bot:
    """A bot from its spec: ``random``, ``basic``, ``ev``, ``expert``, ``master``, or
    ``prefix:options``."""
    _load_bots()
    name = spec.split(":", 1)[0].strip().lower()
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; valid: {', '.join(sorted(_REGISTRY))}")
    return factory(spec)


def _load_bots() -> None:
    """Import the modules of the levels and of the other kinds of bot, so that they register
    themselves (each is optional: a missing one is left out)."""
    import importlib

    for module in (*(level.module for level in LEVELS), *_OTHER_KINDS):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
