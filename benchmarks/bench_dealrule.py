"""CPU per decision of ``master:...;dealrule=1`` against ``master``, and how many deals
the rejection tries per world kept, by phase (issue 30).

Plays pagat games of ``master`` in seat 0 against three ``basic``; at each of seat 0's
decisions with a choice from ``--from-deal`` on, both bots are asked on the same view with
the same seed, in alternating order, each timed by ``time.process_time``. Prints, per
phase, the decisions, the median and p99 CPU (ms) of each and, for the variant, the deals
dealt per world kept (mean) and the share of decisions whose choice differs.

    python benchmarks/bench_dealrule.py [--games 3] [--first-game 0] [--from-deal 3]
        [--variant 'master:exrule=1;annrule=1;dealrule=1'] [--seed 2026]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from chicago import Rules
from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.sim import derive_seed, duplicate_game


def _instrument(variant: MasterBot) -> list[int]:
    """Count the deals dealt (``[0]``) and the worlds kept (``[1]``) by ``variant``'s
    rejection sampling; the counter is returned and reset by the caller."""
    plain = variant._plain_sample
    original = variant._rule_sample
    counter = [0, 0]

    def counted(k: Knowledge, rng: random.Random) -> list[int]:
        counter[0] += 1
        return plain(k, rng)

    def kept(k: Knowledge, rng: random.Random) -> list[int]:
        counter[1] += 1
        return original(k, rng)

    variant._plain_sample = counted  # type: ignore[method-assign]
    variant._rule_sample = kept  # type: ignore[method-assign]
    return counter


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--from-deal", type=int, default=3)
    parser.add_argument("--variant", default="master:exrule=1;annrule=1;dealrule=1")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = Rules.preset("pagat")
    times: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    tries: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    differ: dict[str, int] = defaultdict(int)
    for g in range(args.first_game, args.first_game + args.games):
        game = duplicate_game(rules, 4, seed=derive_seed(args.seed, g, 1),
                              deck_seed=derive_seed(args.seed, g, 2))
        bots = [make_bot("master" if s == 0 else "basic") for s in range(4)]
        variant = make_bot(args.variant)
        assert isinstance(variant, MasterBot)
        counter = _instrument(variant)
        rngs = [random.Random(g * 10 + s) for s in range(4)]
        n = 0
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions()
            view = game.view(seat)
            if seat == 0 and len(legal) > 1 and game.deal_number >= args.from_deal:
                phase = str(game.phase)
                if phase == "exchange":
                    phase += f" {knowledge(view).round}"
                chosen: dict[str, Any] = {}
                order = [("master", bots[0]), ("variant", variant)]
                if n % 2:
                    order.reverse()
                for name, bot in order:
                    counter[0] = counter[1] = 0
                    start = time.process_time()
                    chosen[name] = bot.decide(view, legal, random.Random(n))
                    times[phase][name].append(time.process_time() - start)
                    if name == "variant":
                        tries[phase][0] += counter[0]
                        tries[phase][1] += counter[1]
                differ[phase] += chosen["master"] != chosen["variant"]
                n += 1
            game.apply(bots[seat].decide(view, legal, rngs[seat]))
    print(f"{args.variant} vs master, pagat, seed {args.seed}, games "
          f"{args.first_game}-{args.first_game + args.games - 1}, from deal {args.from_deal}")
    print("phase           n   master med/p99 ms   variant med/p99 ms   deals per world  differ")
    for phase in sorted(times):
        row = times[phase]
        count = len(row["master"])

        def stat(xs: list[float]) -> str:
            xs = sorted(xs)
            p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
            return f"{statistics.median(xs) * 1e3:7.1f} / {p99 * 1e3:7.1f}"

        dealt, worlds = tries[phase]
        ratio = f"{dealt / worlds:5.2f}" if worlds else "  -  "
        print(f"{phase:14s} {count:4d}  {stat(row['master'])}   {stat(row['variant'])}"
              f"        {ratio}      {differ[phase]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
