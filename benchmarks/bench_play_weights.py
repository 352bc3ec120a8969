"""How concentrated the trick search's worlds become with play-based inference, and what
weighing them costs: ``infer=1`` (the rules of thumb) against ``infer=2`` (the fitted
policy of :mod:`chicago.bots.playpolicy`).

Plays ``--games`` games of four ``expert`` bots (pagat, ``--seed``); at every trick
decision with a choice, after at least one opponent's play and with no Chicago declared, it
deals ``--worlds`` worlds as ``master`` does (the expert's weighted sampler) and weighs
them both ways. It prints, by the number of opponents' plays seen so far, the median
effective number of worlds ((Σw)² / Σw², out of ``--worlds``: how many distinct worlds the
resampling can keep) and the median CPU time of weighing all of them (``time.process_time``).
``--soft 0.5 0.25`` adds the effective worlds of ``infer=2``'s weights raised to those
powers (``master:infer=2;soft=X``, :func:`chicago.bots.master.tempered_weights`).

    python benchmarks/bench_play_weights.py [--games 2] [--worlds 120] [--seed 77] [--soft X ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence

from chicago.bots.base import make_bot
from chicago.bots.master import MasterBot, tempered_weights
from chicago.bots.playmodel import observed_plays, play_weight, policy_weights
from chicago.bots.playpolicy import PlayPolicy
from chicago.engine.game import Game
from chicago.engine.knowledge import knowledge
from chicago.rules import Rules
from chicago.sim import play_game


def _effective(weights: Sequence[float]) -> float:
    return sum(weights) ** 2 / sum(w * w for w in weights)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=120)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--soft", type=float, nargs="*", default=[],
                        help="powers of infer=2's weights to report the worlds kept for")
    args = parser.parse_args(argv)
    policy = PlayPolicy.load()
    dealer = MasterBot()
    rows: list[tuple[int, float, float, float, float, list[float]]] = []

    def observe(game: Game, seat: int) -> None:
        if str(game.phase) != "play" or len(game.legal_actions()) < 2:
            return
        k = knowledge(game.view(seat))
        plays = observed_plays(k)
        if k.declarer is not None or not plays:
            return
        rng = random.Random(len(rows))
        worlds = [dealer._sample(k, rng) for _ in range(args.worlds)]
        start = time.process_time()
        thumb = [play_weight(hands, plays) for hands in worlds]
        middle = time.process_time()
        fitted = policy_weights(worlds, plays, policy, k.players)
        end = time.process_time()
        softer = [_effective(tempered_weights(fitted, power)) for power in args.soft]
        rows.append((len(plays), _effective(thumb), _effective(fitted), middle - start,
                     end - middle, softer))

    bots = [make_bot("expert") for _ in range(4)]
    for game in range(args.games):
        play_game(bots, Rules.preset("pagat"), seed=args.seed, set_index=game,
                  observer=observe)
    print(f"{len(rows)} trick decisions, {args.worlds} worlds each; medians")
    print("plays seen | decisions | worlds kept: infer=1 | infer=2 | CPU ms: infer=1 | infer=2"
          + "".join(f" | worlds kept: soft={power:g}" for power in args.soft))
    for low, high in ((1, 3), (4, 7), (8, 11), (12, 15)):
        chosen = [r for r in rows if low <= r[0] <= high]
        if chosen:
            print(f"{low}-{high} | {len(chosen)} | "
                  f"{statistics.median(r[1] for r in chosen):.0f} | "
                  f"{statistics.median(r[2] for r in chosen):.0f} | "
                  f"{1000 * statistics.median(r[3] for r in chosen):.1f} | "
                  f"{1000 * statistics.median(r[4] for r in chosen):.1f}"
                  + "".join(f" | {statistics.median(r[5][i] for r in chosen):.0f}"
                            for i in range(len(args.soft))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
