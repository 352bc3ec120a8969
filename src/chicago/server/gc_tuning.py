"""The garbage collector of a serving process (``Settings.tune_gc``; docs/SERVER.md, "Load
on one worker", the ninth, eleventh and eighteenth passes, and "Where the tail comes from").

Python's cyclic collector scans, at every full collection, every object that may hold
references: in a server, the modules, classes and functions that start-up made (most of the
idle process) as well as the tables. Under load a full collection took about 90 ms of the
event loop at 100 people, a tenth of its time in all (a native profile of the server), and
about 1.8 s at 1,000 people, where the tables' games, bots and log entries (about 1,100
tracked objects a table) are most of what it scans.

Once the server has started, :func:`tune_for_serving` freezes what exists (it is never
scanned again; what of it is freed later is freed by reference counting as before) and
makes the youngest generation larger (``Settings.gc_young_threshold``), so that objects
that live a little while (a view, a frame) are mostly gone before a collection looks at
them. From then on the survivors of *every* collection are frozen too
(:class:`OldObjects`): an object is scanned by the one young collection after it was made
and, if it still lives, never again; the middle and oldest generations stay empty, and
their collections (which scanned, over and over, the games, views and log entries of moves
in flight, most of them freed a moment later) no longer happen. A cycle among frozen
objects is never collected while they stay frozen, so every :data:`CHECK_EVERY`
collections the hook counts the frozen objects (if the heap's memory blocks have grown
enough for them to have reached their allowance, or after :data:`COUNT_EVERY_MOST`
collections: a count walks them all, about 0.1 s at 650,000); once they have grown by
a quarter since the last whole scan (:data:`THAW_GROWTH`: leaked cycles, or more tables) it
unfreezes them all and lets Python's own generations run until its next full collection,
which scans the whole heap once, as Python would have; then the freezing goes on.

In a server the growth that counts is per table (``load``, :data:`LOAD_GROWTH`): a server
filling up with tables would otherwise scan its whole heap at every quarter more tables,
holding the loop 0.4-0.8 s of CPU at 500 people (docs/SERVER.md, "Where the tail comes
from"); and a thaw asks the loop for its full collection at once (``collect_soon``). A
table's objects grow with its current game's log (about four objects an entry), so the
load is each table's share plus its game's entries (:func:`table_load`): counted by tables
alone, the first whole scan (made early, the games in their first deals: about 415 objects
a table) set an allowance that the same tables' games passed a minute later, and a whole
scan of 1.4 million objects held the loop 1.3-1.6 s of CPU at 1,000 people (the fifty-second
pass).

From :data:`YOUNG_SCANS_BELOW` tables held on (``Settings.gc_young_scans_below``), young
collections scan nothing: they freeze what they would have scanned. A busy loop keeps each
move's objects alive through several young collections, which then scan them only to
freeze them; a move leaves no cycle, so nothing is lost (docs/SERVER.md, the forty-seventh
pass). A cycle made meanwhile waits, frozen, for the next whole scan, as any frozen cycle.

So what lives as long as a connection or a table must not end in a reference cycle: frozen
while it lived, it would wait for that thaw. A websocket connection of ``chicago serve``
leaves none (docs/SERVER.md, "Connections without cycles";
tests/server/test_connection_cycles.py).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["CHECK_EVERY", "COUNT_EVERY_MOST", "FIRST_CHECK_EVERY", "LOAD_GROWTH",
           "TABLE_SHARE", "THAW_GROWTH", "YOUNG_MAX", "YOUNG_SCANS_BELOW", "YOUNG_THRESHOLD",
           "OldObjects", "check_young_scans_below", "table_load", "tune_for_serving", "untune"]

YOUNG_THRESHOLD = 5_000
"""Allocations (minus deallocations) of tracked objects between two collections of the
youngest generation (Python's default: 700); ``Settings.gc_young_threshold``'s default."""

YOUNG_MAX = 1_000_000
"""The largest young threshold a server takes (``chicago serve --gc-young``): a hundred
times the most ever measured useful, far below what the collector's C int can hold (a
larger number would stop the server's start with an overflow)."""

YOUNG_SCANS_BELOW = 500
"""Tables held from which young collections no longer scan (``Settings.gc_young_scans_below``'s
default). Below it a young collection finds most of a move's objects already gone (the loop
keeps up: at 250 people a collection came every 275 ms, a move's objects lived about 30 ms);
at 1,000 people the loop is saturated, a move's objects wait in it through several
collections (one every 52 ms), and each young collection only scans live objects, to
freeze them (docs/SERVER.md, issue 28's forty-fifth and forty-seventh passes). A move leaves
no cyclic garbage (tests/server/test_move_cycles.py), so freezing them unscanned loses
nothing a young collection would have freed."""

THAW_GROWTH = 1.25
"""The frozen objects are all scanned once more (unfrozen until a full collection) when
they are this many times as many as after the last such whole scan: what a frozen cycle may
leak at most, relative to what lives (Python's own rule for full collections uses the same
quarter)."""

LOAD_GROWTH = 3.0
"""With a load count: the frozen objects per unit of load (start-up's apart) may grow to
this many times what the last whole scan left before the next one. Larger than
:data:`THAW_GROWTH` because a table's objects grow with its game's log: about 450 a table
when the first whole scan saw 83 tables early in their first deals, about 1,000 a minute
later at 500 people, no cycle among them; at 2.0 that growth alone brought a whole scan
of the full heap (0.6 s of CPU at 500 people), the stall this rule is there to avoid."""

TABLE_SHARE = 64
"""In :func:`table_load`: what a table holds beside its current game's log entries (its
state, seats, bots, views, connection), in entries' worth (about 250 objects; an entry with
its span and its share of the game's records is about four)."""


def table_load(tables: Iterable[Any]) -> int:
    """A server's load for the whole scans (``OldObjects(load=…)``): per table held,
    :data:`TABLE_SHARE` plus its current game's log entries (``table.state.entries``), so
    that a table's objects per unit of load stay about the same as its game goes on."""
    return sum(TABLE_SHARE + len(table.state.entries) for table in tables)


FIRST_CHECK_EVERY = 10
"""With a load count, until a whole scan has seen some load: collections between two
counts, so that the first whole scan (which gives the objects per unit of load) comes
while the heap is still small."""

CHECK_EVERY = 100
"""Collections between two counts of the frozen objects (a count walks them all; Python,
untuned, makes a full collection about every 100 young ones)."""

COUNT_EVERY_MOST = 10_000
"""Collections between two counts of the frozen objects at most, however little the heap
has grown: a count walks every frozen object with the loop held (about 0.15 µs each: 40-50
ms at 300,000, about 100 ms at 650,000, 129-177 ms of CPU at 1.3-1.6 million at 1,000
people), so between these the hook counts only when the heap's memory blocks
(``sys.getallocatedblocks``, which does not walk the objects) have grown enough for the
frozen objects to have reached their allowance. 1,000 until the fifty-second pass of issue
28: at 1,000 people a collection came about every 28 ms, and this count, which a leaked
cycle does not need (it grows the blocks too), held the loop every 28 s."""

OLDEST = 2
"""The generation a full collection collects."""


class OldObjects:
    """The ``gc.callbacks`` hook that freezes the survivors of each collection and, when
    the frozen objects have grown by :data:`THAW_GROWTH` since the last whole scan,
    unfreezes them until Python's next full collection has scanned them all.

    ``load``: a count of what the live objects grow with (a server's tables in memory).
    With it, growth that comes with more load is not a reason for a whole scan: the
    frozen objects are compared with what the last whole scan left *per unit of load*
    (start-up's frozen objects apart), so a server that fills up scans its whole heap
    only when its objects per table have grown by a quarter (cycles left behind), not
    every time it has a quarter more tables (docs/SERVER.md, "Where the tail comes from":
    at 500 people such a scan held the loop about 0.6-0.8 s). Until a whole scan has
    seen any load, the plain rule holds."""

    def __init__(self, growth: float = THAW_GROWTH, check_every: int = CHECK_EVERY,
                 load: Callable[[], int] | None = None,
                 load_growth: float = LOAD_GROWTH,
                 collect_soon: Callable[[], None] | None = None,
                 young_scans: bool = True,
                 young_scans_below: int | None = None,
                 tables: Callable[[], int] | None = None) -> None:
        self.growth = growth
        self.young_scans = young_scans
        """False: a young collection freezes its objects before it scans them, so it scans
        nothing: every object is frozen unscanned, and a cycle of them waits for the next
        whole scan (which the growth of the frozen objects brings, as for any frozen
        cycle); tuples the scan would have stopped tracking stay tracked until then."""
        self.young_scans_below = young_scans_below
        """With ``tables``: young collections scan (if :attr:`young_scans`) only while
        ``tables()`` is below this; from it on they freeze unscanned, as with
        ``young_scans`` False (None: always as :attr:`young_scans` says)."""
        self.tables = tables
        self.unscanned = 0
        """Young collections that froze their objects unscanned."""
        self.collect_soon = collect_soon
        """Asks for a full collection soon, outside this hook (a server: on its loop), so
        that a whole scan comes at once, while the heap is as small as it will be, rather
        than when Python's own rule for full collections allows it (which, after a thaw,
        took 15 s at 250 people, the heap growing meanwhile)."""
        self.load_growth = load_growth
        self.check_every = check_every
        self.load = load
        self.base = gc.get_freeze_count()
        """Frozen objects when the hook began (start-up's), which no load explains."""
        self.scanned = self.base
        """Frozen objects right after the last whole scan."""
        self.scanned_load = 0
        """``load()`` at the last whole scan (0 without ``load``)."""
        self.whole_scans = 0
        """Full collections that scanned the frozen objects too."""
        self.thawing = False
        """Whether everything is unfrozen, waiting for a full collection to scan it."""
        self.counts = 0
        """Counts of the frozen objects made (each walks them all)."""
        self.counted = self.base
        """Frozen objects at the last count (or whole scan)."""
        self.counted_blocks = sys.getallocatedblocks()
        """The heap's memory blocks at the last count (or whole scan)."""
        self._since_count = 0
        self._since_exact = 0

    def allowed(self) -> float:
        """The frozen objects beyond which the next count unfreezes them all: a quarter
        (:data:`THAW_GROWTH`) more than the last whole scan left, or, with ``load`` and a
        whole scan that saw some, start-up's plus :data:`LOAD_GROWTH` times that scan's
        objects per unit of load at today's load, if that is more."""
        if self.load is None or self.scanned_load <= 0:
            return self.scanned * self.growth
        per_load = max(self.scanned - self.base, 0) / self.scanned_load
        return max(self.scanned * self.growth,
                   self.base + per_load * self.load() * self.load_growth)

    def _grown(self) -> bool:
        self.counts += 1
        self._since_exact = 0
        self.counted = gc.get_freeze_count()
        self.counted_blocks = sys.getallocatedblocks()
        return self.counted > self.allowed()

    def may_have_grown(self) -> bool:
        """Whether a count could find the frozen objects past :meth:`allowed`: a frozen
        object that lives on holds at least one memory block of the heap, so they cannot
        have grown by much more than the heap's blocks since the last count. The count is
        made when the blocks have grown by half the frozen objects' room left at the last
        count (the other half a margin for blocks freed meanwhile that were not frozen
        objects), or after :data:`COUNT_EVERY_MOST` collections."""
        if self._since_exact >= COUNT_EVERY_MOST:
            return True
        room = self.allowed() - self.counted
        return sys.getallocatedblocks() - self.counted_blocks > room / 2

    def scans_young(self) -> bool:
        """Whether a young collection now scans its objects: :attr:`young_scans`, and
        fewer tables than :attr:`young_scans_below` (when both it and ``tables`` are
        given)."""
        if not self.young_scans:
            return False
        if self.young_scans_below is None or self.tables is None:
            return True
        return self.tables() < self.young_scans_below

    def _check_every(self) -> int:
        if self.load is not None and self.scanned_load <= 0:
            return min(self.check_every, FIRST_CHECK_EVERY)
        return self.check_every

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector at the start and stop of every collection."""
        full = info.get("generation") == OLDEST
        if phase == "start":
            if full and not self.thawing and self._grown():
                gc.unfreeze()  # this collection scans everything, frozen cycles included
                self.thawing = True
            elif not full and not self.thawing and not self.scans_young():
                gc.freeze()  # nothing left for this collection to scan
                self.unscanned += 1
            return
        if self.thawing:
            if full:  # the whole scan is done: freeze its survivors
                gc.freeze()
                self.scanned = self.counted = gc.get_freeze_count()
                self.counted_blocks = sys.getallocatedblocks()
                self._since_exact = 0
                self.scanned_load = self.load() if self.load is not None else 0
                self.whole_scans += 1
                self.thawing = False
            return  # until then Python's own generations, as untuned
        gc.freeze()  # what survived is out of later collections until a thaw
        self._since_count += 1
        self._since_exact += 1
        if self._since_count >= self._check_every():
            self._since_count = 0
            if self.may_have_grown() and self._grown():  # counted with these survivors
                gc.unfreeze()  # Python's next full collection scans it all
                self.thawing = True
                if self.collect_soon is not None:
                    self.collect_soon()


def tune_for_serving(young_threshold: int = YOUNG_THRESHOLD,
                     load: Callable[[], int] | None = None,
                     collect_soon: Callable[[], None] | None = None,
                     young_scans: bool = True,
                     young_scans_below: int | None = None,
                     tables: Callable[[], int] | None = None) -> OldObjects:
    """Collect once, freeze the survivors out of later collections, set the youngest
    generation's threshold to ``young_threshold`` (the older two keep Python's defaults)
    and freeze the survivors of each later collection (:class:`OldObjects`, returned, with
    ``load``: whole scans by growth per unit of it; ``collect_soon``: how a whole scan is
    asked for once everything is unfrozen; ``young_scans`` False: young collections scan
    nothing, :attr:`OldObjects.young_scans`; ``young_scans_below`` with ``tables``: nor
    from that many tables on, :attr:`OldObjects.young_scans_below`). For the one server
    of a process, once it has started; :func:`untune` ends the freezing. A value out of
    range is refused with :class:`ValueError` before anything is changed."""
    check_young_scans_below(young_scans_below)
    if young_threshold < 1:
        raise ValueError(f"the young threshold must be at least 1, not {young_threshold}")
    if young_threshold > YOUNG_MAX:
        raise ValueError(f"the young threshold must be at most {YOUNG_MAX}, "
                         f"not {young_threshold}")
    untune()
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(young_threshold, older, oldest)
    hook = OldObjects(load=load, collect_soon=collect_soon, young_scans=young_scans,
                      young_scans_below=young_scans_below, tables=tables)
    gc.callbacks.append(hook)
    return hook


def check_young_scans_below(tables: int | None) -> None:
    """Refuse a ``young_scans_below`` that is not a whole number of tables from 0 (0: young
    collections never scan) up (None: no such bound), with an error that names it."""
    if tables is None:
        return
    if isinstance(tables, bool) or not isinstance(tables, int):
        raise ValueError("the tables from which young collections stop scanning must be a "
                         f"whole number, not {tables!r}")
    if tables < 0:
        raise ValueError("the tables from which young collections stop scanning must be at "
                         f"least 0, not {tables}")


def untune() -> None:
    """Stop freezing the survivors of collections (what is frozen stays frozen; the
    thresholds stay as they are)."""
    gc.callbacks[:] = [c for c in gc.callbacks if not isinstance(c, OldObjects)]
