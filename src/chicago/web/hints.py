"""The hint button: exact draw odds of a five-card hand as JSON for the browser.

The browser sends its own hand, the cards it knows are out of the stock (its discards,
rejected face-up cards, cards shown by others) and the table's rules; the answer ranks the
ways to keep cards by expected points (:func:`chicago.odds.draw_odds`). Nothing here reads
a game: it is a calculator, so it cannot reveal anything the caller did not send.

>>> answer = odds_answer(["7d", "7h", "2c", "Ks", "As"], [], {"preset_name": "pagat"}, top=1)
>>> answer["holds"][0]["keep"], answer["category"]
(['7d', '7h'], 'PAIR')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chicago.odds import draw_odds
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = ["categories", "odds_answer"]


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
        "holds": [
            {
                "keep": [str(c) for c in h.keep],
                "discard": [str(c) for c in h.discard],
                "expected_points": round(h.expected_points, 4),
                "probabilities": {
                    name: round(h.probabilities[name], 6) for name in [*shown, "HIGH_CARD"]
                },
            }
            for h in holds[:top]
        ],
    }
