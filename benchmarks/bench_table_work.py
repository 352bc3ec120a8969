"""The engine's share of a server table's work per person move, in one process.

A table of one person (seat 0, random legal actions) and three ``basic`` bots, as
``bench_server.py`` seats them, without the server around it: per action, what the server's
table core asks of the engine and the bots, and nothing else (no websocket, no storage, no
event loop):

- a bot's turn: the view of the deciding seat and the bot's ``decide``;
- every action: the update state of the person's connection (the public part and the
  seat's own).

Both as the server at hand makes them: with :mod:`chicago.server.views` (a state's public
view made once, shared by the bot's view and the update), else (an older checkout on
``PYTHONPATH``) ``Game.view(seat)`` and :func:`chicago.server.protocol.update_state`.

It prints the CPU time (``time.process_time``) per person move, the median of ``--runs``
runs of ``--games`` games each. Compare two versions by running it with each on
``PYTHONPATH``, interleaved; ``bench_server.py`` gives the whole server's CPU per move.

    python benchmarks/bench_table_work.py --games 40 --runs 5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.server import protocol

try:
    from chicago.server.views import PublicViews
except ImportError:  # a server from before the shared public views
    PublicViews = None  # type: ignore[assignment,misc]


def table_work(games: int) -> tuple[int, float]:
    """Play ``games`` games of one person and three basic bots: (person moves, CPU s)."""
    bot = make_bot("basic")
    moves = 0
    start = time.process_time()
    for number in range(games):
        game = Game(Rules.preset("pagat"), players=4, seed=number)
        rng = random.Random(number)
        views = PublicViews() if PublicViews is not None else None
        while not game.is_over:
            seat = game.to_act
            if seat is None:
                break
            legal = game.legal_actions()
            if seat == 0:
                action = rng.choice(legal)
                moves += 1
            else:
                view = views.seat_view(game, seat) if views is not None else game.view(seat)
                action = bot.decide(view, legal, rng)
            game = game.copy()  # the server applies an action to a copy of the game
            game.apply(action)
            # the person's update after every action
            if views is not None:
                protocol.seat_state(game, 0, views.public_state(game))
            else:
                protocol.update_state(game, 0)
    return moves, time.process_time() - start


def main() -> None:
    """Run the benchmark and print the median CPU per person move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    per_move = []
    for _ in range(args.runs):
        moves, cpu = table_work(args.games)
        per_move.append(cpu * 1000 / moves)
    print(f"engine work per person move (one person, three basic bots; {args.games} games "
          f"x {args.runs} runs, CPU time, load average {os.getloadavg()[0]:.1f}): median "
          f"{statistics.median(per_move):.3f} ms (runs: "
          f"{', '.join(f'{x:.3f}' for x in per_move)})")


if __name__ == "__main__":
    main()
