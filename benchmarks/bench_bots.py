"""Bot strength and speed: the long duplicate matches of issue 4 and decision times per level.

Runs (4 players, preset pagat, duplicate play, fixed seeds):

- basic vs three random, ev vs three basic (2,000 games each);
- expert vs three ev and expert vs three basic (500 games each);

and prints each match's table (wins, 95% Wilson interval, points per deal, Chicagos, last
tricks, rating), then the decision times per level (median, 99th percentile), measured on
the decisions of a few games (at most 15 deals each) in which every seat is played by that
level. Usage:

    python benchmarks/bench_bots.py --full [--jobs 2] [--json out.json]   (make bench-bots)
    python benchmarks/bench_bots.py                                       (make bench: quick)

Without ``--full`` it plays a hundredth of the games and fewer timing games (a smoke run
for ``make bench``, which runs every benchmark script).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.sim import run_match

TIMING_DEALS = 15
"""Deals per timing game at most (four random bots hardly ever finish a game)."""

MATCHES = [
    (["basic", "random", "random", "random"], 2000),
    (["ev", "basic", "basic", "basic"], 2000),
    (["expert", "ev", "ev", "ev"], 500),
    (["expert", "basic", "basic", "basic"], 500),
]


def _decision_times(
    spec: str, games: int, seed: int
) -> tuple[list[float], list[float], list[float]]:
    """Seconds per decision of ``spec`` over ``games`` games it plays in every seat: all
    decisions, the real choices of the trick play and the Chicago call, and the decisions of
    the last exchange (where the expert searches)."""
    rules = Rules.preset("pagat", max_deals=TIMING_DEALS)
    bot = make_bot(spec)
    times: list[float] = []
    searched: list[float] = []
    exchange: list[float] = []
    for g in range(games):
        game = Game(rules, players=4, seed=seed + g)
        rng = random.Random(g)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            legal = game.legal_actions()
            start = time.perf_counter()
            action = bot.decide(view, legal, rng)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            if view["phase"] in ("play", "chicago") and len(legal) > 1:
                searched.append(elapsed)
            if view["phase"] == "exchange" and view["round"] == rules.exchanges:
                exchange.append(elapsed)
            game.apply(action)
    return times, searched, exchange


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the whole matches (long)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", default=None, help="also write the results to this file")
    parser.add_argument("--only", default=None, help="run only matches whose bots contain this")
    parser.add_argument("--no-times", action="store_true", help="skip the decision times")
    args = parser.parse_args()
    out: dict[str, Any] = {"matches": [], "times": {}}
    for specs, games in MATCHES:
        if args.only and args.only not in ",".join(specs):
            continue
        count = games if args.full else max(len(specs), games // 100)
        start = time.perf_counter()
        result = run_match(specs, count, Rules.preset("pagat"), seed=args.seed, jobs=args.jobs)
        elapsed = time.perf_counter() - start
        print(f"== {','.join(specs)}: {len(result.games)} games, {elapsed:.0f} s")
        for b in result.bots[:2]:
            print(
                f"   {b.bot:8s} wins {b.win_rate:6.1%}  95% CI [{b.ci95[0]:.1%}, {b.ci95[1]:.1%}]"
                f"  pts/deal {b.points_per_deal:.2f}  Chicago made/declared {b.chicago_made}/"
                f"{b.chicago_calls}  last tricks {b.last_tricks}  rating {b.rating:.1f}"
            )
        sys.stdout.flush()
        out["matches"].append({"bots": specs, **result.to_dict(), "seconds": elapsed})
    if not args.no_times:
        print("== decision times per level (4 players, pagat; all decisions of the level)")
        for spec, games in (("random", 2), ("basic", 4), ("ev", 4), ("expert", 2)):
            times, searched, exchange = _decision_times(
                spec, games if args.full else 1, args.seed
            )
            for label, values in (
                ("all", times), ("tricks+Chicago", searched), ("last exchange", exchange)
            ):
                median = statistics.median(values)
                p99 = _percentile(values, 0.99)
                print(f"   {spec:8s} {label:15s} median {median * 1e3:8.3f} ms   "
                      f"p99 {p99 * 1e3:8.3f} ms   max {max(values) * 1e3:8.1f} ms   "
                      f"({len(values)} decisions)")
                out["times"][f"{spec} {label}"] = {
                    "median_ms": median * 1e3, "p99_ms": p99 * 1e3, "decisions": len(values)
                }
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(out, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
