"""Solve times of the perfect-information trick solver (chicago.bots.solver).

Random deals of five cards per seat, solved from the first lead (five tricks). For each query
the script prints the median, 99th percentile and maximum time per solve over all deals.
Targets for four players (issue 4): median ≤ 2 ms and p99 ≤ 20 ms for a full solve.

    python benchmarks/bench_solver.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from chicago.bots.solver import (
    Position,
    can_make_chicago,
    can_win_last_trick,
    chicago_moves,
    chicago_values,
    last_trick_moves,
    last_trick_values,
)

Query = Callable[[Position], object]


def deals(n_seats: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [deck[k * 5 : k * 5 + 5] for k in range(n_seats)]
        result.append(Position.from_hands(hands, leader=0))
    return result


def measure(positions: list[Position], query: Query) -> list[float]:
    times = []
    for position in positions:
        start = time.perf_counter()
        query(position)
        times.append(time.perf_counter() - start)
    return sorted(times)


def report(label: str, times: list[float]) -> None:
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(
        f"  {label:<44} median {statistics.median(times) * 1e3:7.3f} ms   "
        f"p99 {p99 * 1e3:7.3f} ms   max {times[-1] * 1e3:7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals for four players")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    positions = deals(4, args.deals, args.seed)
    print(f"4 players, 5 tricks from the first lead, {args.deals} random deals (seed {args.seed})")
    for seat in range(4):
        report(
            f"can_win_last_trick, seat {seat}",
            measure(positions, partial(can_win_last_trick, seat=seat)),
        )
    report("last_trick_moves (leader, every card)", measure(positions, last_trick_moves))
    report(
        "last_trick_values, V-DEUCE (every card)",
        measure(positions, partial(last_trick_values, deuce_points=10)),
    )
    for seat in (0, 1):
        report(
            f"can_make_chicago, declarer seat {seat}",
            measure(positions, partial(can_make_chicago, declarer=seat)),
        )
    report("chicago_moves, declarer leads", measure(positions, partial(chicago_moves, declarer=0)))
    report("chicago_moves, defender leads", measure(positions, partial(chicago_moves, declarer=1)))
    report(
        "chicago_values, V-DEUCE, declarer leads",
        measure(positions, partial(chicago_values, declarer=0, deuce_points=30)),
    )

    count = max(100, args.deals // 4)
    print(f"\nOther table sizes, 5 tricks from the first lead, {count} deals, every seat asked")
    for n_seats in (2, 3, 5, 6):
        positions = deals(n_seats, count, args.seed)
        times = sorted(
            t
            for seat in range(n_seats)
            for t in measure(positions, partial(can_win_last_trick, seat=seat))
        )
        report(f"{n_seats} players: can_win_last_trick", times)
        report(f"{n_seats} players: last_trick_moves", measure(positions, last_trick_moves))


if __name__ == "__main__":
    main()
