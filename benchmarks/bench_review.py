"""Review speed (issue 17): a whole four-player game reviewed for one seat, and for all four.

Targets: one seat in at most 20 s on one core (``jobs=1``), all four seats with ``jobs=2``
in at most 40 s, at the default ``expert`` level. The games: the golden ``pagat`` record
(21 deals, 870 actions) and a four-player ``pagat`` game of ``ev`` bots (seed 7). Each
measure is the median of ``--runs`` runs; the reviews are checked identical run to run and
across job counts.

    python benchmarks/bench_review.py [--runs N] [--level LEVEL] [--seat N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
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


def ev_game(seed: int = 7) -> dict[str, Any]:
    game = Game(Rules.preset("pagat"), 4, seed=seed)
    bot = make_bot("ev")
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
    return game.record()


def timed(runs: int, work: Any) -> tuple[float, list[float], Any]:
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        out = work()
        times.append(time.perf_counter() - start)
        if result is not None and out != result:
            raise AssertionError("two runs gave different reviews")
        result = out
    return statistics.median(times), times, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seat", type=int, default=0)
    args = parser.parse_args()
    print(f"level {args.level}, {args.runs} runs each, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name, record in (("golden pagat", golden()), ("ev bots, seed 7", ev_game())):
        deals = Game.replay(record).deal_number
        one, times, review = timed(
            args.runs, lambda r=record: review_game(r, args.seat, level=args.level)
        )
        print(f"{name}: {deals} deals, {len(record['actions'])} actions; seat {args.seat}: "
              f"{review.summary.decisions} decisions, median {one:.1f} s on one core "
              f"(runs {', '.join(f'{t:.1f}' for t in times)}), target 20 s")
        four, times, reviews = timed(
            args.runs, lambda r=record: review_seats(r, [0, 1, 2, 3], level=args.level, jobs=2)
        )
        if reviews[args.seat] != review:
            raise AssertionError("jobs=2 gave another review than jobs=1")
        total = sum(r.summary.decisions for r in reviews)
        print(f"  all four seats, jobs 2: {total} decisions, median {four:.1f} s "
              f"(runs {', '.join(f'{t:.1f}' for t in times)}), target 40 s")


if __name__ == "__main__":
    main()
