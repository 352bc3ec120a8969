"""A seeded generator that does its seeding only when it is first drawn from.

Seeding :class:`random.Random` with text (a table's secret, a sequence number and a seat)
hashes the text and fills the generator's whole state: about 9 µs, paid for every bot
decision on a server's tables, though most decisions of the quick bots draw nothing.
:class:`SeededOnUse` is a :class:`random.Random` that keeps its seed until the first draw
(or :meth:`~SeededOnUse.getstate`) and then seeds itself exactly as ``random.Random(seed)``
would: every draw is the one that generator gives, so a seeded choice stays the same.

>>> rng = SeededOnUse("table:12:3")
>>> rng.randrange(1000) == random.Random("table:12:3").randrange(1000)
True
"""

from __future__ import annotations

import random
from types import MethodType
from typing import Any

__all__ = ["SeededOnUse"]

_UNSET = object()
"""No seed waits: the generator is seeded (or its state was set)."""


class SeededOnUse(random.Random):
    """``random.Random(seed)``, seeded when first used (see the module docstring)."""

    def __init__(self, x: Any = None) -> None:
        # random.Random.__init__ would seed at once: keep the seed instead
        self._waiting: Any = x
        self.gauss_next = None

    def _seed_now(self) -> None:
        """Seed with the kept seed, as ``random.Random(seed)`` does, once."""
        waiting, self._waiting = self._waiting, _UNSET
        if waiting is not _UNSET:
            super().seed(waiting)
            # seeded: later draws go straight to the generator's own methods
            # (instance attributes before the class's methods; _randbelow and the others
            # look them up on the instance)
            self.__dict__.update(random=MethodType(random.Random.random, self),
                                 getrandbits=MethodType(random.Random.getrandbits, self))

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed now, as :meth:`random.Random.seed` does."""
        self._waiting = _UNSET
        super().seed(a, version)

    def random(self) -> float:
        """The next float in [0, 1), seeding first if no draw came before."""
        self._seed_now()
        return super().random()

    def getrandbits(self, k: int) -> int:
        """``k`` random bits, seeding first if no draw came before."""
        self._seed_now()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        """The generator's state (seeded first, so it is the seeded state)."""
        self._seed_now()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Set the state; the kept seed is dropped."""
        self._waiting = _UNSET
        super().setstate(state)
