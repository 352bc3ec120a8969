"""Judging one decision: its alternatives valued from the seat's view alone, then graded.

:func:`value_decision` is the fair valuation: it reads the seat's view (the typed view of
:meth:`chicago.Game.view`) and the legal actions, nothing else, exactly as a bot does.
:func:`grade` turns a valuation into a :class:`~chicago.review.model.DecisionReview`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from chicago.engine.actions import Action
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.viewtypes import SeatView
from chicago.review.calls import value_announce, value_chicago, value_quads
from chicago.review.exchange import value_exchange, value_one_up, value_redeal
from chicago.review.grades import grade_of
from chicago.review.levels import ReviewLevel
from chicago.review.model import Alternative, DecisionReview, rounded
from chicago.review.reasons import reason_of
from chicago.review.tricks import value_play
from chicago.review.valuation import Option, Valuation

__all__ = ["decision_rng", "grade", "order_options", "value_decision", "value_knowledge"]


def decision_rng(seed: int, seat: int, step: int) -> random.Random:
    """The random generator of one decision: fixed by the review seed, the seat and the
    step alone, so a decision's values never depend on which others were reviewed, in
    which order or in which process."""
    return random.Random(f"chicago-review:{seed}:{seat}:{step}")


def value_decision(
    view: SeatView, legal: Sequence[Action], action: Action, level: ReviewLevel,
    rng: random.Random,
) -> tuple[Knowledge, Valuation]:
    """Every alternative of the decision whose seat's view is ``view``, valued on what
    that seat knew (and the knowledge it was judged on)."""
    k = knowledge(view)
    return k, value_knowledge(k, legal, action, level, rng)


def value_knowledge(
    k: Knowledge, legal: Sequence[Action], action: Action, level: ReviewLevel,
    rng: random.Random,
) -> Valuation:
    """Every alternative of a decision, valued on the seat's knowledge ``k`` (what it saw);
    ``action`` is what was done (always among the alternatives)."""
    phase = k.phase
    if phase == "exchange":
        return value_exchange(k, legal, action, level, rng)
    if phase == "one up":
        return value_one_up(k)
    if phase == "redeal":
        return value_redeal(k, legal, level, rng)
    if phase == "announce":
        return value_announce(k, legal)
    if phase == "chicago":
        return value_chicago(k, legal, level, rng)
    if phase == "play":
        return value_play(k, legal, level, rng)
    if phase in ("quads", "quads choice"):
        return value_quads(k, legal)
    raise ValueError(f"no decision to judge in phase {phase!r}")


def order_options(options: Sequence[Option]) -> list[Option]:
    """Best first; equal values in the order of the action texts (fully determined)."""
    return sorted(options, key=lambda o: (-o.value, str(o.action)))


def grade(
    step: int,
    deal: int,
    k: Knowledge,
    valuation: Valuation,
    action: Action,
    level: ReviewLevel,
    hindsight: Mapping[str, float] | None = None,
) -> DecisionReview:
    """The review of one decision: the best alternative, the loss, the grade, and the
    alternatives worth showing (the best ``level.shown`` and what was done)."""
    options = order_options(valuation.options)
    done = [o for o in options if o.action == action]
    if not done:
        raise ValueError(f"{action} is not among the valued alternatives")
    chosen = done[0]
    best = options[0]
    loss = rounded(max(0.0, best.value - chosen.value))
    shown = options[: level.shown]
    if chosen not in shown:
        shown.append(chosen)
    alternatives = tuple(
        Alternative(
            action=str(o.action),
            value=o.value,
            parts=o.parts,
            keep=None if o.keep is None else tuple(str(c) for c in sorted(o.keep)),
            hindsight=None if hindsight is None else rounded(hindsight[str(o.action)]),
        )
        for o in shown
    )
    hindsight_best: str | None = None
    hindsight_loss: float | None = None
    if hindsight is not None:
        top = max(alternatives, key=lambda a: (a.hindsight or 0.0, -alternatives.index(a)))
        hindsight_best = top.action
        hindsight_loss = rounded(max(0.0, (top.hindsight or 0.0) - hindsight[str(action)]))
    return DecisionReview(
        step=step,
        deal=deal,
        phase=k.phase.value,
        round=k.trick_number if k.phase == "play" else k.round,
        hand=tuple(str(c) for c in sorted(k.hand)),
        action=str(action),
        best=str(best.action),
        loss=loss,
        grade=grade_of(loss),
        alternatives=alternatives,
        samples=valuation.samples,
        hindsight_best=hindsight_best,
        hindsight_loss=hindsight_loss,
        why=reason_of(k, options, chosen),
    )
