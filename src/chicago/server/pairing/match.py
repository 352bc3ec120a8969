"""Who sits with whom: the pairing queue's decisions, pure (no I/O, no clock of its own).

A waiting place (:class:`Waiting`) belongs to one queue (:class:`QueueKey`: the preset,
the number of players, rated or not). :func:`form_tables` takes every waiting place and the
time, and says which tables to form now:

1. *People first*: in each queue, the oldest place (then the next oldest, …) is the anchor
   of a table; the places after it, oldest first, join it while they are compatible with
   everyone already at it, until it is full. A full table forms; the anchors that found no
   full table wait on. In an unrated queue every place is compatible with every other (of
   another profile), so the first N to arrive make a table: first come, first seated.
2. *Then bots*: a place whose wait is over (``queued_at + wait <= now``; ``wait`` None never
   is) takes the other places of its queue whose wait is over too, while compatible, and
   bots fill the rest of the table.

Compatible: never two places of one profile at one table; in a rated queue, the two
ratings differ by at most what *both* allow (:func:`allowed_gap`: a start that widens with
the time each has waited). Every place is in at most one formed table.

>>> key = QueueKey("pagat", 2, False)
>>> [t.places for t in form_tables([Waiting(1, key, 0.0, None), Waiting(2, key, 5.0, None)], 9.0)]
[(1, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "GAP_START",
    "GAP_WIDENS",
    "Formed",
    "QueueKey",
    "Waiting",
    "allowed_gap",
    "compatible",
    "form_tables",
    "next_deadline",
]

GAP_START = 3.0
"""The rating difference (in the ratings' ``mu``) a rated place accepts at once."""

GAP_WIDENS = 0.05
"""How much more it accepts per second it has waited (3 more a minute)."""


@dataclass(frozen=True, slots=True, order=True)
class QueueKey:
    """One queue: tables of this preset and number of players, rated or not."""

    preset: str
    players: int
    rated: bool


@dataclass(frozen=True, slots=True)
class Waiting:
    """One waiting place: its arrival number (``number``, unique, growing), its queue, when
    it came (UNIX time), the seconds before bots may fill its table (0: at once; None:
    never), and for a profile its id and rating (``mu`` on the queue's ladder)."""

    number: int
    key: QueueKey
    queued_at: float
    wait: float | None
    profile: str | None = None
    rating: float | None = None

    def wait_over(self, now: float) -> bool:
        """True once bots may fill this place's table."""
        return self.wait is not None and self.queued_at + self.wait <= now


@dataclass(frozen=True, slots=True)
class Formed:
    """A table to form: its queue, its people's places (arrival numbers, in seat order) and
    how many bots fill the other seats."""

    key: QueueKey
    places: tuple[int, ...]
    bots: int


def allowed_gap(place: Waiting, now: float) -> float:
    """The rating difference a rated place accepts after waiting until ``now``."""
    return GAP_START + GAP_WIDENS * max(0.0, now - place.queued_at)


def compatible(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit at one table (see the module docstring)."""
    if a.key != b.key or a.number == b.number:
        return False
    if a.profile is not None and a.profile == b.profile:
        return False
    if not a.key.rated:
        return True
    if a.rating is None or b.rating is None:
        return False
    return abs(a.rating - b.rating) <= min(allowed_gap(a, now), allowed_gap(b, now))


def _group(anchor: Waiting, others: Iterable[Waiting], size: int, now: float) -> list[Waiting]:
    """The anchor and the first of ``others`` compatible with everyone taken, up to
    ``size`` places."""
    group = [anchor]
    for other in others:
        if len(group) == size:
            break
        if all(compatible(other, taken, now) for taken in group):
            group.append(other)
    return group


def _first_full(queue: list[Waiting], now: float) -> list[Waiting] | None:
    size = queue[0].key.players if queue else 0
    for index, anchor in enumerate(queue):
        group = _group(anchor, queue[index + 1:], size, now)
        if len(group) == size:
            return group
    return None


def _first_expired(queue: list[Waiting], now: float) -> list[Waiting] | None:
    over = [p for p in queue if p.wait_over(now)]
    if not over:
        return None
    return _group(over[0], over[1:], over[0].key.players, now)


def form_tables(places: Sequence[Waiting], now: float) -> list[Formed]:
    """The tables to form now from these waiting places (see the module docstring), the
    queues' tables in the order of their first arrival, each table's places in arrival
    order."""
    queues: dict[QueueKey, list[Waiting]] = {}
    for place in sorted(places, key=lambda p: (p.queued_at, p.number)):
        queues.setdefault(place.key, []).append(place)
    formed: list[Formed] = []
    for key, queue in queues.items():
        while queue:
            group = _first_full(queue, now) or _first_expired(queue, now)
            if group is None:
                break
            taken = {p.number for p in group}
            queue[:] = [p for p in queue if p.number not in taken]
            formed.append(Formed(key, tuple(p.number for p in group),
                                 key.players - len(group)))
    return formed


def next_deadline(places: Iterable[Waiting], now: float) -> float | None:
    """When the next wait ends after ``now`` (the time a pass must run by), None if no
    place waits for bots."""
    ends = [p.queued_at + p.wait for p in places
            if p.wait is not None and p.queued_at + p.wait > now]
    return min(ends) if ends else None
