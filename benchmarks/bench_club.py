"""Club play's pure work (docs/CLUB.md): how long seating a round, the standings and a
rating update take, so that a tournament page and a round's start stay quick.

- seating by the standings (``chicago.club.seating.standings_tables``) after three random
  rounds, for fields of 8 to 48 entrants at tables of four, and how many repeated meetings
  the chosen seating has;
- the standings of a 48-entrant, 5-round duplicate tournament with 3-deal games;
- one OpenSkill update of a four-seat game (``chicago.club.ratings.rate_game``).

Medians of several runs. Usage: ``python benchmarks/bench_club.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from chicago.club import seating
from chicago.club.ratings import RatedGame, rate_game
from chicago.club.tournament import (
    Entrant,
    RoundPlan,
    TableResult,
    TournamentShape,
    plan_round,
    standings,
)


def _median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _seating(runs: int) -> None:
    print("seating by standings after 3 rounds (tables of 4)")
    print(f"{'entrants':>9} {'median ms':>10} {'repeats':>8}")
    for count in (8, 16, 24, 32, 48):
        entrants = [f"e{i}" for i in range(count)]
        rng = random.Random(count)
        history = [seating.random_tables(entrants, 4, rng) for _ in range(3)]
        met = seating.meetings(history)
        order = list(entrants)
        rng.shuffle(order)
        ms = _median_ms(lambda o=order, m=met: seating.standings_tables(o, 4, m), runs)
        chosen = seating.standings_tables(order, 4, met)
        print(f"{count:>9} {ms:>10.1f} {seating.repeats(chosen, met):>8}")


def _standings(runs: int) -> None:
    shape = TournamentShape(tables=12, table_size=4, rounds=5, duplicate=True, seed=3)
    field = [Entrant(f"e{i}", f"E{i}", i, profile=f"p{i}") for i in range(48)]
    rng = random.Random(5)
    plans: list[RoundPlan] = []
    results: dict[int, dict[int, TableResult]] = {}
    for number in range(1, 6):
        plan = plan_round(shape, field, number, plans, results)
        plans.append(plan)
        done = {}
        for index in range(shape.tables):
            points = tuple(tuple(rng.randrange(9) for _ in range(4)) for _ in range(3))
            scores = tuple(sum(d[s] for d in points) for s in range(4))
            winners = tuple(s for s in range(4) if scores[s] == max(scores))
            done[index] = TableResult(scores, winners, points)
        results[number] = done
    ms = _median_ms(lambda: standings(shape, field, plans, results), runs)
    print(f"standings, 48 entrants, 5 duplicate rounds: {ms:.1f} ms (median)")


def _rating(runs: int) -> None:
    game = RatedGame("t/1", "pagat/4p", ("profile:a", "profile:b", "bot:basic", "bot:ev"),
                     (1, 2, 3, 4))
    rate_game({}, game)  # the model is made once
    ms = _median_ms(lambda: [rate_game({}, game) for _ in range(100)], runs) / 100
    print(f"rating update of a four-seat game: {ms * 1000:.0f} µs (median)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    _seating(args.runs)
    _standings(args.runs)
    _rating(args.runs)


if __name__ == "__main__":
    main()
