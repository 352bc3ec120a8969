"""Play again, by agreement: the question every person at a table is asked when a game ends.

When a game ends (not a tournament's: its next round seats everyone again), the table asks
each person at it whether to play again (a :class:`Vote`); bots always agree. The next game
starts, with the same seats, when every person has agreed and no seat is open. Each person
answers for themselves:

- **agree** (:func:`agree`, a ``rematch`` entry): they wait for the others;
- **decline** (:func:`decline`, a ``leave`` entry): they leave the table and their seat is
  open again, for another person (who agrees by taking it) or a bot (:func:`fill`, asked by
  a person who agreed);
- **no answer**: when the table's answer time (``TableOptions.answer_seconds``) runs out,
  the seats of those who did not answer are open again (:func:`answers_over`).

When nobody who agreed is left at the table, it closes (a ``close`` entry): no game is
played there again. Like every decision of the core these read no clock and change nothing:
they return the :class:`~chicago.server.core.rows.Change` to store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from chicago.engine.game import Game
from chicago.server.core.rows import Change, GameRow, LogEntry, SeatHolder
from chicago.server.protocol import TableError

if TYPE_CHECKING:
    from chicago.server.core.seats import Seat
    from chicago.server.core.state import TableState

__all__ = [
    "REMATCH_KINDS",
    "Vote",
    "VoteInfo",
    "agree",
    "answers_over",
    "decline",
    "fill",
    "next_game",
    "starts_next",
    "vote_info",
    "with_next_game",
]

REMATCH_KINDS = ("rematch", "close")
"""Log entry kinds of the question after a game (``leave`` and ``fill`` change seats)."""


@dataclass
class Vote:
    """The question after a game: the people who agreed to play again, and until when the
    others may answer (UNIX time)."""

    until: float
    agreed: set[int] = field(default_factory=set)

    def unanswered(self, seats: list[Seat]) -> list[int]:
        """The seats of the people who have not answered yet."""
        return [i for i, s in enumerate(seats) if s.kind == "human" and i not in self.agreed]


class VoteInfo(TypedDict):
    """The question after a game as table infos and frames carry it: who agreed, who has
    not answered, and the milliseconds left for them to answer (None: nobody is waited for)."""

    agreed: list[int]
    waiting: list[int]
    ms: int | None


def vote_info(state: TableState, at: float) -> VoteInfo | None:
    """The table's question after its game at UNIX time ``at``, or None when there is none."""
    vote = state.vote
    if vote is None:
        return None
    waiting = vote.unanswered(state.seats)
    ms = max(0, int((vote.until - at) * 1000)) if waiting else None
    return {"agreed": sorted(vote.agreed), "waiting": waiting, "ms": ms}


def _asked(state: TableState, seat: int) -> None:
    """TableError unless the table asks ``seat``'s person now whether to play again."""
    if not state.current.is_over:
        raise TableError("not_over", "the game is not over yet", 409)
    if state.options.tournament is not None:
        raise TableError("tournament_table", "a tournament table plays one game; the next "
                         "round seats everyone again", 409)
    if state.closed or state.vote is None:
        raise TableError("table_closed", "everyone left this table: no game is played here "
                         "again", 409)
    if state.seats[seat].kind != "human":
        raise TableError("not_seated", f"seat {seat} has no person", 409)


def starts_next(state: TableState, *, open_after: int, people_after: set[int],
                agreed_after: set[int]) -> bool:
    """Whether the next game starts after a change that leaves ``open_after`` seats open,
    ``people_after`` seats with people and ``agreed_after`` of them agreed."""
    return (state.vote is not None and not state.closed and open_after == 0
            and people_after <= agreed_after)


def next_game(state: TableState, *, seed: int, at: float, offset: int) -> Change:
    """The change that starts the table's next game (``seed``), its entry ``offset`` after
    the table's seq; same seats."""
    number = state.game_number + 1
    entry = LogEntry(state.seq + offset, number, "game", None,
                     {"number": number, "seed": seed}, at)
    return Change(
        state.id, [entry],
        new_game=GameRow(table_id=state.id, number=number, seed=seed, rules=state.row.rules,
                         players=state.players, status="playing", started_at=at),
        table_updates={"game": number, "status": "playing", "open_seats": 0,
                       "updated_at": at, "answer_by": None, "turn_at": at,
                       "to_act": Game(state.rules, state.players, seed=seed).to_act},
    )


def _people(state: TableState) -> set[int]:
    return {i for i, s in enumerate(state.seats) if s.kind == "human"}


def with_next_game(state: TableState, change: Change, *, seed: int, at: float) -> Change:
    """``change`` (decided on ``state``) followed by the start of the next game."""
    start = next_game(state, seed=seed, at=at, offset=len(change.entries) + 1)
    change.entries.extend(start.entries)
    change.new_game = start.new_game
    change.table_updates.update(start.table_updates)
    return change


def agree(state: TableState, seat: int, *, seed: int, at: float) -> Change | None:
    """The person of ``seat`` wants to play again; the next game starts (``seed``) when this
    was the last answer it waited for. None when they had agreed already."""
    _asked(state, seat)
    vote = state.vote
    assert vote is not None
    if seat in vote.agreed:
        return None
    change = Change(state.id, [state.entry("rematch", seat, {}, at)],
                    table_updates={"updated_at": at})
    agreed = vote.agreed | {seat}
    if starts_next(state, open_after=state.open_seats, people_after=_people(state),
                   agreed_after=agreed):
        return with_next_game(state, change, seed=seed, at=at)
    if not set(vote.unanswered(state.seats)) - {seat}:
        change.table_updates["answer_by"] = None  # nobody left to wait for
    return change


def _leaving(state: TableState, seats: list[int], reason: str, at: float) -> Change:
    """``leave`` entries for ``seats`` (and ``close`` when nobody who agreed is left)."""
    entries = [state.entry("leave", seat, {"reason": reason}, at, offset=i + 1)
               for i, seat in enumerate(seats)]
    vote = state.vote
    assert vote is not None
    staying = _people(state) - set(seats)
    agreed_staying = vote.agreed & staying
    unanswered_staying = staying - vote.agreed
    updates: dict[str, Any] = {"updated_at": at,
                               "open_seats": state.open_seats + len(seats)}
    if not agreed_staying and not unanswered_staying:
        entries.append(state.entry("close", None, {}, at, offset=len(entries) + 1))
        updates.update(status="finished", answer_by=None)
    else:
        updates["status"] = "waiting"
        if not unanswered_staying:
            updates["answer_by"] = None
    return Change(state.id, entries, table_updates=updates,
                  holders=[SeatHolder(seat, None, None) for seat in seats])


def decline(state: TableState, seat: int, *, at: float) -> Change:
    """The person of ``seat`` does not want to play again: they leave the table, their seat
    is open again; the table closes when nobody who agreed (or may still) is left."""
    _asked(state, seat)
    return _leaving(state, [seat], "declined", at)


def answers_over(state: TableState, *, at: float) -> Change | None:
    """The time to answer ran out: the people who did not answer leave the table. None when
    there is no question or nobody to wait for (or the time is not up at ``at``)."""
    vote = state.vote
    if vote is None or state.closed or at < vote.until:
        return None
    late = vote.unanswered(state.seats)
    if not late:
        return None
    return _leaving(state, late, "timeout", at)


def fill(state: TableState, seat: int, *, seed: int, at: float) -> Change:
    """A person who agreed to play again (``seat``) gives the open seats to bots (the
    table's stand-in level); the next game starts when everyone else has agreed too."""
    _asked(state, seat)
    vote = state.vote
    assert vote is not None
    if seat not in vote.agreed:
        raise TableError("not_agreed", "say Play again first; then the open seats may be "
                         "given to bots", 409)
    open_seats = [i for i, s in enumerate(state.seats) if s.kind == "open"]
    if not open_seats:
        raise TableError("no_open_seat", "every seat is taken", 409)
    level = state.stand_in
    entries = [state.entry("fill", i, {"level": level}, at, offset=n + 1)
               for n, i in enumerate(open_seats)]
    change = Change(state.id, entries, table_updates={"updated_at": at, "open_seats": 0,
                                                      "status": "finished"})
    if starts_next(state, open_after=0, people_after=_people(state), agreed_after=vote.agreed):
        return with_next_game(state, change, seed=seed, at=at)
    return change
