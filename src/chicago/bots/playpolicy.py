"""A fitted model of how the experts play their cards: P(card | hand, trick, cards gone).

``master:infer=2`` (:mod:`chicago.bots.playmodel`) weighs a world by how likely the
opponents' plays so far in the deal are under this model, where ``infer=1`` asks whether
the rules of thumb of :func:`chicago.bots.model.model_card` would have made them.

The model is a softmax over the legal cards: each card is described by a few yes/no
features (:data:`CARD_FEATURES`: its rank band, its suit's length in the hand, whether it is
the lowest or highest of its suit there, whether it would win the trick so far, whether no
unseen card of its suit outranks it, whether the rules of thumb keep it for the last trick
or play it, leading, following or throwing...), each with one weight per hand size (five
cards down to two: trick one to trick four), and a card's chance is ``exp(score)``
normalised over the legal cards. ``python -m chicago.training_play`` fits the weights on
self-play games of ``expert`` from a fixed seed; they ship in the package
(``play_policy.json``, about a hundred numbers). Plain Python at play time.

Only what the player itself knew is read: its hand, the cards on the trick and the cards
played in the deal's earlier tricks.

>>> from chicago.cards import parse_cards
>>> ids = [int(c) for c in parse_cards("Ah 2h 3c")]
>>> chances = PlayPolicy.load().chances(ids, (), 0)
>>> round(sum(chances.values()), 6), len(chances)
(1.0, 3)
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from chicago.bots.model import model_card

__all__ = ["CARD_FEATURES", "HAND_SIZES", "PlayPolicy", "card_features", "legal_cards"]

CARD_FEATURES = (
    "lowest of its suit", "highest of its suit",
    "rank 2-5", "rank 6-9", "rank T-J", "rank Q-K", "rank A",
    "suit of 1", "suit of 2", "suit of 3", "suit of 4+",
    "kept by the rules of thumb", "played by the rules of thumb",
    "no unseen card above it", "one unseen card above it",
    "lead", "follow", "throw",
    "wins the trick so far", "the cheapest winner", "wins, playing last",
    "lowest rank held", "highest rank held",
    "lead from the longest suit", "throw from the shortest suit",
)
"""The yes/no features of a legal card (each has one weight per hand size)."""
HAND_SIZES = (5, 4, 3, 2)
"""The hand sizes with weights of their own (trick one to trick four; one card is forced)."""
_WIDTH = len(CARD_FEATURES)
_RANK_BANDS = (2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6)
"""The feature index of each rank's band (2-5, 6-9, T-J, Q-K, A)."""


def legal_cards(hand: Sequence[int], table: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played on ``table`` (R-TRICK-2: follow suit when
    possible), in id order."""
    if table:
        led = table[0] & 3
        follow = sorted(c for c in hand if c & 3 == led)
        if follow:
            return follow
    return sorted(hand)


def card_features(
    hand: Sequence[int], table: Sequence[int], gone: int, players: int = 4
) -> tuple[list[int], list[list[int]]]:
    """The legal cards of ``hand`` on ``table`` (``gone``: mask of the cards played in the
    deal's earlier tricks) and, for each, the indices of its active features in the weight
    vector (``CARD_FEATURES`` index plus the hand size's block)."""
    legal = legal_cards(hand, table)
    size = len(hand)
    block = HAND_SIZES.index(size) * _WIDTH if size in HAND_SIZES else 0
    counts = [0, 0, 0, 0]
    low = [99, 99, 99, 99]
    high = [-1, -1, -1, -1]
    known = gone
    for c in hand:
        s = c & 3
        counts[s] += 1
        low[s] = min(low[s], c)
        high[s] = max(high[s], c)
        known |= 1 << c
    for c in table:
        known |= 1 << c
    longest = max(counts)
    shortest = min(n for n in counts if n)
    keep = max((t for t in high if t >= 0), key=lambda t: (counts[t & 3], t >> 2))
    chosen = model_card(list(hand), list(table)) if len(legal) > 1 else legal[0]
    ranks = [c >> 2 for c in hand]
    low_rank, high_rank = min(ranks), max(ranks)
    led = table[0] & 3 if table else -1
    best = max((c for c in table if c & 3 == led), default=-1)
    last = len(table) == players - 1
    out: list[list[int]] = []
    for c in legal:
        s, r = c & 3, c >> 2
        active = [_RANK_BANDS[r], 6 + min(counts[s], 4)]
        if c == low[s]:
            active.append(0)
        if c == high[s]:
            active.append(1)
        if c == keep:
            active.append(11)
        if c == chosen:
            active.append(12)
        above = 0
        for higher in range(c + 4, 52, 4):
            if not known >> higher & 1:
                above += 1
                if above > 1:
                    break
        if above == 0:
            active.append(13)
        elif above == 1:
            active.append(14)
        if not table:
            active.append(15)
            if counts[s] == longest:
                active.append(23)
        elif s == led:
            active.append(16)
            if c > best:
                active.append(18)
                if not any(best < mine < c for mine in legal):
                    active.append(19)
                if last:
                    active.append(20)
        else:
            active.append(17)
            if counts[s] == shortest:
                active.append(24)
        if r == low_rank:
            active.append(21)
        if r == high_rank:
            active.append(22)
        out.append([block + j for j in active])
    return legal, out


@dataclass(frozen=True)
class PlayPolicy:
    """The fitted weights (one per feature and hand size) and how they were made."""

    weights: tuple[float, ...]
    meta: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if len(self.weights) != _WIDTH * len(HAND_SIZES):
            raise ValueError(f"a play policy has {_WIDTH * len(HAND_SIZES)} weights, "
                             f"not {len(self.weights)}")

    def chances(
        self, hand: Sequence[int], table: Sequence[int], gone: int, players: int = 4
    ) -> dict[int, float]:
        """The chance of each legal card of ``hand`` (card id -> probability)."""
        legal, active = card_features(hand, table, gone, players)
        w = self.weights
        scores = [sum(w[j] for j in row) for row in active]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return {c: e / total for c, e in zip(legal, exps, strict=True)}

    def chance(
        self, hand: Sequence[int], table: Sequence[int], gone: int, card: int,
        players: int = 4,
    ) -> float:
        """The chance that a player holding ``hand`` plays ``card`` (0 if it may not)."""
        return self.chances(hand, table, gone, players).get(card, 0.0)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayPolicy:
        """The policy of a JSON dict (``{"features", "hand_sizes", "weights", "meta"}``);
        ValueError if it does not fit :data:`CARD_FEATURES` and :data:`HAND_SIZES`."""
        if (list(data.get("features", [])) != list(CARD_FEATURES)
                or list(data.get("hand_sizes", [])) != list(HAND_SIZES)):
            raise ValueError("the play policy was made with other features")
        weights = tuple(float(x) for x in data["weights"])
        meta = data.get("meta")
        return cls(weights=weights, meta=dict(meta) if isinstance(meta, dict) else None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what :meth:`from_dict` reads)."""
        return {"features": list(CARD_FEATURES), "hand_sizes": list(HAND_SIZES),
                "weights": list(self.weights), "meta": self.meta}

    @classmethod
    def load(cls) -> PlayPolicy:
        """The policy shipped with the package (``chicago/bots/play_policy.json``)."""
        return _shipped()


@lru_cache(maxsize=1)
def _shipped() -> PlayPolicy:
    text = resources.files("chicago.bots").joinpath("play_policy.json").read_text("utf-8")
    return PlayPolicy.from_dict(json.loads(text))
