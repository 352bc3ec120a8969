"""The hint key: exact draw odds of the seat's hand, from what the seat knows.

:func:`known_dead` collects the cards the seat knows are not in the stock (its own discards
of this deal, rejected face-up cards, cards shown or taken face up by others); after a
reshuffle of the discards into a new stock (R-EX-2) the discards count as unseen again.
:func:`hint` runs :func:`chicago.odds.draw_odds` on the hand with those dead cards.

>>> view = {"hand": ["2c", "7d", "7h", "Ks", "As"], "rules": {}, "events": []}
>>> result = hint(view)
>>> [str(c) for c in result.holds[0].keep]
['7d', '7h']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chicago.cards import parse_cards
from chicago.odds import Hold, draw_odds
from chicago.poker import Category
from chicago.rules import Rules

__all__ = ["Hint", "hint", "hint_lines", "known_dead"]


def known_dead(events: Iterable[dict[str, Any]], hand: Iterable[str]) -> list[str]:
    """Cards known to be out of the stock, from one deal's events as a seat sees them."""
    pile: set[str] = set()  # known to be among the discards
    held: set[str] = set()  # known to be in another hand
    for ev in events:
        kind = ev.get("type")
        if kind == "deal":
            pile.clear()
            held.clear()
        elif kind == "exchanged":
            pile.update(ev.get("discarded", []))
        elif kind == "reshuffle":
            pile.clear()  # the discards became the new stock
            held.clear()  # shown cards may have been discarded since
        elif kind == "one_up_choice":
            (held if ev.get("accepted") else pile).add(ev["card"])
        elif kind == "show":
            held.update(ev.get("cards", []))
    mine = set(hand)
    return sorted((pile | held) - mine, key=lambda c: parse_cards(c)[0])


@dataclass(frozen=True)
class Hint:
    """The odds of a hand: its holds best first, the dead cards used, and the hand."""

    hand: tuple[str, ...]
    dead: tuple[str, ...]
    holds: list[Hold]
    rules: Rules


def hint(view: dict[str, Any]) -> Hint:
    """The draw odds of the hand in ``view`` (a seat view); ``ValueError`` unless five cards."""
    hand = tuple(view.get("hand", []))
    if len(hand) != 5:
        raise ValueError(f"the odds need a hand of five cards (you hold {len(hand)})")
    rules = Rules.from_dict(view.get("rules", {}))
    dead = tuple(known_dead(view.get("events", []), hand))
    return Hint(hand, dead, draw_odds(hand, dead, rules), rules)


def category_columns(rules: Rules) -> list[str]:
    """The categories worth a column, best first (royal flush only if scored apart)."""
    return [
        c.name for c in sorted(Category, reverse=True)
        if c is not Category.HIGH_CARD and (c is not Category.ROYAL_FLUSH or rules.royal_separate)
    ]


def hint_lines(result: Hint, top: int = 8) -> list[str]:
    """The best ``top`` holds as plain text lines (for the line mode and screen readers)."""
    lines = [
        f"Draw odds for {' '.join(result.hand)}"
        + (f" (known out of the stock: {' '.join(result.dead)})" if result.dead else "")
        + ". Best holds first:"
    ]
    for number, hold in enumerate(result.holds[:top], start=1):
        keep = " ".join(map(str, hold.keep)) or "nothing"
        chances = [
            f"{Category[name].text} {hold.probabilities[name] * 100:.1f}%"
            for name in category_columns(result.rules)
            if hold.probabilities[name] >= 0.0005
        ]
        lines.append(
            f"{number}. keep {keep} (discard {len(hold.discard)}): expected "
            f"{hold.expected_points:.2f} points; " + (", ".join(chances) or "no pair likely")
        )
    return lines
