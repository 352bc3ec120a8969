"""Where the high cards are: a per-rank correction of the trick search's worlds
(``master:tilt=X``, issue 30).

Measured card by card at ``master``'s trick decisions (``benchmarks/bench_world_quality.py``,
docs/BOTS.md), the worlds it searches put an unseen ace in an opponent's hand about 44% of
the time, when an opponent really holds it about 79% of the time (the rest are in the
stock or the discards); kings likewise against experts (41% for 70%), and low cards the
other way. Players keep aces (and experts kings) through their exchanges and hold them to
the last trick, and throw low cards away; the discards are therefore low cards, which the
samplers treat like the stock. The plausibility of the last keep and the likelihood of
the cards played recover only a little of it.

The correction weighs each world, opponent by opponent, by ``exp(tilt × Σ L[rank])`` over
the cards the opponent holds in it, ``L`` a log factor per rank (:data:`RULES_TILT` for a
player of the rules of thumb, :data:`SEARCH_TILT` for the others, mixed by the opponent's
chance of each kind of player, ``infer=3``). Hands have fixed sizes, so only the
differences between ranks matter: the low ranks count 0. The factors are the log odds
ratios of the measured share held over the worlds' share (seed 2026, 12 games against
three experts and 12 against three ``basic``), the low ranks pooled.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["RULES_TILT", "SEARCH_TILT", "rank_tilt_weights", "seat_log_factors"]

SEARCH_TILT = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.45, 0.6, 1.05, 1.8, 2.1)
"""Log factor per rank index (two … ace) of a card in the hand of a searching player (the
experts' tables; the fitted policy's and the uniform model's kind)."""
RULES_TILT = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25, 1.7)
"""Log factor per rank index of a card in the hand of a player of the rules of thumb
(``basic``: it keeps aces, not kings)."""


def seat_log_factors(rules: float, tilt: float) -> list[float]:
    """The log factor of each of the 52 cards in the hand of an opponent whose chance of
    the rules model is ``rules``, scaled by ``tilt``."""
    by_rank = [tilt * (rules * r + (1.0 - rules) * s)
               for r, s in zip(RULES_TILT, SEARCH_TILT, strict=True)]
    return [by_rank[card >> 2] for card in range(52)]


def rank_tilt_weights(
    worlds: Sequence[Sequence[int]], seats: Sequence[int], rules: Mapping[int, float],
    tilt: float,
) -> list[float]:
    """The factor of each world (a card mask per seat): the product over ``seats`` (the
    opponents) of ``exp`` of the sum of the log factors (:func:`seat_log_factors`, with
    that seat's chance ``rules[seat]`` of the rules model) of the cards it holds there.
    Hands that recur are scored once."""
    logs = {seat: seat_log_factors(rules[seat], tilt) for seat in seats}
    memo: dict[tuple[int, int], float] = {}
    out = []
    for hands in worlds:
        total = 0.0
        for seat in seats:
            held = hands[seat]
            value = memo.get((seat, held))
            if value is None:
                table = logs[seat]
                value = 0.0
                mask = held
                while mask:
                    low = mask & -mask
                    value += table[low.bit_length() - 1]
                    mask ^= low
                memo[(seat, held)] = value
            total += value
        out.append(math.exp(total))
    return out
