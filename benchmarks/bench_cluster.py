"""Benchmark of bot matches: one process, ``--jobs 2`` and a local Dask cluster.

Plays the same duplicate match (four ``basic`` bots by default, a fixed seed) three ways and
prints deals per second of wall-clock time for each: ``run_match`` in this process,
``run_match(jobs=2)`` (two worker processes), and ``run_match_on_cluster`` on a local Dask
cluster of two worker processes (started once before timing; its start-up time is printed
apart). It also checks that the three runs give the same games and results (all that the seed
fixes: the bots' decision times are CPU times, different at every run).

On this 2-core machine the cluster cannot beat ``--jobs 2``: it does the same work plus task
shipping; what it buys is more machines (docs/SCALING.md).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_cluster.py [--quick]
[--games N] [--bots SPECS]``.
"""

from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from collections.abc import Callable

from chicago.rules import Rules
from chicago.sim import MatchResult, run_match, split_specs


def same_games(a: MatchResult, b: MatchResult) -> bool:
    """Whether two runs of a match gave what their seed fixes: the same games and the same
    results, the bots' decision times (CPU times, different at every run) left out."""
    return (a.to_dict(times=False) == b.to_dict(times=False)
            and [g.to_dict() for g in a.games] == [g.to_dict() for g in b.games])


def _timed(run: Callable[[], MatchResult]) -> tuple[MatchResult, float]:
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run the three matches and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=96, help="games per match (default 96)")
    parser.add_argument("--bots", default="basic,basic,basic,basic", help="bot specs")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quick", action="store_true", help="a short run (24 games)")
    args = parser.parse_args(argv)
    games = 24 if args.quick else args.games
    specs = split_specs(args.bots)
    rules = Rules.preset("pagat")
    try:
        import distributed
    except ImportError:
        print("bench_cluster: needs the cluster extra (pip install -e '.[cluster]')",
              file=sys.stderr)
        return 1
    from chicago.cluster import run_match_on_cluster

    print(f"bot match: {games} games of {','.join(specs)}, seed {args.seed}; "
          f"python {platform.python_version()}, {platform.machine()}")
    rows: list[tuple[str, float, int]] = []
    one, seconds = _timed(lambda: run_match(specs, games, rules, seed=args.seed))
    deals = sum(g.deals for g in one.games)
    rows.append(("1 process", seconds, deals))
    two, seconds = _timed(lambda: run_match(specs, games, rules, seed=args.seed, jobs=2))
    rows.append(("--jobs 2", seconds, deals))
    start = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster, set_as_default=False)
    started = time.perf_counter() - start
    try:
        run_match_on_cluster(specs, len(specs), rules, seed=args.seed, client=client)  # warm
        on_cluster, seconds = _timed(lambda: run_match_on_cluster(
            specs, games, rules, seed=args.seed, client=client))
    finally:
        client.close()
        cluster.close()
    rows.append(("local cluster (2 workers)", seconds, deals))
    same = all(same_games(r, one) for r in (two, on_cluster))
    print(f"{'runner':<28}{'seconds':>9}{'deals':>8}{'deals/s':>10}")
    for name, secs, count in rows:
        print(f"{name:<28}{secs:>9.2f}{count:>8}{count / secs:>10.1f}")
    print(f"(cluster start-up, not timed above: {started:.1f} s; identical games and "
          f"results, decision times aside: {same})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
