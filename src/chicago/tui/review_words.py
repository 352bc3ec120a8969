"""A review in words: the labels and notes of ``chicago review`` and ``chicago replay --review``.

Every word is built from a :class:`~chicago.review.Review`, which holds only the reviewed
seat's own cards (and, with ``hindsight``, values, never cards, from the rest of the deck).
The words come from the terminal's catalogue (:mod:`chicago.tui.lang`) in the language of
the :class:`~chicago.tui.words.Words` given: the browser's review view's words where it has
them (``grade.*``, ``review.phase.*``, ``choice.*``, ``review.*``), the terminal's own
``tui.review.*`` keys for the rest. No terminal library is needed: the command's tables and
the full-screen replay style these words themselves (:data:`GRADE_STYLE` for the plain
tables, :data:`GRADE_COLOUR` where Rich draws).

>>> from chicago.tui.words import Words
>>> from chicago.review import Grade
>>> grade_word(Grade.MISTAKE), grade_word(Grade.MISTAKE, Words([], lang="sv"))
('mistake', 'misstag')
"""

from __future__ import annotations

import dataclasses

from chicago.review import DecisionReview, Grade, Reason, Review
from chicago.review.grades import ACCURACY_MARKS
from chicago.tui.words import Words

__all__ = [
    "GRADE_COLOUR",
    "GRADE_STYLE",
    "accuracy_scale",
    "choice_words",
    "decision_note",
    "grade_word",
    "loss_text",
    "phase_label",
    "phase_name",
    "reason_text",
    "with_reasons",
]

GRADE_STYLE: dict[Grade, str] = {
    Grade.BEST: "bold",
    Grade.GOOD: "",
    Grade.INACCURACY: "red",
    Grade.MISTAKE: "bold red",
    Grade.BLUNDER: "bold red",
}
"""How each grade is styled in the plain tables (their ANSI styles: bold, dim, red)."""

GRADE_COLOUR: dict[Grade, str] = {
    Grade.BEST: "bold green",
    Grade.GOOD: "green",
    Grade.INACCURACY: "yellow",
    Grade.MISTAKE: "bold dark_orange",
    Grade.BLUNDER: "bold red",
}
"""How each grade is coloured where Rich draws it (the tables on a terminal, the full-screen
replay): best and good green, inaccuracy yellow, mistake orange, blunder red."""

_ENGLISH = Words([])


def _words(words: Words | None) -> Words:
    return _ENGLISH if words is None else words


def grade_word(grade: Grade, words: Words | None = None) -> str:
    """The grade as a word inside a line: ``mistake``, ``misstag`` (the browser's
    ``grade.*`` in lower case)."""
    return _words(words).t(f"grade.{grade.value}").lower()


def _key(phase: str) -> str:
    return phase.replace(" ", "_")


def phase_label(
    decision: DecisionReview, words: Words | None = None, *, short: bool = False
) -> str:
    """Where in the deal the decision was: ``exchange 2``, ``trick 4``, ``Chicago call``
    (``short``: ``exch 2``, ``trick 4``, ``call``), in the language of ``words``."""
    w = _words(words)
    key = f"tui.review.short.{_key(decision.phase)}" if short else (
        f"review.phase.{_key(decision.phase)}"
    )
    return w.t(key, n=decision.round) if w.lang.has(key) else decision.phase


def phase_name(phase: str, words: Words | None = None) -> str:
    """A phase of the summary's table (the engine's ``announce``, ``play`` …) in words:
    ``scoring rounds``, ``tricks``; ``poängrundor``, ``stick``."""
    w = _words(words)
    key = f"tui.review.phases.{_key(phase)}"
    return w.t(key) if w.lang.has(key) else phase


def loss_text(loss: float, words: Words | None = None) -> str:
    """Points lost with two decimals in the language's style: ``1.80``, ``1,80``."""
    return _words(words).decimal(loss, 2)


def choice_words(decision: DecisionReview, action: str, words: Words | None = None) -> str:
    """An alternative in words, as the browser's review view says it: ``keep A♥ K♥``,
    ``draw five``, ``play 10♥``, ``announce a flush``, ``no Chicago`` (cards in the format
    of ``words``)."""
    w = _words(words)
    alt = next((a for a in decision.alternatives if a.action == action), None)
    parts = action.split()
    head = parts[0] if parts else ""
    if alt is not None and alt.keep is not None and head in ("discard", "keep"):
        if not alt.keep:
            return w.t("choice.draw_five")
        if len(alt.keep) == len(decision.hand):
            return w.t("choice.keep_all")
        return w.t("choice.keep", cards=w.cards(alt.keep))
    if action.startswith("one up ") and len(parts) > 2:
        return w.t("choice.one_up", card=w.card(parts[2]))
    if head == "play" and len(parts) > 1:
        return w.t("choice.play", card=w.card(parts[1]))
    if head == "discard":
        return w.t("choice.discard", cards=w.cards(parts[1:]))
    if head == "reset" and len(parts) > 1 and parts[1].isdigit():  # V-QUADS-ONE: one seat
        return w.t("choice.reset_one", n=int(parts[1]) + 1)
    if head == "announce":
        return w.t("choice.announce", cat=w.category_a("_".join(parts[1:]).upper()))
    simple = {
        "keep": "choice.keep_hand", "pass": "choice.pass", "chicago": "choice.chicago",
        "no": "choice.no_chicago", "accept": "choice.accept", "reject": "choice.reject",
        "redeal": "choice.redeal", "reset": "choice.reset", "score": "choice.score",
    }
    return w.t(simple[head]) if head in simple else action


def decision_note(decision: DecisionReview, words: Words | None = None) -> str:
    """One line for a replay: ``review: mistake, -1.80 points; better: keep Ah Kh``
    (``analys: misstag, -1,80 poäng; bättre: behåll Ah Kh``)."""
    w = _words(words)
    grade = grade_word(decision.grade, w)
    if decision.grade is Grade.BEST:
        return w.t("tui.review.note_best", grade=grade, where=phase_label(decision, w))
    return w.t(
        "tui.review.note", grade=grade, loss=loss_text(decision.loss, w),
        better=w.t("review.better", choice=choice_words(decision, decision.best, w)),
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _percent(chance: float | None) -> str:
    return "?" if chance is None else str(round(100 * chance))


def _play_card(action: str, words: Words) -> str:
    parts = action.split()
    return words.card(parts[1]) if len(parts) == 2 and parts[0] == "play" else action


def reason_text(decision: DecisionReview, words: Words | None = None) -> str:
    """Why the decision is graded so, in one or two sentences in the language of
    ``words``: the fact of its :class:`~chicago.review.Reason` (the catalogue's
    ``why.*``), and the score situation where it matters. Empty without one."""
    why: Reason | None = decision.why
    if why is None:
        return ""
    w = _words(words)

    def points(value: float | None) -> str:
        return "?" if value is None else w.decimal(value, 1)

    best = choice_words(decision, why.best, w)
    params = {
        "best": best, "best_cap": _capital(best), "done": choice_words(decision, why.done, w),
        "best_card": _play_card(why.best, w), "done_card": _play_card(why.done, w),
        "best_keep": w.cards(why.best_keep or ()) or w.t("choice.draw_five"),
        "done_keep": w.cards(why.done_keep or ()) or w.t("choice.draw_five"),
        "best_cat": w.category_a(why.best_category),
        "best_cat_cap": _capital(w.category_a(why.best_category)),
        "done_cat": w.category_a(why.done_category),
        "best_pct": _percent(why.best_chance), "done_pct": _percent(why.done_chance),
        "points": points(why.points), "cost": points(why.cost),
        "best_points": points(why.points), "done_points": points(why.cost),
    }
    text = w.t(f"why.{why.key}", **params)
    if why.score is not None and why.target is not None:
        text += " " + w.t("why.score", score=why.score, target=why.target)
    return text


def with_reasons(review: Review, words: Words | None = None) -> Review:
    """The review with every decision's ``reason`` in the language of ``words``."""
    w = _words(words)
    return dataclasses.replace(review, decisions=tuple(
        dataclasses.replace(d, reason=reason_text(d, w) or None) for d in review.decisions
    ))


def accuracy_scale(words: Words | None = None) -> str:
    """What an accuracy figure means, to show beside it: the marks of the expert and basic
    bots and of random play (:data:`~chicago.review.grades.ACCURACY_MARKS`)."""
    w = _words(words)
    return w.t("review.scale", **{name: w.decimal(mark, 0)
                                  for name, mark in ACCURACY_MARKS.items()})
