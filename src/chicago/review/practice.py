"""Practise on your own mistakes: exercises made from a reviewed game (issue 25).

Every decision of a review graded :data:`FROM` or worse becomes an :class:`Exercise`: the
seat's situation at that moment as the seat saw it (its hand, the scores, the trick on the
table, who declared a Chicago: nothing it could not see), and the choices the review
listed, each with the review's value of it, its loss against the best, its grade and the
reason. An answer is graded exactly as the review grades that choice (:func:`answer`):
the values are the review's own, so the grades are too.

Exercises read back from JSON exactly (``Exercise.from_json(e.to_json()) == e``); the
public form for a player who has not answered yet (:meth:`Exercise.question`) leaves out
the values.

>>> import random
>>> from chicago import Game, Rules
>>> from chicago.bots import make_bot
>>> from chicago.review import review_game
>>> game = Game(Rules.preset("pagat", max_deals=1), players=3, seed=5)
>>> bot, rng = make_bot("random"), random.Random(0)
>>> while not game.is_over:
...     game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
>>> record = game.record()
>>> review = review_game(record, 0, level="ev:samples=4")
>>> found = exercises_of(record, review)
>>> all(answer(e, e.played).grade is review.decision(e.step).grade for e in found)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container, Mapping
from typing import Any, ClassVar

from chicago.cards import Card
from chicago.engine.actions import Action
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.review.grades import grade_of
from chicago.review.model import Alternative, Grade, Reason, Review, _Json, rounded
from chicago.review.reasons import reason_of
from chicago.review.valuation import Option
from chicago.review.walk import decision_points

__all__ = [
    "FORMAT",
    "FROM",
    "Answer",
    "Choice",
    "Exercise",
    "PlayedCard",
    "answer",
    "exercise_id",
    "exercises_of",
]

FORMAT = "chicago-exercise"
"""The ``format`` of an exercise's JSON."""
FROM = Grade.INACCURACY
"""The least grade that makes a decision an exercise (inaccuracy, mistake, blunder)."""
_WORSE = (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)


@dataclasses.dataclass(frozen=True, slots=True)
class Choice(_Json):
    """One answer the exercise offers, and what the review says of it."""

    action: str
    """The action in the text notation (``discard 2h 7c``, ``play Ah`` …)."""
    value: float
    """Expected points, judged on what the seat knew."""
    loss: float
    """Points lost against the best choice."""
    grade: Grade
    keep: tuple[str, ...] | None = None
    """An exchange: the cards it keeps."""
    why: Reason | None = None
    """Why this choice is graded so (against the best; for the best, against the next)."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlayedCard(_Json):
    """A card on the table in the trick under way."""

    seat: int
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class Exercise(_Json):
    """One decision to take again, as the seat saw it then (see the module docstring)."""

    _MARK: ClassVar[tuple[str, str] | None] = ("format", FORMAT)

    id: str
    """``GAMEHASH:SEAT:STEP`` (the record's hash without ``sha256:``, shortened to 16)."""
    seat: int
    step: int
    """The record's action number of the decision (the replay step that shows it)."""
    deal: int
    phase: str
    round: int
    """The exchange or scoring round, or the trick number in play (as the review says)."""
    players: int
    dealer: int
    scores: tuple[int, ...]
    hand: tuple[str, ...]
    """The seat's cards then."""
    trick: tuple[PlayedCard, ...]
    """The cards already on the table in the trick under way (trick play)."""
    declarer: int | None
    """Who declared a Chicago this deal, if anyone."""
    played: str
    """What the seat did."""
    best: str
    choices: tuple[Choice, ...]
    """Best first; always includes what was done."""
    level: str
    """The review level that judged it."""

    def choice(self, action: str) -> Choice:
        """The choice of ``action`` (KeyError if the exercise does not offer it)."""
        for choice in self.choices:
            if choice.action == action:
                return choice
        raise KeyError(action)

    def question(self) -> dict[str, Any]:
        """The exercise for a player who has not answered: the situation and the actions
        to choose from (in a fixed order that does not give the best away), no values."""
        data = self.to_json()
        for key in ("played", "best", "level"):
            data.pop(key)
        data["choices"] = [
            {"action": c.action, "keep": None if c.keep is None else list(c.keep)}
            for c in sorted(self.choices, key=lambda c: c.action)
        ]
        return data


@dataclasses.dataclass(frozen=True, slots=True)
class Answer(_Json):
    """What the program says of an answer: its grade, the points it loses, the best
    choice, and why."""

    action: str
    grade: Grade
    loss: float
    best: str
    value: float
    best_value: float
    why: Reason | None = None


def exercise_id(record_hash: str, seat: int, step: int) -> str:
    """The id of the exercise of ``seat``'s decision at ``step`` in the game whose record
    hash (:func:`~chicago.review.identity.record_hash`) is ``record_hash``."""
    digest = record_hash.removeprefix("sha256:")[:16]
    return f"{digest}:{seat}:{step}"


def _trick(k: Knowledge) -> tuple[PlayedCard, ...]:
    return tuple(PlayedCard(seat, str(card)) for seat, card in k.trick)


def _option(alternative: Alternative) -> Option:
    """A listed alternative as the valuation had it (its action, parts and cards kept)."""
    keep = None if alternative.keep is None else tuple(Card(c) for c in alternative.keep)
    return Option(Action.parse(alternative.action), alternative.parts, keep)


def exercises_of(
    record: Mapping[str, object], review: Review, *, grades: Container[Grade] = _WORSE,
    steps: Container[int] | None = None,
) -> list[Exercise]:
    """The exercises of ``review``'s decisions graded ``grades`` (inaccuracy or worse) in
    the game of ``record`` (the record the review is of), in the order of the game; only
    those of ``steps`` if given. Each choice carries the review's own value of it; its
    reason is judged on the seat's knowledge at that moment (replayed from the record)."""
    wanted = {d.step: d for d in review.decisions
              if d.grade in grades and (steps is None or d.step in steps)}
    if not wanted:
        return []
    last = max(d.deal for d in wanted.values())
    out = []
    for point in decision_points(record, review.seat, (1, last)):
        decision = wanted.get(point.step)
        if decision is None:
            continue
        k = knowledge(point.view)
        options = [_option(a) for a in decision.alternatives]
        best = options[0]
        choices = tuple(
            Choice(
                action=str(o.action), value=o.value,
                loss=rounded(max(0.0, best.value - o.value)),
                grade=grade_of(rounded(max(0.0, best.value - o.value))),
                keep=None if o.keep is None else tuple(str(c) for c in sorted(o.keep)),
                why=reason_of(k, options, o),
            )
            for o in options
        )
        out.append(Exercise(
            id=exercise_id(review.record.hash, review.seat, point.step),
            seat=review.seat, step=point.step, deal=point.deal, phase=decision.phase,
            round=decision.round, players=k.players, dealer=k.dealer,
            scores=tuple(k.scores), hand=decision.hand, trick=_trick(k),
            declarer=k.declarer, played=decision.action, best=decision.best,
            choices=choices, level=review.level,
        ))
    return out


def answer(exercise: Exercise, action: str) -> Answer:
    """The grade of answering ``exercise`` with ``action`` (an action text; ValueError if
    the exercise does not offer it): the review's grade of that choice."""
    try:
        choice = exercise.choice(str(Action.parse(action)) if isinstance(action, str) else "")
    except (KeyError, ValueError):
        offered = ", ".join(c.action for c in exercise.choices)
        raise ValueError(f"{action!r} is not one of the choices ({offered})") from None
    best = exercise.choice(exercise.best)
    return Answer(action=choice.action, grade=choice.grade, loss=choice.loss,
                  best=exercise.best, value=choice.value, best_value=best.value,
                  why=choice.why)
