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
  lost unless the Chicago is made; :func:`~chicago.bots.ev.desperate`);
- V-QUADS-52: four of a kind that scores raises the seat to the target, so it is worth the
  points up to the target (as the engine scores it), in scoring rounds, at the showdown and
  in the ``ev`` estimates of every hold (:func:`estimate_holds`);
- points that take the seat to the target ahead of every other seat win the game (R-END-1):
  they are worth :data:`GAME_WON` more (the game can no longer be lost, where going on it
  still can); not under V-WIN-AGAIN, nor for a seat that V-CHI-DECLARED keeps from winning;
- a reset by four of a kind (V-QUADS-RESET, V-QUADS-ONE) is worth the scores it takes from
  the others, shared among them (:func:`reset_value`): each opponent's point counts
  ``1 / (players - 1)`` against the seat, as a declarer's Chicago does for its defenders;
  a reset that stops an opponent about to win the game is worth :data:`GAME_WON` more.

Every function reads only the seat's :class:`~chicago.engine.knowledge.Knowledge`.
"""

from __future__ import annotations

import dataclasses

from chicago.bots.ev import desperate, ev_holds
from chicago.bots.heuristics import chicago_is_due, required_chicago
from chicago.cards import Card
from chicago.engine.knowledge import Knowledge
from chicago.poker import Category

__all__ = [
    "GAME_WON",
    "chicago_failure",
    "chicago_points",
    "chicago_success",
    "effective",
    "estimate_holds",
    "hand_points",
    "last_trick_points",
    "may_declare",
    "quads_points",
    "reset_value",
    "wins_game",
]

GAME_WON = 5.0
"""What ending the game as its winner is worth beyond the points that do it: one last
trick's worth. Checked against the hand-labelled decisions of ``tests/data/labelled.json``
(a sure win taken is best, a reset that leaves the game open when the points win it is a
blunder); ``docs/REVIEW.md`` reports the agreement."""


def wins_game(k: Knowledge, total: float) -> bool:
    """Whether a score of ``total`` for the seat, reached now, wins the game at the end of
    this deal (R-END-1): at or above the target and above every other seat's score, with no
    rule keeping the game going for it (V-WIN-AGAIN, V-CHI-DECLARED)."""
    rules = k.rules
    if total < rules.target or rules.win_again or required_chicago(k) == "declared":
        return False
    return all(total > s for i, s in enumerate(k.scores) if i != k.seat)


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
    bonus = GAME_WON if points > 0 and score < rules.target and wins_game(k, total) else 0.0
    return total - score + bonus


def quads_points(k: Knowledge) -> int:
    """What four of a kind scores for the seat, as the engine scores it: its points, or
    under V-QUADS-52 what raises the seat to the target, if that is more."""
    rules = k.rules
    points = rules.points_for(Category.FOUR_OF_A_KIND)
    if rules.quads_to_target:
        return max(points, rules.target - k.scores[k.seat])
    return points


def estimate_holds(
    k: Knowledge, max_discard: int | None = None
) -> list[tuple[float, float, tuple[Card, ...]]]:
    """The ``ev`` estimate of every hold (:func:`~chicago.bots.ev.ev_holds`) with the points
    in force for this seat: four of a kind worth :func:`quads_points` (V-QUADS-52)."""
    quads = quads_points(k)
    if quads != k.rules.points_for(Category.FOUR_OF_A_KIND):
        table = list(k.rules.points)
        table[Category.FOUR_OF_A_KIND] = quads
        k = dataclasses.replace(k, rules=dataclasses.replace(k.rules, points=tuple(table)))
    return ev_holds(k, max_discard=max_discard)


def reset_value(k: Knowledge, target: int | None) -> float:
    """What a four-of-a-kind reset is worth to the seat: the scores it lowers to zero (every
    other seat's, or under V-QUADS-ONE only ``target``'s), each opponent's point counting
    ``1 / (players - 1)`` for the seat, and :data:`GAME_WON` more when it stops a seat that
    is within one last trick of the target and ahead of the seat from winning. Resetting a
    seat on 0 is worth nothing; under V-NEG resetting a negative score costs."""
    rules = k.rules
    mine = k.scores[k.seat]
    lowered = [s for i, s in enumerate(k.scores) if i != k.seat and target in (None, i)]
    threat = any(s >= mine and s + rules.last_trick_points >= rules.target for s in lowered)
    return sum(lowered) / max(1, k.players - 1) + (GAME_WON if threat else 0.0)


def hand_points(k: Knowledge, category: Category) -> float:
    """What winning a scoring round (or the showdown) with ``category`` is worth."""
    rules = k.rules
    if category is Category.HIGH_CARD:
        return 0.0
    if category is Category.FOUR_OF_A_KIND:
        return effective(k, quads_points(k))
    points = rules.points_for(category)
    instant = (rules.straight_flush_wins and category >= Category.STRAIGHT_FLUSH) or (
        rules.royal_wins and category is Category.ROYAL_FLUSH
    )
    if instant:
        if rules.instant_win_score == "target":
            points = max(points, rules.target - k.scores[k.seat])
        return points + GAME_WON
    return effective(k, points)


def last_trick_points(k: Knowledge) -> tuple[int, int | None]:
    """What winning the last trick scores: ``(plain, deuce)``, the rules'
    ``last_trick_points`` and, under V-DEUCE, twice that for winning it with a 2 (else
    ``None``), as the engine scores it."""
    rules = k.rules
    plain = rules.last_trick_points
    return plain, 2 * plain if rules.deuce_bonus else None


def chicago_points(k: Knowledge) -> tuple[int, int | None]:
    """What a made Chicago scores: ``(plain, deuce)``, the rules' ``chicago_points`` and,
    under V-DEUCE, ``deuce_chicago_points`` for one whose last trick is won with a 2 (else
    ``None``). A deuce bonus set no higher than the plain points is left out (``None``): the
    review then values every made Chicago at the plain points."""
    rules = k.rules
    plain = rules.chicago_points
    deuce = rules.deuce_chicago_points
    return plain, deuce if rules.deuce_bonus and deuce > plain else None


def chicago_success(k: Knowledge, points: int | None = None) -> float:
    """What a made Chicago that scores ``points`` is worth to its declarer (a made Chicago
    meets V-CHI-REQ3; one that takes the seat to the target ahead of the others wins the
    game). ``points`` defaults to the plain ``chicago_points``: pass
    ``deuce_chicago_points`` for one whose last trick is won with a 2 (V-DEUCE)."""
    if points is None:
        points = k.rules.chicago_points
    total = k.scores[k.seat] + points
    won = k.scores[k.seat] < k.rules.target and wins_game(k, total)
    return points + (GAME_WON if won else 0.0)


def chicago_failure(k: Knowledge) -> float:
    """What a failed Chicago costs its declarer (negative, or 0: see the module docstring)."""
    if (required_chicago(k) == "declared" and chicago_is_due(k)) or desperate(k):
        return 0.0
    # V-CHI-BREAKER: the defender who breaks it scores too, one opponent's points
    breaker = k.rules.chicago_breaker_points / max(1, k.players - 1)
    return effective(k, -k.rules.chicago_points) - breaker


def may_declare(k: Knowledge) -> bool:
    """Whether the seat may declare Chicago at the call, as its score stands (R-CHI-2)."""
    rules = k.rules
    if not rules.chicago_enabled:
        return False
    minimum = rules.chicago_min_score
    return minimum is None or k.scores[k.seat] >= minimum
