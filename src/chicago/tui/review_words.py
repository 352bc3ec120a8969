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
from collections.abc import Sequence

from chicago.review import DecisionReview, Grade, Reason, Review
from chicago.review.grades import ACCURACY_MARKS, accuracy
from chicago.review.practice import Answer, Choice, Exercise
from chicago.tui.words import Words

__all__ = [
    "GRADE_COLOUR",
    "GRADE_STYLE",
    "accuracy_scale",
    "answer_lines",
    "choice_words",
    "decision_note",
    "exercise_lines",
    "grade_word",
    "loss_text",
    "ordered_choices",
    "phase_label",
    "phase_name",
    "reason_text",
    "run_summary",
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


# ------------------------------------------------------------------ practice (chicago train)

def _as_decision(exercise: Exercise) -> DecisionReview:
    """The exercise as a decision, for the words of its choices (:func:`choice_words`)."""
    from chicago.review import Alternative, Parts

    return DecisionReview(
        step=exercise.step, deal=exercise.deal, phase=exercise.phase, round=exercise.round,
        hand=exercise.hand, action=exercise.played, best=exercise.best, loss=0.0,
        grade=Grade.BEST,
        alternatives=tuple(Alternative(c.action, c.value, Parts(), c.keep)
                           for c in exercise.choices),
    )


def ordered_choices(exercise: Exercise) -> list[Choice]:
    """The choices in the order they are offered: by their action text, which gives the
    best one away no more than the order of a hand does."""
    return sorted(exercise.choices, key=lambda c: c.action)


def _seat_word(seat: int, exercise: Exercise, w: Words) -> str:
    return w.t("you") if seat == exercise.seat else w.t("tui.review.who_seat", n=seat)


def exercise_lines(exercise: Exercise, number: int, total: int,
                   words: Words | None = None) -> list[str]:
    """An exercise as the seat saw it, and its numbered choices."""
    w = _words(words)
    as_decision = _as_decision(exercise)
    scores = w.t("tui.review.sep").join(
        f"{_seat_word(s, exercise, w)} {score}" for s, score in enumerate(exercise.scores))
    lines = [
        w.t("tui.train.title", i=number, n=total, deal=exercise.deal,
            where=phase_label(as_decision, w)),
        w.t("practice.scores", scores=scores),
        w.t("tui.train.hand", cards=w.cards(exercise.hand)),
    ]
    if exercise.trick:
        lines.append(w.t("practice.table", cards=w.t("tui.review.sep").join(
            f"{_seat_word(p.seat, exercise, w)} {w.card(p.card)}" for p in exercise.trick)))
    if exercise.declarer is not None:
        lines.append(w.t("practice.declared", who=_seat_word(exercise.declarer, exercise, w)))
    lines.append(w.t(f"practice.q.{exercise.phase.replace(' ', '_')}"))
    for index, choice in enumerate(ordered_choices(exercise), start=1):
        lines.append(f"  {index}. {choice_words(as_decision, choice.action, w)}")
    return lines


def answer_lines(exercise: Exercise, result: Answer, words: Words | None = None) -> list[str]:
    """What an answer is worth, and why."""
    w = _words(words)
    as_decision = dataclasses.replace(_as_decision(exercise), action=result.action,
                                      grade=result.grade, loss=result.loss, why=result.why)
    best = choice_words(as_decision, exercise.best, w)
    if result.grade is Grade.BEST:
        head = w.t("practice.right", best=best)
    else:
        head = w.t("practice.wrong", grade=_capital(grade_word(result.grade, w)),
                   loss=loss_text(result.loss, w), best=best)
    why = reason_text(as_decision, w)
    return [head + (" " + why if why else "")]


def run_summary(answers: Sequence[Answer], total: int, words: Words | None = None) -> str:
    """A run's score: answers that were the best, points lost, the run's accuracy."""
    w = _words(words)
    best = sum(1 for a in answers if a.grade is Grade.BEST)
    lost = sum(a.loss for a in answers)
    score = accuracy(a.loss for a in answers)
    return w.t("practice.score", best=best, answered=len(answers), total=total,
               lost=loss_text(lost, w), accuracy=w.decimal(score, 1))
