"""What one deal of the cards is worth to the seat: the values a review averages over samples.

Each function takes the seat's :class:`~chicago.engine.knowledge.Knowledge` and one deal of
the cards every seat holds now (card masks, as :func:`~chicago.engine.sampling.sample_hands`
gives them): a sampled deal for the fair values, the real one for the values with all cards
known. One formula serves both, so the two differ only in the cards.

The last trick is valued between two exact searches of the deal
(:mod:`chicago.bots.solver`, :mod:`chicago.bots.model`): the points the seat is sure of
whatever the others do, seeing every card (a lower bound), and the points it wins against
sensible opponents who play by rules of thumb from their own cards (the ``expert`` bot's
model). A sure last trick is worth its points, one won against the model only a share
(:data:`MODEL_SHARE`) of them, one lost even then nothing. Where the solver decides the
position (the seat is sure to win it, or loses it even against the model) the value is
exact.

A Chicago is valued by the exact solver alone: made when the declarer wins every trick
whatever the defenders do, else broken (the defenders see every card). A made Chicago is
worth what it scores: under V-DEUCE ``deuce_chicago_points`` (30) when the declarer is sure
to win the last trick with a 2 whatever the defenders do, else ``chicago_points`` (15)
(:func:`~chicago.bots.solver.chicago_values`); the defenders' cards are valued the same way,
so keeping the 2 for the last trick, or a defender's card that keeps a 2 from winning it,
counts for the difference.
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.bots.model import model_moves, model_wins
from chicago.bots.solver import (
    Position,
    chicago_value,
    chicago_values,
    last_trick_value,
    last_trick_values,
)
from chicago.cards import Card, cards_from_mask
from chicago.engine.knowledge import Knowledge
from chicago.poker import HandValue, evaluate
from chicago.review.stakes import (
    chicago_failure,
    chicago_points,
    chicago_success,
    effective,
    hand_points,
    last_trick_points,
)
from chicago.rules import Rules

__all__ = [
    "MODEL_SHARE",
    "CardValue",
    "beats_all",
    "call_values",
    "card_values",
    "chicago_made",
    "last_trick",
    "played_by",
    "showdown",
]

MODEL_SHARE = 0.39
"""The share of the last trick's points counted for a trick won against the model only.

Calibrated so that the four seats' values of a deal add up to the one last trick there is:
on 600 random four-player deals from the first lead a seat was sure of the last trick in
5.7% of the cases and won it against the model only in 49.8%, and
``0.057 + 0.39 × 0.498 ≈ 1/4``."""

CardValue = tuple[float, float, float, bool]
"""A card's value on one deal: (hand, trick, chicago, success): the showdown points that
depend on the card, the last trick, the Chicago, and whether the seat's goal is reached
(it wins the last trick; a declarer makes the Chicago; a defender breaks it)."""


def played_by(k: Knowledge, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` has played to tricks this deal (the current trick too)."""
    if seat != k.seat:
        return k.opponents[seat].played
    return tuple(card for _, plays in [*k.tricks, (None, k.trick)] for s, card in plays
                 if s == seat)


def showdown(k: Knowledge, hands: Sequence[int]) -> float:
    """What the final showdown (R-FIN-1) of this deal is worth to the seat: the points of
    its hand when it is the only best one (equal best hands score nothing)."""
    rules = k.rules
    values = [
        evaluate([*played_by(k, s), *cards_from_mask(hands[s])], rules)
        for s in range(k.players)
    ]
    mine = values[k.seat]
    others = [value for s, value in enumerate(values) if s != k.seat]
    return hand_points(k, mine.category) if beats_all(mine, others, rules) else 0.0


def beats_all(mine: HandValue, others: Sequence[HandValue], rules: Rules) -> bool:
    """Whether the hand ``mine`` scores against ``others`` (R-ANN-3, R-FIN-1): it is above
    each of them (by category alone under V-TIE-CATEGORY); equal best hands score nothing."""
    if rules.tie_mode == "category":
        return all(other.category < mine.category for other in others)
    return all(other < mine for other in others)


def _trick_points(k: Knowledge, sure: int, model: bool) -> float:
    if sure:
        return effective(k, sure)
    return MODEL_SHARE * effective(k, k.rules.last_trick_points) if model else 0.0


def last_trick(k: Knowledge, position: Position) -> tuple[float, bool]:
    """The seat's last-trick value from ``position`` (no Chicago declared), and whether it
    wins the last trick at least against the model."""
    points, deuce = last_trick_points(k)
    sure = last_trick_value(position, k.seat, points=points, deuce_points=deuce)
    model = bool(sure) or model_wins(position, k.seat)
    return _trick_points(k, sure, model), model


def card_values(k: Knowledge, hands: Sequence[int]) -> dict[Card, CardValue]:
    """Each legal card of the seat (to act in the current trick) on the deal ``hands``."""
    rules = k.rules
    played = tuple(card for _, card in k.trick)
    declarer = k.declarer
    position = Position(tuple(hands), k.leader, played, declarer)
    out: dict[Card, CardValue] = {}
    if declarer is None:
        plain, deuce = last_trick_points(k)
        sure = last_trick_values(position, points=plain, deuce_points=deuce)
        model = model_moves(position)
        for card, points in sure.items():
            won = bool(points) or model[card]
            out[card] = (0.0, _trick_points(k, points, won), 0.0, won)
        return out
    moves = chicago_values(position, declarer, points=_MADE, deuce_points=_deuce_tier(k))
    made_hand = showdown(k, hands) if rules.chicago_final_showdown else 0.0
    if declarer == k.seat:
        for card, made in moves.items():
            if made:
                out[card] = (made_hand, 0.0, chicago_success(k, _scored(k, made)), True)
            else:
                out[card] = (0.0, 0.0, chicago_failure(k), False)
        return out
    # A defender: the declarer's score counts against each defender, shared among them.
    share = k.players - 1
    broken_value = -effective_for(k, declarer, -rules.chicago_points) / share
    for card, made in moves.items():
        if made:
            out[card] = (made_hand, 0.0, -float(_scored(k, made)) / share, False)
        else:
            out[card] = (0.0, 0.0, broken_value + _breaker_share(k, position, card), True)
    return out


def _breaker_share(k: Knowledge, position: Position, card: Card) -> float:
    """V-CHI-BREAKER: the defender's part of the points of breaking the Chicago when it plays
    ``card`` and the Chicago surely breaks. The defender who wins the breaking trick scores
    them: all of them for the seat when it is the only defender or its card completes a trick
    it wins from the declarer, nothing when another defender's card wins that trick, else
    (who breaks it is decided later) one defender's share."""
    points = k.rules.chicago_breaker_points
    if not points:
        return 0.0
    defenders = k.players - 1
    if defenders > 1:
        after = position.play(card)
        if after.played or after.leader == position.declarer:
            return effective(k, points) / defenders  # not decided by this card
        if after.leader != k.seat:
            return 0.0
    return effective(k, points)


_MADE = 1
"""The solver's Chicago value for a made Chicago: a level, not points (they may be 0)."""
_DEUCE_MADE = 2
"""The solver's Chicago value for one whose last trick is won with a 2 (V-DEUCE)."""


def _deuce_tier(k: Knowledge) -> int | None:
    """The level asked of the solver for a deuce Chicago, if it scores more (V-DEUCE)."""
    return _DEUCE_MADE if chicago_points(k)[1] is not None else None


def _scored(k: Knowledge, made: int) -> int:
    """What a Chicago made at the solver's level ``made`` scores."""
    plain, deuce = chicago_points(k)
    return deuce if made == _DEUCE_MADE and deuce is not None else plain


def effective_for(k: Knowledge, seat: int, points: int) -> float:
    """What ``points`` change in another seat's score (a loss is cut at zero, R-CHI-5)."""
    score = k.scores[seat]
    total = score + points
    if total < 0 and not k.rules.negative_scores:
        total = 0
    return float(total - score)


def chicago_made(k: Knowledge, position: Position) -> int | None:
    """What the seat's Chicago scores from ``position`` (before the first lead) if it is
    sure to make it whatever the defenders do, seeing every card: under V-DEUCE the deuce
    Chicago's points when it is sure to win the last trick with a 2; ``None`` if it breaks."""
    made = chicago_value(position, k.seat, points=_MADE, deuce_points=_deuce_tier(k))
    return _scored(k, made) if made else None


def call_values(
    k: Knowledge, hands: Sequence[int]
) -> tuple[tuple[float, float, float, bool], tuple[float, float]]:
    """The Chicago call on the deal ``hands``: ``(hand, trick, chicago, made)`` if the seat
    declares, ``(hand, trick)`` if it does not."""
    rules = k.rules
    leader = k.seat if rules.chicago_caller_leads else k.leader
    made = chicago_made(k, Position(tuple(hands), leader))
    final = showdown(k, hands)
    if made is not None:
        call = (final if rules.chicago_final_showdown else 0.0, 0.0,
                chicago_success(k, made), True)
    else:
        call = (0.0, 0.0, chicago_failure(k), False)
    trick, _ = last_trick(k, Position(tuple(hands), k.leader))
    return call, (final, trick)
