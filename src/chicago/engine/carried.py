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

The memo and its logs only ever grow: the memo holds the deal's events as far as any game
sharing it has asked, and a game's deal is either a beginning of them (an older state) or
them and more (a newer one), which extends them. That is checked cheaply, by identity, as
events cannot change and a copy shares its original's event objects: the deal's first event
is the memo's, and the game's last event (or, for a newer game, the memo's last) is the
very object at the same place of the other log; a game that went another way since the copy
holds other objects there. Such a game gets a memo of its own, so nothing one game asks
changes what another reads: a bot deciding on a copy never changes the stored game. Asked
about fewer events than a fact has folded (an older view), the fact is folded afresh for
them and the kept one stays.

The events a view holds are a :class:`SeenEvents`: a tuple, equal to any tuple of the same
events, that knows the log of its seat; a view's events made elsewhere are folded afresh.
A seat's log holds nothing but what that seat may see.

Memory: one memo per live table (the states of a table share it; it goes with the deal):
at the end of a four-seat pagat deal of about 65 events, with every seat's view and the
knowledge of each seat to act made, a median of about 28 KB (20 deals, at most 33 KB; the
game's own state beside it, its events left out, about 18 KB): per seat its tuple of events,
its card places (about 2.5 KB) and its knowledge walk (about 3 KB), and the public scoring
rounds.

A memo's locks make it safe to share between threads (a bot thinking in a worker thread
while the event loop builds the next view of the same seat).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from chicago.engine.events import EVENT_TYPES, Event
from chicago.engine.native import ENGINE
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
    """The events of a deal one seat may see (``seat`` None: the public ones), read from
    its memo's events, and the facts folded from them (see the module docstring)."""

    __slots__ = ("_facts", "_lock", "_scanned", "_seen", "players", "rules", "seat")

    def __init__(self, seat: int | None, players: int, rules: Rules) -> None:
        self.seat = seat
        self.players = players
        self.rules = rules
        self._scanned = 0  # the deal's events read
        self._seen: tuple[Event, ...] = ()  # the seat's events among them
        # a plain tuple: a SeenEvents kept here would hold the log that holds it, a cycle
        # that only the garbage collector frees (every deal's logs and their facts)
        self._facts: dict[Fold[Any], tuple[int, Any]] = {}
        self._lock = threading.Lock()

    def _events(self, events: Sequence[Event]) -> SeenEvents:
        seen = SeenEvents(events)
        seen.log = self
        return seen

    def seen(self, deal: list[Event], count: int) -> SeenEvents:
        """The seat's events among the first ``count`` of ``deal`` (the memo's, read
        already) as a :class:`SeenEvents` (a new one each time: the log keeps none)."""
        seen = self._seen
        if count == self._scanned:
            return self._events(seen)
        # an older state: as many of the log's events as the seat saw among those
        seat = self.seat
        visible = sum(1 for e in deal[:count]
                      if not e.private or (seat is not None and e.audience == seat))
        return self._events(seen[:visible])

    def seen_count(self, deal: list[Event], count: int) -> int:
        """How many of the log's events are among the first ``count`` of ``deal`` (the
        memo's, read already): ``len(self.seen(deal, count))`` without making them."""
        if count == self._scanned:
            return len(self._seen)
        seat = self.seat
        return sum(1 for e in deal[:count]
                   if not e.private or (seat is not None and e.audience == seat))

    def read(self, fold: Fold[S], count: int, read: Callable[[S], R]) -> R:
        """``read`` of the state of ``fold`` after the first ``count`` events of the log:
        carried on from the kept state when it has folded no more than them (and kept),
        else folded afresh. ``read`` runs under the log's lock: it copies out what it
        needs, as the kept state goes on changing."""
        seen = self._seen
        if not 0 <= count <= len(seen):
            raise ValueError(f"the log holds {len(seen)} events, not {count}")
        with self._lock:
            kept = self._facts.get(fold)
            if kept is not None and kept[0] <= count:
                done, state = kept
                if done < count:
                    state = fold.advance(state, seen[done:count], self)
                    self._facts[fold] = (count, state)
                return read(state)
            state = fold.advance(fold.start(self), seen[:count], self)
            if kept is None:
                self._facts[fold] = (count, state)
            return read(state)

    _read_python = read  # kept when the accelerator's takes its place (see the module end)

    def _read(self, deal: list[Event], count: int) -> None:
        """Read the deal's events up to the first ``count`` of ``deal`` (the memo's)."""
        done = self._scanned
        if count <= done:
            return
        seat = self.seat
        if seat is None:
            new = [e for e in deal[done:count] if not e.private]
        else:
            new = [e for e in deal[done:count] if not e.private or e.audience == seat]
        if new:
            self._seen = (*self._seen, *new)
        self._scanned = count


class DealMemo:
    """The deal's events read so far and the :class:`SeatLog` of each seat (and the
    spectators), shared by a game and its copies (see the module docstring)."""

    __slots__ = ("_lock", "deal", "first", "logs", "players", "rules")

    def __init__(self, first: Event | None, players: int, rules: Rules) -> None:
        self.first = first
        """The deal's first event (its deal), by which a game's deal is told apart."""
        self.players = players
        self.rules = rules
        self.deal: list[Event] = []
        """The deal's events read so far, from any game that shares the memo."""
        self.logs: dict[int | None, SeatLog] = {}
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as an empty memo that no deal's events match (the cache stays behind)."""
        return (DealMemo, (None, self.players, self.rules))

    def seen(self, seat: int | None, events: list[Event], start: int,
             stop: int | None = None) -> SeenEvents | None:
        """The events of the deal ``events[start:stop]`` (a game's whole log; ``stop`` None:
        its end) that ``seat`` may see, from its log; None when the deal's events are not
        those the memo read or more of them (a game that went another way: it needs a memo
        of its own)."""
        with self._lock:
            found = self._read(seat, events, start, stop)
            return None if found is None else found[0].seen(self.deal, found[1])

    def log(self, seat: int | None, events: list[Event], start: int,
            stop: int | None = None) -> tuple[SeatLog, int] | None:
        """:meth:`seen` as the seat's log and the number of its events that :meth:`seen`
        gives (``len(seen(...))``), without making them: for a caller that reads a fact
        of the log (:meth:`SeatLog.read`) and keeps no events; None as for :meth:`seen`."""
        with self._lock:
            found = self._read(seat, events, start, stop)
            if found is None:
                return None
            log, count = found
            return log, log.seen_count(self.deal, count)

    # kept when the accelerator's take their place (see the module end)
    _seen_python = seen
    _log_python = log

    def _read(self, seat: int | None, events: list[Event], start: int,
              stop: int | None) -> tuple[SeatLog, int] | None:
        """The seat's log, read up to the deal's events, and their number, or None (see
        :meth:`seen`); under the memo's lock."""
        count = (len(events) if stop is None else stop) - start
        deal = self.deal
        done = len(deal)
        if count <= done:
            if count and deal[count - 1] is not events[start + count - 1]:
                return None
        else:
            if done and deal[done - 1] is not events[start + done - 1]:
                return None
            deal.extend(events[start + done:start + count])
        log = self.logs.get(seat)
        if log is None:
            log = self.logs[seat] = SeatLog(seat, self.players, self.rules)
        log._read(deal, count)
        return log, count


def _install_accelerator() -> bool:
    """Put the accelerator's ``DealMemo.seen``, ``DealMemo.log`` and ``SeatLog.read`` on the
    classes when it is built and allowed (:data:`chicago.engine.native.ENGINE`; issue 28,
    forty-first pass), the Python methods kept as ``_seen_python``, ``_log_python`` and
    ``_read_python``; True when they are on. Both give the same (tests/test_memo_reads.py).
    """
    if ENGINE is None:
        return False
    kinds = {kind: ("_seat" if kind.private else None) for kind in EVENT_TYPES.values()}
    ENGINE.install_memo({"DealMemo": DealMemo, "SeatLog": SeatLog, "SeenEvents": SeenEvents,
                         "Fold": Fold, "kinds": kinds})
    return True


ACCELERATED = _install_accelerator()
"""Whether the memo's reads are the accelerator's (else the Python methods serve)."""
