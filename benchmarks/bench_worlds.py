"""The worlds ``master:infer=3`` searches at trick play, against the real hands.

Plays games of ``--bot`` (``master:infer=3``, the shipped default) in seat 0 against three
``--others`` (pagat, duplicate deals of ``--seed`` as ``bench_disagreements.py`` deals
them). At each of seat 0's trick decisions with a choice, no Chicago declared and at least
one opponent's card seen this deal, it deals the bot's worlds again from the seat's view
(a copy of the bot's own rng state, so exactly the worlds of the decision) and reports,
per variant (``--chains``: 0 is the resampled worlds as dealt, N the same after N
Metropolis–Hastings trades each, ``chain=N``; ``--exrules``: each also with the opponents'
hands weighed by ``basic``'s exchange rule, ``exrule=N``, on the same decisions;
``--annrules``: each also with ``basic``'s announcement rule, ``annrule=N``; ``--exkepts``:
each with ``exrule`` also with the rule read for protected combinations, ``exkept=N``;
``--pools``, ``--caps``, ``--samples``: each with that many worlds dealt per world searched,
``pool=N``, that most dealt while the effective count is short of ``fit`` × ``samples``,
``cap=N``, and that many searched, ``samples=N``):

- ``distinct``: how many of the ``samples`` worlds searched differ;
- ``ess``: the effective number of the dealt pool's worlds after weighting, (Σw)²/Σw²;
- ``true/max``: the real hands' weight under the same model over the pool's largest (the
  real world typically of high likelihood when near 1 or above);
- ``true>=``: the share of the pool's worlds weighing less than the real one;
- ``placed``: the share of the opponents' hidden cards that the searched worlds put in the
  right hand (mean over worlds); ``uniform``: the same for worlds dealt without weights;
- CPU per decision of each of ``--time`` (``time.process_time``, the whole decision, each
  bot kept for the game so its memo of finished deals is warm, as in play).

The real hands are read by the benchmark only, never by the bot.

    python benchmarks/bench_worlds.py [--bot master:infer=3] [--others basic] [--games 4]
        [--deals 8] [--seed 2026] [--chains 0 20 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from chicago import Rules
from chicago.bots import make_bot
from chicago.bots.announcerule import words_of
from chicago.bots.master import MasterBot
from chicago.bots.playerkinds import history_kinds
from chicago.bots.playmodel import effective_count, observed_plays
from chicago.cards import mask_of
from chicago.engine.knowledge import knowledge
from chicago.engine.sampling import sample_hands
from chicago.sim import derive_seed, duplicate_game


def _placed(worlds: list[list[int]], true: list[int], seat: int) -> float:
    """The share of the opponents' held cards each world puts in the right hand (mean)."""
    total = sum(true[s].bit_count() for s in range(len(true)) if s != seat)
    if not total or not worlds:
        return 0.0
    right = [sum((w[s] & true[s]).bit_count() for s in range(len(true)) if s != seat) / total
             for w in worlds]
    return sum(right) / len(right)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="master:infer=3")
    parser.add_argument("--others", default="basic")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--from-deal", type=int, default=1,
                        help="measure decisions of this deal of each game on")
    parser.add_argument("--time", nargs="*", default=["master", "master:chain=20"],
                        help="bots timed on the same decisions (same view, same rng state)")
    parser.add_argument("--chains", type=int, nargs="+", default=[0, 20, 50])
    parser.add_argument("--exrules", type=int, nargs="+", default=None,
                        help="exrule values measured on the same decisions (default: the "
                        "bot's own)")
    parser.add_argument("--annrules", type=int, nargs="+", default=None,
                        help="annrule values measured on the same decisions (default: the "
                        "bot's own)")
    parser.add_argument("--pools", type=int, nargs="+", default=None,
                        help="pool values measured on the same decisions (default: the "
                        "bot's own)")
    parser.add_argument("--caps", type=int, nargs="+", default=None,
                        help="cap values measured on the same decisions (default: the "
                        "bot's own)")
    parser.add_argument("--samples", type=int, nargs="+", default=None,
                        help="samples values measured on the same decisions (default: the "
                        "bot's own)")
    parser.add_argument("--exkepts", type=int, nargs="+", default=None,
                        help="exkept values measured on the same decisions, with exrule "
                        "(default: the bot's own)")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    Row = tuple[int, float, float, float, float, int]
    probe = make_bot(args.bot)
    exrules = args.exrules if args.exrules is not None else [getattr(probe, "exrule", 0)]
    annrules = args.annrules if args.annrules is not None else [getattr(probe, "annrule", 0)]
    exkepts = args.exkepts if args.exkepts is not None else [getattr(probe, "exkept", 0)]
    pools = args.pools if args.pools is not None else [getattr(probe, "pool", 10)]
    caps = args.caps if args.caps is not None else [getattr(probe, "cap", 0)]
    counts = args.samples if args.samples is not None else [getattr(probe, "samples", 40)]
    variants = [(c, e, a, x, p, cap, n) for n in counts for cap in caps for p in pools
                for x in exkepts for a in annrules for e in exrules
                for c in args.chains if (e or not x) and (not cap or cap >= p)]
    rows: dict[tuple[int, ...], list[Row]] = {v: [] for v in variants}
    uniform_placed: list[float] = []
    cpu: dict[str, list[float]] = {spec: [] for spec in args.time}
    for index in range(args.first_game, args.first_game + args.games):
        game = duplicate_game(rules, 4, seed=derive_seed(args.seed, index, 1),
                              deck_seed=derive_seed(args.seed, index // 4, 2))
        bots = [make_bot(args.bot if s == 0 else args.others) for s in range(4)]
        rngs = [random.Random(derive_seed(args.seed, index, 3, s)) for s in range(4)]
        timers = [make_bot(spec) for spec in args.time]
        bot = bots[0]
        if not isinstance(bot, MasterBot) or bot.play_policy is None or bot.infer != 3:
            raise SystemExit(f"{args.bot!r} is not master with infer=3")
        while not game.is_over and game.deal_number <= args.deals:
            seat = game.to_act
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            if seat == 0 and str(game.phase) == "play" and len(legal) > 1:
                k = knowledge(view)
                plays = observed_plays(k)
                if plays and k.declarer is None and game.deal_number >= args.from_deal:
                    true = [mask_of(hand) for hand in game.hands]
                    state = rngs[0].getstate()
                    own = (bot.chain, bot.exrule, bot.annrule, bot.exkept, bot.pool,
                           bot.cap, bot.samples)
                    bot._kinds = history_kinds(view.history, 0, bot.play_policy, bot.eps, 4,
                                               bot.prior)
                    bot._words = words_of(view, k)
                    for variant in variants:
                        (bot.chain, bot.exrule, bot.annrule, bot.exkept, bot.pool, bot.cap,
                         bot.samples) = variant
                        rng = random.Random()
                        rng.setstate(state)
                        _, weights = bot._pool(k, rng, plays, bot.cap)
                        rng.setstate(state)
                        worlds = [list(p.hands) for p in bot._positions(k, rng, None)]
                        top = max(weights)
                        mine = bot._play_weights(k, [true], plays)[0]
                        rows[variant].append((
                            len({tuple(w) for w in worlds}), effective_count(weights),
                            mine / top if top > 0 else 0.0,
                            sum(1 for w in weights if w < mine) / len(weights),
                            _placed(worlds, true, 0), k.trick_number))
                    (bot.chain, bot.exrule, bot.annrule, bot.exkept, bot.pool, bot.cap,
                     bot.samples) = own
                    flat = [sample_hands(k, random.Random(i)) for i in range(bot.samples)]
                    uniform_placed.append(_placed(flat, true, 0))
                    for spec, timed in zip(args.time, timers, strict=True):
                        rng = random.Random()
                        rng.setstate(state)
                        start = time.process_time()
                        timed.decide(view, legal, rng)
                        cpu[spec].append(1000 * (time.process_time() - start))
            action = bots[seat].decide(view, legal, rngs[seat])
            game.apply(action)
        print(f"game {index}: {len(uniform_placed)} decisions so far", flush=True)
    for (chain, exrule, annrule, exkept, pool, cap, count), found in rows.items():
        if not found:
            continue
        print(f"chain={chain} exrule={exrule} annrule={annrule} exkept={exkept} "
              f"pool={pool} cap={cap} samples={count}: "
              f"{len(found)} decisions; "
              f"distinct median "
              f"{statistics.median(r[0] for r in found):.0f} (mean "
              f"{statistics.mean(r[0] for r in found):.1f}); ess median "
              f"{statistics.median(r[1] for r in found):.1f}; true/max median "
              f"{statistics.median(r[2] for r in found):.2f} (below 0.1: "
              f"{sum(1 for r in found if r[2] < 0.1)}); true>= mean "
              f"{statistics.mean(r[3] for r in found):.2f}; placed "
              f"{statistics.mean(r[4] for r in found):.3f}")
        for trick in sorted({r[5] for r in found}):
            some = [r for r in found if r[5] == trick]
            print(f"  trick {trick}: {len(some)} decisions; distinct median "
                  f"{statistics.median(r[0] for r in some):.0f}; ess median "
                  f"{statistics.median(r[1] for r in some):.1f}; placed "
                  f"{statistics.mean(r[4] for r in some):.3f}")
    if uniform_placed:
        print(f"uniform worlds placed {statistics.mean(uniform_placed):.3f}")
    for spec, times in cpu.items():
        if times:
            times.sort()
            print(f"CPU per decision of {spec}: median {statistics.median(times):.1f} ms, "
                  f"p99 {times[min(len(times) - 1, int(0.99 * len(times)))]:.1f} ms, "
                  f"max {times[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
