"""Announcements, passes, the Chicago call and four of a kind (V-QUADS-RESET), valued.

- An announcement is worth the chance that the hand wins the scoring round (the ``ev``
  bot's :func:`~chicago.bots.ev.announce_chance`: the category announced before it is
  exact, the hands still to speak are estimated from what the table saw) times its points
  (:func:`~chicago.review.stakes.hand_points`); a pass is worth nothing this round.
- The Chicago call: on sampled deals of the hidden cards, declaring is worth the made
  Chicago (and the showdown, if the rules keep it) where the declarer wins every trick
  whatever the defenders do, else the failure; not declaring is worth the last trick and
  the showdown (:func:`~chicago.review.deals.call_values`).
- Four of a kind: scoring it is worth its points (under V-QUADS-52 the points up to the
  target) and, if the deal goes on, the best hold's estimate from the new score; each reset
  the rules allow (everyone's under V-QUADS-RESET, each other seat's under V-QUADS-ONE) is
  worth the scores it lowers, shared among the others
  (:func:`~chicago.review.stakes.reset_value`), and ends the deal. Announcing four of a
  kind where a reset may follow is worth the better of the two.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from chicago.bots.ev import announce_chance
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge
from chicago.engine.phases import Phase
from chicago.poker import Category
from chicago.review.deals import call_values
from chicago.review.levels import ReviewLevel
from chicago.review.stakes import estimate_holds, hand_points, quads_points, reset_value
from chicago.review.valuation import Option, Valuation, parts

__all__ = ["value_announce", "value_chicago", "value_quads"]

_K = ActionKind


def _find(legal: Sequence[Action], kind: ActionKind) -> Action:
    for action in legal:
        if action.kind is kind:
            return action
    raise ValueError(f"no {kind.value} among the legal actions")


def value_announce(k: Knowledge, legal: Sequence[Action]) -> Valuation:
    """Announcing against passing in a scoring round (R-ANN-1)."""
    announce = _find(legal, _K.ANNOUNCE)
    assert announce.category is not None
    # the estimates' table rows sum to a little over 1 here and there: a chance stays one
    chance = min(1.0, max(0.0, announce_chance(k)))
    points = hand_points(k, announce.category)
    if announce.category is Category.FOUR_OF_A_KIND and k.rules.quads_reset:
        # the winner then chooses between the points and a reset (V-QUADS-RESET)
        points = max([points, *(reset_value(k, target) for target in _targets(k))])
    return Valuation(
        (
            Option(announce, parts(hand=chance * points, chance=chance)),
            Option(_find(legal, _K.PASS), parts()),
        )
    )


def value_chicago(
    k: Knowledge, legal: Sequence[Action], level: ReviewLevel, rng: random.Random
) -> Valuation:
    """Declaring Chicago against not declaring, on ``level.samples`` sampled deals."""
    deal = level.dealer(k)
    deals = [deal(rng) for _ in range(level.samples)]
    return Valuation(chicago_options(k, legal, deals), samples=len(deals))


def chicago_options(
    k: Knowledge, legal: Sequence[Action], deals: Sequence[Sequence[int]]
) -> tuple[Option, ...]:
    """Both answers of the Chicago call, averaged over ``deals``."""
    call = [0.0, 0.0, 0.0]
    no_call = [0.0, 0.0]
    for hands in deals:
        (hand, _, chicago, made), (final, trick) = call_values(k, hands)
        call[0] += hand
        call[1] += chicago
        call[2] += made
        no_call[0] += final
        no_call[1] += trick
    n = len(deals)
    return (
        Option(
            _find(legal, _K.CHICAGO),
            parts(hand=call[0] / n, chicago=call[1] / n, chance=call[2] / n),
        ),
        Option(_find(legal, _K.NO_CHICAGO), parts(hand=no_call[0] / n, trick=no_call[1] / n)),
    )


def rest_of_deal(k: Knowledge, next_round: int) -> tuple[float, float]:
    """The ``ev`` estimate of the rest of the deal from the exchange round ``next_round``
    on, for the seat's five cards: the best hold's (hand, trick)."""
    rounds = k.exchanges_total
    at = dataclasses.replace(k, phase=Phase.EXCHANGE, round=min(max(1, next_round), rounds))
    limit = 0 if next_round > rounds or k.locked[k.seat] else None
    best = max(estimate_holds(at, max_discard=limit), key=lambda h: h[0] + h[1])
    return best[0], best[1]


def _targets(k: Knowledge) -> list[int | None]:
    """Whom a reset may lower: everyone (None), or under V-QUADS-ONE each other seat."""
    if not k.rules.quads_reset_one:
        return [None]
    return [s for s in range(k.players) if s != k.seat]


def value_quads(k: Knowledge, legal: Sequence[Action]) -> Valuation:
    """V-QUADS-RESET: every reset the rules allow (V-QUADS-ONE: of each other seat), or
    score four of a kind (``quads choice``) or pass (``quads``, after the last exchange)."""
    resets = tuple(
        Option(action, parts(other=reset_value(k, action.target)))
        for action in legal
        if action.kind is _K.RESET
    )
    if not resets:
        raise ValueError("no reset among the legal actions")
    if k.phase == "quads choice":
        score = _find(legal, _K.SCORE)
        now = hand_points(k, Category.FOUR_OF_A_KIND)
        if k.rules.quads_end_deal:
            return Valuation((*resets, Option(score, parts(hand=now))))
        # the rest of the deal from the score the points give
        scores = list(k.scores)
        scores[k.seat] += quads_points(k)
        after = dataclasses.replace(k, scores=scores)
        hand, trick = rest_of_deal(after, k.round + 1)
        return Valuation((*resets, Option(score, parts(hand=now + hand, trick=trick))))
    hand, trick = rest_of_deal(k, k.exchanges_total + 1)
    return Valuation((*resets, Option(_find(legal, _K.PASS), parts(hand=hand, trick=trick))))
