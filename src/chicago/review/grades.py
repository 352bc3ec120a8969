"""Grades and the accuracy figure: one definition each (documented in ``docs/REVIEW.md``).

A decision's grade depends only on the expected points it lost against the best
alternative, judged on what the seat knew:

==============  ==========================
grade           points lost
==============  ==========================
``best``        at most 0.1
``good``        above 0.1, at most 0.4
``inaccuracy``  above 0.4, at most 0.8
``mistake``     above 0.8, below 1.4
``blunder``     1.4 or more
==============  ==========================

The thresholds are calibrated against 45 decisions a Chicago player labelled
(``tests/data/labelled_decisions.json``, with the reasons; ``docs/REVIEW.md`` reports the
agreement): breaking a pair of kings for nothing is a mistake, throwing the pair away a
blunder.

>>> grade_of(0.0).value, grade_of(0.3).value, grade_of(0.6).value, grade_of(1.4).value
('best', 'good', 'inaccuracy', 'blunder')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from chicago.review.model import Grade

__all__ = [
    "ACCURACY_MARKS",
    "ACCURACY_SCALE",
    "BEST_MAX",
    "BLUNDER_MIN",
    "GOOD_MAX",
    "INACCURACY_MAX",
    "MATTERS",
    "OBVIOUS",
    "accuracy",
    "counts_for_accuracy",
    "grade_of",
]

BEST_MAX = 0.1
"""Losses up to this are the best move (ties, the noise of sampling, a kicker kept)."""
GOOD_MAX = 0.4
INACCURACY_MAX = 0.8
BLUNDER_MIN = 1.4
"""A loss this large is a blunder: throwing away a pair of kings, or the one card that
can win the last trick."""
MATTERS = 0.05
"""A choice is real when its best and worst listed alternatives differ by more than this;
a decision that lost more than this counts in the accuracy whatever it was."""
OBVIOUS = 2.5
"""A choice is obvious when every other alternative is this much worse than the best (half
a last trick): answered right it does not count in the accuracy."""
ACCURACY_SCALE = 1.5
"""The loss (in points) at which a decision's accuracy falls to 1/e (37)."""
ACCURACY_MARKS: dict[str, float] = {"expert": 98.3, "basic": 92.2, "random": 73.5}
"""The scale shown beside an accuracy: the mean accuracy of the ``expert`` and ``basic``
bots and of random legal play, each seat of four-player ``pagat`` games reviewed at the
default level, as issue 25 measured them; ``benchmarks/bench_accuracy.py`` measures them
again (``docs/REVIEW.md`` gives its latest figures)."""


def grade_of(loss: float) -> Grade:
    """The grade of a decision that lost ``loss`` expected points."""
    if loss <= BEST_MAX:
        return Grade.BEST
    if loss <= GOOD_MAX:
        return Grade.GOOD
    if loss <= INACCURACY_MAX:
        return Grade.INACCURACY
    if loss < BLUNDER_MIN:
        return Grade.MISTAKE
    return Grade.BLUNDER


def counts_for_accuracy(values: Sequence[float], loss: float) -> bool:
    """Whether a decision (its alternatives' ``values``, the ``loss`` of what was done)
    counts in the accuracy: a real choice (the alternatives differ by more than
    :data:`MATTERS` and a second one is within :data:`OBVIOUS` of the best), or any
    decision that lost points (more than :data:`MATTERS`). An obvious one answered right
    (declining a hopeless Chicago, the only sensible card) does not pad the figure;
    answered wrong, it counts."""
    if loss > MATTERS:
        return True
    ordered = sorted(values, reverse=True)
    return (
        len(ordered) > 1
        and ordered[0] - ordered[-1] > MATTERS
        and ordered[0] - ordered[1] < OBVIOUS
    )


def accuracy(losses: Iterable[float]) -> float:
    """0-100: the mean of ``100 × exp(-loss / ACCURACY_SCALE)`` over the losses of the
    decisions that count (:func:`counts_for_accuracy`); 100 when none does.

    >>> accuracy([0.0, 0.0]), round(accuracy([1.5]), 1), round(accuracy([0.0, 3.0]), 1)
    (100.0, 36.8, 56.8)
    """
    scores = [100.0 * math.exp(-loss / ACCURACY_SCALE) for loss in losses]
    return sum(scores) / len(scores) if scores else 100.0
