"""What each seat has seen of a deal, worked out once and carried on as the deal goes.

Every view of a seat holds the deal's events that seat may see, and its ``known_out`` (and a
bot's :func:`~chicago.engine.knowledge.knowledge` of it) folds those events into facts. On a
server's table the same seat is given a view after every action, each holding the events of
the one before and a few more; folding the whole deal again each time costs more than
everything else in a view. So a game holds a :class:`DealMemo` for its current deal, shared
with its copies (``Game.copy()``: the table server makes the next state as a copy of the
last, then applies the action): per seat a :class:`SeatLog`, the deal's events that seat
may see so far, and the facts folded from them (:class:`Fold`), each kept with how many of
the seat's events it has folded and carried on from there when asked about more.

The log and its facts only ever grow: a game extends a seat's log when its deal's events
begin with the ones the log was made of. That is checked cheaply, by identity, as events
cannot change and a copy shares its original's event objects: the deal's first event is
the memo's, and the last event the seat's log has read is the very object at the same
place of the game's log (a game that went another way since the copy, or one further
behind, holds other objects or fewer). A game that does not extend the memo gets a memo of
its own, so nothing one game asks changes what another reads: a bot deciding on a copy never
changes the stored game. Asked about fewer events than a fact has folded (an older view),
the fact is folded afresh for them and the kept one stays.

The events a view holds are a :class:`SeenEvents`: a tuple, equal to any tuple of the same
events, that knows the log of its seat; a view's events made elsewhere are folded afresh.
A seat's log holds nothing but what that seat may see.

Memory: per live game, about 6 KB for a four-seat deal of about 60 events (five logs of the
seats and the spectators, their lists of events and two facts each).

A memo's locks make it safe to share between threads (a bot thinking in a worker thread
while the event loop builds the next view of the same seat).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from chicago.engine.events import Event
from chicago.rules import Rules

__all__ = ["DealMemo", "Fold", "SeatLog", "SeenEvents"]

S = TypeVar("S")
R = TypeVar("R")


class Fold(Generic[S]):
    """A fact of a seat's log, worked out one event after the other: ``start(log)`` makes
    the state before any event, ``advance(state, events, log)`` gives the state after
    ``events`` (changed in place, or a new one)."""

    __slots__ = ("advance", "name", "start")

    def __init__(self, name: str, start: Callable[[SeatLog], S],
                 advance: Callable[[S, Sequence[Event], SeatLog], S]) -> None:
        self.name = name
        self.start = start
        self.advance = advance

    def __repr__(self) -> str:
        return f"Fold({self.name!r})"


class SeenEvents(tuple[Event, ...]):
    """The events of a deal one seat may see, as its view holds them (a tuple equal to any
    tuple of the same events), with :attr:`log`, the seat's log they were taken from."""

    log: SeatLog
    """The seat's log: these events are its first ``len(self)``."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (copied) as a plain tuple: the log stays behind."""
        return (tuple, (tuple(self),))


class SeatLog:
    """The events of a deal one seat may see so far (``seat`` None: the public ones) and
    the facts folded from them (see the module docstring)."""

    __slots__ = ("_facts", "_last", "_lock", "_scanned", "_seen", "players", "rules", "seat",
                 "visible")

    def __init__(self, seat: int | None, players: int, rules: Rules) -> None:
        self.seat = seat
        self.players = players
        self.rules = rules
        self.visible: list[Event] = []
        """The seat's events of the deal so far, in order (only ever appended to)."""
        self._scanned = 0  # events of the deal read (the seat's and the others')
        self._last: Event | None = None  # the last of them
        self._seen: SeenEvents | None = None  # the latest tuple given out
        self._facts: dict[Fold[Any], tuple[int, Any]] = {}
        self._lock = threading.Lock()

    def seen(self) -> SeenEvents:
        """Every event of the log so far as a :class:`SeenEvents` (the same object until
        the log grows)."""
        seen = self._seen
        if seen is None or len(seen) != len(self.visible):
            seen = SeenEvents(self.visible)
            seen.log = self
            self._seen = seen
        return seen

    def read(self, fold: Fold[S], count: int, read: Callable[[S], R]) -> R:
        """``read`` of the state of ``fold`` after the first ``count`` events of the log:
        carried on from the kept state when it has folded no more than them (and kept),
        else folded afresh. ``read`` runs under the log's lock: it copies out what it
        needs, as the kept state goes on changing."""
        if not 0 <= count <= len(self.visible):
            raise ValueError(f"the log holds {len(self.visible)} events, not {count}")
        with self._lock:
            kept = self._facts.get(fold)
            if kept is not None and kept[0] <= count:
                done, state = kept
                if done < count:
                    state = fold.advance(state, self.visible[done:count], self)
                    self._facts[fold] = (count, state)
                return read(state)
            state = fold.advance(fold.start(self), self.visible[:count], self)
            if kept is None:
                self._facts[fold] = (count, state)
            return read(state)

    def _follow(self, events: list[Event], start: int) -> bool:
        """Read the deal's events after those read before (``events[start:]`` is the
        deal): False, changing nothing, when they do not begin with those."""
        scanned = self._scanned
        end = len(events) - start
        if end < scanned or (scanned and events[start + scanned - 1] is not self._last):
            return False
        if end > scanned:
            seat = self.seat
            new = events[start + scanned:]
            if seat is None:
                self.visible.extend([e for e in new if not e.private])
            else:
                self.visible.extend([e for e in new if not e.private or e.audience == seat])
            self._scanned = end
            self._last = events[-1]
        return True


class DealMemo:
    """The :class:`SeatLog` of each seat (and the spectators) in one deal, shared by a game
    and its copies (see the module docstring)."""

    __slots__ = ("_lock", "first", "logs", "players", "rules")

    def __init__(self, first: Event | None, players: int, rules: Rules) -> None:
        self.first = first
        """The deal's first event (its deal), by which a game's deal is told apart."""
        self.players = players
        self.rules = rules
        self.logs: dict[int | None, SeatLog] = {}
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as an empty memo that no deal's events match (the cache stays behind)."""
        return (DealMemo, (None, self.players, self.rules))

    def log(self, seat: int | None, events: list[Event], start: int) -> SeatLog | None:
        """The log of ``seat`` brought up to ``events`` (a game's whole log; its deal from
        ``start``), or None when they do not extend it (the game needs a memo of its own)."""
        with self._lock:
            log = self.logs.get(seat)
            if log is None:
                log = self.logs[seat] = SeatLog(seat, self.players, self.rules)
            return log if log._follow(events, start) else None
