"""A game's growing logs shared with its copies, in segments (issue 28, twenty-sixth pass).

A game shares its list of actions and its records of events not made yet with its copies
(:meth:`chicago.engine.game.Game.copy`): each is a list of which the game's own items are the
first ``count``, and a game adds to it in place while it holds no more than those. When a
copy went on first (the list holds more), the game used to take its own part as a new list,
which cost as much as the list was long: a search that copies one standing position again
and again paid it at the first action of every copy after the first. Now such a game keeps
the shared list as a finished *segment* of its log and goes on in a new, empty list of its
own: the log is a tuple of earlier segments, ``(list, count, list, count, ...)``, each read up
to its count, followed by the current list. A short own part (at most :data:`SMALL` items)
is still copied (a segment would cost more to read than it saves), and a log of more than
:data:`DEPTH` segments is joined into one list, so that reading stays cheap whatever the
pattern of copies.

These functions are the pure-Python form; the accelerator (``_engine.c``, "shared actions")
does the same in C.
"""

from __future__ import annotations

from typing import TypeVar, cast

__all__ = ["DEPTH", "SMALL", "between", "fork", "joined"]

SMALL = 32
"""A game's own part of at most this many items is copied into a list of its own."""

DEPTH = 8
"""At most this many finished segments; one more joins them all into one list."""

T = TypeVar("T")

Base = tuple[object, ...]
"""Finished segments, ``(list, count, list, count, ...)`` (typed loosely: lists and ints)."""


def fork(log: list[T], count: int, base: Base,
         offset: int) -> tuple[list[T], int, Base, int]:
    """The log of a game whose current list ``log`` holds items past its own ``count`` (a
    copy added them), made ready for the game to add to: ``(list, count, base, offset)``,
    the list its own (to add to in place), ``offset`` the number of items in ``base``."""
    if count <= SMALL:
        return log[:count], count, base, offset
    if len(base) >= 2 * DEPTH:
        whole = joined(base, log, count)
        return whole, len(whole), (), 0
    return [], 0, (*base, log, count), offset + count


def joined(base: Base, log: list[T], count: int) -> list[T]:
    """The whole log as a new list: the segments of ``base`` and ``log[:count]``."""
    if not base:
        return log[:count]
    whole: list[T] = []
    for index in range(0, len(base), 2):
        segment = cast("list[T]", base[index])
        whole += segment[: cast(int, base[index + 1])]
    whole += log[:count]
    return whole


def between(base: Base, offset: int, log: list[T], count: int,
            start: int, stop: int) -> list[T]:
    """Items ``start`` to ``stop`` (``0 <= start``, ``stop <= offset + count``) of the
    log, as a new list."""
    if start >= offset:
        return log[start - offset: stop - offset]
    part: list[T] = []
    first = 0  # the index in the log of the segment's first item
    for index in range(0, len(base), 2):
        segment = cast("list[T]", base[index])
        size = cast(int, base[index + 1])
        if start < first + size and stop > first:
            part += segment[max(start - first, 0): min(stop - first, size)]
        first += size
        if first >= stop:
            return part
    if stop > first:
        part += log[max(start - first, 0): stop - first]
    return part
