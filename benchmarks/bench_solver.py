"""Solve times of the perfect-information trick solver (chicago.bots.solver) and the model.

Random deals of five cards per seat, solved from the first lead (five tricks). For each query
the script prints the median, 99th percentile and maximum CPU time per solve over all deals,
with the C accelerator (chicago.bots._solver) and with the pure-Python search on the same
deals, and the ratio of their total times (issue 30: at least 5x). Targets for four players
(issue 4): median ≤ 2 ms and p99 ≤ 20 ms for a full solve.

    python benchmarks/bench_solver.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from chicago.bots import accel
from chicago.bots.model import model_moves, model_wins
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
    """CPU seconds per query, sorted (the C searches when built)."""
    times = []
    for position in positions:
        start = time.process_time()
        query(position)
        times.append(time.process_time() - start)
    return sorted(times)


def _summary(times: list[float]) -> str:
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return (
        f"median {statistics.median(times) * 1e3:7.3f} ms  p99 {p99 * 1e3:7.3f} ms  "
        f"max {times[-1] * 1e3:7.2f} ms"
    )


def report(label: str, times: list[float]) -> None:
    print(f"  {label:<44} {_summary(times)}")


def compare(label: str, positions: list[Position], query: Query) -> float:
    """The query's times in C and in pure Python on the same deals; returns the ratio of the
    total times (Python / C)."""
    fast = measure(positions, query)
    with accel.pure_python():
        slow = measure(positions, query)
    ratio = sum(slow) / max(sum(fast), 1e-9)
    print(f"  {label:<40} C      {_summary(fast)}")
    print(f"  {'':<40} Python {_summary(slow)}   x{ratio:5.1f}")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals for four players")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    positions = deals(4, args.deals, args.seed)
    if accel.ACCELERATED:
        count = max(50, args.deals // 4)
        print(f"C accelerator against pure Python, 4 players, {count} deals (CPU time)")
        ratios = [
            compare("can_win_last_trick, seat 1", positions[:count],
                    partial(can_win_last_trick, seat=1)),
            compare("last_trick_values, V-DEUCE", positions[:count],
                    partial(last_trick_values, deuce_points=10)),
            compare("chicago_moves, defender leads", positions[:count],
                    partial(chicago_moves, declarer=1)),
            compare("model_moves (leader, every card)", positions[:count], model_moves),
            compare("model_wins, seat 2", positions[:count], partial(model_wins, seat=2)),
        ]
        print(f"  smallest ratio x{min(ratios):.1f} (target: at least x5)\n")
    else:
        print("The C accelerator is not built: pure-Python times only\n")
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
