"""The garbage collector of a serving process (``Settings.tune_gc``; docs/SERVER.md, "Load
on one worker").

Python's cyclic collector scans, at every full collection, every object that may hold
references: in a server, the modules, classes and functions that start-up made (most of the
idle process) as well as the tables. Under load a full collection took about 90 ms of the
event loop at 100 people, a tenth of its time in all (a native profile of the server). Once
the server has started, :func:`tune_for_serving` freezes what exists (it is never scanned
again; what of it is freed later is freed by reference counting as before, but a cycle
among frozen objects is never collected: at most what start-up made, the tables it resumed
among them, which is why it runs once) and makes the youngest generation larger, so that
objects that live a little while (a view, a frame) are mostly gone before a collection
looks at them.
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "tune_for_serving"]

YOUNG_THRESHOLD = 10_000
"""Allocations (minus deallocations) of tracked objects between two collections of the
youngest generation (Python's default: 700)."""


def tune_for_serving() -> None:
    """Collect once, freeze the survivors out of later collections, and raise the youngest
    generation's threshold (the older two keep Python's defaults). For the one server of a
    process, once it has started."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
