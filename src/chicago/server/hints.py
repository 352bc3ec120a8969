"""The hint button: the draw odds of a five-card hand as JSON for the browser.

:func:`odds_answer` is a calculator: the caller sends a hand, the cards it knows are out of
the stock and the rules, and gets the ways to keep cards by their exact expected points
(:func:`chicago.odds.draw_odds`); nothing there reads a game, so it cannot reveal anything
the caller did not send.

:func:`hint_answer` is the Hint button of a seat at a live table: the same odds for the
seat's own view (its hand, what the table showed of the others, the scores), each hold
ranked by what it is worth there (:func:`chicago.advice.rank_holds`, the ranking the
terminal's hint uses too): the hand's chances against the others, the last trick, a Chicago.

>>> answer = odds_answer(["7d", "7h", "2c", "Ks", "As"], [], {"preset_name": "pagat"}, top=1)
>>> answer["holds"][0]["keep"], answer["category"]
(['7d', '7h'], 'PAIR')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chicago.advice import Advice, improvement, rank_holds
from chicago.engine.viewtypes import SeatView
from chicago.odds import Hold, draw_odds
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = ["categories", "hint_answer", "odds_answer"]


def categories(rules: Rules) -> list[str]:
    """The categories worth showing, best first (royal flush only when scored apart)."""
    return [
        c.name for c in sorted(Category, reverse=True)
        if c is not Category.HIGH_CARD and (c is not Category.ROYAL_FLUSH or rules.royal_separate)
    ]


def odds_answer(
    hand: Sequence[str], dead: Sequence[str], rules: Mapping[str, Any] | None, top: int = 8
) -> dict[str, Any]:
    """The best ``top`` holds of ``hand`` with their exact odds; ValueError for bad input.

    ``rules`` is a :meth:`Rules.to_dict` mapping (a partial one takes the rest from its
    ``preset_name``); the answer names the rules' categories best first and, for each hold,
    the cards kept and discarded, the expected points and the probability of each category.
    """
    rule_set = Rules.from_dict(rules or {})
    if not 1 <= top <= 32:
        raise ValueError(f"top must be 1-32, not {top}")
    holds = draw_odds(list(hand), list(dead), rule_set)
    value = evaluate(list(hand), rule_set)
    shown = categories(rule_set)
    return {
        "hand": list(hand),
        "dead": list(dead),
        "category": value.category.name,
        "points_now": rule_set.points_for(value.category),
        "categories": shown,
        "max_discard": rule_set.max_discard,
        "holds": [_hold(h, shown) for h in holds[:top]],
    }


def _hold(hold: Hold, shown: Sequence[str]) -> dict[str, Any]:
    return {
        "keep": [str(c) for c in hold.keep],
        "discard": [str(c) for c in hold.discard],
        "expected_points": round(hold.expected_points, 4),
        "probabilities": {
            name: round(hold.probabilities[name], 6) for name in [*shown, "HIGH_CARD"]
        },
    }


def _advice(advice: Advice, shown: Sequence[str]) -> dict[str, Any]:
    better = improvement(advice)
    return {
        **_hold(advice.hold, shown),
        "value": round(advice.value, 4),
        "hand": round(advice.hand, 4),
        "trick": round(advice.trick, 4),
        "chicago": round(advice.chicago, 4),
        "trick_chance": round(advice.trick_chance, 4),
        "chicago_chance": round(advice.chicago_chance, 4),
        "better": None if better is None else {"category": better[0],
                                               "chance": round(better[1], 6)},
    }


def hint_answer(view: SeatView, dead: Sequence[str], top: int = 8) -> dict[str, Any]:
    """The Hint button's answer for a seat's own ``view``; ValueError for bad input.

    ``dead`` are the cards the seat knows are out of the stock (the browser sends the view's
    ``known_out``). Like :func:`odds_answer`, plus ``holds`` ranked by ``value`` (best
    first), each with its parts (``hand``, ``trick``, ``chicago``: points),
    ``trick_chance``, ``chicago_chance`` and ``better``: the next category the draw can
    reach and the chance of it or better (:func:`chicago.advice.improvement`).
    """
    hand = [str(c) for c in view.hand]
    if len(hand) != 5:
        raise ValueError(f"the odds need a hand of five cards (you hold {len(hand)})")
    if not 1 <= top <= 32:
        raise ValueError(f"top must be 1-32, not {top}")
    rule_set = view.rules
    limit = min(rule_set.max_discard, view.stock + view.discard_pile)  # the engine's (R-EX-2)
    holds = draw_odds(hand, list(dead), rule_set, max_discard=limit)
    ranked = rank_holds(view, holds)
    value = evaluate(hand, rule_set)
    shown = categories(rule_set)
    return {
        "hand": hand,
        "dead": list(dead),
        "category": value.category.name,
        "points_now": rule_set.points_for(value.category),
        "categories": shown,
        "max_discard": limit,
        "holds": [_advice(a, shown) for a in ranked[:top]],
    }
