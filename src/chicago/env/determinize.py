"""Resample a game from one seat's information: the determinization a search bot needs.

:func:`resample` is :func:`chicago.engine.worlds.sample_world` (the engine deals the worlds:
see there), under the name the environments have always used.

>>> import random
>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=5)
>>> world = resample(game, game.to_act, random.Random(1))
>>> world.view(game.to_act) == game.view(game.to_act)
True
"""

from __future__ import annotations

from chicago.engine.worlds import sample_world as resample

__all__ = ["resample"]
