"""Why a decision is graded as it is: the one fact that decides it, in no language.

:func:`reason_of` compares what was done with the best alternative (with the runner-up
when what was done is the best) and names the part of the value that separates them most
(:class:`~chicago.review.model.Parts`):

- the hand in an exchange: the exact odds of what each hold aims at ("keeping the pair
  makes two pair or better 29% of the time; the flush draw, a flush or better 19%");
- the last trick (an exchange, a card): the chance of winning it with each;
- the Chicago (the call, an exchange before it, a declarer's or a defender's card): the
  chance of making (or breaking) it, what it brings and what failing costs;
- an announcement: the chance of winning the round and its points;
- anything else (four of a kind, one up, a redeal, six cards): the two values.

When the seat is within one last trick of the target, or four of a kind raises it to the
target (V-QUADS-52), the score situation is named too (``score``, ``target``). The
sentences are in the catalogue (``why.*``), put in words by the shells. Nothing here
reads more than the seat's :class:`~chicago.engine.knowledge.Knowledge` and the values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from chicago.cards import Card
from chicago.engine.actions import ActionKind
from chicago.engine.knowledge import Knowledge
from chicago.odds import draw_odds
from chicago.poker import Category, evaluate
from chicago.review.grades import BEST_MAX
from chicago.review.model import Reason, rounded
from chicago.review.stakes import (
    chicago_failure,
    chicago_points,
    chicago_success,
    last_trick_points,
)
from chicago.review.valuation import Option

__all__ = ["KEYS", "aim", "reason_of"]

KEYS = ("hold", "hold_trick", "hold_chicago", "announce", "chicago", "trick", "declarer",
        "defender", "value")
"""The facts a reason names; each with ``.best`` after it when what was done is the best,
and ``equal`` (every choice worth about the same)."""

_K = ActionKind
_ORDER = [c.name for c in Category]
"""Category names, lowest first."""


def _chance_at_least(probabilities: dict[str, float], category: str) -> float:
    start = _ORDER.index(category)
    return sum(probabilities.get(name, 0.0) for name in _ORDER[start:])


def aim(k: Knowledge, keep: Sequence[Card]) -> tuple[str, float]:
    """What keeping ``keep`` aims at, and the exact chance of reaching it or better: the
    category above the one the kept cards make (a pair kept aims at two pair or better),
    or for a draw the category that brings the most expected points (four hearts kept aim
    at a flush); five cards kept make their own category, surely."""
    dead = [Card(c) for c in range(52) if k.dead >> c & 1]
    thrown = len(k.hand) - len(keep)
    kept = set(keep)
    odds = next(h for h in draw_odds(k.hand, dead, k.rules, max_discard=thrown)
                if set(h.keep) == kept)
    if not thrown:
        made = evaluate(list(keep), k.rules).category
        if made is Category.HIGH_CARD:  # nothing drawn, nothing made: no pair, surely
            return Category.PAIR.name, 0.0
        return made.name, 1.0
    made = _made_by(keep)
    if made is not Category.HIGH_CARD:
        target = _ORDER[min(len(_ORDER) - 1, _ORDER.index(made.name) + 1)]
    else:
        points = k.rules.points
        target = max(
            (name for name in _ORDER[1:] if odds.probabilities.get(name, 0.0) > 0),
            key=lambda name: points[Category[name]] * odds.probabilities[name],
            default=Category.PAIR.name,
        )
    return target, _chance_at_least(odds.probabilities, target)


def _made_by(keep: Sequence[Card]) -> Category:
    """The category that fewer than five kept cards already make, by their ranks."""
    counts = sorted(Counter(card.rank for card in keep).values(), reverse=True)
    if counts and counts[0] >= 4:
        return Category.FOUR_OF_A_KIND
    if counts and counts[0] == 3:
        return Category.FULL_HOUSE if len(counts) > 1 and counts[1] >= 2 else (
            Category.THREE_OF_A_KIND)
    if len(counts) > 1 and counts[1] == 2:
        return Category.TWO_PAIR
    return Category.PAIR if counts and counts[0] == 2 else Category.HIGH_CARD


def _deciding(best: Option, other: Option) -> str:
    """The part of the value that separates the two most: hand, trick, chicago or other."""
    a, b = best.parts, other.parts
    gaps = {"hand": a.hand - b.hand, "trick": a.trick - b.trick,
            "chicago": a.chicago - b.chicago, "other": a.other - b.other}
    return max(gaps, key=lambda name: (abs(gaps[name]), name))


def _situation(k: Knowledge) -> tuple[int | None, int | None]:
    """The score and the target, when the score situation matters."""
    rules = k.rules
    score = k.scores[k.seat]
    quads = k.phase.startswith("quads") and rules.quads_to_target
    chicago = k.phase == "chicago" or k.declarer == k.seat
    # V-DEUCE: the last trick or the Chicago won with a 2 scores more
    trick = max(p or 0 for p in last_trick_points(k))
    made = max(p or 0 for p in chicago_points(k))
    reach = max(trick, made if chicago else 0)
    near = score < rules.target <= score + reach
    return (score, rules.target) if near or quads else (None, None)


def reason_of(k: Knowledge, options: Sequence[Option], chosen: Option) -> Reason:
    """The deciding fact of a decision whose alternatives are ``options`` (best first)."""
    best = options[0]
    is_best = chosen.value >= best.value - BEST_MAX
    other = chosen if not is_best else next((o for o in options[1:]), chosen)
    score, target = _situation(k)
    suffix = ".best" if is_best else ""

    def said(key: str, **facts: float | str | tuple[str, ...] | None) -> Reason:
        return Reason(key=key, best=str(best.action), done=str(other.action), score=score,
                      target=target, **facts)  # type: ignore[arg-type]

    if other is best or abs(best.value - other.value) <= BEST_MAX / 2:
        return said("equal")
    part = _deciding(best, other)
    phase = k.phase
    if phase == "announce":
        announce = best if best.action.kind is _K.ANNOUNCE else other
        category = announce.action.category
        return said("announce" + suffix,
                    best_category=None if category is None else category.name,
                    best_chance=announce.parts.chance, points=_points(announce))
    if phase == "chicago":
        call = best if best.action.kind is _K.CHICAGO else other
        return said("chicago" + suffix, best_chance=call.parts.chance,
                    points=_made_points(k, call.parts.chance, call.parts.chicago),
                    cost=rounded(chicago_failure(k)))
    if phase == "play":
        key = "trick"
        if k.declarer is not None:
            key = "declarer" if k.declarer == k.seat else "defender"
        return said(key + suffix, best_chance=best.parts.chance,
                    done_chance=other.parts.chance)
    if phase == "exchange" and best.keep is not None and other.keep is not None:
        best_keep, done_keep = _cards(best.keep), _cards(other.keep)
        if part == "hand":
            best_aim, best_chance = aim(k, best.keep)
            done_aim, done_chance = aim(k, other.keep)
            return said("hold" + suffix, best_keep=best_keep, done_keep=done_keep,
                        best_category=best_aim, done_category=done_aim,
                        best_chance=rounded(best_chance), done_chance=rounded(done_chance),
                        points=best.parts.hand, cost=other.parts.hand)
        if part == "chicago":
            return said("hold_chicago" + suffix, best_keep=best_keep, done_keep=done_keep,
                        best_chance=best.parts.chance, done_chance=other.parts.chance,
                        points=_made_points(k, best.parts.chance, _hold_call(best)))
        return said("hold_trick" + suffix, best_keep=best_keep, done_keep=done_keep,
                    points=best.parts.trick, cost=other.parts.trick)
    return said("value" + suffix, points=best.value, cost=other.value)


def _made_points(k: Knowledge, chance: float | None, call: float | None) -> float:
    """What a made Chicago brings on average, from the value of declaring (``call``, ``p ×
    made + (1 - p) × failure`` with ``p`` the ``chance``): under V-DEUCE the deuce Chicagos
    among the made ones count at their points. Where that says nothing (no chance, or the
    call's value is not known), the plain Chicago's value."""
    if not chance or call is None:
        return rounded(chicago_success(k))
    return rounded((call - (1 - chance) * chicago_failure(k)) / chance)


def _hold_call(option: Option) -> float | None:
    """The value of declaring after a hold: its ``chicago`` part is what the call adds over
    the last trick, cut at 0 (where it is 0 the call's value is not known)."""
    added = option.parts.chicago
    return added + option.parts.trick if added > 0 else None


def _cards(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in sorted(cards))


def _points(option: Option) -> float | None:
    """What winning the round is worth: the announcement's value over its chance."""
    chance = option.parts.chance
    if not chance:
        return None
    return rounded(option.parts.hand / chance)
