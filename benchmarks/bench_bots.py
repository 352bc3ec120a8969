"""Bot strength and speed: the long duplicate matches of issues 4 and 30, decision times by phase.

Runs (4 players, duplicate play, fixed seeds):

- issue 4 (preset pagat): basic vs three random, ev vs three basic (2,000 games each);
  expert vs three ev and expert vs three basic (500 games each);
- issue 30: master vs three expert (pagat, 500 games; denexa and wikipedia, 400 games each)
  and master vs three basic (pagat, 300 games);

and prints each match's line (wins, 95% Wilson interval, points per deal, Chicagos, last
tricks, rating, for the first bot and the average seat of the others) with the first bot's
CPU time per decision by phase in that very match (median, 99th percentile, maximum), then
the decision times of every level by phase, measured on a few games in which the level
plays every seat. Progress lines go to stderr as games finish. Usage:

    python benchmarks/bench_bots.py --full [--jobs 2] [--json out.json]   (make bench-bots)
    python benchmarks/bench_bots.py --full --only master --jobs 1          (issue 30's matches)
    python benchmarks/bench_bots.py --only denexa --games 200             (a shorter match)
    python benchmarks/bench_bots.py                                       (make bench: quick)

Without ``--full`` it plays a hundredth of the games (at least one set) and fewer timing
games (a smoke run for ``make bench``, which runs every benchmark script). ``--only TEXT``
runs the matches whose label contains TEXT (``master``, ``denexa``, ``expert,ev`` …).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from chicago import Rules
from chicago.sim import GameResult, MatchResult, run_match, summarize, wilson_interval
from chicago.timing import merge_times, summarize_times

TIMING_DEALS = 15
"""Deals per timing game at most (four random bots hardly ever finish a game)."""

MATCHES: list[tuple[str, list[str], int]] = [
    ("pagat", ["basic", "random", "random", "random"], 2000),
    ("pagat", ["ev", "basic", "basic", "basic"], 2000),
    ("pagat", ["expert", "ev", "ev", "ev"], 500),
    ("pagat", ["expert", "basic", "basic", "basic"], 500),
    ("pagat", ["master", "expert", "expert", "expert"], 500),
    ("pagat", ["master", "basic", "basic", "basic"], 300),
    ("denexa", ["master", "expert", "expert", "expert"], 400),
    ("wikipedia", ["master", "expert", "expert", "expert"], 400),
]
"""(preset, bots, games) of every match."""


class _Progress:
    """A line on stderr every ``every`` seconds (and at the end) as games finish: games done,
    the first bot's wins so far with their 95% interval, time. Keeps the finished games, so
    ``snapshot`` (called after each batch) can save the match so far: a long match stopped
    early still reports every whole set it played."""

    def __init__(self, label: str, specs: Sequence[str], total: int, every: float = 30.0,
                 snapshot: Callable[[MatchResult], None] | None = None) -> None:
        self.label, self.specs, self.total, self.every = label, list(specs), total, every
        self.snapshot = snapshot
        self.games: list[GameResult] = []
        self.start = self.shown = time.monotonic()

    def so_far(self) -> MatchResult:
        """The match of the games finished so far, in set order."""
        games = sorted(self.games, key=lambda g: (g.set, g.rotation))
        return MatchResult(specs=self.specs, games=games, bots=summarize(self.specs, games))

    def __call__(self, games: Sequence[GameResult]) -> None:
        self.games.extend(games)
        if self.snapshot is not None:
            self.snapshot(self.so_far())
        done = len(self.games)
        now = time.monotonic()
        if now - self.shown >= self.every or done >= self.total:
            self.shown = now
            wins = sum(1 / len(g.winners) for g in self.games if 0 in g.winners)
            low, high = wilson_interval(wins, done)
            print(f"   .. {self.label}: {done}/{self.total} games, first bot "
                  f"{wins / done:.1%} [{low:.1%}, {high:.1%}], "
                  f"{now - self.start:.0f} s", file=sys.stderr, flush=True)


def _times_line(times: dict[str, dict[str, float]]) -> str:
    return "; ".join(
        f"{phase} {t['median_ms']:.1f}/{t['p99_ms']:.1f}/{t['max_ms']:.1f} ms"
        for phase, t in times.items()
    )


def _write(path: str, data: dict[str, Any]) -> None:
    """Replace ``path`` with ``data`` as JSON in one step (a reader never sees half a file)."""
    temporary = f"{path}.part"
    with open(temporary, "w") as handle:
        json.dump(data, handle, indent=2)
    os.replace(temporary, path)


def _report(label: str, result: MatchResult, elapsed: float) -> None:
    first, others = result.bots[0], result.bots[1:]

    def mean(key: str) -> float:
        return float(sum(getattr(b, key) for b in others)) / len(others)

    print(f"== {label}: {len(result.games)} games, {elapsed:.0f} s")
    print(
        f"   {first.bot:8s} wins {first.win_rate:6.1%}  95% CI [{first.ci95[0]:.1%}, "
        f"{first.ci95[1]:.1%}]  pts/deal {first.points_per_deal:.2f} (others "
        f"{mean('points_per_deal'):.2f})  Chicago made/declared {first.chicago_made}/"
        f"{first.chicago_calls} (others {mean('chicago_made'):.1f}/{mean('chicago_calls'):.1f})"
        f"  last tricks {first.last_tricks} (others {mean('last_tricks'):.0f})"
        f"  rating {first.rating:.1f}"
    )
    print(f"   {first.bot} CPU per decision, median/p99/max: {_times_line(first.decision_times)}")
    sys.stdout.flush()


def _level_times(spec: str, games: int, seed: int) -> dict[str, dict[str, float]]:
    """CPU time per decision of ``spec`` by phase, on games where it plays every seat."""
    rules = Rules.preset("pagat", max_deals=TIMING_DEALS)
    result = run_match([spec] * 4, games, rules, seed=seed)
    return summarize_times(merge_times(t for g in result.games for t in g.times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the whole matches (long)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", default=None, help="also write the results to this file")
    parser.add_argument("--only", action="append", default=None,
                        help="run only matches whose label has this text (may be repeated)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per match instead of the listed counts (with --only: "
                             "a shorter run of the matches that fits the time at hand)")
    parser.add_argument("--no-times", action="store_true", help="skip the decision times")
    args = parser.parse_args()
    out: dict[str, Any] = {"matches": [], "times": {}}
    for preset, specs, games in MATCHES:
        label = f"{','.join(specs)} ({preset})"
        if args.only and not any(text in label for text in args.only):
            continue
        count = games if args.full else max(len(specs), games // 100)
        if args.games is not None:
            count = args.games
        start = time.monotonic()
        total = -(-count // len(specs)) * len(specs)

        def save(partial: MatchResult, preset: str = preset, specs: list[str] = specs,
                 total: int = total, start: float = start) -> None:
            if args.json:
                entry = {"preset": preset, "bots": specs, **partial.to_dict(),
                         "planned_games": total, "partial": True,
                         "seconds": time.monotonic() - start}
                _write(args.json, {**out, "matches": [*out["matches"], entry]})

        result = run_match(specs, count, Rules.preset(preset), seed=args.seed, jobs=args.jobs,
                           finished=_Progress(label, specs, total, snapshot=save))
        elapsed = time.monotonic() - start
        _report(label, result, elapsed)
        out["matches"].append({"preset": preset, "bots": specs, **result.to_dict(),
                               "seconds": elapsed})
        if args.json:
            _write(args.json, out)
    if not args.no_times and not args.only:
        print("== CPU time per decision by phase (4 players, pagat; a level at every seat)")
        for spec, games in (("random", 4), ("basic", 4), ("ev", 4), ("expert", 4),
                            ("master", 4)):
            times = _level_times(spec, games if args.full else 4, args.seed)
            print(f"   {spec:8s} median/p99/max: {_times_line(times)}")
            out["times"][spec] = times
            sys.stdout.flush()
    if args.json:
        _write(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
