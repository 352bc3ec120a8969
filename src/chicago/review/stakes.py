"""What points are worth to the seat, where the score makes it matter: one place for it.

A review values a decision in expected points for the seat over the rest of the deal. Most
points count at face value; the rules make some count otherwise, and so does the state of
the game:

- a loss is cut at zero (R-CHI-5) unless scores may go negative (V-NEG);
- under V-CHI-REQ3 points that take a seat without a made Chicago to the target reset its
  score to zero, so they are worth minus its score;
- a hand that wins the game at once (V-SF-WIN, a royal flush under V-ROYAL) is worth at
  least the points up to the target;
- a Chicago whose failure costs nothing more: one that is due under V-CHI-DECLARED (the seat
  must declare one before it can win, and is within two last tricks of the target: the
  price of a failure is paid whenever it declares, so now costs nothing extra), or one
  declared when an opponent is about to reach the target ahead of the seat (the game is
  lost unless the Chicago is made; :func:`~chicago.bots.ev.desperate`).

Every function reads only the seat's :class:`~chicago.engine.knowledge.Knowledge`.
"""

from __future__ import annotations

from chicago.bots.ev import desperate
from chicago.bots.heuristics import chicago_is_due, required_chicago
from chicago.engine.knowledge import Knowledge
from chicago.poker import Category

__all__ = [
    "chicago_failure",
    "chicago_success",
    "effective",
    "hand_points",
    "may_declare",
]


def effective(k: Knowledge, points: float) -> float:
    """What scoring ``points`` now changes in the seat's score: the rules' floor at zero
    (R-CHI-5) and the V-CHI-REQ3 reset applied."""
    rules = k.rules
    score = k.scores[k.seat]
    total = score + points
    if total < 0 and not rules.negative_scores:
        total = 0
    if points > 0 and required_chicago(k) == "made" and total >= rules.target:
        total = 0
    return total - score


def hand_points(k: Knowledge, category: Category) -> float:
    """What winning a scoring round (or the showdown) with ``category`` is worth."""
    rules = k.rules
    if category is Category.HIGH_CARD:
        return 0.0
    points = rules.points_for(category)
    instant = (rules.straight_flush_wins and category >= Category.STRAIGHT_FLUSH) or (
        rules.royal_wins and category is Category.ROYAL_FLUSH
    )
    if instant:
        if rules.instant_win_score == "target":
            return float(max(points, rules.target - k.scores[k.seat]))
        return float(points)
    return effective(k, points)


def chicago_success(k: Knowledge) -> float:
    """What a made Chicago is worth to its declarer (a made Chicago meets V-CHI-REQ3)."""
    return float(k.rules.chicago_points)


def chicago_failure(k: Knowledge) -> float:
    """What a failed Chicago costs its declarer (negative, or 0: see the module docstring)."""
    if (required_chicago(k) == "declared" and chicago_is_due(k)) or desperate(k):
        return 0.0
    return effective(k, -k.rules.chicago_points)


def may_declare(k: Knowledge) -> bool:
    """Whether the seat may declare Chicago at the call, as its score stands (R-CHI-2)."""
    rules = k.rules
    if not rules.chicago_enabled:
        return False
    minimum = rules.chicago_min_score
    return minimum is None or k.scores[k.seat] >= minimum
