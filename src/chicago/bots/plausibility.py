"""How plausible a hand is for a player after its latest exchange: the bots' model of how
people exchange, used to weight the determinizations (``sample_hands(k, rng,
weight=hand_weight)`` of :mod:`chicago.engine.sampling`).

Sensible players keep made combinations, four-card draws and high cards; so a player who
kept two cards probably kept a pair or two high cards, and hands that fit that are likelier.
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.engine.knowledge import Knowledge, Opponent

__all__ = ["hand_weight", "keep_weight"]

# How plausible it is that a player kept a set of cards, by how many it kept (see
# :func:`keep_weight`): the chance, relative to the likeliest keep, that a sensible player
# keeps such cards.
_SINGLE_KEEP = {12: 1.0, 11: 0.7, 10: 0.45, 9: 0.25}
"""Keeping one card: an ace, else a king or queen (rank index → weight)."""
_LOW_KEEP = 0.15




def keep_weight(cards: Sequence[int], kept: int) -> float:
    """How plausible the five ``cards`` are for a player who kept ``kept`` of them in its
    latest exchange (and drew the rest), relative to the likeliest hands (weight 1).

    Sensible players keep made combinations, four-card draws and high cards for the last
    trick, so the kept cards are probably among such cards: one kept card is an ace (or a
    king or queen), two a pair (or two high cards), three trips or a pair with an ace or
    king beside it, four two pairs, trips, a four-flush or a four-straight, five a straight
    or better. The weight is that of the most plausible subset of ``kept`` cards in the hand
    (the drawn cards are random and could complete anything).
    """
    if kept <= 0:
        return 1.0
    ranks = [c >> 2 for c in cards]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    pairs = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
    most = max(counts.values())
    high = max(ranks)
    if kept == 1:
        return _SINGLE_KEEP.get(high, _LOW_KEEP)
    if kept == 2:
        if pairs:
            return 1.0
        tops = sorted(ranks, reverse=True)
        if tops[0] == 12:
            return 0.5 if tops[1] >= 11 else 0.3
        return 0.2 if tops[1] >= 10 else 0.1
    if kept == 3:
        if most >= 3:
            return 1.0
        if pairs:
            kicker = max((r for r in ranks if r != pairs[0]), default=0)
            return 1.0 if kicker >= 11 or len(pairs) >= 2 else 0.4
        return 0.1
    suits = [0, 0, 0, 0]
    for c in cards:
        suits[c & 3] += 1
    if kept == 4:
        if len(pairs) >= 2 or most >= 3 or max(suits) >= 4:
            return 1.0
        distinct = set(ranks)
        if 12 in distinct:
            distinct.add(-1)  # the ace also ends a wheel
        if any(all(r + i in distinct for i in range(4)) for r in range(-1, 10)):
            return 0.8
        return 0.25 if pairs and high == 12 else 0.05
    if max(suits) >= 5 or most >= 4 or (most == 3 and len(pairs) >= 2):
        return 1.0
    distinct = set(ranks)
    if len(distinct) == 5 and (max(distinct) - min(distinct) == 4 or distinct == {12, 0, 1, 2, 3}):
        return 1.0
    return 0.15 if len(pairs) >= 2 or most >= 3 else 0.03


def hand_weight(k: Knowledge, opp: Opponent, cards: Sequence[int]) -> float:
    """How plausible the five cards ``cards`` (held plus played) are as ``opp``'s hand after
    its latest exchange, given how many cards it drew (:func:`keep_weight`); 1 for a locked
    player (dealt cards) or before it has exchanged."""
    if opp.locked or not opp.exchanges or len(cards) != 5:
        return 1.0
    acted = len(opp.exchanges)
    if k.phase in ("exchange", "one up") and opp.seat in k.to_speak_after():
        acted -= 1
    if acted <= 0:
        return 1.0
    drawn = opp.exchanges[acted - 1]
    return keep_weight(cards, 5 - drawn)
