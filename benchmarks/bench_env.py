"""Benchmark of the research environments: encoding, PettingZoo steps, OpenSpiel playouts.

Prints, on one core (CPU time of this process):

- ``encode_view`` per call and the view it is built from (``Game.view``), per decision of
  random pagat games;
- PettingZoo ``chicago_v0`` steps per second with random legal actions (observe + step);
- OpenSpiel ``python_chicago`` random playouts: actions per second (chance nodes included)
  and the time of ``resample_from_infostate``;
- one ISMCTS decision (20 simulations, random rollouts) in a two-deal game;
- ``chicago.env.batch.GameBatch``: random legal actions per second in batches of 1 to 1,024
  games (after an untimed warm-up, each measurement in a fresh process), with the load
  average of the run; ``--against OTHER/src`` measures another checkout (its accelerators
  built) interleaved with this one and prints the ratio.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_env.py [--quick]
[--batch-only] [--sizes 1 1024] [--runs 5] [--against ../main/src]``. The PettingZoo and OpenSpiel
parts are skipped when their extras are not installed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from chicago import Game, Rules
from chicago.env.observation import encode_view


def _cpu() -> float:
    return time.process_time()


def bench_encoding(games: int) -> None:
    views: list[float] = []
    encodes: list[float] = []
    for seed in range(games):
        game = Game(Rules.preset("pagat", max_deals=2), 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            start = _cpu()
            view = game.view(seat)
            middle = _cpu()
            encode_view(view)
            views.append(middle - start)
            encodes.append(_cpu() - middle)
            game.apply(rng.choice(game.legal_actions()))
    print(f"Game.view: {statistics.mean(views) * 1e6:.0f} us, "
          f"encode_view: {statistics.mean(encodes) * 1e6:.0f} us per decision "
          f"({len(encodes)} decisions)")


def bench_pettingzoo(steps: int) -> None:
    try:
        from chicago.env.pettingzoo import env
    except ImportError:
        print("PettingZoo: not installed (extra rl)")
        return
    e = env(players=4, max_deals=3)
    e.reset(seed=1)
    rng = random.Random(1)
    done = 0
    start = _cpu()
    while done < steps:
        for _agent in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = [i for i, x in enumerate(observation["action_mask"]) if x]
            e.step(rng.choice(legal))
            done += 1
        e.reset(seed=done)
    elapsed = _cpu() - start
    print(f"PettingZoo chicago_v0: {done / elapsed:,.0f} steps/s (last() + step())")


def bench_openspiel(games: int) -> None:
    try:
        import numpy as np
        import pyspiel

        import chicago.env.openspiel  # noqa: F401 - registers the game
    except ImportError:
        print("OpenSpiel: not installed (extra openspiel)")
        return
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_chicago", {"players": 4, "max_deals": 2})
    rng = np.random.RandomState(1)
    actions = 0
    resamples: list[float] = []
    start = _cpu()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                if actions % 7 == 0:
                    t = _cpu()
                    state.resample_from_infostate(state.current_player(), rng.random_sample)
                    resamples.append(_cpu() - t)
                state.apply_action(int(rng.choice(state.legal_actions())))
            actions += 1
    elapsed = _cpu() - start - sum(resamples)
    print(f"OpenSpiel python_chicago: {actions / elapsed:,.0f} actions/s in random playouts "
          f"(chance nodes included), resample_from_infostate "
          f"{statistics.mean(resamples) * 1e3:.2f} ms")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=10.0, max_simulations=20, random_state=rng)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    t = _cpu()
    bot.step(state)
    print(f"ISMCTS, 20 simulations, first decision of a two-deal game: {_cpu() - t:.2f} s")


BATCH_SIZES = (1, 16, 64, 256, 1024)
"""The batch sizes bench_batch measures."""
HERE = Path(__file__).resolve().parent


def batch_rate(count: int, seconds: float, warmup_steps: int) -> float:
    """chicago.env.batch: random legal actions per second of CPU time in a batch of
    ``count`` games (pagat, max_deals 10 so that games end and start again), observations
    and masks included. ``warmup_steps`` untimed steps first (500: every slot through about
    one game of some 450 actions), so that the timed steps see what a long run sees: slots
    at every point of their games, games ending and starting, histories of every length."""
    import numpy as np

    from chicago.env.batch import GameBatch

    batch = GameBatch(count, "pagat", seed=count, max_deals=10)
    batch.reset()
    rng = np.random.default_rng(count)
    for _ in range(warmup_steps):
        batch.step(batch.random_actions(rng))
    steps = 0
    start = _cpu()
    while _cpu() - start < seconds:
        batch.step(batch.random_actions(rng))
        steps += 1
    return steps * count / (_cpu() - start)


def _rate_in_a_process(src: Path, count: int, seconds: float, warmup_steps: int) -> float:
    """batch_rate in a fresh Python process importing chicago from ``src`` (a checkout's
    ``src`` directory, its C accelerators built in place or installed from it)."""
    env = {**os.environ, "PYTHONPATH": str(src), "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--one-batch", str(count),
         str(seconds), str(warmup_steps)],
        env=env, check=True, capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def bench_batch(seconds: float, runs: int, warmup_steps: int,
                sizes: tuple[int, ...] = BATCH_SIZES, against: Path | None = None) -> None:
    """batch_rate for each batch size, the median of ``runs`` runs taken in turn, each in a
    fresh process; with ``against`` (another checkout's ``src``), that code measured the
    same way, interleaved with this one (size by size, run by run), and the ratio."""
    from chicago.env.batch import ACCELERATED

    trees = {"this": HERE.parent / "src", **({"against": against} if against else {})}
    rates: dict[tuple[str, int], list[float]] = {}
    loads = [os.getloadavg()[0]]
    for _ in range(runs):
        for count in sizes:
            for name, src in trees.items():
                rate = _rate_in_a_process(src, count, seconds, warmup_steps)
                rates.setdefault((name, count), []).append(rate)
        loads.append(os.getloadavg()[0])
    print(f"GameBatch, random legal actions per second of CPU time (observations and masks "
          f"included, accelerator {'on' if ACCELERATED else 'off'}; medians of {runs}, "
          f"load average {min(loads):.1f}-{max(loads):.1f}; target >= 200,000):")
    for count in sizes:
        this = statistics.median(rates["this", count])
        line = f"  {count:5d} games: {this:9,.0f}"
        if against is not None:
            other = statistics.median(rates["against", count])
            line += f"   against {other:9,.0f}   ratio {this / other:.2f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--batch-only", action="store_true", help="only the GameBatch part")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(BATCH_SIZES),
                        help="the batch sizes GameBatch is measured at")
    parser.add_argument("--against", type=Path, metavar="SRC",
                        help="another checkout's src directory (accelerators built): its "
                             "GameBatch measured interleaved with this one, and the ratio")
    parser.add_argument("--runs", type=int, metavar="N",
                        help="GameBatch runs per batch size, the median printed (default 3, "
                             "1 with --quick)")
    parser.add_argument("--one-batch", nargs=3, metavar=("COUNT", "SECONDS", "WARMUP"),
                        help=argparse.SUPPRESS)  # one measurement, in the calling process
    args = parser.parse_args()
    if args.one_batch:
        count, seconds, warmup = args.one_batch
        print(f"{batch_rate(int(count), float(seconds), int(warmup)):.1f}")
        return
    runs = args.runs if args.runs is not None else 1 if args.quick else 3
    if runs < 1:
        parser.error("--runs must be at least 1")
    bench_batch(0.5 if args.quick else 3.0, runs, 50 if args.quick else 500,
                tuple(args.sizes), args.against)
    if args.batch_only:
        return
    bench_encoding(5 if args.quick else 30)
    bench_pettingzoo(2_000 if args.quick else 20_000)
    bench_openspiel(2 if args.quick else 10)


if __name__ == "__main__":
    main()
