"""Trick play: each legal card valued by determinized search over the hidden cards.

The hidden cards are dealt many times (:func:`~chicago.engine.sampling.sample_hands`, weighted
like the ``expert`` bot's samples: consistent with everything the seat saw, plausible after
each opponent's latest exchange) and every card is valued on every deal by
:func:`~chicago.review.deals.card_values`; a card's value is the mean.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge
from chicago.review.deals import card_values
from chicago.review.levels import ReviewLevel
from chicago.review.valuation import Option, Valuation, parts

__all__ = ["play_options", "value_play"]


def play_options(k: Knowledge, deals: Sequence[Sequence[int]]) -> tuple[Option, ...]:
    """Every legal card's option, its parts averaged over ``deals`` (hands per seat)."""
    sums: dict[int, list[float]] = {}
    for hands in deals:
        for card, (hand, trick, chicago, ok) in card_values(k, hands).items():
            row = sums.setdefault(int(card), [0.0, 0.0, 0.0, 0.0])
            row[0] += hand
            row[1] += trick
            row[2] += chicago
            row[3] += ok
    count = len(deals)
    return tuple(
        Option(
            Action.play(card),
            parts(row[0] / count, row[1] / count, row[2] / count, chance=row[3] / count),
        )
        for card, row in sorted(sums.items())
    )


def value_play(
    k: Knowledge, legal: Sequence[Action], level: ReviewLevel, rng: random.Random
) -> Valuation:
    """The value of each legal card, on ``level.samples`` sampled deals."""
    if not any(a.kind is ActionKind.PLAY for a in legal):
        raise ValueError("no card to play")
    deal = level.dealer(k)
    deals = [deal(rng) for _ in range(level.samples)]
    return Valuation(play_options(k, deals), samples=len(deals))
