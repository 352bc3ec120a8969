"""The garbage collector of a serving process (``Settings.tune_gc``; docs/SERVER.md, "Load
on one worker", the ninth and eleventh passes).

Python's cyclic collector scans, at every full collection, every object that may hold
references: in a server, the modules, classes and functions that start-up made (most of the
idle process) as well as the tables. Under load a full collection took about 90 ms of the
event loop at 100 people, a tenth of its time in all (a native profile of the server), and
about 1.8 s at 1,000 people, where the tables' games, bots and log entries (about 1,100
tracked objects a table) are most of what it scans.

Once the server has started, :func:`tune_for_serving` freezes what exists (it is never
scanned again; what of it is freed later is freed by reference counting as before) and
makes the youngest generation larger, so that objects that live a little while (a view, a
frame) are mostly gone before a collection looks at them. From then on the survivors of
each full collection are frozen too (:class:`OldObjects`): a full collection scans what has
grown old since the previous one, not every table again. A cycle among frozen objects is
never collected while they stay frozen, so when the frozen objects have grown by a quarter
since the last full scan (:data:`THAW_GROWTH`: leaked cycles, or more tables) the next full
collection unfreezes them all first and scans the whole heap once, as Python would have.

So what lives as long as a connection or a table must not end in a reference cycle: frozen
while it lived, it would wait for that thaw, and a cycle that is not frozen waits longer
than untuned (the young generation is larger, and a full collection comes when the objects
that grew old reach a quarter of all, frozen ones included). A websocket connection of
``chicago serve`` leaves none (docs/SERVER.md, "Connections without cycles";
tests/server/test_connection_cycles.py).
"""

from __future__ import annotations

import gc
from typing import Any

__all__ = ["THAW_GROWTH", "YOUNG_THRESHOLD", "OldObjects", "tune_for_serving",
           "untune"]

YOUNG_THRESHOLD = 10_000
"""Allocations (minus deallocations) of tracked objects between two collections of the
youngest generation (Python's default: 700)."""

THAW_GROWTH = 1.25
"""A full collection scans the frozen objects too (unfreezes them first) once they are this
many times as many as after the last such whole scan: what a frozen cycle may leak at most,
relative to what lives (Python's own rule for full collections uses the same quarter)."""

OLDEST = 2
"""The generation a full collection collects."""


class OldObjects:
    """The ``gc.callbacks`` hook that freezes the survivors of each full collection and
    thaws everything frozen before one when the frozen objects have grown by
    :data:`THAW_GROWTH` since the last whole scan."""

    def __init__(self, growth: float = THAW_GROWTH) -> None:
        self.growth = growth
        self.scanned = gc.get_freeze_count()
        """Frozen objects right after the last whole scan."""
        self.whole_scans = 0
        """Full collections that scanned the frozen objects too."""
        self._thawed = False

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector at the start and stop of every collection."""
        if info.get("generation") != OLDEST:
            return
        if phase == "start":
            if gc.get_freeze_count() > self.scanned * self.growth:
                gc.unfreeze()  # this collection scans everything, frozen cycles included
                self._thawed = True
            return
        gc.freeze()  # what survived is old: out of later collections until a thaw
        if self._thawed:
            self.scanned = gc.get_freeze_count()
            self.whole_scans += 1
            self._thawed = False


def tune_for_serving() -> OldObjects:
    """Collect once, freeze the survivors out of later collections, raise the youngest
    generation's threshold (the older two keep Python's defaults) and freeze the survivors
    of each later full collection (:class:`OldObjects`, returned). For the one server of a
    process, once it has started; :func:`untune` ends the freezing."""
    untune()
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
    hook = OldObjects()
    gc.callbacks.append(hook)
    return hook


def untune() -> None:
    """Stop freezing the survivors of full collections (what is frozen stays frozen; the
    thresholds stay as they are)."""
    gc.callbacks[:] = [c for c in gc.callbacks if not isinstance(c, OldObjects)]
