"""The ``ev`` bot: exchanges by exact draw odds weighed against what it knows of the others.

- Exchanges: every way to keep cards is scored by its exact odds (:func:`chicago.odds.draw_odds`,
  with the cards it knows are out of play) of making each category, times the chance that
  such a hand beats every opponent (:mod:`chicago.bots.estimates`: their draws,
  announcements, reveals, locks) and the category's points, counted for every scoring event
  the hand may still win; plus the value of the kept cards for the last trick, which counts
  most in the last exchange.
  Between equal categories, ranks the table revealed decide (:func:`~chicago.bots.
  estimates.same_chance`) where the hold fixes its own.
- Announcements: by the same estimates, the chance that the hand wins the round against
  those who announced before it and those still to speak (revealed ranks included); it
  announces unless that chance is nil (:data:`ANNOUNCE_MIN`), when announcing would only
  tell the others what it holds (and, on a tie, protect the combination, R-EX-4).
- Chicago: declared when the chance to win every trick makes the expected gain beat the
  last trick it gives up. The chance is measured on hands of the others sampled from
  everything public, weighted like the estimates (:mod:`chicago.engine.sampling`: what they
  drew, announced, revealed, showed, kept under R-EX-4, their voids): a suit is safe when
  no opponent holds a card of it above the bot's lowest; not on lead, the first lead must
  also come in a suit it holds. The search bot ``expert`` solves such samples exactly.
- Tricks: the ``basic`` rules, saving the card most likely to win the last trick, and on
  trick four comparing the chances of its two cards
  (:func:`~chicago.bots.heuristics.ev_play`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from chicago.bots.base import register_bot
from chicago.bots.basic import _discard_action, _find, common_decision
from chicago.bots.estimates import (
    known_stages,
    opponent_distribution,
    same_chance,
    win_chances,
)
from chicago.bots.heuristics import chicago_is_due, ev_play, lead_chance, top_sequence_chicago
from chicago.bots.plausibility import hand_weight
from chicago.cards import Card
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import sample_hands
from chicago.engine.viewtypes import SeatView
from chicago.odds import Hold, draw_odds
from chicago.poker import Category, evaluate

__all__ = [
    "ANNOUNCE_MIN",
    "CHICAGO_SAMPLES",
    "EvBot",
    "announce_chance",
    "chicago_chance",
    "ev_decision",
    "ev_holds",
    "ev_keep",
    "hold_values",
    "last_trick_chance",
    "last_trick_weight",
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
ANNOUNCE_MIN = 0.02
"""Below this chance of winning the scoring round, ``ev`` passes instead of announcing."""
CHICAGO_SAMPLES = 32
"""Sampled deals of the others' hands behind ``ev``'s chance of a Chicago."""


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
    dead = [Card(c) for c in range(52) if k.dead >> c & 1]
    holds = draw_odds(k.hand, dead, k.rules, max_discard=max_discard)
    return [(hand, trick, tuple(hold.keep))
            for hold, (hand, trick) in zip(holds, hold_values(k, holds), strict=True)]


def hold_values(k: Knowledge, holds: Sequence[Hold]) -> list[tuple[float, float]]:
    """``(hand, trick)`` of each hold, as in :func:`ev_holds`, for holds computed elsewhere
    (the hints compute them with every card the seat knows to be out of the stock)."""
    rules = k.rules
    round_ = k.round
    last = round_ >= k.exchanges_total
    wins = win_chances(k)
    points = rules.points
    value_of = [wins[c] * points[c] for c in range(len(Category))]
    # Opponents whose ranks the table knows: a hold that fixes its own ranks in a category
    # is compared with them there instead of at even odds.
    ranked = any(known_stages(o, c) for o in k.opponents.values() for c in range(1, 10))
    # Scoring events this hand may still win: the round after this exchange (if any) and
    # the final showdown; a made hand kept through later exchanges wins again.
    events = 1.0 + (_EVENTS * (k.exchanges_total - round_) if not last else 0.0)
    trick_weight = last_trick_weight(k)
    out = []
    for hold in holds:
        values = value_of
        if ranked:
            stages = hold_stages(hold.keep, len(hold.discard), k)
            if stages:
                own = win_chances(k, stages)
                values = list(value_of)
                for c in stages:
                    values[c] = own[c] * points[c]
        hand = sum(p * values[_CATEGORY_INDEX[name]] for name, p in hold.probabilities.items())
        trick = trick_weight * last_trick_chance(hold.keep, len(hold.discard))
        out.append((events * hand, trick))
    return out


def last_trick_weight(k: Knowledge) -> float:
    """What the last trick is worth to a hold now: its points, less before the last exchange
    (later exchanges may still change the cards)."""
    last = k.round >= k.exchanges_total
    return k.rules.last_trick_points * (1.0 if last else _EARLY_TRICK)


def hold_stages(
    keep: Sequence[Card], discards: int, k: Knowledge
) -> dict[int, tuple[int, ...]]:
    """The tie-break stages the hand will have in the categories where keeping ``keep``
    (and drawing ``discards`` cards) fixes them: all of them when nothing is drawn; the
    pair's rank when a pair is kept and the hand ends a pair (a new pair would make two
    pair), both pairs' when two pairs are, the trips' or the four's likewise."""
    if not discards:
        if len(keep) != 5:
            return {}
        value = evaluate(list(keep), k.rules)
        return {int(value.category): value.reveal_stages()}
    counts = Counter(card.rank for card in keep)
    groups = sorted(((n, r) for r, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        return {}
    if groups[0][0] == 4:
        return {int(Category.FOUR_OF_A_KIND): (groups[0][1],)}
    if groups[0][0] == 3:
        return {int(Category.THREE_OF_A_KIND): (groups[0][1],)} if len(groups) == 1 else {}
    if len(groups) == 2:
        high, low = sorted((groups[0][1], groups[1][1]), reverse=True)
        return {int(Category.TWO_PAIR): (high, low)}
    return {int(Category.PAIR): (groups[0][1],)}


def announce_chance(k: Knowledge) -> float:
    """The chance that the bot's hand wins this scoring round if announced: it must beat
    those who announced before it this round (their category is exact) and those still to
    speak (their estimated hands); equal categories by the ranks known of both
    (:func:`~chicago.bots.estimates.same_chance`)."""
    value = evaluate(list(k.hand), k.rules)
    category = int(value.category)
    mine = value.reveal_stages()
    chance = 1.0
    for opp in k.opponents.values():
        if k.round in opp.announcements:
            said = opp.announcements[k.round]
            if said is None or int(said) < category:
                continue
            if int(said) > category:
                return 0.0
            chance *= same_chance(mine, known_stages(opp, category))
        else:
            dist = opponent_distribution(k, opp)
            even = same_chance(mine, known_stages(opp, category))
            chance *= sum(dist[:category]) + even * dist[category]
    return chance


def ev_keep(k: Knowledge, max_discard: int | None = None) -> tuple[tuple[Card, ...], float]:
    """The cards to keep in this exchange and the estimated points of keeping them."""
    best: tuple[float, tuple[Card, ...]] | None = None
    for hand, trick, keep in ev_holds(k, max_discard):
        total = hand + trick
        if best is None or total > best[0] + 1e-9:
            best = (total, keep)
    assert best is not None
    return best[1], best[0]


def chicago_chance(
    k: Knowledge, *, leads: bool, rng: random.Random | None = None,
    samples: int = CHICAGO_SAMPLES,
) -> float:
    """An estimate of the chance to win all five tricks with the current hand (R-CHI-4).

    Leading, the bot plays its suits from the top; a suit is safe when no opponent holds a
    card of it above the bot's lowest card of it. Not leading, the first trick's suit must
    also be one the bot holds. With ``rng``, measured on ``samples`` deals of the others'
    hands drawn from everything public (:func:`~chicago.engine.sampling.sample_hands`,
    weighted like the estimates), the leader's first card taken from its hand at random;
    without, the plain odds that none of the higher unseen cards sits with an opponent
    (a hypergeometric chance, the first lead one suit in four).
    """
    if rng is not None:
        return _sampled_chicago_chance(k, leads=leads, rng=rng, samples=samples)
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


def _sampled_chicago_chance(
    k: Knowledge, *, leads: bool, rng: random.Random, samples: int
) -> float:
    """:func:`chicago_chance` measured on sampled deals."""
    danger = 0  # cards above the bot's lowest card of each suit it holds
    suits = 0
    for suit in {card.suit for card in k.hand}:
        lowest = min(c.rank for c in k.hand if c.suit == suit)
        suits |= _SUIT_MASKS[suit]
        for rank in range(lowest + 1, 15):
            danger |= 1 << ((rank - 2) * 4 + suit)
    leader = k.seat if leads else k.leader
    total = 0.0
    for _ in range(samples):
        hands = sample_hands(k, rng, weight=hand_weight)
        others = 0
        for seat, hand in enumerate(hands):
            if seat != k.seat:
                others |= hand
        if others & danger:
            continue
        if leader == k.seat:
            total += 1.0
        else:
            held = hands[leader].bit_count()
            total += (hands[leader] & suits).bit_count() / held if held else 1.0
    return total / samples


_SUIT_MASKS = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))


def should_call_chicago(k: Knowledge, rng: random.Random | None = None) -> bool:
    """Declare when the estimated Chicago gain beats the last trick given up (``ev``);
    with ``rng`` the chance is measured on sampled deals (:func:`chicago_chance`)."""
    rules = k.rules
    leads = rules.chicago_caller_leads or k.leader == k.seat
    if top_sequence_chicago(k, leads=leads):
        return True
    p = chicago_chance(k, leads=leads, rng=rng)
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
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The action with the best estimated points."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        k = knowledge(view)
        common = common_decision(k, legal_actions)
        if common is not None:
            return common
        return ev_decision(k, legal_actions, rng)


def ev_decision(
    k: Knowledge, legal: Sequence[Action], rng: random.Random | None = None
) -> Action:
    """The ``ev`` bot's choice for every phase (the expert reuses it outside its search);
    ``rng`` draws the samples of the Chicago call (without: the plain odds)."""
    phase = k.phase
    if phase == "exchange":
        limit = max((len(a.cards) for a in legal if a.kind is _K.DISCARD), default=0)
        keep, _ = ev_keep(k, max_discard=limit)
        return _discard_action(legal, k.hand, keep)
    if phase == "announce":
        announce = _find(legal, _K.ANNOUNCE)
        if announce is None:
            return legal[0]
        if len(k.hand) == 5 and announce_chance(k) < ANNOUNCE_MIN:
            return _find(legal, _K.PASS) or announce
        return announce
    if phase == "chicago":
        call = should_call_chicago(k, rng)
        return _find(legal, _K.CHICAGO if call else _K.NO_CHICAGO) or legal[0]
    if phase == "play":
        cards = [a.card for a in legal if a.kind is _K.PLAY]
        return Action.play(ev_play(k, cards))
    return legal[0]


register_bot("ev", lambda spec: EvBot())
