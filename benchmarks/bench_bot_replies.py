"""The engine's part of a bot's reply on a server's table, per action, in one process.

A table of the server keeps its game as a chain of states, each a copy of the one before
with one action applied (``Game.copy()`` then ``apply``). For every state it makes the
public view once (:func:`chicago.engine.views.public_view`); the bot to act is given its
seat's view made from it (:func:`chicago.engine.views.seat_view_from`) and a generator
seeded from the table's secret, the sequence number and its seat, and decides. This plays
``--games`` whole 4-player pagat games of ``basic`` bots that way, ``--tables`` of them at a
time taking turns as a server's tables do, and prints the CPU time (``time.process_time``)
per action of each part, the median of ``--runs`` runs:

- ``public``: the public view of the new state;
- ``bot view``: the view of the seat to act, from the public one;
- ``decision``: the generator made and ``BasicBot.decide`` on that view;
- ``knowledge``: of the decision, the bot's :func:`~chicago.engine.knowledge.knowledge` of
  the view (timed inside it);
- ``copy+apply``: the next state.

Compare two versions by running it with each on ``PYTHONPATH``, interleaved:

    PYTHONPATH=OLD/src python benchmarks/bench_bot_replies.py --tables 20
    python benchmarks/bench_bot_replies.py --tables 20

It does not tune the garbage collector as ``chicago serve`` does: collections are charged to
whatever part allocated when one ran (mostly ``copy+apply``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from chicago import Game, Rules
from chicago.bots import basic
from chicago.bots.basic import BasicBot
from chicago.engine.views import public_view, seat_view_from

try:
    from chicago.seeding import SeededOnUse as Generator
except ImportError:  # a version from before the generator seeded on use
    Generator = random.Random  # type: ignore[misc, assignment]

PARTS = ("public", "bot view", "decision", "knowledge", "copy+apply")


def _timing_knowledge(spent: dict[str, float]) -> None:
    """Make ``basic``'s knowledge add its CPU time to ``spent["knowledge"]``."""
    know = getattr(basic.knowledge, "__wrapped__", basic.knowledge)
    clock = time.process_time

    def timed(view):  # type: ignore[no-untyped-def]
        start = clock()
        made = know(view)
        spent["knowledge"] += clock() - start
        return made

    timed.__wrapped__ = know  # type: ignore[attr-defined]
    basic.knowledge = timed  # type: ignore[assignment]


def one_run(games: int, tables: int) -> dict[str, float]:
    """µs per action of each part over ``games`` games, ``tables`` of them at a time taking
    turns (as a server's tables do)."""
    spent = dict.fromkeys(PARTS, 0.0)
    _timing_knowledge(spent)
    clock = time.process_time
    bot = BasicBot()
    actions = 0
    waiting = list(range(games))
    playing: list[tuple[Game, int]] = []
    while waiting or playing:
        while waiting and len(playing) < tables:
            playing.append((Game(Rules.preset("pagat"), players=4, seed=waiting.pop()), 0))
        for number, (game, seq) in enumerate(playing):
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
            t4 = clock()
            playing[number] = (after, seq + 1)
            spent["public"] += t1 - t0
            spent["bot view"] += t2 - t1
            spent["decision"] += t3 - t2
            spent["copy+apply"] += t4 - t3
            actions += 1
        playing = [(game, seq) for game, seq in playing if not game.is_over]
    return {part: total * 1e6 / actions for part, total in spent.items()}


def main() -> None:
    """Run and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tables", type=int, default=1,
                        help="games played at a time, taking turns (as a server's tables)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = [one_run(args.games, args.tables) for _ in range(args.runs)]

    def median(part: str) -> float:
        return statistics.median(r[part] for r in runs)

    print(f"per action, µs CPU, median of {args.runs} runs of {args.games} games, "
          f"{args.tables} at a time (load "
          f"average {os.getloadavg()[0]:.1f}): "
          + ", ".join(f"{part} {median(part):.1f}" for part in PARTS))


if __name__ == "__main__":
    main()
