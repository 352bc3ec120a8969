"""The common shape of a phase's valuation: every alternative worth showing, with its parts.

A phase module (:mod:`~chicago.review.exchange`, :mod:`~chicago.review.calls`,
:mod:`~chicago.review.tricks`) turns what the seat knew into a :class:`Valuation`; the
review grades it (:mod:`chicago.review.core`). Nothing here knows the hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chicago.cards import Card
from chicago.engine.actions import Action
from chicago.review.model import Parts, rounded

__all__ = ["Option", "Valuation", "averaged", "parts"]


@dataclass(frozen=True, slots=True)
class Option:
    """One alternative: the action, its value's parts, and the cards kept (an exchange)."""

    action: Action
    parts: Parts
    keep: tuple[Card, ...] | None = None

    @property
    def value(self) -> float:
        """The alternative's value: the sum of its parts."""
        return self.parts.total


@dataclass(frozen=True, slots=True)
class Valuation:
    """The alternatives of one decision (the chosen one among them) and the samples used."""

    options: tuple[Option, ...]
    samples: int = 0


def parts(
    hand: float = 0.0,
    trick: float = 0.0,
    chicago: float = 0.0,
    other: float = 0.0,
    chance: float | None = None,
) -> Parts:
    """A :class:`~chicago.review.model.Parts` with every number rounded as stored."""
    return Parts(
        rounded(hand), rounded(trick), rounded(chicago), rounded(other),
        None if chance is None else rounded(chance),
    )


def averaged(sums: Sequence[float], count: int) -> list[float]:
    """Each of ``sums`` divided by ``count`` (0 for no samples)."""
    return [s / count if count else 0.0 for s in sums]
