"""The ``ev`` bot: exchanges by exact draw odds weighed against what it knows of the others.

- Exchanges: every way to keep cards is scored by its exact odds (:func:`chicago.odds.draw_odds`,
  with the cards it knows are out of play) of making each category, times the chance that
  such a hand beats every opponent (:mod:`chicago.bots.estimates`: their draws,
  announcements, reveals, locks) and the category's points, counted for every scoring event
  the hand may still win; plus the value of the kept cards for the last trick, which counts
  most in the last exchange.
- Announcements: announce when the estimated chance to win the round is worth the
  information given away; pass a hopeless weak claim.
- Chicago: only when the hand cannot lose a trick (top sequences, judged against the cards it
  knows are gone); the search bot ``expert`` does better.
- Tricks: the ``basic`` rules (save the top card of a long suit for trick five).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from chicago.bots.base import register_bot
from chicago.bots.basic import _discard_action, _find, common_decision
from chicago.bots.estimates import win_chances
from chicago.bots.heuristics import basic_play, top_sequence_chicago
from chicago.bots.knowledge import Knowledge, knowledge
from chicago.cards import Card
from chicago.engine.actions import Action, ActionKind
from chicago.odds import draw_odds
from chicago.poker import Category, evaluate

__all__ = ["EvBot", "ev_keep", "last_trick_chance"]

_K = ActionKind
_CATEGORY_INDEX = {c.name: int(c) for c in Category}

# Chance that a card held through the exchanges wins the last trick for its owner (rough,
# four players); a drawn card is worth the average.
_CARD_CHANCE = {14: 0.25, 13: 0.12, 12: 0.06, 11: 0.03}
_OTHER_CHANCE = 0.015
_DRAWN_CHANCE = 0.04


def last_trick_chance(kept: Sequence[Card], drawn: int) -> float:
    """A rough chance of winning the last trick with ``kept`` plus ``drawn`` unknown cards."""
    miss = 1.0
    for card in kept:
        miss *= 1 - _CARD_CHANCE.get(card.rank, _OTHER_CHANCE)
    miss *= (1 - _DRAWN_CHANCE) ** drawn
    return 1 - miss


def ev_keep(k: Knowledge, max_discard: int | None = None) -> tuple[tuple[Card, ...], float]:
    """The cards to keep in this exchange and the estimated points of keeping them."""
    rules = k.rules
    round_ = k.round
    last = round_ >= k.exchanges_total
    wins = win_chances(k)
    points = rules.points
    value_of = [wins[c] * points[c] for c in range(len(Category))]
    dead = [Card(c) for c in range(52) if k.dead >> c & 1]
    holds = draw_odds(k.hand, dead, rules, max_discard=max_discard)
    # Scoring events this hand may still win: the round after this exchange (if any) and
    # the final showdown; a made hand kept through later exchanges wins again.
    events = 1.0 + (0.5 * (k.exchanges_total - round_) if not last else 0.0)
    trick_weight = rules.last_trick_points * (1.0 if last else 0.35)
    best: tuple[float, tuple[Card, ...]] | None = None
    for hold in holds:
        hand = sum(p * value_of[_CATEGORY_INDEX[name]] for name, p in hold.probabilities.items())
        total = events * hand + trick_weight * last_trick_chance(hold.keep, len(hold.discard))
        if best is None or total > best[0] + 1e-9:
            best = (total, hold.keep)
    assert best is not None
    return best[1], best[0]


def should_announce(k: Knowledge) -> bool:
    """Announce unless the claim is weak and almost surely beaten by those still to speak."""
    value = evaluate(k.hand, k.rules)
    if value.category >= Category.TWO_PAIR:
        return True
    later = len(k.to_speak_after())
    if later == 0:
        return True
    win = win_chances(k)[value.category]
    return win >= 0.12 or value.ranks[0] >= 10


class EvBot:
    """``ev``: exact draw odds against estimated opponents (see the module docstring)."""

    name = "ev"

    def decide(
        self, view: dict[str, Any], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The action with the best estimated points."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        k = knowledge(view)
        common = common_decision(k, legal_actions)
        if common is not None:
            return common
        return ev_decision(k, legal_actions)


def ev_decision(k: Knowledge, legal: Sequence[Action]) -> Action:
    """The ``ev`` bot's choice for every phase (the expert reuses it outside its search)."""
    phase = k.phase
    if phase == "exchange":
        limit = max((len(a.cards) for a in legal if a.kind is _K.DISCARD), default=0)
        keep, _ = ev_keep(k, max_discard=limit)
        return _discard_action(legal, k.hand, keep)
    if phase == "announce":
        announce = _find(legal, _K.ANNOUNCE)
        if announce is None:
            return legal[0]
        return announce if should_announce(k) else (_find(legal, _K.PASS) or announce)
    if phase == "chicago":
        leads = k.rules.chicago_caller_leads or k.leader == k.seat
        call = top_sequence_chicago(k, leads=leads)
        return _find(legal, _K.CHICAGO if call else _K.NO_CHICAGO) or legal[0]
    if phase == "play":
        cards = [a.card for a in legal if a.kind is _K.PLAY]
        return Action.play(basic_play(k, cards))
    return legal[0]


register_bot("ev", lambda spec: EvBot())
