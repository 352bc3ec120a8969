"""The ``basic`` bot: sensible fixed rules, no search, no odds tables (well under 1 ms).

- Exchanges: keep made hands, four-flushes and open-ended four-straights, aces and high cards
  for the last trick (:func:`~chicago.bots.heuristics.basic_keep`).
- Announcements: announce whenever it may; pass only to hide a weak claim (a low pair with at
  least two players still to speak, who would likely beat it anyway).
- Tricks: save the top card of a long suit for trick five, play low until then, win trick
  four cheaply to lead the saved card (:func:`~chicago.bots.heuristics.basic_play`).
- Chicago: only with a hand of top sequences that cannot lose a trick.
- Variations: redeal a low hand with no pair (V-REDEAL-LOW), never ask one up, accept a
  one-up card that improves the hand, reset with four of a kind when the others have more
  to lose than the 7 points are worth (V-QUADS-RESET; V-QUADS-ONE: the leader among the
  others; V-QUADS-52: score, which raises to the target), keep the best five of six (V-LOCK-6).
  When only a player who declared (made) a Chicago can win (V-CHI-DECLARED, V-CHI-REQ3)
  and it has not: declare at or near the target (:func:`~chicago.bots.heuristics.
  chicago_is_due`), and under V-CHI-REQ3 pass an announcement whose points would take it
  to the target, which would reset its score (every level does these).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from chicago.bots.base import register_bot
from chicago.bots.heuristics import (
    basic_keep,
    best_five,
    chicago_is_due_for,
    rules_card,
    top_sequence_chicago_for,
    would_reset,
    would_reset_for,
)
from chicago.cards import DECK, Card
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge, knowledge, seats_after, view_dead, view_leader
from chicago.engine.viewtypes import SeatView
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = ["BasicBot", "common_decision"]

_K = ActionKind
# The kinds and categories read below, as module constants: on Python 3.11 every
# ``ActionKind.X`` or ``Category.X`` read goes through the enum class's slow attribute path
# (about 1,000 instructions; issue 28, forty-second pass).
_K_DISCARD, _K_ANNOUNCE, _K_PASS, _K_PLAY = _K.DISCARD, _K.ANNOUNCE, _K.PASS, _K.PLAY
_K_REDEAL, _K_ACCEPT, _K_REJECT, _K_RESET = _K.REDEAL, _K.ACCEPT, _K.REJECT, _K.RESET
_K_SCORE, _K_CHICAGO, _K_NO_CHICAGO = _K.SCORE, _K.CHICAGO, _K.NO_CHICAGO
_HIGH_CARD, _PAIR = Category.HIGH_CARD, Category.PAIR
_STRAIGHT_FLUSH, _ROYAL_FLUSH = Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH


def _find(legal: Sequence[Action], kind: ActionKind) -> Action | None:
    for action in legal:
        if action.kind is kind:
            return action
    return None


def _discard_action(legal: Sequence[Action], hand: Sequence[Card], keep: Sequence[Card]) -> Action:
    """The legal plain discard that throws every card not in ``keep`` (or the nearest one:
    the one that throws the most of them and nothing else, the first of equals)."""
    throw = 0
    for card in hand:
        if card not in keep:
            throw |= 1 << card
    discard = _K_DISCARD
    # issue 28: the exact discard found by equality, a C scan of the list, rather than by
    # the loop below over the up to 32 discards of an exchange (a plain discard is the
    # tuple (kind, mask, None, None): the one equal to it is the one the loop returns)
    try:
        return legal[legal.index(tuple.__new__(Action, (discard, throw, None, None)))]
    except ValueError:
        pass  # not legal: the nearest one
    best: Action | None = None
    best_count = -1
    for action in legal:  # an action is the tuple (kind, card mask, category, target)
        if action[0] is not discard:
            continue
        cards = action[1]
        if cards == throw:
            return action
        if not cards & ~throw:  # a part of them
            count = cards.bit_count()
            if count > best_count:
                best, best_count = action, count
    return best if best is not None else legal[0]


def _pass_for_reset(legal: Sequence[Action], rules: Rules,
                    resets: Callable[[int], bool]) -> Action | None:
    """The pass (else the announcement) when announcing would reset the seat's score
    (V-CHI-REQ3: ``resets`` of the announcement's points) and it does not win outright;
    else None."""
    announce = _find(legal, _K_ANNOUNCE)
    if announce is not None and announce.category is not None:
        category = announce.category
        instant = (rules.straight_flush_wins and category >= _STRAIGHT_FLUSH) or (
            rules.royal_wins and category is _ROYAL_FLUSH
        )
        if not instant and resets(rules.points_for(category)):
            return _find(legal, _K_PASS) or announce
    return None


def _announce(legal: Sequence[Action], hand: Sequence[Card], rules: Rules,
              speakers_after: Callable[[], int]) -> Action:
    """``basic``'s announcement once :func:`common_decision` has none: announce, but pass a
    low pair (``2``-``6``) with at least two players (``speakers_after()``) still to speak."""
    announce = _find(legal, _K_ANNOUNCE)
    if announce is None:
        return legal[0]
    value = evaluate(hand, rules)
    weak = value.category is _PAIR and value.ranks[0] <= 6
    if weak and speakers_after() >= 2:
        return _find(legal, _K_PASS) or announce
    return announce


def _play(legal: Sequence[Action], hand: Sequence[Card], table: Sequence[Card]) -> Action:
    """``basic``'s play: the legal action of :func:`~chicago.bots.heuristics.rules_card`'s
    card from ``hand`` with ``table`` (the trick's cards, from the lead)."""
    play = _K_PLAY  # a play's mask has its one card's bit (Action.card, inlined)
    plays = {DECK[a[1].bit_length() - 1]: a for a in legal if a[0] is play}
    return plays[rules_card(hand, table, list(plays))]


_FROM_VIEW = frozenset({"exchange", "announce", "chicago", "play"})
"""The phases whose step ``basic`` takes from the seat's view alone
(:meth:`BasicBot._from_view`)."""


def reset_is_better(k: Knowledge, target: int | None = None) -> bool:
    """V-QUADS-RESET: reset the others' scores rather than score 7, when they lose more
    (V-QUADS-ONE: only ``target``'s score is lost). Under V-QUADS-52 scoring raises the seat
    to the target, which is better unless it would be reset for want of a made Chicago
    (V-CHI-REQ3)."""
    if k.phase == "quads choice" and k.rules.quads_to_target and not would_reset(
        k, k.rules.target - k.scores[k.seat]
    ):
        return False
    if target is not None:
        others = [k.scores[target]]
    else:
        others = [s for i, s in enumerate(k.scores) if i != k.seat]
    return max(others, default=0) >= k.scores[k.seat] or sum(others) > 3 * 7


def common_decision(k: Knowledge, legal: Sequence[Action]) -> Action | None:
    """Decisions every level takes the same way (variations and forced moves), or None."""
    if len(legal) == 1:
        return legal[0]
    phase = k.phase
    if phase == "redeal":
        redeal = _find(legal, _K_REDEAL)
        if redeal is not None and evaluate(k.hand, k.rules).category is _HIGH_CARD:
            return redeal
        return _find(legal, _K_DISCARD) or legal[0]
    if phase == "one up" and k.one_up is not None:
        card = k.one_up[1]
        hand = list(k.hand)
        with_card = evaluate([*hand, card], k.rules) if len(hand) == 4 else None
        take = card.rank >= 13 or (
            with_card is not None and with_card.category > _HIGH_CARD
        )
        return _find(legal, _K_ACCEPT if take else _K_REJECT) or legal[0]
    if phase in ("quads choice", "quads"):
        resets = [a for a in legal if a.kind is _K_RESET]
        # V-QUADS-ONE: lower the leader among the others (the earliest seat on a tie)
        reset = max(resets, key=lambda a: -1 if a.target is None else k.scores[a.target],
                    default=None)
        if reset is not None and reset_is_better(k, reset.target):
            return reset
        return _find(legal, _K_SCORE) or _find(legal, _K_PASS) or legal[0]
    if phase == "exchange" and len(k.hand) == 6:
        drop = best_five(k.hand, k.rules)
        return _discard_action(legal, k.hand, [c for c in k.hand if c != drop])
    if phase == "announce":
        return _pass_for_reset(legal, k.rules, lambda points: would_reset(k, points))
    return None


class BasicBot:
    """``basic``: fixed, sensible rules of thumb (see the module docstring)."""

    name = "basic"

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The rule-of-thumb action for this view."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if view.seat is not None and view.phase in _FROM_VIEW:
            return self._from_view(view, legal_actions)
        # the variations' choices (V-REDEAL-LOW, V-ONE-UP, V-QUADS-RESET) from the knowledge
        common = common_decision(knowledge(view), legal_actions)
        return common if common is not None else legal_actions[0]

    @staticmethod
    def _from_view(view: SeatView, legal: Sequence[Action]) -> Action:
        """The action of an exchange, an announcement, a Chicago call or a play, read from
        the seat's view alone: the rules of those steps (:func:`common_decision`'s and the
        bot's own) read nothing of a :class:`~chicago.engine.knowledge.Knowledge` but
        fields the view holds as they are (the hand, the trick's cards, the round, the
        rules, the scores and the Chicagos declared and made, the dealer) and, for the
        Chicago call, the leader and the dead cards
        (:func:`~chicago.engine.knowledge.view_leader`,
        :func:`~chicago.engine.knowledge.view_dead`: one pass over the view's events). So
        the walk over the seat's events, its card places and the opponents are not made
        for them (issue 28, thirty-fifth pass; tests/test_basic_same_decisions.py: the same
        action as from the knowledge)."""
        if len(legal) == 1:
            return legal[0]
        phase, hand, rules = view.phase, view.hand, view.rules
        seat = view.seat
        assert seat is not None
        if phase == "play":
            return _play(legal, hand, [p.card for p in view.trick])
        if phase == "exchange":
            if len(hand) == 6:  # V-LOCK-6: keep the best five
                drop = best_five(hand, rules)
                return _discard_action(legal, hand, [c for c in hand if c != drop])
            keep = basic_keep(hand, rules, last=view.round >= rules.exchanges)
            return _discard_action(legal, hand, keep)
        players, scores = view.players, view.scores
        declared, made = view.chicago_declared, view.chicago_made
        if phase == "chicago":
            # the knowledge's leader and dead cards, read from the view without the walk
            leads = rules.chicago_caller_leads or view_leader(view) == seat
            call = (top_sequence_chicago_for(hand, view_dead(view), leads=leads)
                    or chicago_is_due_for(rules, players, seat, scores, declared, made))
            return _find(legal, _K_CHICAGO if call else _K_NO_CHICAGO) or legal[0]
        passed = _pass_for_reset(legal, rules, lambda points: would_reset_for(
            rules, players, seat, scores, declared, made, points))
        if passed is not None:
            return passed
        return _announce(legal, hand, rules,
                         lambda: len(seats_after(seat, view.dealer, players)))


register_bot("basic", lambda spec: BasicBot())
