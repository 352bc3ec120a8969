"""A seat's summary: points lost per deal and by phase, the biggest mistakes, the accuracy."""

from __future__ import annotations

from collections.abc import Sequence

from chicago.engine.viewtypes import DealRecord
from chicago.review.grades import accuracy, counts_for_accuracy
from chicago.review.model import (
    DealSummary,
    DecisionReview,
    Grade,
    GradeCounts,
    PhaseSummary,
    Summary,
    rounded,
)

__all__ = ["BIGGEST", "PHASE_ORDER", "summarize"]

BIGGEST = 5
"""How many of the costliest decisions the summary names."""
PHASE_ORDER = ("redeal", "exchange", "one up", "announce", "quads choice", "quads",
               "chicago", "play")
"""The phases in the order of a deal."""


def _counts(decisions: Sequence[DecisionReview]) -> GradeCounts:
    tally = {g.value: 0 for g in Grade}
    for d in decisions:
        tally[d.grade.value] += 1
    return GradeCounts(**tally)


def _counts_for_accuracy(d: DecisionReview) -> bool:
    return counts_for_accuracy([a.value for a in d.alternatives], d.loss)


def summarize(
    decisions: Sequence[DecisionReview], seat: int, history: Sequence[DealRecord]
) -> Summary:
    """The summary of one seat's ``decisions``; ``history`` is the game's
    :attr:`~chicago.Game.deal_history` (the points each deal gave)."""
    total = rounded(sum(d.loss for d in decisions))
    phases = []
    for phase in PHASE_ORDER:
        mine = [d for d in decisions if d.phase == phase]
        if mine:
            phases.append(
                PhaseSummary(phase, len(mine), rounded(sum(d.loss for d in mine)), _counts(mine))
            )
    points = {h.deal: h.points[seat] for h in history}
    numbers = sorted(set(points) | {d.deal for d in decisions})
    deals = []
    for number in numbers:
        mine = [d for d in decisions if d.deal == number]
        deals.append(
            DealSummary(number, len(mine), rounded(sum(d.loss for d in mine)),
                        points.get(number, 0))
        )
    costly = sorted(
        (d for d in decisions if d.grade in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)),
        key=lambda d: (-d.loss, d.step),
    )
    return Summary(
        decisions=len(decisions),
        loss=total,
        loss_per_deal=rounded(total / len(numbers)) if numbers else 0.0,
        accuracy=rounded(accuracy(d.loss for d in decisions if _counts_for_accuracy(d))),
        grades=_counts(decisions),
        phases=tuple(phases),
        deals=tuple(deals),
        biggest=tuple(d.step for d in costly[:BIGGEST]),
    )
