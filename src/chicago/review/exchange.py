"""Exchanges, valued by exact draw odds (and the variations' exchanges: one up, redeal, six).

Every way to keep cards gets the ``ev`` bot's estimate (:func:`~chicago.bots.ev.ev_holds`):
the exact odds of each category after the draw (:func:`chicago.odds.draw_odds`, with the
cards the seat knows are out of play), times the chance that such a hand beats every
opponent and its points, for every scoring event it may still win; plus the last trick's
points times the rough chance that the kept cards win it.

In the last exchange a review level with an exchange search (``expert``) values the best
holds again on sampled deals: the others' hands consistent with what the seat saw, and the
cards it would draw. On each deal the last trick is valued as in trick play
(:func:`~chicago.review.deals.last_trick`) and the Chicago as at the call: a hold is worth
declaring on when the share of deals on which the Chicago is sure makes the call pay
more than the last trick (``chicago`` part: what the call adds).

- V-ONE-UP: asking one up is worth, over every card that may come face up, the better of
  taking it and rejecting it for a card drawn blind; the answer compares the two.
- V-REDEAL-LOW: keeping is worth the best hold of the hand in the first exchange; a
  redeal the mean of that over sampled new hands.
- V-LOCK-6: each card to throw is worth the five cards kept, held to the end of the deal.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from chicago.bots.solver import Position
from chicago.cards import DECK, Card, mask_of
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge
from chicago.engine.phases import Phase
from chicago.review.deals import chicago_made, last_trick
from chicago.review.levels import ReviewLevel
from chicago.review.stakes import (
    chicago_failure,
    chicago_success,
    estimate_holds,
    may_declare,
)
from chicago.review.valuation import Option, Valuation, parts

__all__ = [
    "value_exchange",
    "value_one_up",
    "value_redeal",
    "with_hand",
]

_K = ActionKind
Hold = tuple[float, float, tuple[Card, ...]]
"""``estimate_holds``' row: (hand, trick, keep)."""


def with_hand(k: Knowledge, hand: Sequence[Card], dead: Sequence[Card] = ()) -> Knowledge:
    """``k`` with the seat holding ``hand`` and the ``dead`` cards known out of play (the
    cards it threw); the unseen cards follow. A card in ``hand`` is never dead (a draw
    after a reshuffle may bring back a card the seat threw, R-EX-2)."""
    held = mask_of(hand)
    dead_mask = (k.dead | mask_of(dead)) & ~held
    known = held | dead_mask
    return dataclasses.replace(
        k,
        hand=tuple(hand),
        dead=dead_mask,
        unseen=tuple(card for card in DECK if not known >> card & 1),
    )


def _discard(hand: Sequence[Card], keep: Sequence[Card]) -> Action:
    kept = set(keep)
    return Action.discard([c for c in hand if c not in kept])


def _keep_all(k: Knowledge) -> tuple[float, float]:
    """The estimate of keeping the seat's five cards whole: (hand, trick)."""
    hand, trick, _ = estimate_holds(k, max_discard=0)[0]
    return hand, trick


def value_exchange(
    k: Knowledge, legal: Sequence[Action], chosen: Action, level: ReviewLevel,
    rng: random.Random,
) -> Valuation:
    """Every legal way to keep cards in this exchange, and every one-up request (V-ONE-UP)."""
    if len(k.hand) == 6:
        return _lock_six(k, legal)
    texts = {str(a) for a in legal}
    limit = max((len(a.cards) for a in legal if a.kind is _K.DISCARD), default=0)
    holds = [
        h for h in estimate_holds(k, max_discard=limit) if str(_discard(k.hand, h[2])) in texts
    ]
    samples = 0
    if level.exchange and k.round >= k.exchanges_total:
        options, samples = _searched(k, holds, chosen, level, rng)
    else:
        options = [
            Option(_discard(k.hand, keep), parts(hand=hand, trick=trick), tuple(keep))
            for hand, trick, keep in holds
        ]
    # V-ONE-UP: a request to see the new card, for each card the seat may throw
    options.extend(_one_up_request(k, action) for action in legal if action.kind is _K.ONE_UP)
    return Valuation(tuple(options), samples=samples)


def _searched(
    k: Knowledge, holds: list[Hold], chosen: Action, level: ReviewLevel, rng: random.Random
) -> tuple[list[Option], int]:
    """The best ``level.holds`` holds (and the chosen one), their last trick and Chicago
    valued on ``level.exchange`` sampled deals."""
    order = sorted(holds, key=lambda h: -(h[0] + h[1]))
    candidates = order[: level.holds]
    thrown = set(chosen.cards) if chosen.kind is _K.DISCARD else None
    if thrown is not None:
        keep = tuple(c for c in k.hand if c not in thrown)
        if all(set(h[2]) != set(keep) for h in candidates):
            candidates += [h for h in holds if set(h[2]) == set(keep)]
    seat = k.seat
    declare = may_declare(k)
    caller_leads = k.seat if k.rules.chicago_caller_leads else k.leader
    unseen = [int(c) for c in k.unseen]
    tricks = [0.0] * len(candidates)
    made = [0] * len(candidates)
    calls = [0.0] * len(candidates)
    failure = chicago_failure(k) if declare else 0.0
    deal = level.dealer(k)
    for _ in range(level.exchange):
        hands = deal(rng)
        taken = 0
        for mask in hands:
            taken |= mask
        pool = [c for c in unseen if not taken >> c & 1]
        draws = rng.sample(pool, min(5, len(pool)))
        for i, (_, _, keep) in enumerate(candidates):
            need = 5 - len(keep)
            hands[seat] = mask_of(keep) | mask_of(DECK[c] for c in draws[:need])
            trick, _ = last_trick(k, Position(tuple(hands), k.leader))
            tricks[i] += trick
            if declare:
                scored = chicago_made(k, Position(tuple(hands), caller_leads))
                made[i] += scored is not None
                calls[i] += failure if scored is None else chicago_success(k, scored)
    n = level.exchange
    options = []
    for i, (hand, _, keep) in enumerate(candidates):
        trick = tricks[i] / n
        p = made[i] / n
        call = calls[i] / n
        option = max(0.0, call - trick) if declare else 0.0
        options.append(
            Option(
                _discard(k.hand, keep),
                parts(hand=hand, trick=trick, chicago=option, chance=p if declare else None),
                tuple(keep),
            )
        )
    return options, n


def _answers(k: Knowledge, face_up: Card) -> tuple[Option, Option]:
    """V-ONE-UP with the seat's four cards and ``face_up`` shown: (accept, reject)."""
    five = (*k.hand, face_up)
    taken = with_hand(k, five)
    hand, trick = _keep_all(taken)
    accept = Option(Action.simple(_K.ACCEPT), parts(hand=hand, trick=trick))
    for r_hand, r_trick, keep in estimate_holds(taken, max_discard=1):
        if len(keep) == 4 and face_up not in keep:
            return accept, Option(Action.simple(_K.REJECT), parts(hand=r_hand, trick=r_trick))
    raise ValueError("no hold rejects the face-up card")  # pragma: no cover - draw_odds lists it


def value_one_up(k: Knowledge) -> Valuation:
    """Taking the face-up card against rejecting it for one drawn blind (V-ONE-UP)."""
    if k.one_up is None or len(k.hand) != 4:
        raise ValueError("no face-up card waits for this seat")
    return Valuation(_answers(k, k.one_up[1]))


def _one_up_request(k: Knowledge, action: Action) -> Option:
    """Asking one up with ``action.card``: the better answer, averaged over every card
    that may come face up."""
    card = action.card
    four = tuple(c for c in k.hand if c != card)
    after = with_hand(k, four, dead=(card,))
    sums = [0.0, 0.0]
    for face_up in after.unseen:
        accept, reject = _answers(after, face_up)
        best = accept if accept.value >= reject.value else reject
        sums[0] += best.parts.hand
        sums[1] += best.parts.trick
    n = max(1, len(after.unseen))
    return Option(action, parts(hand=sums[0] / n, trick=sums[1] / n), four)


def _best_hold(k: Knowledge) -> tuple[float, float]:
    first = dataclasses.replace(k, phase=Phase.EXCHANGE, round=1)
    best = max(estimate_holds(first), key=lambda h: h[0] + h[1])
    return best[0], best[1]


def value_redeal(k: Knowledge, legal: Sequence[Action], level: ReviewLevel,
                 rng: random.Random) -> Valuation:
    """V-REDEAL-LOW: keeping the hand against five new cards (sampled ``level.samples``
    times from the cards the seat has not seen; its five go to the discards)."""
    keep = next(a for a in legal if a.kind is _K.DISCARD)
    redeal = next(a for a in legal if a.kind is _K.REDEAL)
    hand, trick = _best_hold(k)
    out = dataclasses.replace(k, dead=k.dead | k.hand_mask)
    pool = [c for c in out.unseen if c not in k.hand]
    sums = [0.0, 0.0]
    for _ in range(level.samples):
        new = sorted(rng.sample(pool, 5))
        h, t = _best_hold(with_hand(out, new))
        sums[0] += h
        sums[1] += t
    n = level.samples
    return Valuation(
        (
            Option(keep, parts(hand=hand, trick=trick)),
            Option(redeal, parts(hand=sums[0] / n, trick=sums[1] / n)),
        ),
        samples=n,
    )


def _lock_six(k: Knowledge, legal: Sequence[Action]) -> Valuation:
    """V-LOCK-6: the card to throw from six; the five kept are held to the end."""
    options = []
    for action in legal:
        if action.kind is not _K.DISCARD or len(action.cards) != 1:
            continue
        card = action.card
        five = tuple(c for c in k.hand if c != card)
        hand, trick = _keep_all(with_hand(k, five, dead=(card,)))
        options.append(Option(action, parts(hand=hand, trick=trick), five))
    return Valuation(tuple(options))
