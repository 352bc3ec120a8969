"""More distinct worlds that explain the opponents' plays: a Markov chain over the hidden
cards (``master:chain=N``).

Against players of the rules of thumb, ``infer=3`` weighs each dealt world by how well it
explains every card they played, and almost every world dealt at random explains some play
badly: of the ``pool`` × ``samples`` worlds dealt, a handful carry nearly all the weight,
and the ``samples`` worlds resampled from them are copies of those few
(``benchmarks/bench_worlds.py`` counts them). The search then fits its card to a few
guesses at the hands.

This module moves each kept world a little at a time, keeping its weight's law
(Metropolis–Hastings): a step takes one hidden card of an opponent whose hand only the
voids constrain, and trades it with another such card — in another such opponent's hand or
among the cards nobody is known to hold (the stock, the others' discards). The trade is
refused when a card would reach a suit its new holder showed void; otherwise it is kept
with the chance ``min(1, w'/w)``, where ``w`` is the world's weight: the product over the
opponents of ``infer=3``'s mixture likelihood of their plays this deal
(:class:`~chicago.bots.playerkinds.KindScorer`) and of the hand-made plausibility of
their hand after their last exchange (:func:`~chicago.bots.plausibility.hand_weight`, the
expert's dealing weight). The choice of a trade is symmetric (an opponent, one of its
hidden cards, one of the hidden cards held elsewhere, each uniformly; the counts never
change), so the chain keeps the law of the weighed worlds and wanders among the many that
explain every play.

A trade is refused too where it would break what the table showed of a hand: an
announcement that still describes it (R-ANN-1) or a protected combination (R-EX-4), checked
by :func:`~chicago.engine.sampling.hand_problems`; a known one-up card and the cards of a
shown hand never move. Only the seat's
:class:`~chicago.engine.knowledge.Knowledge` and the worlds the bot dealt are read; every
choice comes from the bot's own ``rng`` and the number of steps is a count, never a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from chicago.cards import ids_of_mask
from chicago.engine.knowledge import Knowledge
from chicago.engine.sampling import hand_problems, void_mask

__all__ = ["Factor", "free_seats", "movable_cards", "walk"]

Factor = Callable[[int, int], float]
"""A seat's factor of a world's weight given the mask of the cards it holds now."""

def free_seats(k: Knowledge, hands: Sequence[int]) -> list[int]:
    """The opponents whose cards may be traded in the world ``hands``: those holding a
    card."""
    return [seat for seat in sorted(k.opponents) if hands[seat]]


def movable_cards(k: Knowledge, hands: Sequence[int], seats: Sequence[int]) -> int:
    """The mask of the cards a trade may move in the world ``hands``: the ``seats``' cards
    other than their known ones and those of a hand they showed, and the unseen cards
    nobody holds there (no card any opponent is known to hold or showed)."""
    held = 0
    for hand in hands:
        held |= hand
    fixed = 0
    for opp in k.opponents.values():
        fixed |= opp.known
        for card in opp.shown:
            fixed |= 1 << int(card)
    pool = 0
    for card in k.unseen:
        pool |= 1 << int(card)
    movable = pool & ~held & ~fixed
    for seat in seats:
        movable |= hands[seat] & ~fixed
    return movable


def walk(
    k: Knowledge, start: Sequence[int], steps: int, factor: Factor, rng: random.Random,
) -> list[int]:
    """The world ``start`` (a card mask per seat, the cards held now) after ``steps``
    Metropolis–Hastings trades (module docstring), each kept with the chance
    ``min(1, w'/w)`` of the world weights that ``factor`` (seat, held mask) multiplies up
    over the free opponents; a start of weight 0 takes every trade that keeps the voids."""
    hands = list(start)
    seats = free_seats(k, hands)
    if not seats or steps <= 0:
        return hands
    movable = movable_cards(k, hands, seats)
    voids = {s: void_mask(k.opponents[s].voids) for s in seats}
    checked = {s for s in seats if k.opponents[s].claim is not None or k.opponents[s].kept}
    for _ in range(steps):
        seat = seats[rng.randrange(len(seats))]
        mine = ids_of_mask(hands[seat] & movable)
        others = ids_of_mask(movable & ~hands[seat])
        if not mine or not others:
            continue
        give = mine[rng.randrange(len(mine))]
        take = others[rng.randrange(len(others))]
        if voids[seat] >> take & 1:
            continue
        partner = next((s for s in seats if hands[s] >> take & 1), None)
        if partner is not None and voids[partner] >> give & 1:
            continue
        swap = 1 << give | 1 << take
        before = factor(seat, hands[seat])
        after = factor(seat, hands[seat] ^ swap)
        if partner is not None:
            before *= factor(partner, hands[partner])
            after *= factor(partner, hands[partner] ^ swap)
        chance = rng.random()
        if before > 0 and after < chance * before:
            continue
        if any(hand_problems(k, k.opponents[s], hands[s] ^ swap)
               for s in (seat, partner) if s in checked):
            continue
        hands[seat] ^= swap
        if partner is not None:
            hands[partner] ^= swap
    return hands
