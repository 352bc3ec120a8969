"""A review in words: the labels and notes of ``chicago review`` and ``chicago replay --review``.

Every word is built from a :class:`~chicago.review.Review`, which holds only the reviewed
seat's own cards (and, with ``hindsight``, values, never cards, from the rest of the deck).
No terminal library is needed: the command's tables and the full-screen replay style these
words themselves (:data:`GRADE_STYLE` names styles both understand).
"""

from __future__ import annotations

from collections.abc import Callable

from chicago.poker import Category
from chicago.review import DecisionReview, Grade
from chicago.tui.words import category_phrase, plain_card

__all__ = ["GRADE_STYLE", "choice_words", "decision_note", "phase_label"]

GRADE_STYLE: dict[Grade, str] = {
    Grade.BEST: "bold",
    Grade.GOOD: "",
    Grade.INACCURACY: "red",
    Grade.MISTAKE: "bold red",
    Grade.BLUNDER: "bold red",
}
"""How each grade is styled (words that the plain tables' ANSI styles and Rich share)."""

_PHASE = {
    "exchange": "exchange {n}", "one up": "one up {n}", "redeal": "redeal",
    "announce": "scoring {n}", "quads": "quads", "quads choice": "quads",
    "chicago": "Chicago call", "play": "trick {n}",
}
_SHORT = {
    "exchange": "exch {n}", "one up": "1-up {n}", "redeal": "redeal", "announce": "score {n}",
    "quads": "quads", "quads choice": "quads", "chicago": "call", "play": "trick {n}",
}


def phase_label(decision: DecisionReview, *, short: bool = False) -> str:
    """Where in the deal the decision was: ``exchange 2``, ``trick 4``, ``Chicago call``
    (``short``: ``exch 2``, ``trick 4``, ``call``)."""
    labels = _SHORT if short else _PHASE
    return labels.get(decision.phase, decision.phase).format(n=decision.round)


def choice_words(
    decision: DecisionReview, action: str, card: Callable[[str], str] = plain_card
) -> str:
    """An alternative in words: ``keep Ah Kh``, ``play 10♥``, ``announce a flush``."""
    alt = next((a for a in decision.alternatives if a.action == action), None)
    words = action.split()
    if alt is not None and alt.keep is not None and words[0] in ("discard", "keep"):
        if not alt.keep:
            return "draw five"
        if len(alt.keep) == len(decision.hand):
            return "keep all"
        return "keep " + " ".join(card(c) for c in alt.keep)
    if words[0] in ("play", "discard") or action.startswith("one up"):
        head = 2 if action.startswith("one up") else 1
        return " ".join(words[:head] + [card(c) for c in words[head:]])
    if words[0] == "announce":
        return "announce " + category_phrase(Category.parse(" ".join(words[1:])).name)
    return action


def decision_note(decision: DecisionReview, card: Callable[[str], str] = plain_card) -> str:
    """One line for a replay: ``review: mistake, -1.80 points; better: keep Ah Kh``."""
    if decision.grade is Grade.BEST:
        return f"review: best ({phase_label(decision)})"
    return (
        f"review: {decision.grade.value}, -{decision.loss:.2f} points; better: "
        f"{choice_words(decision, decision.best, card)}"
    )
