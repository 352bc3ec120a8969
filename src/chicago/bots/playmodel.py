"""Play-based inference: how well a dealt world explains the cards the opponents played.

The samplers (:mod:`chicago.engine.sampling`, with :mod:`chicago.bots.plausibility` or
:mod:`chicago.bots.handmodel`) read the exchanges, announcements, reveals, voids and the
Chicago call, but not *how* the others played their cards. This module scores a world by
that: for every card an opponent played so far in this deal, it rebuilds the hand that
opponent held in that world just before playing it (its hand now plus the cards it played
since) and asks the cheap policy of a sensible player, :func:`chicago.bots.model.
model_card` (keep the top card of the longest suit for the last trick, shed low cards,
win trick four cheaply), what it would have played. A play the policy expects counts 1, any
other ``miss`` (a softening: no world ever weighs nothing, since real players, and the
experts' searches, do not play by the rules of thumb). A world's weight is the product over
the plays.

``infer=2`` scores a play by the chance the policy fitted to the experts' own plays gives it
(:mod:`chicago.bots.playpolicy`, :func:`policy_weights`): a world's weight is the product of
those chances, a forced play's being 1.

Only what the seat saw is read: the completed tricks and the current one of its
:class:`~chicago.engine.knowledge.Knowledge`, and the world the bot itself dealt.

>>> from chicago.cards import parse_cards
>>> ids = lambda text: [int(c) for c in parse_cards(text)]
>>> plays = [Play(1, ids("Ah")[0], ())]   # seat 1 led the ace of hearts
>>> hands = [0, sum(1 << c for c in ids("2h 3c")), 0, 0]   # a world where it still holds 2h 3c
>>> play_weight(hands, plays, miss=0.3)   # from Ah 2h 3c the policy keeps the ace, leads 2h
0.3
>>> play_weight([0, sum(1 << c for c in ids("Ah 3c")), 0, 0], [Play(1, ids("2h")[0], ())])
1.0
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from chicago.bots.model import model_card
from chicago.bots.playpolicy import PlayPolicy
from chicago.cards import ids_of_mask
from chicago.engine.knowledge import Knowledge

__all__ = ["DEFAULT_MISS", "Play", "effective_count", "hands_at_plays", "observed_plays",
           "play_weight", "policy_weights", "resample"]

DEFAULT_MISS = 0.3
"""The weight of one play the policy would not have made (1 for one it would)."""


@dataclass(frozen=True)
class Play:
    """One card an opponent played to a trick of this deal."""

    seat: int
    card: int
    table: tuple[int, ...]
    """The cards on the trick before it, from the lead."""
    gone: int = 0
    """Mask of the cards played in the deal's earlier tricks (seen by every player)."""


def observed_plays(k: Knowledge) -> list[Play]:
    """The opponents' plays of this deal, in playing order (completed tricks, then the
    current one), as the seat of ``k`` saw them."""
    out: list[Play] = []
    gone = 0
    for plays in [*(p for _, p in k.tricks), k.trick]:
        table: list[int] = []
        for seat, card in plays:
            if seat != k.seat:
                out.append(Play(seat, int(card), tuple(table), gone))
            table.append(int(card))
        for played in table:
            gone |= 1 << played
    return out


def hands_at_plays(
    hands: Sequence[int], plays: Sequence[Play]
) -> Iterator[tuple[int, Play, int]]:
    """Each of ``plays`` with its index and the mask of the hand its player held just before
    it in the world ``hands`` (a card mask per seat, the cards held now): the cards held now
    and those it played since. From the last play back to the first."""
    later = [0] * len(hands)
    for index in range(len(plays) - 1, -1, -1):
        play = plays[index]
        later[play.seat] |= 1 << play.card
        yield index, play, hands[play.seat] | later[play.seat]


def play_weight(hands: Sequence[int], plays: Sequence[Play], miss: float = DEFAULT_MISS) -> float:
    """The weight of the world ``hands`` (a card mask per seat, the cards held now): the
    product over ``plays`` of 1 where :func:`~chicago.bots.model.model_card` from the hand
    the player held then would have played that card, else ``miss``. A play with one legal
    card says nothing (the policy plays it)."""
    weight = 1.0
    for _, play, held in hands_at_plays(hands, plays):
        if model_card(ids_of_mask(held), list(play.table)) != play.card:
            weight *= miss
    return weight


def policy_weights(
    worlds: Sequence[Sequence[int]], plays: Sequence[Play], policy: PlayPolicy, players: int,
) -> list[float]:
    """The weight of each world (a card mask per seat, the cards held now) for ``infer=2``:
    the product over ``plays`` of the chance the fitted policy of
    :mod:`chicago.bots.playpolicy` gives the card played, from the hand the player held
    then in that world (a forced play has chance 1). Hands that recur across the worlds are
    scored once."""
    seen: dict[tuple[int, int], float] = {}
    out = []
    for hands in worlds:
        weight = 1.0
        for index, play, held in hands_at_plays(hands, plays):
            chance = seen.get((index, held))
            if chance is None:
                chance = seen[(index, held)] = policy.chance(
                    ids_of_mask(held), play.table, play.gone, play.card, players)
            weight *= chance
        out.append(weight)
    return out


def effective_count(weights: Sequence[float]) -> float:
    """The effective number of worlds among weighed ones, (Σw)² / Σw²: their count when all
    weigh alike, 1 when one outweighs the rest by far; 0 when none weighs anything.

    >>> effective_count([1.0, 1.0, 1.0, 1.0]), effective_count([1.0, 0.0, 0.0])
    (4.0, 1.0)
    """
    top = max(weights, default=0.0)
    if top <= 0:
        return 0.0
    shares = [w / top for w in weights]  # scaled, so tiny weights do not underflow
    return sum(shares) ** 2 / sum(s * s for s in shares)


def resample(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices into ``weights``, drawn in proportion to them by systematic
    resampling (one random offset from ``rng``: deterministic for a seed, and low-variance)."""
    total = sum(weights)
    if total <= 0 or not weights:
        raise ValueError("resampling needs positive weights")
    step = total / count
    point = rng.random() * step
    chosen: list[int] = []
    cumulative = 0.0
    index = 0
    for _ in range(count):
        while index < len(weights) - 1 and cumulative + weights[index] <= point:
            cumulative += weights[index]
            index += 1
        chosen.append(index)
        point += step
    return chosen
