"""Variants of one bot against the same opponents on the same deals: which search pays.

Plays each variant (``master``, ``master:announce=0`` …) in the first seat against the same
others (three ``expert`` by default), duplicate, on the same deals, in rounds of ``--sets``
sets (one game per rotation of the seats; round after round the next sets of the same seed,
every variant in turn), so a run stopped at any time has played all variants on the same
deals, and a variant's games are the first games of the same match by ``bench_bots.py`` or
``chicago simulate`` (same seed). It prints, after
each round, every variant's games, wins with their 95% Wilson interval, points per deal,
scoring rounds won by announcement, Chicagos made/declared and last tricks, and its
difference to the first variant set by set (wins and points per deal, with the standard
error of the paired difference: the same deals make that difference much less noisy than
either match). Decision times come with each variant (CPU, median/p99/max by phase).

    python benchmarks/bench_master.py --variants master "master:announce=0" \\
        [--others expert] [--preset pagat] [--sets 10] [--rounds 3] [--jobs 2] [--json out]

At its defaults (``make bench``) it plays ``master`` and ``expert`` in the first seat, 3 sets.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from chicago import Rules
from chicago.sim import GameResult, run_match, summarize, wilson_interval


def _set_totals(games: Sequence[GameResult]) -> dict[int, tuple[float, int, int]]:
    """Per set: the first bot's wins, points and deals."""
    out: dict[int, tuple[float, int, int]] = {}
    for game in games:
        wins, points, deals = out.get(game.set, (0.0, 0, 0))
        won = 1 / len(game.winners) if 0 in game.winners else 0.0
        counters = game.counters[0]
        out[game.set] = (wins + won, points + counters["points"], deals + counters["deals"])
    return out


def _paired(base: dict[int, tuple[float, int, int]],
            other: dict[int, tuple[float, int, int]]) -> str:
    """The mean difference per game (wins) and per deal (points) of ``other`` less
    ``base`` over the sets both played, with standard errors of the paired difference."""
    keys = sorted(set(base) & set(other))
    if len(keys) < 2:
        return "(too few sets to compare)"
    wins = [other[k][0] - base[k][0] for k in keys]
    points = [other[k][1] / max(1, other[k][2]) - base[k][1] / max(1, base[k][2])
              for k in keys]

    def mean_se(values: list[float]) -> tuple[float, float]:
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        return mean, math.sqrt(var / len(values))

    w, w_se = mean_se(wins)
    p, p_se = mean_se(points)
    return (f"vs first: wins {w:+.2f}/set (±{w_se:.2f}) "
            f"pts/deal {p:+.2f} (±{p_se:.2f}) over {len(keys)} sets")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["master", "expert"],
                        help="specs of the first bot (the first is the base of comparison; "
                        "default: master against expert in the same seat)")
    parser.add_argument("--others", default="expert", help="spec of the other seats")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sets", type=int, default=3,
                        help="sets per round (per seed; default 3, a short run for make bench)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--first-set", type=int, default=0,
                        help="the first round's first set (to go on from an earlier run)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", default=None, help="write every game's results here")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    played: dict[str, list[GameResult]] = {v: [] for v in args.variants}
    totals: dict[str, dict[int, tuple[float, int, int]]] = {
        v: {} for v in args.variants}
    for round_index in range(args.rounds):
        first = args.first_set + round_index * args.sets
        for variant in args.variants:
            specs = [variant] + [args.others] * (args.players - 1)
            result = run_match(specs, args.sets * args.players, rules, seed=args.seed,
                               jobs=args.jobs, first_set=first)
            played[variant].extend(result.games)
            totals[variant].update(_set_totals(result.games))
            if args.json:
                _save(args.json, args, played)
        last = first + args.sets - 1
        print(f"== after round {round_index + 1} (sets {args.first_set}..{last} of seed "
              f"{args.seed}), {args.preset}, vs {args.players - 1} {args.others}")
        for variant in args.variants:
            _line(variant, played[variant], args.others, args.players)
            if variant != args.variants[0]:
                print("      " + _paired(totals[args.variants[0]], totals[variant]))
        sys.stdout.flush()
    return 0


def _line(variant: str, games: list[GameResult], others: str, players: int) -> None:
    specs = [variant] + [others] * (players - 1)
    first, rest = summarize(specs, games)[0], summarize(specs, games)[1:]
    count = len(games)
    low, high = wilson_interval(first.wins, count)

    def mean(key: str) -> float:
        return float(sum(getattr(b, key) for b in rest)) / len(rest)

    times = "; ".join(f"{phase} {t['median_ms']:.1f}/{t['p99_ms']:.1f}/{t['max_ms']:.0f}"
                      for phase, t in first.decision_times.items())
    print(f"   {variant:34s} {count:4d} games  wins {first.wins / count:6.1%} "
          f"[{low:.1%}, {high:.1%}]  pts/deal {first.points_per_deal:.2f} "
          f"(others {mean('points_per_deal'):.2f})  announce {first.announce_wins} "
          f"(others {mean('announce_wins'):.0f})  Chicago {first.chicago_made}/"
          f"{first.chicago_calls} (others {mean('chicago_made'):.1f}/"
          f"{mean('chicago_calls'):.1f})  last {first.last_tricks} "
          f"(others {mean('last_tricks'):.0f})")
    print(f"      CPU ms median/p99/max: {times}")


def _save(path: str, args: argparse.Namespace, played: dict[str, list[GameResult]]) -> None:
    data: dict[str, Any] = {
        "preset": args.preset, "others": args.others, "seed": args.seed, "sets": args.sets,
        "variants": {v: [g.to_dict() for g in games] for v, games in played.items()},
    }
    temporary = f"{path}.part"
    with open(temporary, "w") as handle:
        json.dump(data, handle)
    os.replace(temporary, path)


if __name__ == "__main__":
    sys.exit(main())
