"""The hand-labelled decisions of ``tests/data/labelled_decisions.json`` judged by the review
(issue 25): what the calibration test and ``docs/REVIEW.md``'s agreement figures use."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from chicago import Game
from chicago.engine.actions import Action
from chicago.engine.knowledge import knowledge
from chicago.review import DecisionReview
from chicago.review.judge import decision_rng, grade, value_knowledge
from chicago.review.levels import ReviewLevel
from chicago.review.walk import decision_points
from engine_helpers import stack
from review_helpers import one_deal, play_out

DATA = Path(__file__).resolve().parent / "data" / "labelled_decisions.json"
LEVEL = ReviewLevel.parse("expert:samples=32,exchange=24,holds=4")
"""The level the labels are checked at (fixed, so the check is the same on every machine)."""


def labelled() -> list[dict[str, Any]]:
    """The labelled decisions."""
    return list(json.loads(DATA.read_text(encoding="utf-8"))["decisions"])


def _keep(game: Game, seat: int) -> str | None:
    """Seat 0 keeps its hand whole in every exchange; the bot decides the rest."""
    return "keep" if game.view(seat).phase == "exchange" else None


def judged(entry: dict[str, Any]) -> DecisionReview:
    """The review's judgement of the entry's ``action``."""
    game = one_deal(4, stack(4, 3, {0: entry["hand"]}), dealer=3, **entry.get("options", {}))
    phase = entry.get("phase", "exchange")
    record = play_out(game, 0, _keep)
    wanted = entry.get("round", 1)
    point = next(p for p in decision_points(record, 0)
                 if p.view.phase == phase and (phase != "exchange" or
                                                  knowledge(p.view).round == wanted))
    k = knowledge(point.view)
    if "scores" in entry:
        k = dataclasses.replace(k, scores=list(entry["scores"]))
    action = Action.parse(entry["action"])
    valuation = value_knowledge(k, point.legal, action, LEVEL,
                                 decision_rng(0, 0, point.step))
    return grade(point.step, point.deal, k, valuation, action, LEVEL)
