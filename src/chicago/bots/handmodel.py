"""A learned model of the opponents' hands: how plausible five cards are as one opponent's hand,
given what the table showed of that opponent.

The ``master`` bot deals the hidden cards many times (:mod:`chicago.engine.sampling`) and
searches each deal. Dealt uniformly, those deals give the others too few of the hands real
players keep. This model says how much likelier a hand is than the uniform sampler makes it,
from what the seat saw of the player: how many cards it drew in each exchange (or that it
is locked), what it announced or that it passed (and what had been announced before it),
the rank it revealed in a tie-break (R-ANN-3), the combinations it is known to keep
(R-EX-4), whether it declared Chicago, and the cards it played (the hand is the five cards
it holds plus those it played this deal).

The model is log-linear: a hand is described by a few yes/no *hand features* (its category,
the rank of its pair, its aces and kings, a four-card flush or straight draw, how many suits
it holds …) and the player by a few *context keys* (``d2:3``: its second exchange drew
three cards; ``pass:1:0``: it passed, a pair having been announced before it, and stood pat;
``rev:3:3``: it revealed kings or aces in a tie-break, then drew three …). Each key has a
weight per hand feature, and a hand's weight is
``exp(sum of the weights of its features under the player's keys)``. The weights were
learned from self-play games (:mod:`chicago.training`, ``make train``) by telling the
real hands apart from hands the uniform sampler deals in the same situations (logistic
regression), so ``exp`` of the sum estimates how much likelier the real distribution makes
a hand than the sampler does: the right weight to resample the sampler's deals with.

The raw log-linear scores are over-confident card by card (a few features decide much of a
hand's weight), so the model carries a *temperature* ``temper`` fitted on held-out games
(:func:`chicago.training.fit_temper`): ``exp(temper × score)`` lies between the uniform
sampler (0) and the raw model (1). Dealing by the tempered weights played worse tricks than
by the raw ones (docs/BOTS.md), so :meth:`HandModel.weight` and :meth:`HandModel.scorer`
use the raw scores unless asked for a power (``master:temper=X``).

Inference is pure Python (a few dozen additions per hand): the core install needs no numpy.
The weights ship in the package (``hand_model.json``, a few KB). docs/BOTS.md reports the
model's calibration on games it was not trained on.

>>> model = HandModel.load()
>>> model.version >= 1
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from chicago.engine.knowledge import Knowledge, Opponent
from chicago.engine.sampling import Weight
from chicago.poker import rank

__all__ = [
    "HAND_FEATURES",
    "HandModel",
    "context_keys",
    "exchanges_done",
    "hand_features",
    "learned_weight",
]

HAND_FEATURES = (
    "high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
    "four of a kind", "straight flush",
    "group 2-5", "group 6-9", "group T-Q", "group K-A",
    "an ace", "two aces", "a king", "a queen",
    "four-flush", "four in a row",
    "two suits or fewer", "three suits", "four suits",
    "top card J or lower", "top card 9 or lower",
)
"""The yes/no features of a five-card hand, in weight order (:func:`hand_features`). The
"group" features give the rank of the highest group of equal ranks (a pair's, trips'…)."""

_CATEGORY_FEATURE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 8)
"""Feature of each poker category value (the royal flush counts as a straight flush)."""
_GROUPED = frozenset({1, 2, 3, 6, 7})
"""Categories whose hands are made of groups of equal ranks."""


def hand_features(cards: Sequence[int]) -> list[int]:
    """The indices (into :data:`HAND_FEATURES`) of the features five card ids have."""
    category = rank(cards) >> 20
    active = [_CATEGORY_FEATURE[category]]
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for card in cards:
        counts[card >> 2] += 1
        suits[card & 3] += 1
    if category in _GROUPED:
        most = max(counts)
        top = max(r for r in range(13) if counts[r] == most)
        active.append(9 + (0 if top <= 3 else 1 if top <= 7 else 2 if top <= 10 else 3))
    if counts[12]:
        active.append(13)
        if counts[12] >= 2:
            active.append(14)
    if counts[11]:
        active.append(15)
    if counts[10]:
        active.append(16)
    if max(suits) == 4:
        active.append(17)
    run = 0
    for r in range(13):
        run = run + 1 if counts[r] else 0
        if run == 4:
            active.append(18)
            break
    held = sum(1 for s in suits if s)
    active.append(19 if held <= 2 else 20 if held == 3 else 21)
    high = max(r for r in range(13) if counts[r])
    if high <= 9:
        active.append(22)
        if high <= 7:
            active.append(23)
    return active


def _rank_bucket(value: int) -> int:
    """The bucket of a rank value (2 … 14), as the "group" features cut them: 2-5, 6-9,
    T-Q, K-A."""
    return 0 if value <= 5 else 1 if value <= 9 else 2 if value <= 12 else 3


def exchanges_done(k: Knowledge, opp: Opponent) -> int:
    """How many exchanges ``opp`` has made in this deal, as the seat of ``k`` sees it now
    (in the current exchange round, a player still to speak has not made it yet)."""
    acted = len(opp.exchanges)
    if k.phase in ("exchange", "one up") and opp.seat in k.to_speak_after():
        acted -= 1
    return max(0, acted)


def _highest_before(k: Knowledge, opp: Opponent, scoring_round: int) -> int:
    """The highest category announced before ``opp`` spoke in ``scoring_round`` by the other
    opponents (-1: none)."""
    order = k.order_from_dealer()
    before = order[: order.index(opp.seat)]
    best = -1
    for seat in before:
        other = k.opponents.get(seat)
        if other is None:
            continue
        said = other.announcements.get(scoring_round)
        if said is not None:
            best = max(best, int(said))
    return best


def context_keys(k: Knowledge, opp: Opponent) -> list[str]:
    """The context keys of ``opp`` (what the table showed of it), as the model names them."""
    keys = ["bias"]
    acted = exchanges_done(k, opp)
    if opp.locked:
        keys.append("locked")
        last = "L"
    elif acted:
        last = str(opp.exchanges[acted - 1])
        keys.append(f"d{min(acted, 3)}:{last}")
        if acted >= 2:
            keys.append(f"prev:{min(sum(opp.exchanges[: acted - 1]), 6)}:{last}")
        if acted >= k.exchanges_total:
            keys.append(f"final:{last}")
    else:
        last = "-"
    said_round = acted if not opp.locked else max(opp.announcements, default=0)
    if said_round in opp.announcements:
        said = opp.announcements[said_round]
        if said is None:
            keys.append(f"pass:{_highest_before(k, opp, said_round)}:{last}")
        else:
            keys.append(f"said:{int(said)}:{last}")
    revealed = [stages for _, stages in sorted(opp.stages.items()) if stages]
    if revealed:
        keys.append(f"rev:{_rank_bucket(revealed[-1][0])}:{last}")
    for claim in opp.kept:
        keys.append(f"kept:{int(claim.category)}")
    if k.declarer == opp.seat:
        keys.append("declarer")
    return keys


@dataclass(frozen=True)
class HandModel:
    """The learned weights: per context key, one weight per hand feature."""

    weights: dict[str, tuple[float, ...]]
    version: int = 1
    meta: dict[str, Any] | None = None
    temper: float = 1.0
    """The power of the weights (the log-weights' multiplier) that predicts held-out games
    best card by card: 0 deals like the uniform sampler, 1 by the raw scores. Reported
    and offered (``scorer(k, model.temper)``), not applied by default."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandModel:
        """The model of a JSON dict (``{"version", "features", "weights", "meta"}``);
        ValueError if it does not fit :data:`HAND_FEATURES`."""
        if list(data.get("features", [])) != list(HAND_FEATURES):
            raise ValueError("the hand model's features are not this version's HAND_FEATURES")
        weights = {}
        for key, row in dict(data["weights"]).items():
            if len(row) != len(HAND_FEATURES):
                raise ValueError(f"the hand model's key {key!r} has {len(row)} weights")
            weights[str(key)] = tuple(float(w) for w in row)
        temper = float(data.get("temper", 1.0))
        if not 0.0 <= temper <= 4.0:
            raise ValueError(f"the hand model's temper {temper} is not in 0..4")
        return cls(weights=weights, version=int(data.get("version", 1)), meta=data.get("meta"),
                   temper=temper)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what :meth:`from_dict` reads)."""
        return {
            "version": self.version,
            "features": list(HAND_FEATURES),
            "temper": self.temper,
            "weights": {key: list(row) for key, row in sorted(self.weights.items())},
            "meta": self.meta or {},
        }

    @classmethod
    def load(cls) -> HandModel:
        """The model shipped with the package (``chicago/bots/hand_model.json``)."""
        return _shipped()

    def score(self, keys: Sequence[str], cards: Sequence[int]) -> float:
        """The raw log-weight of five cards under the context ``keys`` (before
        :attr:`temper`)."""
        active = hand_features(cards)
        total = 0.0
        weights = self.weights
        for key in keys:
            row = weights.get(key)
            if row is not None:
                for j in active:
                    total += row[j]
        return total

    def weight(self, k: Knowledge, opp: Opponent, cards: Sequence[int]) -> float:
        """How much likelier the model makes ``cards`` (held plus played) as ``opp``'s hand
        than the uniform sampler does (a positive number, relative to other hands of the
        same player): ``exp(score)``, the raw model."""
        if len(cards) != 5:
            return 1.0
        return _exp(self.score(context_keys(k, opp), cards))

    def merged(self, keys: Sequence[str]) -> tuple[float, ...]:
        """The sum of the rows of ``keys``: one weight per hand feature."""
        total = [0.0] * len(HAND_FEATURES)
        for key in keys:
            row = self.weights.get(key)
            if row is not None:
                for j, w in enumerate(row):
                    total[j] += w
        return tuple(total)

    def scorer(self, k: Knowledge, temper: float = 1.0) -> Weight:
        """:meth:`weight` for the opponents of ``k``, their context read once, raised to the
        power ``temper`` (1: the raw model; :attr:`temper`: the calibrated one): the weight
        to give :func:`chicago.engine.sampling.sample_hands` for one decision."""
        power = temper
        rows = {
            seat: tuple(power * w for w in self.merged(context_keys(k, opp)))
            for seat, opp in k.opponents.items()
        }

        def weigh(_k: Knowledge, opp: Opponent, cards: Sequence[int]) -> float:
            if len(cards) != 5:
                return 1.0
            row = rows[opp.seat]
            return _exp(sum(row[j] for j in hand_features(cards)))

        return weigh


def _exp(score: float) -> float:
    return math.exp(max(-30.0, min(30.0, score)))


@cache
def _shipped() -> HandModel:
    text = resources.files("chicago.bots").joinpath("hand_model.json").read_text("utf-8")
    return HandModel.from_dict(json.loads(text))


def learned_weight(k: Knowledge, opp: Opponent, cards: Sequence[int]) -> float:
    """The shipped model's :meth:`HandModel.weight`: a weight for
    :func:`chicago.engine.sampling.sample_hands` with ``proposals``."""
    return _shipped().weight(k, opp, cards)
