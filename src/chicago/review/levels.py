"""Review levels: how hard the review searches (``master``, ``expert``, ``ev``, with options).

A level fixes how many deals of the hidden cards are sampled per decision, how they are
dealt, and how many holds the last exchange searches. ``expert`` searches like the
``expert`` bot (a few more samples); ``master`` deals the hidden cards as the ``master``
bot does, by its learned model of the hands (:mod:`chicago.bots.handmodel`), and searches
more holds; ``ev`` values exchanges by the ``ev`` bot's estimates alone and searches trick
play and the Chicago call on fewer samples. Options override a level's numbers:
``expert:samples=8,exchange=6,holds=3`` (``,`` or ``;`` between them).

>>> ReviewLevel.parse("expert").spec
'expert:samples=64,exchange=48,holds=4'
>>> ReviewLevel.parse("ev:samples=8").samples
8
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from chicago.bots.base import require_whole, spec_options
from chicago.bots.handmodel import HandModel
from chicago.bots.master import DEFAULT_PROPOSALS as LEARNED_PROPOSALS
from chicago.bots.plausibility import hand_weight
from chicago.engine.knowledge import Knowledge
from chicago.engine.sampling import sample_hands

__all__ = ["LEVELS", "ReviewLevel"]


@dataclass(frozen=True, slots=True)
class ReviewLevel:
    """How a review values decisions (see the module docstring)."""

    name: str
    samples: int
    """Sampled deals of the hidden cards per trick-play decision and Chicago call."""
    exchange: int
    """Sampled deals per last-exchange search (0: the ``ev`` estimates only)."""
    holds: int
    """The best holds (by the estimates) that the last-exchange search values again."""
    shown: int = 6
    """Alternatives listed per exchange (the best ones, and always what was done)."""
    learned: bool = False
    """Deal the hidden cards by the learned model of the hands (``master``), not by the
    expert's hand-made weights."""

    @property
    def spec(self) -> str:
        """The full spec, which :meth:`parse` reads back to this level."""
        return f"{self.name}:samples={self.samples},exchange={self.exchange},holds={self.holds}"

    def dealer(self, k: Knowledge) -> Callable[[random.Random], list[int]]:
        """How this level deals the hidden cards for the seat of ``k``: a function of a
        random generator giving one deal (card masks by seat)."""
        if self.learned:
            weight = HandModel.load().scorer(k)
            return lambda rng: sample_hands(k, rng, weight=weight, proposals=LEARNED_PROPOSALS)
        return lambda rng: sample_hands(k, rng, weight=hand_weight)

    @classmethod
    def parse(cls, spec: str | ReviewLevel) -> ReviewLevel:
        """The level of ``spec`` (``expert``, ``ev``, ``expert:samples=8`` …); ValueError
        naming the problem for anything else."""
        if isinstance(spec, ReviewLevel):
            return spec
        if not isinstance(spec, str):
            raise ValueError(f"a review level is a text like 'expert', not {spec!r}")
        name = spec.strip().partition(":")[0]
        base = LEVELS.get(name.strip().lower())
        if base is None:
            raise ValueError(
                f"unknown review level {name!r}; valid: {', '.join(sorted(LEVELS))} "
                "(with options such as expert:samples=16)"
            )
        options = spec_options(spec, ("samples", "exchange", "holds"),
                               "samples=N, exchange=N or holds=N", kind="review level")
        require_whole(options, options, spec)
        for key, number in options.items():
            if number < 0 or (key == "samples" and number == 0):
                raise ValueError(f"option {key} of review level {spec!r} is out of range")
        level = replace(
            base,
            samples=int(options.get("samples", base.samples)),
            exchange=int(options.get("exchange", base.exchange)),
            holds=int(options.get("holds", base.holds)),
        )
        if level.exchange and level.holds < 1:
            raise ValueError(f"review level {spec!r}: an exchange search needs holds >= 1")
        return level


LEVELS: dict[str, ReviewLevel] = {
    "ev": ReviewLevel("ev", samples=16, exchange=0, holds=0),
    "expert": ReviewLevel("expert", samples=64, exchange=48, holds=4),
    "master": ReviewLevel("master", samples=64, exchange=48, holds=6, learned=True),
}
"""The named levels."""
