"""Poker hands (R-HAND-1 … R-HAND-4, V-TIE-SUIT, V-ROYAL) and the fast entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from itertools import pairwise, permutations

import numpy as np
import pytest

from chicago.cards import DECK, Card, parse_cards
from chicago.poker import (
    ACCELERATED,
    Category,
    HandValue,
    _evaluate_py,
    _rank_py,
    category_of,
    evaluate,
    evaluate_many,
    rank,
    rank_value,
)
from chicago.rules import Rules


def ev(text: str, **options: object) -> HandValue:
    return evaluate(parse_cards(text), **options)  # type: ignore[arg-type]


def test_the_accelerator_is_built() -> None:
    """The C extension is what the editable install and a clean clone run with."""
    assert ACCELERATED


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("As Ks Qs Js Ts", Category.ROYAL_FLUSH),
        ("9h 8h 7h 6h 5h", Category.STRAIGHT_FLUSH),
        ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH),
        ("7c 7d 7h 7s 2c", Category.FOUR_OF_A_KIND),
        ("Tc Td Th 4s 4c", Category.FULL_HOUSE),
        ("Kc 9c 7c 4c 2c", Category.FLUSH),
        ("9c 8d 7h 6s 5c", Category.STRAIGHT),
        ("Ac Kd Qh Js Tc", Category.STRAIGHT),
        ("8c 8d 8h Ks 2c", Category.THREE_OF_A_KIND),
        ("Jc Jd 4h 4s 2c", Category.TWO_PAIR),
        ("9c 9d Kh 7s 2c", Category.PAIR),
        ("Ac Qd 9h 7s 2c", Category.HIGH_CARD),
    ],
)
def test_categories_R_HAND_1(text: str, category: Category) -> None:
    """R-HAND-1: each category, the same by evaluate, category_of and rank."""
    hand = parse_cards(text)
    assert evaluate(hand).category is category
    assert category_of(hand) is category
    assert rank(hand) >> 20 == category


def test_categories_are_ordered_R_HAND_1() -> None:
    """R-HAND-1: the best hand of each category loses to the worst of the next one up."""
    lowest_and_highest = [
        ("7c 5d 4h 3s 2c", "Ac Kd Qh Js 9c"),  # high card
        ("2c 2d 5h 4s 3c", "Ac Ad Kh Qs Jc"),  # pair
        ("3c 3d 2h 2s 4c", "Ac Ad Kh Ks Qc"),  # two pair
        ("2c 2d 2h 4s 3c", "Ac Ad Ah Ks Qc"),  # three of a kind
        ("5c 4d 3h 2s Ac", "Ac Kd Qh Js Tc"),  # straight
        ("7c 5c 4c 3c 2c", "Ac Kc Qc Jc 9c"),  # flush
        ("2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kc"),  # full house
        ("2c 2d 2h 2s 3c", "Ac Ad Ah As Kc"),  # four of a kind
        ("5c 4c 3c 2c Ac", "Kc Qc Jc Tc 9c"),  # straight flush
        ("Ac Kc Qc Jc Tc", "As Ks Qs Js Ts"),  # royal flush
    ]
    for category, (low, high) in zip(Category, lowest_and_highest, strict=True):
        assert ev(low).category is ev(high).category is category
        assert ev(low) <= ev(high)
    for (_, high), (low, _) in pairwise(lowest_and_highest):
        assert ev(high) < ev(low)
        assert rank(parse_cards(high)) < rank(parse_cards(low))


def test_kickers_R_HAND_2() -> None:
    """R-HAND-2 (P's examples): 8-8-8-K-2 beats 8-8-8-Q-J and 7-7-10-6-2 beats 7-7-10-5-4."""
    assert ev("8c 8d 8h Ks 2c") > ev("8s 8c 8d Qh Jc")
    assert ev("7c 7d Th 6s 2c") > ev("7h 7s Tc 5d 4c")
    assert rank(parse_cards("8c 8d 8h Ks 2c")) > rank(parse_cards("8s 8c 8d Qh Jc"))
    assert rank(parse_cards("7c 7d Th 6s 2c")) > rank(parse_cards("7h 7s Tc 5d 4c"))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Jc Jd 4h 4s 2c", "Tc Td 9h 9s Ac"),  # higher pair first
        ("Jc Jd 4h 4s 3c", "Jh Js 4c 4d 2c"),  # then the odd card
        ("Jc Jd 5h 5s 2c", "Jh Js 4c 4d Ac"),  # the lower pair before the odd card
        ("3c 3d 3h 2s 2c", "2h 2d 2s As Ac"),  # trips of a full house before its pair
        ("Kc 9c 7c 4c 3c", "Kd 9d 7d 4d 2d"),  # flush: all five ranks in turn
        ("6c 5d 4h 3s 2c", "5c 4d 3h 2s Ac"),  # straight: its top card
        ("9c 9d Kh 7s 3c", "9h 9s Kc 7d 2c"),  # pair: kickers one by one
    ],
)
def test_same_category_comparison_R_HAND_2(better: str, worse: str) -> None:
    """R-HAND-2: the cards that make the combination first, then the odd cards."""
    assert ev(better) > ev(worse)
    assert rank(parse_cards(better)) > rank(parse_cards(worse))


def test_exactly_equal_hands_R_HAND_2() -> None:
    """R-HAND-2: hands equal card for card by rank are exactly equal; suits never count."""
    a, b = ev("Ac Kd Qh Js 9c"), ev("As Kh Qd Jc 9s")
    assert a == b and not a < b and not a > b and hash(a) == hash(b)
    assert ev("As Ks Qs Js 9s") == ev("Ah Kh Qh Jh 9h")
    assert rank(parse_cards("Ac Kd Qh Js 9c")) == rank(parse_cards("As Kh Qd Jc 9s"))


def test_wheel_R_HAND_3() -> None:
    """R-HAND-3: A-2-3-4-5 is the lowest straight (five high) with wheel_straight on."""
    wheel = ev("Ac 2d 3h 4s 5c")
    assert wheel.category is Category.STRAIGHT
    assert wheel.ranks == (5,)
    assert [str(c) for c in wheel.cards] == ["5c", "4s", "3h", "2d", "Ac"]  # the ace plays low
    assert wheel < ev("2c 3d 4h 5s 6c")
    assert wheel > ev("Ac Ad Ah Ks Qc")
    assert ev("Ah 2h 3h 4h 5h").category is Category.STRAIGHT_FLUSH


def test_wheel_off_R_HAND_3() -> None:
    """R-HAND-3 off: A-2-3-4-5 is only an ace high (or an ace-high flush)."""
    off = ev("Ac 2d 3h 4s 5c", wheel=False)
    assert off.category is Category.HIGH_CARD
    assert off.ranks == (14, 5, 4, 3, 2)
    assert ev("Ah 2h 3h 4h 5h", wheel=False).category is Category.FLUSH
    hand = parse_cards("Ac 2d 3h 4s 5c")
    assert rank(hand, wheel=False) == off.key
    assert rank(hand, False) == off.key
    rules = Rules.preset("pagat", wheel_straight=False)
    assert evaluate(hand, rules).category is Category.HIGH_CARD
    assert category_of(hand, rules) is Category.HIGH_CARD
    assert int(evaluate_many([hand], wheel=False)[0]) == off.key


def test_round_the_corner_is_no_straight_R_HAND_3() -> None:
    """R-HAND-3: K-A-2-3-4 is not a straight, with or without the wheel."""
    for wheel in (True, False):
        assert ev("Kc Ad 2h 3s 4c", wheel=wheel).category is Category.HIGH_CARD
        assert ev("Kh Ah 2h 3h 4h", wheel=wheel).category is Category.FLUSH
        assert ev("Qc Kd Ah 2s 3c", wheel=wheel).category is Category.HIGH_CARD


def test_six_cards_best_five_R_HAND_4() -> None:
    """R-HAND-4 (V-LOCK-6): of six cards, the value is that of the best five."""
    six = parse_cards("9h 8h 7h 6h 5h 5c")
    value = evaluate(six)
    assert value.category is Category.STRAIGHT_FLUSH
    assert Card("5c") not in value.cards
    assert rank(six) == value.key == max(rank(f) for f in _fives(six))
    assert category_of(six) is Category.STRAIGHT_FLUSH
    with pytest.raises(ValueError, match="5 cards"):
        evaluate(parse_cards("9h 8h 7h 6h"))
    with pytest.raises(ValueError, match="5 cards"):
        rank(parse_cards("9h 8h 7h 6h 5h 4h 3h"))


def _fives(six: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    return [six[:i] + six[i + 1:] for i in range(6)]


def test_suit_tie_break_V_TIE_SUIT() -> None:
    """V-TIE-SUIT: exactly equal hands are ordered by the suit of the highest card."""
    order = "hdsc"
    hearts = ev("Ah Kd Qc Js 9c", suit_order=order)
    spades = ev("As Kh Qd Jc 9s", suit_order=order)
    assert hearts > spades
    assert hearts.suit_rank == 3 and spades.suit_rank == 1
    assert ev("Ah Kd Qc Js 9c") == ev("As Kh Qd Jc 9s")  # off: equal
    # the wheel's highest card is its five
    assert ev("5h 4c 3c 2c Ac", suit_order=order) > ev("5d 4h 3h 2h Ah", suit_order=order)
    # a different category still decides first
    assert ev("2c 2s 3c 4s 5d", suit_order=order) > ev("Ah Kh Qh Js 9h", suit_order=order)
    rules = Rules.preset("pagat").with_variations("V-TIE-SUIT")
    assert evaluate(parse_cards("Ah Kd Qc Js 9c"), rules) > evaluate(
        parse_cards("As Kh Qd Jc 9s"), rules
    )
    with pytest.raises(ValueError, match="suit order"):
        ev("Ah Kd Qc Js 9c", suit_order="hdsx")


def test_royal_option_V_ROYAL() -> None:
    """V-ROYAL: an ace-high straight flush is its own category, or a straight flush."""
    royal = parse_cards("As Ks Qs Js Ts")
    assert evaluate(royal).category is Category.ROYAL_FLUSH
    assert evaluate(royal, royal=False).category is Category.STRAIGHT_FLUSH
    wikipedia = Rules.preset("wikipedia")
    assert not wikipedia.royal_separate
    assert evaluate(royal, wikipedia).category is Category.STRAIGHT_FLUSH
    assert category_of(royal, wikipedia) is Category.STRAIGHT_FLUSH
    assert category_of(royal, wikipedia.with_variations("V-ROYAL")) is Category.ROYAL_FLUSH
    assert evaluate(royal, royal=False) > evaluate(parse_cards("Ks Qs Js Ts 9s"), royal=False)
    assert rank(royal) == rank_value(Category.ROYAL_FLUSH, (14,))


@pytest.mark.parametrize(
    ("text", "stages"),
    [
        ("9c 9d Kh 7s 2c", (9, 13, 7, 2)),
        ("Jc Jd 4h 4s 2c", (11, 4, 2)),
        ("8c 8d 8h Ks 2c", (8, 13, 2)),
        ("Tc Td Th 4s 4c", (10, 4)),
        ("7c 7d 7h 7s 2c", (7, 2)),
        ("9c 8d 7h 6s 5c", (9,)),
        ("Ac 2d 3h 4s 5c", (5,)),
        ("Kc 9c 7c 4c 2c", (13, 9, 7, 4, 2)),
        ("Ac Qd 9h 7s 2c", (14, 12, 9, 7, 2)),
        ("As Ks Qs Js Ts", (14,)),
    ],
)
def test_reveal_stages_R_ANN_3(text: str, stages: tuple[int, ...]) -> None:
    """R-ANN-3: the ranks in the order the staged tie-break reveals them."""
    assert ev(text).reveal_stages() == stages


def test_reveal_example_R_ANN_3() -> None:
    """R-ANN-3 (P's example): nines, then king, then seven against ten: C wins."""
    a, b, c = ev("9c 9d Kh 7s 2c"), ev("5c 5d Ah Qs Jc"), ev("9h 9s Kc Td 3c")
    assert b < a < c
    assert a.reveal_stages()[:2] == c.reveal_stages()[:2] == (9, 13)
    assert a.reveal_stages()[2] < c.reveal_stages()[2]


def test_cards_most_significant_first() -> None:
    value = ev("2c Kd 9s 2h Kh")
    assert [str(c) for c in value.cards] == ["Kd", "Kh", "2c", "2h", "9s"]
    assert value.text == "two pair (K 2 9)"


def test_rank_equals_key_and_rank_value() -> None:
    """One number everywhere: rank() == evaluate().key == rank_value(category, ranks)."""
    rng = np.random.default_rng(1)
    for _ in range(2_000):
        hand = tuple(DECK[c] for c in rng.choice(52, size=5, replace=False).tolist())
        value = evaluate(hand)
        assert rank(hand) == value.key == rank_value(value.category, value.ranks)
        assert category_of(hand) is value.category


def test_card_order_does_not_matter() -> None:
    for text in ["Ac 2d 3h 4s 5c", "Tc Td Th 4s 4c", "As Ks Qs Js Ts", "Jc Jd 4h 4s 2c"]:
        hand = parse_cards(text)
        values = {rank(p) for p in permutations(hand)}
        assert len(values) == 1
        assert {evaluate(p).key for p in permutations(hand)} == values


def test_input_forms() -> None:
    """Cards as Card objects, ids, tokens, one text, a generator or numpy integers."""
    expected = ev("As Kd Tc 9h 2s")
    assert evaluate("As Kd Tc 9h 2s") == expected
    assert evaluate(["As", "Kd", "Tc", "9h", "2s"]) == expected
    assert evaluate([51, 45, 32, 30, 3]) == expected
    assert evaluate(Card(c) for c in [51, 45, 32, 30, 3]) == expected
    assert evaluate(np.array([51, 45, 32, 30, 3])) == expected
    assert category_of("As Kd Tc 9h 2s") is Category.HIGH_CARD
    assert category_of(["As", "Ad", "Tc", "9h", "2s"]) is Category.PAIR
    assert rank([51, 45, 32, 30, 3]) == expected.key
    assert rank(np.array([51, 45, 32, 30, 3], dtype=np.uint8)) == expected.key


@pytest.mark.parametrize(
    ("cards", "error", "match"),
    [
        ([51, 51, 32, 30, 3], ValueError, "same card twice"),
        ([51, 52, 32, 30, 3], ValueError, "52 is not a card id"),
        ([51, -1, 32, 30, 3], ValueError, "is not a card id"),
        ([51, 45, 32, 30], ValueError, "5 cards"),
        ([51, 45, 32, 30, 3.0], TypeError, "card"),
        ([51, 45, 32, 30, True], TypeError, "card"),
    ],
)
def test_bad_hands_raise(cards: list[object], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        rank(cards)  # type: ignore[arg-type]
    with pytest.raises(error):
        evaluate(cards)  # type: ignore[arg-type]
    with pytest.raises(error):
        category_of(cards)  # type: ignore[arg-type]


def test_bad_tokens_raise_like_cards() -> None:
    with pytest.raises(ValueError, match="'1x' is not a card"):
        evaluate(["As", "1x", "Tc", "9h", "2s"])
    with pytest.raises(ValueError, match="same card twice"):
        evaluate("As Kd Tc 9h As")


def test_evaluate_many_shapes_and_dtypes() -> None:
    hands = np.array([parse_cards("As Kd Tc 9h 2s"), parse_cards("7c 7d 7h 7s 2c")])
    expected = [rank(h) for h in hands.tolist()]
    for dtype in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint64):
        values = evaluate_many(hands.astype(dtype))
        assert values.dtype == np.int32
        assert values.tolist() == expected
    assert evaluate_many(hands.tolist()).tolist() == expected
    assert evaluate_many(np.asfortranarray(hands)).tolist() == expected
    assert evaluate_many(np.zeros((0, 5), dtype=np.uint8)).shape == (0,)
    six = np.array([parse_cards("9h 8h 7h 6h 5h 5c")])
    assert evaluate_many(six).tolist() == [rank(parse_cards("9h 8h 7h 6h 5h"))]


@pytest.mark.parametrize(
    ("array", "error", "match"),
    [
        (np.array([[0, 1, 2, 3]]), ValueError, "shape"),
        (np.array([0, 1, 2, 3, 4]), ValueError, "shape"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]), ValueError, "row 1"),
        (np.array([[0, 1, 2, 3, 52]]), ValueError, "0-51"),
        (np.array([[0, 1, 2, 3, -4]]), ValueError, "0-51"),
        (np.array([[0, 1, 2, 3, 60]], dtype=np.uint8), ValueError, "row 0"),
        (np.array([[0.0, 1, 2, 3, 4]]), TypeError, "integer"),
    ],
)
def test_evaluate_many_rejects_bad_input(
    array: np.ndarray, error: type[Exception], match: str  # type: ignore[type-arg]
) -> None:
    with pytest.raises(error, match=match):
        evaluate_many(array)


def test_pure_python_paths_agree_with_the_accelerator() -> None:
    """The fallback used when the extension is missing gives the same numbers."""
    rng = np.random.default_rng(9)
    hands = np.array([rng.choice(52, size=6, replace=False) for _ in range(500)])
    for hand in hands.tolist():
        assert _rank_py(hand[:5]) == rank(hand[:5])
        assert _rank_py(hand) == rank(hand)
        assert _rank_py(hand, wheel=False) == rank(hand, wheel=False)


def test_pure_python_fallback_in_a_fresh_interpreter() -> None:
    """With CHICAGO_PURE_PYTHON set, chicago runs without the extension, same results."""
    script = textwrap.dedent(
        """
        import json
        from chicago.poker import ACCELERATED, category_of, evaluate, evaluate_many, rank
        from chicago.odds import draw_odds
        hand = [51, 45, 32, 30, 3]
        best = draw_odds("Ah Kh Qh Jh 2c", dead="Th")[0]
        print(json.dumps([ACCELERATED, rank(hand), evaluate(hand).key,
                          int(category_of(hand)), evaluate_many([hand]).tolist(),
                          best.counts]))
        """
    )
    env = dict(os.environ, CHICAGO_PURE_PYTHON="1")
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    accelerated, value, key, category, batch, counts = json.loads(out.stdout)
    hand = [51, 45, 32, 30, 3]
    assert accelerated is False
    assert value == key == rank(hand) and batch == [rank(hand)]
    assert category == int(category_of(hand))
    from chicago.odds import draw_odds

    assert counts == draw_odds("Ah Kh Qh Jh 2c", dead="Th")[0].counts


def test_hand_values_are_immutable_and_hashable() -> None:
    value = ev("As Kd Tc 9h 2s")
    with pytest.raises(AttributeError):
        value.key = 3  # type: ignore[misc]
    assert len({value, ev("Ac Kh Td 9s 2c"), ev("As Kd Tc 9h 3s")}) == 2
    assert repr(value).startswith("HandValue(category=<Category.HIGH_CARD")


def test_reference_evaluator_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="same card twice"):
        _evaluate_py(parse_cards("As As", allow_duplicates=True) * 3, True, True, None)


def test_hand_values_pickle_and_copy() -> None:
    """Values built by the accelerator behave like ordinary dataclass instances."""
    import copy
    import pickle

    for value in (ev("As Ks Qs Js Ts"), ev("Ah Kd Qc Js 9c", suit_order="hdsc")):
        for clone in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            assert clone == value
            assert (clone.category, clone.ranks, clone.cards, clone.suit_rank) == (
                value.category, value.ranks, value.cards, value.suit_rank
            )
