"""The ``ev`` bot: exchanges by exact draw odds weighed against what it knows of the others.

- Exchanges: every way to keep cards is scored by its exact odds (:func:`chicago.odds.draw_odds`,
  with the cards it knows are out of play) of making each category, times the chance that
  such a hand beats every opponent (:mod:`chicago.bots.estimates`: their draws,
  announcements, reveals, locks) and the category's points, counted for every scoring event
  the hand may still win; plus the value of the kept cards for the last trick, which counts
  most in the last exchange.
- Announcements: announce whenever it may (bots gain nothing by hiding a claim).
- Chicago: declared when the estimated chance to win every trick (no opponent holding a
  higher card of a suit it holds, from the unseen cards) makes the expected gain beat the
  last trick it gives up; the search bot ``expert`` does this exactly on samples.
- Tricks: the ``basic`` rules, saving the card most likely to win the last trick, and on
  trick four comparing the chances of its two cards
  (:func:`~chicago.bots.heuristics.ev_play`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from chicago.bots.base import register_bot
from chicago.bots.basic import _discard_action, _find, common_decision
from chicago.bots.estimates import win_chances
from chicago.bots.heuristics import chicago_is_due, ev_play, lead_chance, top_sequence_chicago
from chicago.bots.knowledge import Knowledge, knowledge
from chicago.cards import Card
from chicago.engine.actions import Action, ActionKind
from chicago.odds import draw_odds
from chicago.poker import Category

__all__ = [
    "EvBot",
    "chicago_chance",
    "ev_decision",
    "ev_holds",
    "ev_keep",
    "last_trick_chance",
    "should_call_chicago",
]

_K = ActionKind
_CATEGORY_INDEX = {c.name: int(c) for c in Category}

# Chance that a card held through the exchanges wins the last trick for its owner (rough,
# four players); a drawn card is worth the average.
_CARD_CHANCE = {14: 0.25, 13: 0.12, 12: 0.06, 11: 0.03}
_OTHER_CHANCE = 0.015
_DRAWN_CHANCE = 0.04
_EVENTS = 0.25
"""How much more a hand counts per exchange round still to come (it may score again)."""
_EARLY_TRICK = 0.7
"""Weight of the last-trick value of the kept cards before the last exchange."""


def last_trick_chance(kept: Sequence[Card], drawn: int) -> float:
    """A rough chance of winning the last trick with ``kept`` plus ``drawn`` unknown cards."""
    miss = 1.0
    for card in kept:
        miss *= 1 - _CARD_CHANCE.get(card.rank, _OTHER_CHANCE)
    miss *= (1 - _DRAWN_CHANCE) ** drawn
    return 1 - miss


def ev_holds(
    k: Knowledge, max_discard: int | None = None
) -> list[tuple[float, float, tuple[Card, ...]]]:
    """Every way to keep cards in this exchange, in :func:`chicago.odds.draw_odds` order, as
    ``(hand, trick, keep)``: the estimated points of the poker hand it leads to (counted for
    every scoring event it may still win) and the weight of the last trick (its points, less
    before the last exchange) times the rough chance of winning it (:func:`last_trick_chance`).
    ``ev`` keeps the hold with the largest ``hand + trick``."""
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
    events = 1.0 + (_EVENTS * (k.exchanges_total - round_) if not last else 0.0)
    trick_weight = rules.last_trick_points * (1.0 if last else _EARLY_TRICK)
    out = []
    for hold in holds:
        hand = sum(p * value_of[_CATEGORY_INDEX[name]] for name, p in hold.probabilities.items())
        trick = trick_weight * last_trick_chance(hold.keep, len(hold.discard))
        out.append((events * hand, trick, tuple(hold.keep)))
    return out


def ev_keep(k: Knowledge, max_discard: int | None = None) -> tuple[tuple[Card, ...], float]:
    """The cards to keep in this exchange and the estimated points of keeping them."""
    best: tuple[float, tuple[Card, ...]] | None = None
    for hand, trick, keep in ev_holds(k, max_discard):
        total = hand + trick
        if best is None or total > best[0] + 1e-9:
            best = (total, keep)
    assert best is not None
    return best[1], best[0]


def chicago_chance(k: Knowledge, *, leads: bool) -> float:
    """An estimate of the chance to win all five tricks with the current hand (R-CHI-4).

    Leading, the bot plays its suits from the top; a suit is safe when no opponent holds a
    card of it above the bot's lowest card of it (the chance that none of those unseen cards
    is among the opponents' cards). Not leading, the first trick's suit must also be one the
    bot holds (taken as one suit in four).
    """
    unseen = len(k.unseen)
    held = sum(opp.holding for opp in k.opponents.values())
    mine_or_gone = k.hand_mask | k.dead
    chance = 1.0
    suits = {card.suit for card in k.hand}
    for suit in suits:
        lowest = min(c.rank for c in k.hand if c.suit == suit)
        higher = sum(
            1 for rank in range(lowest + 1, 15)
            if not mine_or_gone >> ((rank - 2) * 4 + suit) & 1
        )
        for i in range(higher):
            chance *= max(0.0, (unseen - held - i) / max(1, unseen - i))
    if not leads:
        chance *= len(suits) / 4
    return chance


def should_call_chicago(k: Knowledge) -> bool:
    """Declare when the estimated Chicago gain beats the last trick given up (``ev``)."""
    rules = k.rules
    leads = rules.chicago_caller_leads or k.leader == k.seat
    if top_sequence_chicago(k, leads=leads):
        return True
    p = chicago_chance(k, leads=leads)
    if chicago_is_due(k, p):
        return True
    loss = rules.chicago_points if rules.negative_scores else min(
        rules.chicago_points, k.scores[k.seat]
    )
    gain = p * rules.chicago_points - (1 - p) * (loss + rules.chicago_breaker_points / 3)
    best = max(lead_chance(k, card) for card in k.hand)
    if desperate(k) and p >= 0.25:
        return True
    return gain > 0.6 * best * rules.last_trick_points + 0.5


def desperate(k: Knowledge) -> bool:
    """Whether a made Chicago would take the bot to the target while an opponent is about to
    get there anyway (within one last trick of it): then a risky Chicago is worth trying."""
    rules = k.rules
    me = k.scores[k.seat]
    best_other = max((s for i, s in enumerate(k.scores) if i != k.seat), default=0)
    return (
        me + rules.chicago_points >= rules.target
        and best_other + rules.last_trick_points >= rules.target
        and best_other >= me
    )


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
        return announce
    if phase == "chicago":
        call = should_call_chicago(k)
        return _find(legal, _K.CHICAGO if call else _K.NO_CHICAGO) or legal[0]
    if phase == "play":
        cards = [a.card for a in legal if a.kind is _K.PLAY]
        return Action.play(ev_play(k, cards))
    return legal[0]


register_bot("ev", lambda spec: EvBot())
