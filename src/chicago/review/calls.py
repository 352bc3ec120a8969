"""Announcements, passes, the Chicago call and four of a kind (V-QUADS-RESET), valued.

- An announcement is worth the chance that the hand wins the scoring round (the ``ev``
  bot's :func:`~chicago.bots.ev.announce_chance`: the category announced before it is
  exact, the hands still to speak are estimated from what the table saw) times its points
  (:func:`~chicago.review.stakes.hand_points`); a pass is worth nothing this round.
- The Chicago call: on sampled deals of the hidden cards, declaring is worth the made
  Chicago (and the showdown, if the rules keep it) where the declarer wins every trick
  whatever the defenders do, else the failure; not declaring is worth the last trick and
  the showdown (:func:`~chicago.review.deals.call_values`).
- Four of a kind: scoring it is worth its points and, if the deal goes on, the best hold's
  estimate; a reset is worth the others' scores, shared among them (what each loses counts
  for the seat) and ends the deal.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from chicago.bots.ev import announce_chance, ev_holds
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge
from chicago.poker import Category
from chicago.review.deals import call_values
from chicago.review.levels import ReviewLevel
from chicago.review.stakes import effective, hand_points
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
    at = dataclasses.replace(k, phase="exchange", round=min(max(1, next_round), rounds))
    limit = 0 if next_round > rounds or k.locked[k.seat] else None
    best = max(ev_holds(at, max_discard=limit), key=lambda h: h[0] + h[1])
    return best[0], best[1]


def value_quads(k: Knowledge, legal: Sequence[Action]) -> Valuation:
    """V-QUADS-RESET: reset the others' scores, or score four of a kind (``quads choice``)
    or pass (``quads``, after the last exchange)."""
    others = [s for i, s in enumerate(k.scores) if i != k.seat]
    reset = Option(_find(legal, _K.RESET), parts(other=sum(others) / max(1, len(others))))
    if k.phase == "quads choice":
        score = _find(legal, _K.SCORE)
        now = effective(k, k.rules.points_for(Category.FOUR_OF_A_KIND))
        if k.rules.quads_end_deal:
            return Valuation((reset, Option(score, parts(hand=now))))
        hand, trick = rest_of_deal(k, k.round + 1)
        return Valuation((reset, Option(score, parts(hand=now + hand, trick=trick))))
    hand, trick = rest_of_deal(k, k.exchanges_total + 1)
    return Valuation((reset, Option(_find(legal, _K.PASS), parts(hand=hand, trick=trick))))
