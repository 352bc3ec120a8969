"""The engine's part of a bot's reply on a server's table, per action, in one process.

A table of the server keeps its game as a chain of states, each a copy of the one before
with one action applied (``Game.copy()`` then ``apply``). For every state it makes the
public view once (:func:`chicago.engine.views.public_view`); the bot to act is given its
seat's view made from it (:func:`chicago.engine.views.seat_view_from`) and a generator
seeded from the table's secret, the sequence number and its seat, and decides. This plays
``--games`` whole 4-player pagat games of ``basic`` bots that way and prints the CPU time
(``time.process_time``) per action of each part, the median of ``--runs`` runs:

- ``public``: the public view of the new state;
- ``bot view``: the view of the seat to act, from the public one;
- ``decision``: the generator made and ``BasicBot.decide`` on that view;
- ``copy+apply``: the next state.

Compare two versions by running it with each on ``PYTHONPATH``, interleaved:

    PYTHONPATH=OLD/src python benchmarks/bench_bot_replies.py; python benchmarks/bench_bot_replies.py
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from chicago import Game, Rules
from chicago.bots.basic import BasicBot
from chicago.engine.views import public_view, seat_view_from

try:
    from chicago.seeding import SeededOnUse as Generator
except ImportError:  # a version from before the generator seeded on use
    Generator = random.Random  # type: ignore[misc, assignment]

PARTS = ("public", "bot view", "decision", "copy+apply")


def one_run(games: int) -> dict[str, float]:
    """µs per action of each part over ``games`` games."""
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.process_time
    bot = BasicBot()
    actions = 0
    for number in range(games):
        game = Game(Rules.preset("pagat"), players=4, seed=number)
        seq = 0
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            t0 = clock()
            public = public_view(game)
            t1 = clock()
            view = seat_view_from(public, game, seat)
            t2 = clock()
            action = bot.decide(view, game.legal_actions(), Generator(f"secret:{seq}:{seat}"))
            t3 = clock()
            after = game.copy()
            after.apply(action)
            game = after
            t4 = clock()
            spent["public"] += t1 - t0
            spent["bot view"] += t2 - t1
            spent["decision"] += t3 - t2
            spent["copy+apply"] += t4 - t3
            seq += 1
            actions += 1
    return {part: total * 1e6 / actions for part, total in spent.items()}


def main() -> None:
    """Run and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = [one_run(args.games) for _ in range(args.runs)]
    median: Callable[[str], float] = lambda part: statistics.median(r[part] for r in runs)
    print(f"per action, µs CPU, median of {args.runs} runs of {args.games} games (load "
          f"average {os.getloadavg()[0]:.1f}): "
          + ", ".join(f"{part} {median(part):.1f}" for part in PARTS))


if __name__ == "__main__":
    main()
