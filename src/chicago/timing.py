"""Decision times of bots, by phase: what ``chicago simulate --json`` reports for each bot.

A match records the CPU time (:func:`time.process_time` of the process that asks the bot;
an external program's own CPU is not in it) of every decision, by the phase of the game it
was taken in, and sums each phase up as its median, 99th percentile and maximum. Times are
measured, never used: no choice of a bot or of the match depends on them.

>>> summarize_times({"play": [0.001, 0.003, 0.002]})["play"]["median_ms"]
2.0
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["merge_times", "percentile", "summarize_times"]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 … 1) of ``values`` by the nearest rank of the sorted values."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def merge_times(parts: Iterable[Mapping[str, Sequence[float]]]) -> dict[str, list[float]]:
    """One list of seconds per phase from many (games of one bot)."""
    merged: dict[str, list[float]] = {}
    for part in parts:
        for phase, seconds in part.items():
            merged.setdefault(phase, []).extend(seconds)
    return merged


def summarize_times(times: Mapping[str, Sequence[float]]) -> dict[str, dict[str, float]]:
    """Per phase: ``{"decisions", "median_ms", "p99_ms", "max_ms"}`` of CPU seconds, the
    phases in the order of a deal, milliseconds rounded to 0.001."""
    out: dict[str, dict[str, float]] = {}
    for phase in sorted(times, key=_phase_order):
        seconds = times[phase]
        if not seconds:
            continue
        out[phase] = {
            "decisions": len(seconds),
            "median_ms": round(statistics.median(seconds) * 1e3, 3),
            "p99_ms": round(percentile(seconds, 0.99) * 1e3, 3),
            "max_ms": round(max(seconds) * 1e3, 3),
        }
    return out


_ORDER = ("redeal", "exchange", "one up", "announce", "quads", "quads choice", "chicago",
          "play")


def _phase_order(phase: str) -> tuple[int, str]:
    return (_ORDER.index(phase) if phase in _ORDER else len(_ORDER), phase)
