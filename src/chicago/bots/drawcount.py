"""A random generator that counts its draws: a search budget in counts, not in time.

:class:`CountingRandom` is Python's Mersenne Twister with the two methods every other one is
built on (``random`` and ``getrandbits``) counting their calls. Every method of
:class:`random.Random` (``sample``, ``choices``, ``shuffle``, ``randrange`` …) draws through
those two, so a :class:`CountingRandom` in the state of a :class:`random.Random` gives the
very same numbers, and its count of draws is a measure of the work done with them — the
dealing of hidden cards above all, whose hard cases (protected combinations, R-EX-4, and
claims, R-ANN-1, that few deals fit) are hard because they draw and reject many times. A
seed fixes the count, so a budget of draws is as reproducible as any other choice.

>>> rng = random.Random(7)
>>> counting = CountingRandom(rng)
>>> counting.sample(range(52), 5) == random.Random(7).sample(range(52), 5)
True
>>> counting.draws > 0
True
"""

from __future__ import annotations

import random
from random import Random
from types import TracebackType

__all__ = ["CountingRandom", "DrawBudget"]


class CountingRandom(random.Random):
    """A generator in the state of ``rng`` (given) that counts its draws in ``draws``;
    :meth:`hand_back` puts its state back into ``rng``, so a search that drew from it leaves
    ``rng`` where drawing from ``rng`` itself would have."""

    def __init__(self, rng: Random) -> None:
        super().__init__(0)
        self.setstate(rng.getstate())
        self.draws = 0
        """The calls of :meth:`random` and :meth:`getrandbits` so far."""

    def random(self) -> float:
        """A float in [0, 1), counted."""
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """``k`` random bits, counted."""
        self.draws += 1
        return super().getrandbits(k)

    def hand_back(self, rng: Random) -> None:
        """Set ``rng`` to this generator's state (a counting ``rng`` counts the draws made
        here as its own)."""
        rng.setstate(self.getstate())
        if isinstance(rng, CountingRandom):
            rng.draws += self.draws


class DrawBudget:
    """Dealing under a budget of draws, as a context: deal from :attr:`source`, ask
    :meth:`allows` before each deal; on leaving, ``rng`` is where dealing from it itself
    would have left it. With no budget (``limit`` 0) :attr:`source` is ``rng`` itself and
    every deal is allowed.

    >>> rng = random.Random(7)
    >>> with DrawBudget(rng, 10) as budget:
    ...     dealt = 0
    ...     while budget.allows(dealt, floor=2):
    ...         _ = budget.source.sample(range(52), 5)
    ...         dealt += 1
    >>> budget.cut, dealt >= 2
    (True, True)
    """

    def __init__(self, rng: Random, limit: int) -> None:
        self._handed = rng
        self._counting = CountingRandom(rng) if limit else None
        self.source: Random = rng if self._counting is None else self._counting
        """The generator to deal from."""
        self.limit = limit
        """The draws after which no more deals are allowed past the floor."""
        self.cut = False
        """Whether a deal was refused: the budget cut the dealing short."""

    def allows(self, dealt: int, floor: int) -> bool:
        """Whether one more deal may follow ``dealt`` deals: always while fewer than
        ``floor`` are dealt, then while fewer than :attr:`limit` draws are taken (a refusal
        sets :attr:`cut`)."""
        if dealt < floor or self._counting is None or self._counting.draws < self.limit:
            return True
        self.cut = True
        return False

    def __enter__(self) -> DrawBudget:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._counting is not None:
            self._counting.hand_back(self._handed)
