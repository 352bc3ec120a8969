"""Hand evaluation and exact draw odds: chicago against treys, eval7, phevaluator, pokerkit.

One run on the same seeded hands measures, for every library:

1. single-call evaluation through the public API (one hand per Python call);
2. batch evaluation (chicago's ``evaluate_many``; the others have no batch API, so their
   fastest loop over the public call, ``list(map(...))``, stands in);
3. the exact 32-hold draw analysis with dead cards: chicago's ``draw_odds`` against the
   fairest brute force there is, every draw of every hold evaluated in one vectorised
   ``evaluate_many`` call per hold (numpy enumerates the draws, C evaluates them, numpy
   counts the categories), and against the other libraries' brute force in Python loops.

Run it with ``make bench`` (or ``.venv/bin/python benchmarks/bench_poker.py``). It prints
Markdown tables (rates, and each rate's ratio to chicago's) and whether the targets of the
issues are met. Times are CPU time of this process (``time.process_time``: other programs on
the shared machine do not count), the garbage collector off while timing; each figure is the
median of ``--runs`` runs, and the runs of the libraries in one table take turns round-robin,
so that a burst of load falls on all of them alike. The exit status is 0 when the benchmark
ran (a missed target is printed, not an error).
"""

from __future__ import annotations

import functools
import gc
import itertools
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import eval7
import numpy as np
import pokerkit
import treys
from phevaluator import _pheval
from phevaluator import evaluate_cards as phe_evaluate_cards

import chicago
from chicago import poker
from chicago.cards import DECK, Card
from chicago.odds import draw_odds
from chicago.poker import Category, category_of, evaluate, evaluate_many, rank
from chicago.rules import Rules

SEED = 2024
N_SINGLE = 200_000
N_SINGLE_SLOW = 20_000  # pokerkit
N_BATCH = 1_000_000
N_DEAD = 8
N_ODDS_HANDS = 300
N_VECTOR_HANDS = 10
RUNS = 5


# ---------------------------------------------------------------------------- helpers


def cpu_time(run: Callable[[], object]) -> float:
    """CPU seconds of one run of ``run`` in this process, garbage collector off."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        run()
        return time.process_time() - start
    finally:
        gc.enable()


def median_times(runs: dict[str, Callable[[], object]], repeats: int = RUNS) -> dict[str, float]:
    """Median CPU time of each run over ``repeats`` rounds; the runs take turns round-robin
    so that a burst of load on the (shared) machine hits every library alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            times[name].append(cpu_time(run))
    return {name: statistics.median(values) for name, values in times.items()}


def deal_hands(rng: np.random.Generator, n: int, width: int = 5) -> np.ndarray[Any, Any]:
    hands = rng.integers(0, 52, size=(n, width), dtype=np.uint8)
    while True:
        ordered = np.sort(hands, axis=1)
        bad = np.flatnonzero(np.any(ordered[:, 1:] == ordered[:, :-1], axis=1))
        if not len(bad):
            return hands
        hands[bad] = rng.integers(0, 52, size=(len(bad), width), dtype=np.uint8)


def text(card: int) -> str:
    return str(Card(card))


# Cactus-Kev style rank (1 = royal flush … 7462 = worst high card) -> our category
_KEV_LIMITS = [
    (1, Category.ROYAL_FLUSH), (10, Category.STRAIGHT_FLUSH), (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE), (1599, Category.FLUSH), (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND), (3325, Category.TWO_PAIR), (6185, Category.PAIR),
    (7462, Category.HIGH_CARD),
]
KEV_CATEGORY = [0] * 7463
_low = 1
for _high, _category in _KEV_LIMITS:
    for _r in range(_low, _high + 1):
        KEV_CATEGORY[_r] = int(_category)
    _low = _high + 1

EVAL7_ROYAL = eval7.evaluate([eval7.Card(s) for s in ("As", "Ks", "Qs", "Js", "Ts")])
POKERKIT_LABELS = {label: i for i, label in enumerate(pokerkit.Label)}  # same order as ours


def eval7_category(value: int) -> int:
    return 9 if value == EVAL7_ROYAL else value >> 24


def pokerkit_category(hand: Any) -> int:
    entry = hand.entry
    return 9 if entry.index == 7461 else POKERKIT_LABELS[entry.label]


# ---------------------------------------------------------------------------- brute force


def brute_force(
    hand: Sequence[int],
    dead: Sequence[int],
    native: Callable[[int], Any],
    count_draws: Callable[[list[Any], list[Any], int], list[int]],
) -> dict[int, list[int]]:
    """Counts per hold (bit i = keep hand[i]) by evaluating every draw of every hold."""
    unseen = [native(c) for c in range(52) if c not in hand and c not in dead]
    result = {}
    for bits in range(32):
        keep = [native(c) for i, c in enumerate(hand) if bits >> i & 1]
        result[bits] = count_draws(keep, unseen, 5 - len(keep))
    return result


def _append_brute_force(found: list[dict[int, list[int]]], *args: Any) -> None:
    found.append(brute_force(*args))


def _tally(categories: Any) -> list[int]:
    counts = [0] * 10
    for category in categories:
        counts[category] += 1
    return counts


def pheval_c_draws(keep: list[int], unseen: list[int], k: int) -> list[int]:
    evaluate5, kev = _pheval.evaluate_5cards, KEV_CATEGORY
    return _tally(kev[evaluate5(*keep, *d)] for d in itertools.combinations(unseen, k))


_TREYS = treys.Evaluator()


def eval7_draws(keep: list[Any], unseen: list[Any], k: int) -> list[int]:
    evaluate_ = eval7.evaluate
    return _tally(
        eval7_category(evaluate_(keep + list(d))) for d in itertools.combinations(unseen, k)
    )


class VectorBruteForce:
    """The fairest brute force of the 32-hold analysis: for each hold, every draw from the
    unseen cards as one array (numpy fancy indexing of precomputed combinations), evaluated by
    one ``evaluate_many`` call (C, tens of millions of hands a second), the categories
    counted by ``numpy.bincount``. No Python loop runs per draw."""

    def __init__(self, unseen: int, rules: Rules) -> None:
        self.wheel = rules.wheel_straight
        self.draws: dict[int, np.ndarray[Any, Any]]
        self.draws = {}
        for k in range(6):
            combos = list(itertools.combinations(range(unseen), k))
            self.draws[k] = np.array(combos, dtype=np.intp).reshape(len(combos), k)

    def counts(self, hand: Sequence[int], dead: Sequence[int]) -> dict[int, list[int]]:
        """Category counts per hold (bit i = keep hand[i]), as :func:`brute_force` gives."""
        out = set(hand) | set(dead)
        unseen = np.array([c for c in range(52) if c not in out], dtype=np.uint8)
        result = {}
        for bits in range(32):
            keep = [c for i, c in enumerate(hand) if bits >> i & 1]
            draws = unseen[self.draws[5 - len(keep)]]
            hands = np.empty((len(draws), 5), dtype=np.uint8)
            hands[:, : len(keep)] = keep
            hands[:, len(keep) :] = draws
            values = evaluate_many(hands, wheel=self.wheel)
            result[bits] = np.bincount(values >> 20, minlength=10).tolist()
        return result


def exact_counts(hand: Sequence[int], dead: Sequence[int], rules: Rules) -> dict[int, list[int]]:
    """chicago's exact counts per hold, keyed as :func:`brute_force` keys them."""
    return {
        sum(1 << i for i, c in enumerate(hand) if c in h.keep): [h.counts[c.name] for c in Category]
        for h in draw_odds(hand, dead, rules)
    }


# ---------------------------------------------------------------------------- main


def table_build_time() -> float:
    """Seconds the accelerator took to build its tables at import (median of 5 fresh imports,
    as the module itself times it)."""
    code = "import chicago._poker as p; print(p.TABLE_BUILD_NS)"
    times = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        times.append(int(out.stdout) / 1e9)
    return statistics.median(times)


def rate_row(name: str, rate: float, ours: float, unit: str = "M/s") -> str:
    return f"| {name} | {rate:,.2f} {unit} | {rate / ours:.2f}× | {ours / rate:.1f}× |"


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--single", action="store_true",
                        help="only the single-call table (a quick run)")
    single_only = parser.parse_args(argv).single
    if not poker.ACCELERATED:
        print("chicago._poker is not built: run `make` or `pip install -e .` first")
        return 1
    rng = np.random.default_rng(SEED)
    hands = deal_hands(rng, N_SINGLE)
    ids = hands.tolist()
    print(f"chicago {chicago.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs; seed {SEED}; CPU time, medians of {RUNS} runs taken "
          "round-robin.\n")

    # ---- 1. single call
    chicago_hands = [[DECK[c] for c in h] for h in ids]
    treys_ids = [treys.Card.new(text(c)) for c in range(52)]
    treys_hands = [([treys_ids[c] for c in h[:2]], [treys_ids[c] for c in h[2:]]) for h in ids]
    eval7_cards = [eval7.Card(text(c)) for c in range(52)]
    eval7_hands = [[eval7_cards[c] for c in h] for h in ids]
    pk_cards = [next(iter(pokerkit.Card.parse(text(c)))) for c in range(52)]
    pk_hands = [[pk_cards[c] for c in h] for h in ids[:N_SINGLE_SLOW]]
    treys_evaluate = _TREYS.evaluate
    pheval5 = _pheval.evaluate_5cards
    make_pk = pokerkit.StandardHighHand

    def loop_chicago() -> None:
        for h in chicago_hands:
            rank(h)

    def loop_treys() -> None:
        for a, b in treys_hands:
            treys_evaluate(a, b)

    def loop_eval7() -> None:
        for h in eval7_hands:
            eval7.evaluate(h)

    def loop_pheval() -> None:
        for h in ids:
            phe_evaluate_cards(*h)

    def loop_pheval_c() -> None:
        for h in ids:
            pheval5(*h)

    def loop_pokerkit() -> None:
        for h in pk_hands:
            make_pk(h)

    def loop_evaluate() -> None:
        for h in chicago_hands:
            evaluate(h)

    pagat = Rules()

    def loop_evaluate_rules() -> None:
        for h in chicago_hands:
            evaluate(h, pagat)

    def loop_evaluate_cards() -> None:
        for h in chicago_hands:
            _ = evaluate(h).cards

    def loop_category() -> None:
        for h in chicago_hands:
            category_of(h)

    counts = {"pokerkit `StandardHighHand(cards)`": N_SINGLE_SLOW}
    times = median_times({
        "chicago `rank(cards)`": loop_chicago,
        "eval7 `evaluate(cards)`": loop_eval7,
        "treys `Evaluator().evaluate(hand, board)`": loop_treys,
        "phevaluator `evaluate_cards(*cards)`": loop_pheval,
        "phevaluator C `_pheval.evaluate_5cards` (internal)": loop_pheval_c,
        "pokerkit `StandardHighHand(cards)`": loop_pokerkit,
        "chicago `evaluate(cards)` (a HandValue)": loop_evaluate,
        "chicago `evaluate(cards, rules)`": loop_evaluate_rules,
        "chicago `evaluate(cards).cards` (the five cards in order too)": loop_evaluate_cards,
        "chicago `category_of(cards)`": loop_category,
    })
    rates = {name: counts.get(name, N_SINGLE) / t / 1e6 for name, t in times.items()}
    single = dict(list(rates.items())[:6])
    extra = dict(list(rates.items())[6:])
    ours = single["chicago `rank(cards)`"]
    print(f"### Single call through the public API ({N_SINGLE:,} hands of 5 cards)\n")
    print("| library and call | rate | ratio to chicago | chicago is faster by |")
    print("|---|---:|---:|---:|")
    for name, rate in single.items():
        print(rate_row(name, rate, ours))
    for name, rate in extra.items():
        print(rate_row(name, rate, ours))
    eval7_rate = single["eval7 `evaluate(cards)`"]
    hand_value = extra["chicago `evaluate(cards)` (a HandValue)"]
    print(f"\n`evaluate(cards)` is {hand_value / eval7_rate:.2f}x eval7's rate "
          f"(target of the issue for the public API: 1.5x; `rank` {ours / eval7_rate:.1f}x).")
    if single_only:
        return 0

    # ---- 2. batch
    batch = deal_hands(rng, N_BATCH)
    batch6 = deal_hands(rng, N_BATCH, 6)
    columns = [batch[:, i].tolist() for i in range(5)]
    batch_lists = batch.tolist()
    treys_batch = [[treys_ids[c] for c in h] for h in batch_lists[:N_SINGLE]]
    eval7_batch = [[eval7_cards[c] for c in h] for h in batch_lists[:N_SINGLE]]
    pk_batch = [[pk_cards[c] for c in h] for h in batch_lists[:N_SINGLE_SLOW]]
    bt = median_times({
        "5": lambda: evaluate_many(batch),
        "6": lambda: evaluate_many(batch6),
        "pheval_c": lambda: list(map(pheval5, *columns)),
        "pheval": lambda: list(map(phe_evaluate_cards, *columns)),
        "treys": lambda: list(map(_TREYS._five, treys_batch)),
        "eval7": lambda: list(map(eval7.evaluate, eval7_batch)),
        "pokerkit": lambda: list(map(make_pk, pk_batch)),
    })
    t5, t6, t_pheval_c, t_pheval = bt["5"], bt["6"], bt["pheval_c"], bt["pheval"]
    t_treys, t_eval7, t_pk = bt["treys"], bt["eval7"], bt["pokerkit"]
    batch_rates = {
        "chicago `evaluate_many(array (n, 5))`": N_BATCH / t5 / 1e6,
        "chicago `evaluate_many(array (n, 6))` (best 5 of 6)": N_BATCH / t6 / 1e6,
        "eval7 `list(map(evaluate, hands))`": N_SINGLE / t_eval7 / 1e6,
        "treys `list(map(Evaluator()._five, hands))`": N_SINGLE / t_treys / 1e6,
        "phevaluator `list(map(evaluate_cards, *columns))`": N_BATCH / t_pheval / 1e6,
        "phevaluator C `list(map(_pheval.evaluate_5cards, *columns))`":
            N_BATCH / t_pheval_c / 1e6,
        "pokerkit `list(map(StandardHighHand, hands))`": N_SINGLE_SLOW / t_pk / 1e6,
    }
    ours_batch = batch_rates["chicago `evaluate_many(array (n, 5))`"]
    print(f"\n### Batch evaluation ({N_BATCH:,} hands; the others have no batch API)\n")
    print("| library and call | rate | ratio to chicago | chicago is faster by |")
    print("|---|---:|---:|---:|")
    for name, rate in batch_rates.items():
        print(rate_row(name, rate, ours_batch))

    # ---- 3. the 32-hold exact analysis with dead cards
    rules = Rules()
    deals = deal_hands(rng, N_ODDS_HANDS, 5 + N_DEAD).tolist()
    odds_inputs = [([DECK[c] for c in d[:5]], [DECK[c] for c in d[5:]]) for d in deals]

    def run_odds() -> None:
        for hand, dead in odds_inputs:
            draw_odds(hand, dead, rules)

    vector = VectorBruteForce(52 - 5 - N_DEAD, rules)

    def run_vector() -> None:
        for hand_ids in deals[:N_VECTOR_HANDS]:
            vector.counts(hand_ids[:5], hand_ids[5:])

    odds_times = median_times({"chicago": run_odds, "vector": run_vector})
    per_hand_chicago = odds_times["chicago"] / N_ODDS_HANDS
    per_hand_vector = odds_times["vector"] / N_VECTOR_HANDS
    for hand_ids in deals[:N_VECTOR_HANDS]:
        hand, dead = hand_ids[:5], hand_ids[5:]
        assert vector.counts(hand, dead) == exact_counts(hand, dead, rules), (
            f"the vectorised brute force disagrees with chicago on {hand} / {dead}")
    loops: dict[str, tuple[Callable[[int], Any], Any]] = {
        "phevaluator C `_pheval.evaluate_5cards` (internal)": (int, pheval_c_draws),
        "eval7 `evaluate`": (lambda c: eval7_cards[c], eval7_draws),
    }
    per_hand: dict[str, float] = {}
    for name, (native, counter) in loops.items():
        hand, dead = deals[0][:5], deals[0][5:]
        found: list[dict[int, list[int]]] = []
        run = functools.partial(_append_brute_force, found, hand, dead, native, counter)
        per_hand[name] = cpu_time(run)
        assert found[0] == exact_counts(hand, dead, rules), f"{name} disagrees with chicago"
    unseen = 52 - 5 - N_DEAD
    draws = sum(math.comb(5, k) * math.comb(unseen, k) for k in range(6))
    print(f"\n### Exact 32-hold draw analysis, {N_DEAD} dead cards ({unseen} unseen: "
          f"{draws:,} draws per hand to evaluate by brute force)\n")
    print("| method | time per hand | ratio to chicago | chicago is faster by |")
    print("|---|---:|---:|---:|")
    print(f"| chicago `draw_odds(hand, dead, rules)` ({N_ODDS_HANDS} hands) | "
          f"{per_hand_chicago * 1e3:.3f} ms | 1.00× | 1.0× |")
    print(f"| brute force, vectorised: numpy enumerates the draws of each hold, chicago's C "
          f"`evaluate_many` evaluates them, numpy counts ({N_VECTOR_HANDS} hands) | "
          f"{per_hand_vector * 1e3:,.1f} ms | {per_hand_chicago / per_hand_vector:.4f}× | "
          f"{per_hand_vector / per_hand_chicago:,.0f}× |")
    for name, seconds in per_hand.items():
        print(f"| brute force, a Python loop over {name} (1 hand) | "
              f"{seconds * 1e3:,.0f} ms | {per_hand_chicago / seconds:.5f}× | "
              f"{seconds / per_hand_chicago:,.0f}× |")
    print("\nEvery brute-force count was checked equal to chicago's exact counts.")

    # ---- tables and targets
    build = table_build_time()
    print(f"\nLookup tables: {poker_tables()}, built when the accelerator is imported in "
          f"{build * 1e3:.2f} ms (nothing is stored on disk).")
    targets = [
        ("single call >= 1.5x eval7", ours >= 1.5 * eval7_rate, f"{ours / eval7_rate:.1f}x"),
        ("batch >= 15 M evals/s", ours_batch >= 15, f"{ours_batch:.0f} M/s"),
        ("32-hold analysis <= 20 ms per hand", per_hand_chicago <= 0.020,
         f"{per_hand_chicago * 1e3:.3f} ms"),
        ("32-hold analysis faster than the vectorised brute force",
         per_hand_chicago < per_hand_vector, f"{per_hand_vector / per_hand_chicago:,.0f}x"),
    ]
    print("\n| target | measured | met |")
    print("|---|---:|:---:|")
    for label, met, value in targets:
        print(f"| {label} | {value} | {'yes' if met else 'NO'} |")
    return 0


def poker_tables() -> str:
    from chicago import _poker

    return (f"{_poker.TABLE_BYTES / 1024:.0f} KiB in all ({_poker.TABLE_ENTRIES:,} int32 "
            "hand values by rank multiset, flush and not, wheel on and off; straight masks; "
            "binomials)")


if __name__ == "__main__":
    sys.exit(main())
