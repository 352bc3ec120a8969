"""Values "with all cards known": what each alternative was worth given the real cards.

Shown beside the fair values of a finished game, clearly apart from them, and never used
for a grade. The same formulas as the fair values, with the real cards where the seat had
to guess:

- an exchange (one up, redeal): the cards each alternative would really have drawn (a copy
  of the game plays it), that hand valued by its best hold in the next exchange, or as
  kept to the end after the last one;
- an announcement: whether the hand really beats the hands of those who announced before
  it and of those still to speak;
- the Chicago call and trick play: the real deal, solved as one sample.

Decisions with nothing hidden (V-LOCK-6, four of a kind) keep their fair values. This is
the only module of the review that reads the game beyond the seat's view: it gets the real
game at the moment of the decision and uses only the engine's public API (copies, views).
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.cards import cards_from_mask, mask_of
from chicago.engine import Action, ActionKind, Game
from chicago.engine.knowledge import Knowledge
from chicago.poker import evaluate
from chicago.review.calls import chicago_options, rest_of_deal
from chicago.review.deals import beats_all
from chicago.review.exchange import with_hand
from chicago.review.stakes import hand_points
from chicago.review.tricks import play_options
from chicago.review.valuation import Option

__all__ = ["hindsight_values", "real_hands"]

_K = ActionKind


def real_hands(game: Game) -> list[int]:
    """The cards each seat really holds now, as masks."""
    return [mask_of(game.view(s).hand) for s in range(game.players)]


def hindsight_values(
    game: Game, k: Knowledge, legal: Sequence[Action], options: Sequence[Option]
) -> dict[str, float]:
    """Action text → its value with all cards known, for each of ``options``."""
    phase = k.phase
    if phase == "play":
        return {str(o.action): o.value for o in play_options(k, [real_hands(game)])}
    if phase == "chicago":
        return {str(o.action): o.value for o in chicago_options(k, legal, [real_hands(game)])}
    if phase == "announce":
        return {str(o.action): _announce(game, k, o.action) for o in options}
    if phase in ("exchange", "one up", "redeal") and len(k.hand) != 6:
        return {str(o.action): _drawn(game, k, o.action) for o in options}
    return {str(o.action): o.value for o in options}


def _announce(game: Game, k: Knowledge, action: Action) -> float:
    if action.kind is not _K.ANNOUNCE or action.category is None:
        return 0.0
    hands = real_hands(game)
    rules = k.rules
    mine = evaluate(list(k.hand), rules)
    contenders = [
        o.seat for o in k.opponents.values() if o.announcements.get(k.round) is not None
    ] + k.to_speak_after()
    others = [evaluate(cards_from_mask(hands[seat]), rules) for seat in contenders]
    return hand_points(k, action.category) if beats_all(mine, others, rules) else 0.0


def _drawn(game: Game, k: Knowledge, action: Action) -> float:
    """The hand ``action`` would really have led to, valued as the next exchange would."""
    after = game.copy()
    after.apply(action)
    if action.kind is _K.ONE_UP:
        take, leave = after.copy(), after
        take.apply(Action.simple(_K.ACCEPT))
        leave.apply(Action.simple(_K.REJECT))
        return max(_hand_value(take, k), _hand_value(leave, k))
    return _hand_value(after, k)


def _hand_value(after: Game, k: Knowledge) -> float:
    hand = list(after.view(k.seat).hand)
    thrown = [c for c in k.hand if c not in hand]
    if k.phase == "one up" and k.one_up is not None and k.one_up[1] not in hand:
        thrown.append(k.one_up[1])
    now = with_hand(k, hand, dead=thrown)
    next_round = 1 if k.phase == "redeal" else k.round + 1
    hand_part, trick_part = rest_of_deal(now, next_round)
    return round(hand_part + trick_part, 4)
