"""What to keep: the ways to keep cards of a hand, ranked by what they are worth at this table.

The hints of both shells (the terminal's hint key, the browser's Hint button) rank the holds
of :func:`chicago.odds.draw_odds` here, with the ``ev`` bot's estimate instead of the poker
points alone:

- **hand**: the points the poker hand may still score, from its exact odds times the chance
  that such a hand beats everyone at the table (what they drew, announced and revealed), for
  every scoring round and the showdown still to come (:func:`chicago.bots.ev.hold_values`);
- **trick**: the last trick's points times a rough chance of winning it with the cards kept
  (an ace is worth far more than a six), less before the last exchange;
- **chicago**: what declaring Chicago would add over the last trick, where this seat may
  declare one: from the chance that no opponent holds a card above the seat's lowest card of
  each suit it holds (:func:`chicago.bots.ev.chicago_chance`), a drawn card counted by the
  chance that a random unseen card is that safe.

:func:`rank_holds` gives an :class:`Advice` per hold, best ``value`` first;
:func:`improvement` names the chance a hold gives of a better category than the cards it
keeps already make ("57% two pair or better"). Everything comes from the seat's own view, so
nothing here can know a card the seat has not seen.

>>> from chicago import Game, Rules
>>> from chicago.odds import draw_odds
>>> game = Game(Rules.preset("pagat"), players=4, seed=7)
>>> view = game.view(game.to_act)
>>> ranked = rank_holds(view, draw_odds(view.hand))
>>> len(ranked), ranked[0].value >= ranked[-1].value
(32, True)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from chicago.bots.ev import chicago_chance, hold_values, last_trick_chance, last_trick_weight
from chicago.cards import Card, mask_of
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.viewtypes import SeatView
from chicago.odds import Hold
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = ["Advice", "improvement", "kept_category", "rank_holds"]


@dataclass(frozen=True)
class Advice:
    """One hold with the parts of what it is worth (in points, as estimates)."""

    hold: Hold
    hand: float
    """Points the poker hand may still score against this table."""
    trick: float
    """What the last trick is worth with these cards."""
    chicago: float
    """What a Chicago adds over the last trick (0 when none may be declared)."""
    trick_chance: float
    """The rough chance of winning the last trick with the cards kept and drawn."""
    chicago_chance: float
    """The estimated chance of winning all five tricks (0 when no Chicago may be declared)."""

    @property
    def value(self) -> float:
        """The whole estimate: hand + trick + chicago (what the hints rank by)."""
        return self.hand + self.trick + self.chicago

    @property
    def keep(self) -> tuple[Card, ...]:
        """The cards kept."""
        return self.hold.keep

    @property
    def discard(self) -> tuple[Card, ...]:
        """The cards thrown away."""
        return self.hold.discard


def rank_holds(view: SeatView, holds: Sequence[Hold]) -> list[Advice]:
    """The holds of the hand in ``view`` (a seat's view) ranked by their estimated worth.

    Best first; equal values go to fewer discards, then to the higher cards kept. The holds
    are the caller's (computed with every card it knows to be out of the stock). A hand
    without a game (a calculator's question) is asked with
    :func:`~chicago.engine.views.hand_view`.
    """
    k = knowledge(view)
    values = hold_values(k, holds)
    chicago = _ChicagoOdds(k)
    out = []
    for hold, (hand, trick) in zip(holds, values, strict=True):
        p = chicago.chance(hold)
        extra = max(0.0, chicago.weight * chicago.gain(p) - trick) if p else 0.0
        out.append(Advice(hold, hand, trick, extra,
                          last_trick_chance(hold.keep, len(hold.discard)), p))
    out.sort(key=lambda a: (-round(a.value, 9), len(a.discard), -mask_of(a.keep)))
    return out


class _ChicagoOdds:
    """The Chicago part of the estimate for the holds of one seat's hand."""

    def __init__(self, k: Knowledge) -> None:
        rules = k.rules
        self.k = k
        score = k.scores[k.seat]
        self.allowed = rules.chicago_enabled and (
            rules.chicago_min_score is None or score >= rules.chicago_min_score)
        self.leads = rules.chicago_caller_leads or k.leader == k.seat
        points = rules.chicago_points
        loss = points if rules.negative_scores else min(points, score)
        self.win, self.loss = points, loss + rules.chicago_breaker_points / 3
        self.weight = last_trick_weight(k) / max(1, rules.last_trick_points)
        self._safe: float | None = None

    def gain(self, p: float) -> float:
        """The expected points of declaring with chance ``p`` of making it."""
        return p * self.win - (1 - p) * self.loss

    def chance(self, hold: Hold) -> float:
        """The estimated chance of a Chicago with this hold (0 when none may be declared)."""
        if not self.allowed:
            return 0.0
        kept = dataclasses.replace(self.k, hand=tuple(hold.keep))
        drawn = len(hold.discard)
        if not hold.keep:
            return self.safe() ** drawn * (1.0 if self.leads else min(4, drawn) / 4)
        # not leading, the first lead must come in a suit held: with draws, count the
        # suits kept and at most one new suit per card drawn
        base = chicago_chance(kept, leads=True)
        if not self.leads:
            suits = len({c.suit for c in hold.keep})
            base *= min(4, suits + drawn) / 4
        return base * self.safe() ** drawn

    def safe(self) -> float:
        """The chance that a card drawn from the unseen ones has no higher card of its suit
        in an opponent's hand (the plain odds of :func:`chicago.bots.ev.chicago_chance`)."""
        if self._safe is None:
            k = self.k
            unseen = len(k.unseen)
            held = sum(opp.holding for opp in k.opponents.values())
            known = k.hand_mask | k.dead
            total = 0.0
            for card in k.unseen:
                higher = sum(1 for rank in range(card.rank + 1, 15)
                             if not known >> ((rank - 2) * 4 + card.suit) & 1)
                chance = 1.0
                for i in range(higher):
                    chance *= max(0.0, (unseen - held - i) / max(1, unseen - i))
                total += chance
            self._safe = total / unseen if unseen else 0.0
        return self._safe


def kept_category(keep: Sequence[Card], rules: Rules | None = None) -> Category:
    """The category the kept cards make already, whatever is drawn (five cards: the hand's)."""
    if len(keep) == 5:
        return evaluate(list(keep), rules).category
    counts = sorted(Counter(card.rank for card in keep).values(), reverse=True)
    if counts[:1] == [4]:
        return Category.FOUR_OF_A_KIND
    if counts[:1] == [3]:
        return Category.THREE_OF_A_KIND
    if counts[:2] == [2, 2]:
        return Category.TWO_PAIR
    if counts[:1] == [2]:
        return Category.PAIR
    return Category.HIGH_CARD


def improvement(advice: Advice) -> tuple[str, float] | None:
    """The lowest category above what the kept cards make that the draw can reach, and the
    chance of it or better: ``("TWO_PAIR", 0.57)``; None when nothing is drawn or nothing
    better can come."""
    hold = advice.hold
    if not hold.discard:
        return None
    now = kept_category(hold.keep)
    better = [c for c in Category if c > now and hold.probabilities.get(c.name, 0.0) > 0]
    if not better:
        return None
    target = min(better)
    chance = sum(p for name, p in hold.probabilities.items() if Category[name] >= target)
    return target.name, chance
