"""Graded reviews of a game: which decisions cost points, and what would have been better.

:func:`review_game` replays a record and judges every decision one seat made: for each, the
alternatives worth showing with their value in expected points (judged on what the seat
knew at that moment: its view, never the cards it could not see), the best one, the points
lost and a grade (best, good, inaccuracy, mistake, blunder); and a summary per seat.
``docs/REVIEW.md`` defines the values, the grades and the accuracy figure.

>>> import json
>>> from chicago import Game, Rules
>>> from chicago.bots import make_bot
>>> import random
>>> game = Game(Rules.preset("pagat", max_deals=1), players=3, seed=5)
>>> bot, rng = make_bot("basic"), random.Random(0)
>>> while not game.is_over:
...     game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
>>> review = review_game(game.record(), 0, level="ev:samples=4")
>>> review.decisions[0].phase, review.decisions[0].grade in Grade
('exchange', True)
>>> Review.from_json(json.loads(json.dumps(review.to_json()))) == review
True
"""

from chicago.review.core import (
    Progress,
    ReviewChunk,
    assemble_review,
    plan_review,
    review_chunk,
    review_game,
    review_seats,
)
from chicago.review.grades import accuracy, grade_of
from chicago.review.levels import LEVELS, ReviewLevel
from chicago.review.model import (
    Alternative,
    DealSummary,
    DecisionReview,
    Grade,
    GradeCounts,
    Parts,
    PhaseSummary,
    Reason,
    RecordIdentity,
    Review,
    ReviewFormatError,
    ReviewSet,
    Summary,
    json_schema,
)

__all__ = [
    "LEVELS",
    "Alternative",
    "DealSummary",
    "DecisionReview",
    "Grade",
    "GradeCounts",
    "Parts",
    "PhaseSummary",
    "Progress",
    "Reason",
    "RecordIdentity",
    "Review",
    "ReviewChunk",
    "ReviewFormatError",
    "ReviewLevel",
    "ReviewSet",
    "Summary",
    "accuracy",
    "assemble_review",
    "grade_of",
    "json_schema",
    "plan_review",
    "review_chunk",
    "review_game",
    "review_seats",
]
