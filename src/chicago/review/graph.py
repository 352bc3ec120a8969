"""The game graph: every seat's score through the game, and where a reviewed seat lost points.

:func:`score_graph` reads a record (replayed by the engine: the scores after each deal) and,
if given, a seat's :class:`~chicago.review.Review` (the expected points it lost in each
deal). :func:`sparkline` draws a row of numbers as block characters for the terminal
(``chicago review``); the browser draws the same data as an SVG chart (``js/graph.js``).

>>> sparkline([0, 6, 6, 20, 52], top=52)
'▁▂▂▄█'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chicago.review.model import Review
from chicago.review.walk import final_game

__all__ = ["BLOCKS", "ScoreGraph", "score_graph", "sparkline"]

BLOCKS = "▁▂▃▄▅▆▇█"
"""The eight heights of a sparkline, lowest first."""


@dataclass(frozen=True, slots=True)
class ScoreGraph:
    """The scores after each deal (``scores[d][seat]``, the first row the start: all 0),
    the target, and the reviewed seat's points lost per deal (``losses[d]``, the first 0)."""

    scores: tuple[tuple[int, ...], ...]
    target: int
    seat: int | None = None
    losses: tuple[float, ...] = ()

    @property
    def players(self) -> int:
        """How many seats the graph has."""
        return len(self.scores[0])


def score_graph(record: Mapping[str, object], review: Review | None = None) -> ScoreGraph:
    """The graph of the game of ``record`` (RecordError for a bad one), with the losses of
    ``review``'s seat where given."""
    game = final_game(record)
    start = tuple(0 for _ in range(game.players))
    rows = [start, *(tuple(h.scores) for h in game.deal_history)]
    losses: tuple[float, ...] = ()
    seat = None
    if review is not None:
        seat = review.seat
        by_deal = {d.deal: d.loss for d in review.summary.deals}
        losses = tuple([0.0] + [by_deal.get(number, 0.0) for number in range(1, len(rows))])
    return ScoreGraph(tuple(rows), game.rules.target, seat, losses)


def sparkline(values: Sequence[float], top: float | None = None) -> str:
    """``values`` as block characters, the lowest block for 0 (or less) and the highest for
    ``top`` (default the largest value) or more."""
    if not values:
        return ""
    high = max(values) if top is None else top
    if high <= 0:
        return BLOCKS[0] * len(values)
    last = len(BLOCKS) - 1
    return "".join(BLOCKS[max(0, min(last, round(last * v / high)))] for v in values)
