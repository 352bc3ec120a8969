"""What ``master:infer=3`` learns of its opponents: each one's chance of every kind of card
play (the rules of thumb, the policy fitted to the experts, uniform) after some deals.

Plays games of ``master:infer=3`` in seat 0 against three ``--others`` (pagat, duplicate
deals of ``--seed``, as ``bench_disagreements.py`` deals them) for up to ``--deals`` deals
and prints, per game, how many finished deals seat 0's view holds and each opponent's
posterior, then the mean over every opponent of every game. Reads only what the bot reads:
the finished deals of seat 0's view (:func:`chicago.bots.playerkinds.history_kinds`).

    python benchmarks/bench_player_kinds.py [--others basic] [--games 6] [--deals 12]
        [--seed 2026] [--preset pagat]
"""

from __future__ import annotations

import argparse
import random
import sys

from chicago import Rules
from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.playerkinds import KINDS, Triple, history_kinds
from chicago.sim import derive_seed, duplicate_game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--others", default="basic")
    parser.add_argument("--bot", default="master:infer=3")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--preset", default="pagat")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    final: list[Triple] = []
    for index in range(args.games):
        game = duplicate_game(rules, 4, seed=derive_seed(args.seed, index, 1),
                              deck_seed=derive_seed(args.seed, index // 4, 2))
        bots = [make_bot(args.bot if s == 0 else args.others) for s in range(4)]
        rngs = [random.Random(derive_seed(args.seed, index, 3, s)) for s in range(4)]
        while not game.is_over and game.deal_number <= args.deals:
            seat = game.to_act
            assert seat is not None
            action = bots[seat].decide(game.view(seat), game.legal_actions(), rngs[seat])
            game.apply(action)
        bot = bots[0]
        if not isinstance(bot, MasterBot) or bot.play_policy is None or bot.infer != 3:
            raise SystemExit(f"{args.bot!r} is not master with infer=3")
        history = game.view(0).history
        posteriors = history_kinds(history, 0, bot.play_policy, bot.eps, 4, bot.prior)
        shown = "  ".join(f"seat {s}: " + " ".join(f"{k} {p:.3f}" for k, p in zip(
            KINDS, t, strict=True)) for s, t in posteriors.items())
        print(f"game {index}: {len(history)} deals seen  {shown}", flush=True)
        final += posteriors.values()
    if final:
        means = [sum(t[m] for t in final) / len(final) for m in range(3)]
        print(f"mean over {len(final)} opponents: " + " ".join(
            f"{k} {p:.3f}" for k, p in zip(KINDS, means, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
