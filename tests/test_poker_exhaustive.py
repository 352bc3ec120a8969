"""Correctness proven, not sampled (R-HAND-1 … R-HAND-4): every five-card hand, and a million
random pairs against independent evaluators (phevaluator, treys), including six-card hands.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest
from phevaluator import _pheval
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from chicago.cards import DECK
from chicago.poker import Category, _evaluate_py, evaluate, evaluate_many, rank

pytestmark = pytest.mark.slow

N_HANDS = 2_598_960

EXPECTED_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


@pytest.fixture(scope="module")
def all_hands() -> npt.NDArray[np.uint8]:
    """All C(52, 5) hands as an (n, 5) uint8 array of card ids."""
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.uint8, count=5 * N_HANDS,
    )
    return flat.reshape(-1, 5)


@pytest.fixture(scope="module")
def all_values(all_hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    return evaluate_many(all_hands)


def test_exhaustive_category_counts_R_HAND_1(all_values: npt.NDArray[np.int32]) -> None:
    """R-HAND-1: the exact number of hands of each category among all 2,598,960."""
    assert len(all_values) == N_HANDS
    counts = np.bincount(all_values >> 20, minlength=len(Category))
    assert {Category(i): int(n) for i, n in enumerate(counts)} == EXPECTED_COUNTS


def test_exhaustive_7462_distinct_values_R_HAND_2(all_values: npt.NDArray[np.int32]) -> None:
    """R-HAND-2: exactly 7,462 different values (equal by rank = exactly equal)."""
    assert len(np.unique(all_values)) == 7_462


def test_exhaustive_without_wheel_R_HAND_3(all_hands: npt.NDArray[np.uint8]) -> None:
    """R-HAND-3 off: A-2-3-4-5 hands become high cards (1,020) and flushes (4)."""
    values = evaluate_many(all_hands, wheel=False)
    counts = {Category(i): int(n) for i, n in enumerate(np.bincount(values >> 20, minlength=10))}
    expected = dict(EXPECTED_COUNTS)
    expected[Category.STRAIGHT] -= 1_020
    expected[Category.HIGH_CARD] += 1_020
    expected[Category.STRAIGHT_FLUSH] -= 4
    expected[Category.FLUSH] += 4
    assert counts == expected
    assert len(np.unique(values)) == 7_462


def test_exhaustive_order_matches_phevaluator_R_HAND_2(
    all_hands: npt.NDArray[np.uint8], all_values: npt.NDArray[np.int32]
) -> None:
    """R-HAND-2: on every hand, our order is exactly phevaluator's (an independent evaluator).

    Equal values must be equal there and a higher value must be a stronger hand there: the
    (ours, theirs) pairs form a strictly decreasing one-to-one map of 7,462 values.
    """
    evaluate5 = _pheval.evaluate_5cards  # same card ids as ours: rank * 4 + suit
    columns = [all_hands[:, i].tolist() for i in range(5)]
    theirs = np.array(list(map(evaluate5, *columns)), dtype=np.int32)
    pairs = np.unique((all_values.astype(np.int64) << 16) | theirs)  # sorted by ours
    ours_sorted, theirs_sorted = pairs >> 16, pairs & 0xFFFF
    assert len(pairs) == 7_462
    assert len(np.unique(ours_sorted)) == len(np.unique(theirs_sorted)) == 7_462
    assert np.all(np.diff(theirs_sorted) < 0)  # lower is stronger there


def test_every_distinct_value_agrees_with_reference_evaluator(
    all_hands: npt.NDArray[np.uint8], all_values: npt.NDArray[np.int32]
) -> None:
    """One hand of each of the 7,462 values: the C values equal the pure-Python reference."""
    _, first = np.unique(all_values, return_index=True)
    for index in first.tolist():
        hand = tuple(DECK[c] for c in all_hands[index].tolist())
        assert _evaluate_py(hand, True, True, None).key == int(all_values[index])
        assert rank(hand) == int(all_values[index])


def _random_hands(rng: np.random.Generator, n: int, width: int) -> npt.NDArray[np.uint8]:
    """n random hands of `width` distinct cards (rows with a repeated card are redrawn)."""
    hands = rng.integers(0, 52, size=(n, width), dtype=np.uint8)
    while True:
        ordered = np.sort(hands, axis=1)
        bad = np.flatnonzero(np.any(ordered[:, 1:] == ordered[:, :-1], axis=1))
        if not len(bad):
            return hands
        hands[bad] = rng.integers(0, 52, size=(len(bad), width), dtype=np.uint8)


def _sign(x: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.sign(x).astype(np.int64)


@pytest.mark.parametrize(("width", "pairs"), [(5, 600_000), (6, 400_000)])
def test_million_random_pairs_vs_phevaluator_R_HAND_4(width: int, pairs: int) -> None:
    """R-HAND-2/R-HAND-4: 600,000 five-card and 400,000 six-card (best five) random pairs
    compare exactly as phevaluator compares them: 1,000,000 pairs in all."""
    rng = np.random.default_rng(20240 + width)
    hands = _random_hands(rng, 2 * pairs, width)
    ours = evaluate_many(hands).astype(np.int64)
    evaluate_n = _pheval.evaluate_5cards if width == 5 else _pheval.evaluate_6cards
    columns = [hands[:, i].tolist() for i in range(width)]
    theirs = np.array(list(map(evaluate_n, *columns)), dtype=np.int64)
    assert np.array_equal(_sign(ours[0::2] - ours[1::2]), _sign(theirs[1::2] - theirs[0::2]))


def test_random_pairs_vs_treys() -> None:
    """A second independent evaluator (treys) on 50,000 pairs of five and of six cards."""
    evaluator = TreysEvaluator()
    treys_ids = [TreysCard.new(str(card)) for card in DECK]
    rng = np.random.default_rng(77)
    for width in (5, 6):
        hands = _random_hands(rng, 100_000, width)
        ours = evaluate_many(hands).astype(np.int64)
        theirs = np.array(
            [evaluator.evaluate([treys_ids[c] for c in h[:2]], [treys_ids[c] for c in h[2:]])
             for h in hands.tolist()],
            dtype=np.int64,
        )
        assert np.array_equal(_sign(ours[0::2] - ours[1::2]), _sign(theirs[1::2] - theirs[0::2]))


def test_random_hands_full_hand_values_match_reference() -> None:
    """evaluate() through the accelerator gives exactly the reference HandValue: category,
    ranks, card order, key and suit rank, under every option (R-HAND-3, V-ROYAL, V-TIE-SUIT)."""
    rng = np.random.default_rng(5)
    orders = [None, "hdsc", "cdhs", "shdc"]
    for width in (5, 6):
        hands = _random_hands(rng, 6_000, width).tolist()
        for i, ids in enumerate(hands):
            hand = tuple(DECK[c] for c in ids)
            wheel, royal, order = bool(i & 1), bool(i & 2), orders[(i >> 2) & 3]
            ours = evaluate(hand, wheel=wheel, royal=royal, suit_order=order)
            ref = _evaluate_py(hand, wheel, royal, order)
            assert (ours.category, ours.ranks, ours.cards, ours.key, ours.suit_rank) == (
                ref.category, ref.ranks, ref.cards, ref.key, ref.suit_rank
            ), hand
