"""CPU per trick decision of ``master:alphamu=N`` where αμ applies, beside ``master`` on
the same views (issue 30).

Plays games of ``--bot`` (``master:alphamu=3``) in seat 0 against three ``--others``
(``expert``), pagat, duplicate deals of ``--seed``. At each of seat 0's trick decisions with
a choice where αμ applies (three to N cards in hand, no Chicago declared), it asks ``--bot``
and ``--base`` (``master``) for their card on the same view with the same seed, in
alternating order, and records the CPU time of each (``time.process_time``) and whether the
cards differ. It prints the decisions, how many applied and differed, and the median, 90th
percentile, 99th percentile and maximum of both bots' times on the decisions that applied.

    python benchmarks/bench_alphamu.py [--games 6] [--first-game 0] [--deals 12]
        [--bot master:alphamu=3] [--base master] [--others expert] [--seed 2026]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from chicago import Rules
from chicago.bots.base import Bot, make_bot
from chicago.bots.master import MasterBot
from chicago.engine.actions import Action
from chicago.engine.knowledge import knowledge
from chicago.engine.viewtypes import SeatView
from chicago.sim import derive_seed, duplicate_game


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _timed(bot: Bot, view: SeatView, legal: list[Action], seed: int) -> tuple[Action, float]:
    """``bot``'s choice on ``view`` with the seed ``seed`` and the CPU time it took."""
    start = time.process_time()
    choice = bot.decide(view, legal, random.Random(seed))
    return choice, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master:alphamu=3")
    parser.add_argument("--base", default="master")
    parser.add_argument("--others", default="expert")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    bot, base = make_bot(args.bot), make_bot(args.base)
    if not isinstance(bot, MasterBot):
        parser.error("--bot must be a master spec")
    rules = Rules.preset("pagat")
    mine: list[float] = []
    theirs: list[float] = []
    decisions = applied = differed = 0
    for number in range(args.first_game, args.first_game + args.games):
        game = duplicate_game(rules, 4, seed=derive_seed(args.seed, number, 1),
                              deck_seed=derive_seed(args.seed, number, 2))
        others = [make_bot(args.others) for _ in range(4)]
        rngs = [random.Random(derive_seed(args.seed, number, 10 + s)) for s in range(4)]
        while not game.is_over and game.deal_number <= args.deals:
            seat = game.to_act
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            if seat != 0:
                game.apply(others[seat].decide(view, legal, rngs[seat]))
                continue
            if str(game.phase) == "play" and len(legal) > 1:
                decisions += 1
                seed = rngs[0].randrange(1 << 30)
                pair = [(bot, mine), (base, theirs)]
                if decisions % 2:
                    pair.reverse()
                cards: dict[int, Action] = {}
                spent: dict[int, float] = {}
                for who, _ in pair:
                    cards[id(who)], spent[id(who)] = _timed(who, view, legal, seed)
                k = knowledge(view)
                if k.declarer is None and 3 <= len(k.hand) <= bot.alphamu:
                    applied += 1
                    differed += cards[id(bot)] != cards[id(base)]
                    mine.append(spent[id(bot)])
                    theirs.append(spent[id(base)])
                game.apply(cards[id(bot)])
            else:
                game.apply(bot.decide(view, legal, rngs[0]))
    print(f"{args.games} games, {decisions} trick decisions with a choice, αμ "
          f"applied at {applied}, a card other than {args.base}'s at {differed}")
    for name, times in ((args.bot, mine), (args.base, theirs)):
        ms = [1000 * t for t in times]
        print(f"  {name:24s} CPU ms where it applied: median {_quantile(ms, 0.5):.1f}, "
              f"p90 {_quantile(ms, 0.9):.1f}, p99 {_quantile(ms, 0.99):.1f}, "
              f"max {max(ms, default=0):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
