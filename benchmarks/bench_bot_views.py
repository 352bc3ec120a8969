"""Benchmark of a bot's view as a server's table makes it: what each bot decision costs
before the bot thinks (issue 28).

Plays games of four ``basic`` bots (pagat) the way a table server plays them: every state
is a copy of the last with one action applied (``Game.copy``), and the seat to act is given
its view by :class:`chicago.server.views.PublicViews` (the public view of that state made
once, the seat's own fields and events put in), then decides on it. Seat 0 stands for the
person: its states get the update's public part (``PublicViews.public_state``) instead, as
an update frame would. Times (CPU of this thread, ``time.thread_time_ns``) each bot view,
warm-up games left out, and prints the mean and median µs of a view, the median of
several runs.

To compare code before and after a change, run it with each tree on ``PYTHONPATH`` in turn
(several times, alternating) and take the medians.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.seeding import SeededOnUse
from chicago.server.views import PublicViews


def run(games: int, seed: int) -> list[int]:
    """The ns of each bot view in ``games`` games (after one warm-up game)."""
    rules = Rules.preset("pagat")
    bot = make_bot("basic")
    rng = random.Random(seed)
    times: list[int] = []
    clock = time.thread_time_ns
    for number in range(games + 1):
        game = Game(rules, 4, seed=rng.randrange(1 << 30))
        views = PublicViews()
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if seat == 0:
                views.public_state(game)
                action = rng.choice(game.legal_actions())
            else:
                start = clock()
                view = views.seat_view(game, seat)
                took = clock() - start
                if number:
                    times.append(took)
                action = bot.decide(view, game.legal_actions(), SeededOnUse(f"{number}:{seat}"))
            game = game.copy()
            game.apply(action)
            views.keep(game)
    return times


def main() -> None:
    """Run the benchmark and print the µs per bot view."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    means, medians, count = [], [], 0
    for _ in range(args.runs):
        times = run(args.games, args.seed)
        count = len(times)
        means.append(statistics.fmean(times) / 1000)
        medians.append(statistics.median(times) / 1000)
    print(f"a bot's view as a table makes it ({args.games} games, {count} views a run, "
          f"{args.runs} runs, load average {os.getloadavg()[0]:.1f}): mean "
          f"{statistics.median(means):.1f} µs (runs: {', '.join(f'{m:.1f}' for m in means)}),"
          f" median {statistics.median(medians):.1f} µs")


if __name__ == "__main__":
    main()
