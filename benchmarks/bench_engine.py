"""Benchmark of the rules engine: random legal games, copy() + playouts, and pokerkit.

Plays whole games with a random legal-action player (Chicago declined 9 times in 10) for every
preset on one core and prints deals per second and actions per second; times ``copy()``
followed by 50 random actions (the unit of work of a search bot's playout; median over many
positions taken from random games); and, in the same run, plays pokerkit's no-limit 2-7
single-draw lowball (a five-card draw game) with random actions for its hands per second.

Targets (issue 3): >= 1,000 Chicago deals/s with random players, copy() + 50 random actions
<= 1 ms. Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_engine.py [--quick]``.

Times are the CPU time of this process (``time.process_time``), so that other programs on a
busy machine do not count: the numbers are what one core does. The random player's own
choices are part of the time, as they are for pokerkit.
"""

from __future__ import annotations

import argparse
import functools
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from chicago import Action, ActionKind, Game, Rules
from chicago.rules import PRESETS

PLAYERS = 4
CHICAGO_RATE = 0.1
CHICAGO = ActionKind.CHICAGO


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action; Chicago is declared only one time in ten when it may be."""
    legal = game.legal_actions()
    action = rng.choice(legal)
    if action[0] is CHICAGO and rng.random() >= CHICAGO_RATE:
        action = legal[0]  # "no chicago"
    return action


def bench_games(preset: str, seconds: float, seed: int = 1) -> tuple[float, float, int, int]:
    """Play whole random games for about ``seconds``: (deals/s, actions/s, deals, actions)."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    deals = actions = 0
    start = time.process_time()
    elapsed = 0.0
    game_seed = seed
    while elapsed < seconds:
        game = Game(rules, PLAYERS, seed=game_seed)
        game_seed += 1
        apply, legal_actions = game.apply, game.legal_actions
        while game.to_act is not None:
            legal = legal_actions()
            action = rng.choice(legal)
            if action[0] is CHICAGO and rng.random() >= CHICAGO_RATE:
                action = legal[0]
            apply(action)
            actions += 1
        deals += game.deal_number
        elapsed = time.process_time() - start
    return deals / elapsed, actions / elapsed, deals, actions


def positions(preset: str, count: int, seed: int = 2) -> list[Game]:
    """Game states at random points of random games (none over)."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game(rules, PLAYERS, seed=rng.randrange(10**9))
        while not game.is_over and len(found) < count:
            if rng.random() < 0.02:
                found.append(game.copy())
            game.apply(random_action(game, rng))
    return found


def bench_playouts(preset: str, samples: int, seed: int = 3) -> tuple[float, float, float]:
    """Median and 90th percentile (ms) of copy() + 50 random actions; median of copy() alone."""
    rng = random.Random(seed)
    times: list[float] = []
    copies: list[float] = []
    clock = time.process_time_ns
    for start in positions(preset, samples):
        t0 = clock()
        start.copy()
        copies.append((clock() - t0) / 1e6)
        t0 = clock()
        game = start.copy()
        for _ in range(50):
            if game.to_act is None:
                break
            game.apply(random_action(game, rng))
        times.append((clock() - t0) / 1e6)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)], statistics.median(copies)


def bench_pokerkit(seconds: float, seed: int = 4) -> tuple[float, float] | None:
    """pokerkit: random no-limit 2-7 single-draw hands for ``seconds``: (hands/s, actions/s)."""
    try:
        from pokerkit import Automation, NoLimitDeuceToSevenLowballSingleDraw
    except ImportError:
        return None
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    hands = actions = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        # no ante, blinds 1/2, min bet 2, stacks 200, four players
        state = NoLimitDeuceToSevenLowballSingleDraw.create_state(
            automations, True, 0, (1, 2), 2, 200, PLAYERS
        )
        while state.status:
            if state.can_stand_pat_or_discard():
                seat = state.stand_patter_or_discarder_index
                assert seat is not None
                cards = list(state.hole_cards[seat])
                state.stand_pat_or_discard(rng.sample(cards, rng.randrange(len(cards) + 1)))
            else:
                moves: list[Callable[[], object]] = []
                if state.can_fold():
                    moves.append(state.fold)
                if state.can_check_or_call():
                    moves.append(state.check_or_call)
                if state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    assert low is not None and high is not None
                    amount = rng.randint(low, high)
                    moves.append(functools.partial(state.complete_bet_or_raise_to, amount))
                rng.choice(moves)()
            actions += 1
        hands += 1
        elapsed = time.process_time() - start
    return hands / elapsed, actions / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short run (for a smoke test)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per preset")
    args = parser.parse_args(argv)
    seconds = args.seconds or (0.5 if args.quick else 5.0)
    samples = 200 if args.quick else 2000

    print(f"chicago rules engine, {PLAYERS} players, random legal actions; Python "
          f"{platform.python_version()}, one core (CPU time of this process)")
    print()
    print("| preset | deals/s | actions/s | copy() + 50 random actions, median | p90 "
          "| copy() alone |")
    print("|---|---:|---:|---:|---:|---:|")
    worst_deals, worst_copy = float("inf"), 0.0
    for preset in PRESETS:
        deals_s, actions_s, _, _ = bench_games(preset, seconds)
        median, p90, copy_ms = bench_playouts(preset, samples)
        worst_deals, worst_copy = min(worst_deals, deals_s), max(worst_copy, median)
        print(f"| {preset} | {deals_s:,.0f} | {actions_s:,.0f} | {median:.3f} ms | "
              f"{p90:.3f} ms | {copy_ms * 1000:.1f} µs |")
    result = bench_pokerkit(seconds)
    print()
    if result is None:
        print("pokerkit is not installed (pip install -e '.[bench]'): skipped")
    else:
        hands_s, pk_actions_s = result
        print(f"| pokerkit no-limit 2-7 single draw, {PLAYERS} players, random actions | "
              f"hands/s | actions/s |")
        print("|---|---:|---:|")
        print(f"| pokerkit | {hands_s:,.0f} | {pk_actions_s:,.0f} |")
    print()
    ok_deals, ok_copy = worst_deals >= 1000, worst_copy <= 1.0
    print(f"target >= 1,000 deals/s: {'met' if ok_deals else 'MISSED'} "
          f"(slowest preset {worst_deals:,.0f}); target copy() + 50 actions <= 1 ms: "
          f"{'met' if ok_copy else 'MISSED'} (slowest median {worst_copy:.3f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
