"""Exact draw odds (R-EX-1, R-HAND-1, R-HAND-3, V-ROYAL): checked against brute force."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from chicago.cards import DECK, Card, mask_of, parse_cards
from chicago.odds import CATEGORY_NAMES, Hold, _draw_counts_py, draw_counts, draw_odds
from chicago.poker import Category, _evaluate_py, evaluate_many
from chicago.rules import Rules


def brute_force_counts(
    hand: tuple[Card, ...], dead: tuple[Card, ...], wheel: bool = True, max_discard: int = 5
) -> dict[int, list[int]]:
    """Counts per hold (bit i = keep hand[i]) by drawing every possible set of cards and
    evaluating each final hand with the pure-Python reference evaluator."""
    unseen = [c for c in DECK if c not in hand and c not in dead]
    result: dict[int, list[int]] = {}
    for bits in range(32):
        keep = tuple(c for i, c in enumerate(hand) if bits >> i & 1)
        if 5 - len(keep) > max_discard:
            continue
        counts = [0] * len(Category)
        for drawn in itertools.combinations(unseen, 5 - len(keep)):
            counts[_evaluate_py(keep + drawn, wheel, True, None).category] += 1
        result[bits] = counts
    return result


def deal(seed: int, n_dead: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    rng = np.random.default_rng(seed)
    ids = rng.choice(52, size=5 + n_dead, replace=False).tolist()
    return tuple(DECK[c] for c in ids[:5]), tuple(DECK[c] for c in ids[5:])


def test_royal_draw_is_one_in_47() -> None:
    """Ah Kh Qh Jh + one card of 47: royal 1/47, flush 8/47, straight 3/47, pair 12/47."""
    best = draw_odds("Ah Kh Qh Jh 2c")[0]
    assert [str(c) for c in best.keep] == ["Ah", "Kh", "Qh", "Jh"]
    assert [str(c) for c in best.discard] == ["2c"]
    assert best.draws == 47
    assert best.probabilities["ROYAL_FLUSH"] == 1 / 47
    assert best.counts["ROYAL_FLUSH"] == 1
    assert best.counts["FLUSH"] == 8
    assert best.counts["STRAIGHT"] == 3
    assert best.counts["PAIR"] == 12
    assert best.counts["HIGH_CARD"] == 23
    # pagat points: 52 + 8 * 5 + 3 * 4 + 12 * 1 = 116
    assert best.expected_points == 116 / 47


def test_every_category_named_best_first_and_summing_to_one() -> None:
    holds = draw_odds("7c 7d Ks 9h 2c", "3s 4s 5s")
    assert len(holds) == 32
    for hold in holds:
        assert list(hold.probabilities) == list(CATEGORY_NAMES)
        assert CATEGORY_NAMES[0] == "ROYAL_FLUSH" and CATEGORY_NAMES[-1] == "HIGH_CARD"
        assert math.isclose(math.fsum(hold.probabilities.values()), 1.0, abs_tol=1e-12)
        assert sum(hold.counts.values()) == hold.draws
        assert hold.draws == math.comb(52 - 5 - 3, len(hold.discard))
        assert all(0.0 <= p <= 1.0 for p in hold.probabilities.values())


def test_holds_cover_every_split_sorted_best_first() -> None:
    hand = parse_cards("Ah Kh Qh Jh 2c")
    holds = draw_odds(hand)
    splits = {(h.keep, h.discard) for h in holds}
    assert len(splits) == 32
    for hold in holds:
        assert sorted(hold.keep + hold.discard) == sorted(hand)
        assert [c for c in hand if c in hold.keep] == list(hold.keep)  # the hand's order
    for a, b in itertools.pairwise(holds):
        assert (a.expected_points, -len(a.discard)) >= (b.expected_points, -len(b.discard))


def test_ties_are_broken_deterministically() -> None:
    """Equal expected points: fewer discards first, then the higher kept cards."""
    holds = draw_odds("2c 7d 9h Js Kc")
    for a, b in itertools.pairwise(holds):
        if a.expected_points == b.expected_points:
            assert len(a.discard) <= len(b.discard)
            if len(a.discard) == len(b.discard):
                assert sorted(a.keep, reverse=True) > sorted(b.keep, reverse=True)
    # the order does not depend on the order of the hand's cards
    shuffled = draw_odds("Kc Js 9h 7d 2c")
    assert [set(h.keep) for h in holds] == [set(h.keep) for h in shuffled]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_exact_against_brute_force_with_dead_cards(seed: int) -> None:
    """Every count of every hold equals a brute-force enumeration (30 dead cards)."""
    hand, dead = deal(seed, 30)
    expected = brute_force_counts(hand, dead)
    by_bits = _holds_by_bits(hand, draw_odds(hand, dead))
    assert set(by_bits) == set(expected)
    for bits, counts in expected.items():
        hold = by_bits[bits]
        assert [hold.counts[c.name] for c in Category] == counts
        for c in Category:
            assert hold.probabilities[c.name] == counts[c] / hold.draws
        points = Rules().points
        exact = Fraction(sum(p * n for p, n in zip(points, counts, strict=True)), hold.draws)
        assert hold.expected_points == float(exact)


def _holds_by_bits(hand: tuple[Card, ...], holds: list[Hold]) -> dict[int, Hold]:
    return {sum(1 << i for i, c in enumerate(hand) if c in h.keep): h for h in holds}


@pytest.mark.parametrize(
    ("hand", "unseen"),
    [
        ("Ah Kh Qh Jh 2c", "Th 9h 8h 3h Tc Td As Ks 2d 5c 6d 7s 4h Qd 5h"),  # royal, flush
        ("As 2d 3h 4s 9c", "5c 5d 6h Ac Ad Kc 3c 4c 2c 6c 7c 8c Tc 9d 5s"),  # wheel, flush
        ("7c 7d 7h 2s 2c", "7s 2d 2h Ac Kc Qc Jc Tc 3c 4c 5c 6c 8c 9c 8d"),  # quads, full
        ("9s 8s 7s 6s 2d", "Ts 5s 4s 3s 2s Th 5h Jd Js 9d 8d Ac Kc Qc Ad"),  # straight flushes
    ],
)
def test_exact_against_brute_force_shaped_hands(hand: str, unseen: str) -> None:
    """Hands chosen for flushes, straight flushes, wheels, full houses and quads, with and
    without the wheel (R-HAND-3); every card not listed as unseen is dead."""
    cards, alive = parse_cards(hand), parse_cards(unseen)
    dead_cards = tuple(c for c in DECK if c not in cards and c not in alive)
    for wheel in (True, False):
        expected = brute_force_counts(cards, dead_cards, wheel)
        rules = Rules.preset("pagat", wheel_straight=wheel)
        by_bits = _holds_by_bits(cards, draw_odds(cards, dead_cards, rules))
        for bits, counts in expected.items():
            assert [by_bits[bits].counts[c.name] for c in Category] == counts, (bits, wheel)
    best = draw_odds(cards, dead_cards)
    assert sum(h.counts["ROYAL_FLUSH"] + h.counts["STRAIGHT_FLUSH"] for h in best) > 0


def test_exact_against_brute_force_few_dead_cards_small_discards() -> None:
    """Three dead cards (44 unseen): holds drawing up to two cards, by brute force."""
    hand, dead = deal(11, 3)
    expected = brute_force_counts(hand, dead, max_discard=2)
    by_bits = _holds_by_bits(hand, draw_odds(hand, dead))
    assert len(expected) == 16
    for bits, counts in expected.items():
        assert [by_bits[bits].counts[c.name] for c in Category] == counts


@pytest.mark.parametrize("text", ["Ah Kh Qh Jh 2c", "5c 6d 7h 8s Kc"])
def test_all_32_holds_against_the_batch_evaluator(text: str) -> None:
    """No dead cards, every draw of every hold (2,598,960 hands in all) evaluated by the
    table evaluator: the combinatorial counts agree exactly."""
    hand = parse_cards(text)
    unseen = np.array([c for c in range(52) if c not in hand], dtype=np.uint8)
    holds = _holds_by_bits(hand, draw_odds(hand))
    total = 0
    for bits, hold in holds.items():
        keep = np.array([c for i, c in enumerate(hand) if bits >> i & 1], dtype=np.uint8)
        k = 5 - len(keep)
        if k == 0:
            hands = keep[None, :]
            categories = np.bincount(evaluate_many(hands) >> 20, minlength=len(Category))
            assert [hold.counts[c.name] for c in Category] == categories.tolist()
            total += 1
            continue
        draws = np.fromiter(
            itertools.chain.from_iterable(itertools.combinations(range(len(unseen)), k)),
            dtype=np.uint8, count=k * math.comb(len(unseen), k),
        ).reshape(-1, k)
        hands = np.concatenate([np.broadcast_to(keep, (len(draws), len(keep))),
                                unseen[draws]], axis=1)
        categories = np.bincount(evaluate_many(hands) >> 20, minlength=len(Category))
        assert [hold.counts[c.name] for c in Category] == categories.tolist()
        total += len(hands)
    assert total == math.comb(52, 5)  # sum over k of C(5, k) C(47, k) (Vandermonde)


def test_points_table_is_honoured_R_HAND_1() -> None:
    """R-HAND-1 [points]: expected points follow rules.points."""
    hand = "Ah Kh Qh Jh 2c"
    sf10 = Rules.preset("pagat").with_variations("V-SF-10")
    base = _keep_four(draw_odds(hand))
    changed = _keep_four(draw_odds(hand, rules=sf10.replace(points={"ROYAL_FLUSH": 0})))
    assert base.expected_points == 116 / 47
    assert changed.expected_points == 64 / 47
    assert changed.probabilities == base.probabilities


def _keep_four(holds: list[Hold]) -> Hold:
    return next(h for h in holds if [str(c) for c in h.discard] == ["2c"])


def test_royal_not_separate_counts_as_straight_flush_V_ROYAL() -> None:
    """V-ROYAL off (wikipedia): a royal flush is a straight flush, ROYAL_FLUSH is 0.0."""
    rules = Rules.preset("wikipedia")
    hold = _keep_four(draw_odds("Ah Kh Qh Jh 2c", rules=rules))
    assert hold.probabilities["ROYAL_FLUSH"] == 0.0
    assert hold.probabilities["STRAIGHT_FLUSH"] == 1 / 47
    assert hold.expected_points == (8 + 8 * 5 + 3 * 4 + 12) / 47
    for h in draw_odds("Ah Kh Qh Jh 2c", rules=rules):
        assert h.probabilities["ROYAL_FLUSH"] == 0.0


def test_wheel_option_changes_straight_draws_R_HAND_3() -> None:
    """R-HAND-3: 2-3-4-5 draws to an ace or a six with the wheel, only a six without."""
    hand = "2c 3d 4h 5s Kc"
    keep = lambda holds: next(h for h in holds if [str(c) for c in h.discard] == ["Kc"])  # noqa: E731
    on = keep(draw_odds(hand))
    off = keep(draw_odds(hand, rules=Rules.preset("pagat", wheel_straight=False)))
    assert on.counts["STRAIGHT"] == 8
    assert off.counts["STRAIGHT"] == 4


def test_max_discard_limits_the_holds_R_EX_2() -> None:
    """R-EX-2 [max_discard]: only holds discarding at most that many cards are returned."""
    rules = Rules.preset("pagat", max_discard=3)
    holds = draw_odds("Ah Kh Qh Jh 2c", rules=rules)
    assert len(holds) == 1 + 5 + 10 + 10
    assert max(len(h.discard) for h in holds) == 3
    assert len(draw_odds("Ah Kh Qh Jh 2c", max_discard=0)) == 1
    assert len(draw_odds("Ah Kh Qh Jh 2c", rules=rules, max_discard=5)) == 32
    with pytest.raises(ValueError, match="max_discard"):
        draw_odds("Ah Kh Qh Jh 2c", max_discard=6)


def test_too_few_unseen_cards() -> None:
    """With 45 dead cards only two are unseen: holds drawing more are left out."""
    hand = parse_cards("Ah Kh Qh Jh 2c")
    rest = [c for c in DECK if c not in hand]
    holds = draw_odds(hand, rest[2:])
    assert len(holds) == 1 + 5 + 10
    assert all(len(h.discard) <= 2 for h in holds)
    only = draw_odds(hand, rest)
    assert len(only) == 1 and only[0].discard == () and only[0].probabilities["HIGH_CARD"] == 1


@pytest.mark.parametrize(
    ("hand", "dead", "match"),
    [
        ("Ah Kh Qh Jh", "", "5 cards, not 4"),
        ("Ah Kh Qh Jh 2c 3c", "", "5 cards, not 6"),
        ("Ah Kh Qh Jh Ah", "", "bad hand: duplicate card 'Ah'"),
        ("Ah Kh Qh Jh 1x", "", "bad hand: '1x' is not a card"),
        ("Ah Kh Qh Jh 2c", "Th Th", "bad dead cards: duplicate card 'Th'"),
        ("Ah Kh Qh Jh 2c", "Th Zz", "bad dead cards: 'Zz' is not a card"),
        ("Ah Kh Qh Jh 2c", "Th Qh", "dead card 'Qh' is in the hand"),
    ],
)
def test_bad_input_raises_clear_errors(hand: str, dead: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        draw_odds(hand, dead)


def test_inputs_as_cards_ids_or_text() -> None:
    text = draw_odds("Ah Kh Qh Jh 2c", "Th 9h")
    cards = draw_odds(parse_cards("Ah Kh Qh Jh 2c"), parse_cards("Th 9h"))
    ids = draw_odds([int(c) for c in parse_cards("Ah Kh Qh Jh 2c")], [34, 30])
    assert text == cards == ids


def test_json_form() -> None:
    data = draw_odds("Ah Kh Qh Jh 2c")[0].to_dict()
    assert data["keep"] == ["Ah", "Kh", "Qh", "Jh"]
    assert data["discard"] == ["2c"]
    assert data["expected_points"] == 116 / 47
    assert list(data["probabilities"]) == list(CATEGORY_NAMES)


def test_holds_are_frozen_and_hashable() -> None:
    hold = draw_odds("Ah Kh Qh Jh 2c")[0]
    with pytest.raises(AttributeError):
        hold.expected_points = 0.0  # type: ignore[misc]
    assert hash(hold) == hash(draw_odds("Ah Kh Qh Jh 2c")[0])


def test_pure_python_counts_agree_with_the_accelerator() -> None:
    """The fallback counting (no C extension) gives the same exact counts."""
    for seed in range(8):
        hand, dead = deal(100 + seed, 3 * seed)
        for wheel in (True, False):
            assert draw_counts(hand, mask_of(dead), wheel=wheel) == _draw_counts_py(
                [int(c) for c in hand], mask_of(dead), wheel
            )


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.preset("wikipedia"),
        Rules.preset("pagat", wheel_straight=False, max_discard=3),
        Rules.preset("pagat").with_variations("V-SF-10", "V-ROYAL"),
    ],
    ids=["pagat", "wikipedia", "no-wheel-max3", "sf10-royal9"],
)
def test_pure_python_holds_equal_the_accelerator(rules: Rules) -> None:
    """The whole fallback path (no C extension) builds exactly the same sorted holds."""
    from chicago.odds import _draw_odds_py

    for seed in range(6):
        hand, dead = deal(200 + seed, 4 * seed)
        ours = draw_odds(hand, dead, rules)
        assert ours == _draw_odds_py(hand, mask_of(dead), rules, rules.max_discard)
        assert [h.to_dict() for h in ours] == [
            h.to_dict() for h in _draw_odds_py(hand, mask_of(dead), rules, rules.max_discard)
        ]


def test_holds_pickle_and_copy() -> None:
    import copy
    import pickle

    hold = draw_odds("Ah Kh Qh Jh 2c", "Th")[0]
    assert pickle.loads(pickle.dumps(hold)) == hold
    assert copy.deepcopy(hold) == hold
