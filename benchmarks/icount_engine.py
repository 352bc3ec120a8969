"""Fixed workloads of the rules engine, for instruction counts (issue 28).

Run under valgrind, the same instructions on every run (no clock, fixed seeds)::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no \\
        .venv/bin/python benchmarks/icount_engine.py deals pagat

and subtract the count of ``none`` (the interpreter's start and the imports) to get the
workload's own instructions. Workloads:

- ``deals [preset]``: 300 random deals of four-player games (a new game whenever one ends),
  each action drawn uniformly from the legal ones with ``randrange``;
- ``bench-deals [preset]``: the same number of deals with ``bench_engine``'s own random
  player (``random.choice``, Chicago declined nine times in ten), as the benchmark plays them;
- ``kept [preset]``: ``bench-deals``, the lengths of the legal actions kept as it goes;
- ``player [preset]``: ``kept``, then the player's own calls alone again, on tuples of the
  lengths its legal actions had, in the same order: its count minus ``kept``'s is what the
  random player costs (the engine's is the rest of ``bench-deals``);
- ``games [preset]``: whole games played as ``bench_engine.bench_games`` plays them (its
  own loop, the player written out in it) until ``DEALS`` deals are done: what the
  benchmark's deals per second measure (issue 28, fortieth pass; the number of deals,
  a few above ``DEALS``, is printed to stderr);
- ``copy50 [preset]``: a position after 30 random actions, copied 300 times, 50 random
  actions played from each copy;
- ``none``: nothing but the imports.

A third argument sets ``DEALS`` (300 by default; issue 28, forty-third pass): the
difference of two counts, say 1,500 and 300 deals, over the deals between them is the cost
of a deal once the process's kept tables (the one- to three-card discards, made when first
listed) are warm, as they are through most of a one-second benchmark run.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable
from pathlib import Path

from chicago import Game, Rules

sys.path.insert(0, str(Path(__file__).parent))
from bench_engine import CHICAGO, CHICAGO_RATE, random_action

DEALS = 300


def deals(rules: Rules, rng: random.Random) -> None:
    """``DEALS`` random deals, each action drawn with ``randrange``."""
    game = Game(rules, 4, seed=11)
    for _ in range(DEALS):
        if game.is_over:
            game = Game(rules, 4, seed=rng.randrange(1 << 30))
        number = game.deal_number
        while not game.is_over and game.deal_number == number:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


def bench_deals(rules: Rules, rng: random.Random, lengths: list[int] | None) -> None:
    """``DEALS`` deals with the benchmark's player; the legal actions' lengths kept in
    ``lengths`` if it is a list."""
    game = Game(rules, 4, seed=11)
    for _ in range(DEALS):
        if game.is_over:
            game = Game(rules, 4, seed=rng.randrange(1 << 30))
        number = game.deal_number
        while not game.is_over and game.deal_number == number:
            if lengths is not None:
                lengths.append(len(game.legal_actions()))
            game.apply(random_action(game, rng))


class _Stand:
    """A stand-in game for the player alone: ``legal_actions`` is a C callable (as the
    engine's is) that gives a tuple of plain items."""

    __slots__ = ("legal_actions",)
    legal_actions: Callable[[], tuple[object, ...]]


def player_alone(lengths: list[int], rng: random.Random) -> None:
    """The benchmark's player's calls on tuples of ``lengths`` (no Chicago in them: the
    rare extra draw of a Chicago turn is left out)."""
    given = {n: itertools.repeat(((None,),) * n).__next__ for n in set(lengths)}
    stand = _Stand()
    for n in lengths:
        stand.legal_actions = given[n]
        random_action(stand, rng)  # type: ignore[arg-type]


def games(rules: Rules, rng: random.Random) -> int:
    """Whole games as ``bench_engine.bench_games`` plays them, until ``DEALS`` deals: the
    number of deals played (the last game's included)."""
    getrandbits = rng.getrandbits
    deals = 0
    game_seed = 1
    while deals < DEALS:
        game = Game(rules, 4, seed=game_seed)
        game_seed += 1
        apply, legal_actions = game.apply, game.legal_actions
        while game.to_act is not None:
            legal = legal_actions()
            n = len(legal)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            action = legal[r]
            if action[0] is CHICAGO and rng.random() >= CHICAGO_RATE:
                action = legal[0]
            apply(action)
        deals += game.deal_number
    return deals


def copy50(rules: Rules, rng: random.Random) -> None:
    """A standing position copied 300 times, 50 random actions from each copy."""
    base = Game(rules, 4, seed=3)
    for _ in range(30):
        legal = base.legal_actions()
        base.apply(legal[rng.randrange(len(legal))])
    for _ in range(300):
        game = base.copy()
        for _ in range(50):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "none"
    rules = Rules.preset(argv[1] if len(argv) > 1 else "pagat")
    if len(argv) > 2:
        global DEALS
        DEALS = int(argv[2])
    rng = random.Random(7)
    if what == "deals":
        deals(rules, rng)
    elif what == "bench-deals":
        bench_deals(rules, rng, None)
    elif what in ("kept", "player"):
        lengths: list[int] = []
        bench_deals(rules, rng, lengths)
        if what == "player":
            player_alone(lengths, random.Random(7))
    elif what == "games":
        print(f"{games(rules, rng)} deals", file=sys.stderr)
    elif what == "copy50":
        copy50(rules, rng)
    elif what != "none":
        print(f"unknown workload {what!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
