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
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chicago import Action, ActionKind, Game, Rules
from chicago.engine.game import ACCELERATED
from chicago.rules import PRESETS

PLAYERS = 4
CHICAGO_RATE = 0.1
CHICAGO = ActionKind.CHICAGO
PYTHON_CHICAGO_DEALS = 10
"""Deals in a game of OpenSpiel's python_chicago here (its rate is per decision)."""


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action; Chicago is declared only one time in ten when it may be.

    The action is ``rng.choice(legal)``'s, drawn the way ``random.Random.choice`` draws it
    (``_randbelow_with_getrandbits``: ``getrandbits`` of the length's bit count until below
    the length) without its two Python calls; the same action from the same generator, at
    a quarter of the player's cost (issue 28, thirty-fourth pass). The loops below, and
    pokerkit's and OpenSpiel's random players, draw the same way.
    """
    legal = game.legal_actions()
    n = len(legal)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    action = legal[r]
    if action[0] is CHICAGO and rng.random() >= CHICAGO_RATE:
        action = legal[0]  # "no chicago"
    return action


def _below(rng: random.Random, n: int) -> int:
    """``rng.choice``'s index among ``n`` items, drawn as in :func:`random_action`."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def bench_games(preset: str, seconds: float, seed: int = 1) -> tuple[float, float, int, int]:
    """Play whole random games for about ``seconds``: (deals/s, actions/s, deals, actions)."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
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
            n = len(legal)  # rng.choice(legal), drawn as random.Random.choice draws
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            action = legal[r]
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
    return bench_all_playouts((preset,), samples, seed)[preset]


def bench_all_playouts(presets: tuple[str, ...], samples: int,
                       seed: int = 3) -> dict[str, tuple[float, float, float]]:
    """:func:`bench_playouts` of every preset, their positions taken in turn.

    The positions of all presets are made first; then position i of each preset is timed
    before position i + 1 of any, so that a change of the machine's load falls on every
    preset alike (issue 28, thirty-fourth pass: timed one preset after the other, each for
    about a second, the presets' medians ranged 0.114-0.269 ms in one run on a shared
    machine, though their instructions per playout differ by a few per cent). Each preset
    draws its actions from its own generator, as when it was timed alone.
    """
    starts = [positions(preset, samples) for preset in presets]
    rngs = [random.Random(seed) for _ in presets]
    times: list[list[float]] = [[] for _ in presets]
    copies: list[list[float]] = [[] for _ in presets]
    clock = time.process_time_ns
    for i in range(samples):
        for k in range(len(presets)):
            start, rng = starts[k][i], rngs[k]
            t0 = clock()
            start.copy()
            copies[k].append((clock() - t0) / 1e6)
            t0 = clock()
            game = start.copy()
            for _ in range(50):
                if game.to_act is None:
                    break
                game.apply(random_action(game, rng))
            times[k].append((clock() - t0) / 1e6)
    found: dict[str, tuple[float, float, float]] = {}
    for preset, taken, copied in zip(presets, times, copies, strict=True):
        taken.sort()
        found[preset] = (statistics.median(taken), taken[int(len(taken) * 0.9)],
                         statistics.median(copied))
    return found


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
    getrandbits = rng.getrandbits
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
                n = len(moves)  # rng.choice(moves), drawn as the chicago loop draws
                k = n.bit_length()
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                moves[r]()
            actions += 1
        hands += 1
        elapsed = time.process_time() - start
    return hands / elapsed, actions / elapsed


def bench_bare(seconds: float, seed: int = 5) -> tuple[float, float]:
    """The floor of a deal in pure Python: (deals/s, decisions/s) of a bare loop.

    It shuffles (``random.shuffle``), deals five cards to each of four seats, runs three
    exchange rounds (each seat throws a precomputed random pattern of its cards and draws as
    many from the stock) and five tricks (each seat plays a precomputed pick among the cards
    that follow suit; the highest card of the suit led takes the trick and leads). No other
    rule, no scoring, no events, no legality checks, no record: what any engine must at
    least do, written as one function.
    """
    rng = random.Random(seed)
    picks = [rng.randrange(1 << 20) for _ in range(1 << 12)]
    deck = list(range(52))
    deals = decisions = 0
    index = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(50):
            rng.shuffle(deck)
            hands = [deck[s:20:4] for s in range(4)]
            stock = deck[20:]
            for _ in range(3):
                for hand in hands:
                    pattern = picks[index & 4095] & 31
                    index += 1
                    kept = [c for i, c in enumerate(hand) if not pattern >> i & 1]
                    need = 5 - len(kept)
                    if need > len(stock):
                        need = 0
                        kept = hand
                    kept.extend(stock[-need:] if need else ())
                    del stock[len(stock) - need:]
                    hand[:] = kept
            leader = 0
            for _ in range(5):
                best_card, best_seat, led = -1, leader, -1
                for turn in range(4):
                    seat = (leader + turn) % 4
                    hand = hands[seat]
                    follow = [c for c in hand if c & 3 == led] if led >= 0 else hand
                    choices = follow or hand
                    card = choices[picks[index & 4095] % len(choices)]
                    index += 1
                    hand.remove(card)
                    if led < 0:
                        led = card & 3
                    if card & 3 == led and card > best_card:
                        best_card, best_seat = card, seat
                leader = best_seat
            deals += 1
            decisions += 32
        elapsed = time.process_time() - start
    return deals / elapsed, decisions / elapsed


def bench_openspiel(name: str, seconds: float, seed: int = 6) -> tuple[float, float] | None:
    """OpenSpiel random playouts of game ``name``: (deals/s, decisions/s); chance nodes (the
    deal) are played too but not counted as decisions. None if OpenSpiel is missing.

    The first figure counts deals, the unit of the engine's own row: a game of Hearts is one
    deal, a game of ``python_chicago`` up to :data:`PYTHON_CHICAGO_DEALS` (its engine game's
    ``deal_number`` at the end). Before issue 28's re-measure this counted games, and the
    ratio printed beside ``python_chicago`` set pagat's deals against ten-deal games.
    """
    try:
        import pyspiel
    except ImportError:
        return None
    params: dict[str, object] = {}
    if name == "python_chicago":
        import chicago.env.openspiel  # noqa: F401  (registers python_chicago)

        # ten deals a game: this uniform random player calls Chicago on half the turns it
        # may, and its failed Chicagos keep the scores from 52 points; a whole game ran for
        # minutes (the run of --peers did not end)
        params = {"players": PLAYERS, "preset": "pagat", "max_deals": PYTHON_CHICAGO_DEALS}
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    deals = decisions = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        decisions += play_openspiel(state, rng)
        deals += _deals_of(state)
        elapsed = time.process_time() - start
    return deals / elapsed, decisions / elapsed


def play_openspiel(state: Any, rng: random.Random) -> int:
    """Play an OpenSpiel ``state`` to its end with random actions: the decisions made."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[_below(rng, len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[_below(rng, len(legal))])
            decisions += 1
    return decisions


def _deals_of(state: Any) -> int:
    """Deals in a finished OpenSpiel game: its engine game's for ``python_chicago`` (a
    Python state holding a ``ChanceTable``), one for the others (Hearts plays one deal)."""
    table = getattr(state, "table", None)
    if table is not None and table.game is not None:
        return int(table.game.deal_number)
    return 1


def bench_pure(preset: str, seconds: float) -> tuple[float, float]:
    """bench_games in a child process with ``CHICAGO_PURE_PYTHON=1`` (no accelerator)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_engine as b; "
            "print(*b.bench_games(sys.argv[2], float(sys.argv[3]))[:2])")
    out = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent), preset, str(seconds)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "CHICAGO_PURE_PYTHON": "1"},
    ).stdout.split()
    return float(out[0]), float(out[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short run (for a smoke test)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds per measure and run (default 3; --quick 0.5)")
    parser.add_argument("--runs", type=int, default=None,
                        help="runs of every measure, taken in turn (default 3; --quick 1)")
    parser.add_argument("--peers", action="store_true",
                        help="also the bare loop, OpenSpiel's Hearts and python_chicago, and "
                        "the engine without its accelerator")
    args = parser.parse_args(argv)
    seconds = args.seconds or (0.5 if args.quick else 3.0)
    runs = args.runs or (1 if args.quick else 3)
    samples = 200 if args.quick else 2000

    measures: dict[str, Callable[[], tuple[float, float] | None]] = {
        preset: functools.partial(_first_two, bench_games, preset, seconds) for preset in PRESETS
    }
    measures["pokerkit"] = functools.partial(bench_pokerkit, seconds)
    if args.peers:
        measures["pure"] = functools.partial(bench_pure, "pagat", seconds)
        measures["bare"] = functools.partial(bench_bare, seconds)
        measures["hearts"] = functools.partial(bench_openspiel, "hearts", seconds)
        measures["python_chicago"] = functools.partial(bench_openspiel, "python_chicago",
                                                       seconds)
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in measures}
    for _ in range(runs):  # every measure once per run, so that load falls on all alike
        for name, measure in measures.items():
            result = measure()
            if result is not None:
                rates[name].append(result)
    median = {name: (statistics.median(r[0] for r in found),
                     statistics.median(r[1] for r in found))
              for name, found in rates.items() if found}

    print(f"chicago rules engine, {PLAYERS} players, random legal actions; Python "
          f"{platform.python_version()}, accelerator {'on' if ACCELERATED else 'off'}; one "
          f"core of {machine()}, CPU time of this process, medians of {runs} runs of "
          f"{seconds:g} s taken in turn; load average {os.getloadavg()[0]:.1f}")
    print()
    print("| preset | deals/s | actions/s | copy() + 50 random actions, median | p90 "
          "| copy() alone |")
    print("|---|---:|---:|---:|---:|---:|")
    worst_copy = 0.0
    playouts = bench_all_playouts(tuple(PRESETS), samples)
    for preset in PRESETS:
        deals_s, actions_s = median[preset]
        median_ms, p90, copy_ms = playouts[preset]
        worst_copy = max(worst_copy, median_ms)
        print(f"| {preset} | {deals_s:,.0f} | {actions_s:,.0f} | {median_ms:.3f} ms | "
              f"{p90:.3f} ms | {copy_ms * 1000:.1f} µs |")
    pagat_deals, pagat_actions = median["pagat"]
    print()
    print("| peer, same runs | deals or hands/s | decisions/s | chicago pagat per deal | "
          "chicago pagat per decision |")
    print("|---|---:|---:|---:|---:|")
    names = {
        "pokerkit": f"pokerkit no-limit 2-7 single draw, {PLAYERS} players (hands)",
        "pure": "chicago pagat without the accelerator (CHICAGO_PURE_PYTHON=1)",
        "bare": "bare pure-Python loop: deal, 3 exchanges, 5 tricks, precomputed choices",
        "hearts": "OpenSpiel hearts (C++), 4 players (a game is one deal)",
        "python_chicago": f"OpenSpiel python_chicago (this engine under OpenSpiel), pagat, "
                          f"games of up to {PYTHON_CHICAGO_DEALS} deals (deals counted)",
    }
    for name, words in names.items():
        if name not in median:
            if name == "pokerkit" or args.peers:
                print(f"| {words} | not installed | | | |")
            continue
        games_s, decisions_s = median[name]
        print(f"| {words} | {games_s:,.0f} | {decisions_s:,.0f} | "
              f"{pagat_deals / games_s:.2f}× | {pagat_actions / decisions_s:.2f}× |")
    print()
    ok_deals, ok_copy = pagat_deals >= 10_000, worst_copy <= 0.15
    print(f"targets: pagat >= 10,000 deals/s: {'met' if ok_deals else 'MISSED'} "
          f"({pagat_deals:,.0f}); copy() + 50 actions <= 0.15 ms: "
          f"{'met' if ok_copy else 'MISSED'} (slowest median {worst_copy:.3f} ms)")
    return 0


def machine() -> str:
    """The CPU's model name and the count of CPUs, as Linux reports them ("unknown CPU"
    elsewhere). Printed with the figures: the README's table of 2026-12-03 and a run of
    2026-12-07 on this project's machine differed by 2× for every workload alike, the
    peers' too (docs/SERVER.md, "The README's engine, poker and odds tables re-measured")."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model} ({os.cpu_count()} CPUs)"


def _first_two(function: Callable[..., tuple[float, float, int, int]],
               *args: object) -> tuple[float, float]:
    result = function(*args)
    return result[0], result[1]


if __name__ == "__main__":
    sys.exit(main())
