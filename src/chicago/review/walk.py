"""The decisions of one seat in a record, found by replaying it through the engine.

A decision is an action of the seat when it had more than one legal action (a forced move
is no decision). Each :class:`DecisionPoint` carries the seat's view and legal actions
then, which is all the fair values may use, and the real game at that moment, which only
the values with all cards known (:mod:`chicago.review.hindsight`) read.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass

from chicago.engine import Action, Game, SeatView
from chicago.engine.errors import RecordError
from chicago.engine.records import start_record
from chicago.record import replay_record

__all__ = ["DecisionPoint", "count_decisions", "decision_points", "final_game"]


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of the seat: its view, the legal actions and what it did."""

    step: int
    """The record's action number (1-based)."""
    deal: int
    view: SeatView
    legal: tuple[Action, ...]
    action: Action
    game: Game
    """The real game just before the action (for the values with all cards known only)."""


def final_game(record: Mapping[str, object]) -> Game:
    """The record replayed to its end (RecordError for a bad record)."""
    return replay_record(record)


def _walk(record: Mapping[str, object], last_deal: int | None = None
          ) -> Iterator[tuple[int, Game, Action]]:
    game, actions = start_record(record, Game)
    for number, (_, text) in enumerate(actions, start=1):
        if last_deal is not None and game.deal_number > last_deal:
            return
        if not isinstance(text, str):
            raise RecordError(f"action {number}: {text!r} is not an action's text", number)
        action = Action.parse(text)
        yield number, game, action
        game.apply(action)


def decision_points(
    record: Mapping[str, object], seat: int, deals: tuple[int, int] | None = None
) -> Iterator[DecisionPoint]:
    """The seat's decisions in order (only those of the deals ``first`` to ``last`` of
    ``deals``, if given). The record must be valid (check it with :func:`final_game`)."""
    first, last = deals if deals is not None else (0, None)
    for number, game, action in _walk(record, last):
        if game.to_act != seat or game.deal_number < first:
            continue
        legal = game.legal_actions()
        if len(legal) > 1:
            yield DecisionPoint(
                number, game.deal_number, game.view(seat), tuple(legal), action, game
            )


def count_decisions(record: Mapping[str, object], seats: Container[int]
                    ) -> dict[tuple[int, int], int]:
    """(seat, deal) → how many decisions the seat made in that deal, for ``seats``."""
    counts: dict[tuple[int, int], int] = {}
    for _, game, _ in _walk(record):
        seat = game.to_act
        if seat is not None and seat in seats and len(game.legal_actions()) > 1:
            key = (seat, game.deal_number)
            counts[key] = counts.get(key, 0) + 1
    return counts
