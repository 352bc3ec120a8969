"""Review speed (issues 17 and 25): a whole four-player game reviewed for one seat, and for
all four.

Targets: one seat in at most 10 s of CPU on one core (``jobs=1``, issue 25), all four seats
with ``jobs=2`` in at most 40 s, at the default ``expert`` level. The games: the golden
``pagat`` record (21 deals, 870 actions), a four-player ``pagat`` game of ``ev`` bots (seed
7), and two of ``ev`` bots under variations that cost more to review: ``wikipedia`` (every
one-card exchange values five one-up requests) and ``pagat`` with V-QUADS-ONE and
V-QUADS-52 (seed 7). Each
measure is the median of ``--runs`` runs, as wall-clock time and as CPU time (the review's
own process, and with ``--jobs`` its workers too: on a shared machine the CPU time is what
one core would take alone); the reviews are checked identical run to run and across job
counts.

    python benchmarks/bench_review.py [--runs N] [--level LEVEL] [--seat N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import time
from pathlib import Path
from typing import Any

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.review import review_game, review_seats

ROOT = Path(__file__).resolve().parent.parent


def golden() -> dict[str, Any]:
    data = json.loads((ROOT / "tests" / "golden" / "pagat.json").read_text())
    return dict(data["record"])


def ev_game(seed: int = 7, rules: Rules | None = None) -> dict[str, Any]:
    game = Game(rules or Rules.preset("pagat"), 4, seed=seed)
    bot = make_bot("ev")
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
    return game.record()


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def timed(runs: int, work: Any) -> tuple[str, Any]:
    """Run ``work`` ``runs`` times: a line of the median wall and CPU times, the result."""
    walls, cpus = [], []
    result = None
    for _ in range(runs):
        start, cpu = time.perf_counter(), _cpu()
        out = work()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
        if result is not None and out != result:
            raise AssertionError("two runs gave different reviews")
        result = out
    line = (f"median {statistics.median(walls):.1f} s wall, {statistics.median(cpus):.1f} s CPU "
            f"(runs: {', '.join(f'{w:.1f}' for w in walls)} s wall)")
    return line, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seat", type=int, default=0)
    args = parser.parse_args()
    print(f"level {args.level}, {args.runs} runs each, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    games = (
        ("golden pagat", golden()),
        ("ev bots, seed 7", ev_game()),
        ("ev bots, wikipedia, seed 7", ev_game(rules=Rules.preset("wikipedia"))),
        ("ev bots, V-QUADS-ONE + V-QUADS-52, seed 7",
         ev_game(rules=Rules.preset("pagat").with_variations("V-QUADS-ONE", "V-QUADS-52"))),
    )
    for name, record in games:
        deals = Game.replay(record).deal_number
        line, review = timed(
            args.runs, lambda r=record: review_game(r, args.seat, level=args.level)
        )
        print(f"{name}: {deals} deals, {len(record['actions'])} actions; seat {args.seat}, "
              f"one process: {review.summary.decisions} decisions, {line}; target 10 s CPU")
        line, reviews = timed(
            args.runs, lambda r=record: review_seats(r, [0, 1, 2, 3], level=args.level, jobs=2)
        )
        if reviews[args.seat] != review:
            raise AssertionError("jobs=2 gave another review than jobs=1")
        total = sum(r.summary.decisions for r in reviews)
        print(f"  all four seats, jobs 2: {total} decisions, {line}; target 40 s wall")
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
