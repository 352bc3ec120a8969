"""Whose turn it is and what the table waits for: the core's clock decisions.

After every change the table waits for one thing at most (:func:`next_turn`): the end of the
pause after a deal, a bot's move (the seat's own bot, or the table's stand-in for a person
who is away) after the table's ``bot_delay``, or the turn clock of the person to act. The
scheduler (:mod:`chicago.server.schedule`) sets a timer for it; when the timer fires on an
unchanged table, the decision it was set for still holds and is made
(:func:`chicago.server.core.decide.act` with ``by`` its kind).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from chicago.server.core.state import TableState

__all__ = ["AnswersRun", "BotMoves", "ClockRuns", "PauseRuns", "Turn", "next_turn"]


@dataclass(frozen=True, slots=True)
class PauseRuns:
    """The pause after a deal ends by itself in ``wait`` seconds."""

    wait: float


@dataclass(frozen=True, slots=True)
class BotMoves:
    """The bot of ``level`` plays ``seat`` after ``delay`` seconds: the seat's own bot
    (``by`` "bot") or the table's stand-in for a person who is away (``by`` "stand-in")."""

    seat: int
    by: str
    level: str
    delay: float


@dataclass(frozen=True, slots=True)
class ClockRuns:
    """The person of ``seat`` is to act with ``left`` seconds on the turn clock; when it runs
    out, the stand-in makes this one decision (``by`` "clock")."""

    seat: int
    left: float


@dataclass(frozen=True, slots=True)
class AnswersRun:
    """After a game, the people who have not answered Play again have ``wait`` seconds left;
    then their seats are open again (:func:`chicago.server.core.rematch.answers_over`)."""

    wait: float


@functools.lru_cache(maxsize=1024)
def _bot_moves(seat: int, by: str, level: str, delay: float) -> BotMoves:
    """``BotMoves(seat, by, level, delay)``, one object per value: a table asks whose turn
    follows after every change and three to four times for each person move, and a frozen
    dataclass made anew costs about as much as the rest of :func:`next_turn` (issue 28,
    thirty-seventh pass); the object is immutable, so one made earlier is as good."""
    return BotMoves(seat, by, level, delay)


Turn = PauseRuns | BotMoves | ClockRuns | AnswersRun
"""What a table waits for."""


def next_turn(state: TableState, at: float) -> Turn | None:
    """What the table waits for at UNIX time ``at``; None when nothing (it waits for a player,
    the game is over and nobody is asked to play again, or a person without a clock is to
    act)."""
    game = state.game
    if game is None:
        return None
    over = game.is_over
    vote = state.vote
    if vote is not None and over:
        return AnswersRun(max(0.0, vote.until - at)) if vote.unanswered(state.seats) else None
    if over or state.closed:  # the table's status is "finished"
        return None
    for info in state.seats:
        if info.kind == "open":  # "waiting"
            return None
    if state.pause is not None:
        return PauseRuns(max(0.0, state.pause.until - at))
    seat = game.to_act
    if seat is None:
        return None
    info = state.seats[seat]
    if info.kind == "bot":
        return _bot_moves(seat, "bot", info.level or "random", state.bot_delay)
    if info.away:
        return _bot_moves(seat, "stand-in", state.stand_in, state.bot_delay)
    if state.clock:
        left = state.clock_left(at)
        return ClockRuns(seat, state.clock if left is None else max(0.0, left))
    return None
