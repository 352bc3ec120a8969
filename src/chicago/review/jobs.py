"""A review in jobs for a pool of worker processes: the pieces :func:`plan_review` and
:func:`review_chunk` (from :mod:`chicago.review.core`), and these two, all plain functions
of picklable arguments that import nothing beyond the review itself (the table server runs
them in processes it starts with ``spawn``).

>>> import json
>>> from chicago import Game, Rules
>>> from chicago.review import Review, review_game
>>> game = Game(Rules.preset("pagat", max_deals=1), players=3, seed=5)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> record = game.record()
>>> chunks = plan_review(record, [0], pieces=2)
>>> judged = [d for c in chunks for d in review_chunk(record, c, level="ev:samples=2")]
>>> done = finish_review(record, 0, judged, level="ev:samples=2")
>>> Review.from_json(json.loads(done.text)) == review_game(record, 0, level="ev:samples=2")
True
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from chicago.review.core import assemble_review, plan_review, review_chunk
from chicago.review.levels import ReviewLevel
from chicago.review.model import DecisionReview

__all__ = ["FinishedReview", "finish_review", "plan_review", "review_chunk", "worker_started"]


@dataclass(frozen=True, slots=True)
class FinishedReview:
    """A seat's review as it is stored: its JSON text and the summary's main figures."""

    text: str
    accuracy: float
    loss: float
    decisions: int


def finish_review(
    record: Mapping[str, object], seat: int, decisions: Iterable[DecisionReview], *,
    level: str | ReviewLevel = "expert", seed: int = 0, hindsight: bool = False,
    name: str | None = None,
) -> FinishedReview:
    """The seat's review from all its judged decisions (:func:`assemble_review`), as
    compact JSON: the same review as :func:`review_game` would make."""
    review = assemble_review(record, seat, decisions, level=level, seed=seed,
                             hindsight=hindsight, name=name)
    text = json.dumps(review.to_json(), separators=(",", ":"))
    return FinishedReview(text, review.summary.accuracy, review.summary.loss,
                          review.summary.decisions)


def worker_started(nice: int, parent: int) -> None:
    """The initializer of a review worker process: lower its priority by ``nice`` (where
    the system has priorities), so that reviews take what the server's own process and
    the bots leave of the processor; and end the process when its parent, the process
    ``parent`` (its id, given by the parent itself: it may be gone before this runs), is."""
    threading.Thread(target=_watch_parent, args=(parent,), name="chicago-review-parent",
                     daemon=True).start()
    if nice > 0 and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not allowed here: the normal priority
            os.nice(nice)


def _watch_parent(parent: int, every: float = 1.0) -> None:
    """Exit once the parent process is gone (a server killed with SIGKILL runs no shutdown):
    a pool's worker waits for work on a pipe whose other end it holds itself, so it would
    never notice, and would stay behind forever."""
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(every)
