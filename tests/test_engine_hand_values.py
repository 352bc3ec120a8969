"""Hand values as the engine uses them (R-HAND-1, R-HAND-2, R-HAND-3, R-HAND-4, V-ROYAL,
V-TIE-SUIT): ``evaluate`` computes only the key; everything else is read from it or from a
copy of the hand, so a value must not change when the engine's hand list does."""

from __future__ import annotations

import random

import pytest

from chicago import Category, Rules, evaluate
from chicago.cards import DECK, parse_cards
from chicago.poker import _evaluate_py, category_of, rank


def test_a_value_keeps_its_hand_when_the_list_changes() -> None:
    """The engine passes its own hand lists (R-EX-1 changes them): a value made before an
    exchange keeps the hand it was made from."""
    hand = list(parse_cards("9c 9d Kh 7s 2c"))
    value = evaluate(hand)
    cards, key = value.cards, value.key
    hand[:] = parse_cards("Ah Kd Qc Js 9s")
    assert value.cards == cards and value.key == key and value.category is Category.PAIR
    assert evaluate(hand).category is Category.HIGH_CARD


@pytest.mark.parametrize("order", [None, "hdsc", "scdh"])
@pytest.mark.parametrize("royal", [True, False])
@pytest.mark.parametrize("wheel", [True, False])
def test_every_field_matches_the_reference_evaluator(
    wheel: bool, royal: bool, order: str | None
) -> None:
    """R-HAND-1..4, V-ROYAL, V-TIE-SUIT: the lazily read fields are the reference
    evaluator's, for five and six cards, also through a Rules object (the engine's call)."""
    rules = Rules.preset("pagat", wheel_straight=wheel, royal_separate=royal, suit_order=order)
    rng = random.Random(f"{wheel}{royal}{order}")
    hands = [rng.sample(DECK, rng.choice((5, 6))) for _ in range(400)]
    hands += [list(parse_cards(t)) for t in ("As Ks Qs Js Ts", "Ah 2c 3d 4s 5h", "5h 6h 7h 8h 9h",
                                             "Ah 2h 3h 4h 5h", "9c 9d 9h 9s 2c")]
    for hand in hands:
        ref = _evaluate_py(tuple(hand), wheel, royal, order)
        for value in (evaluate(hand, rules), evaluate(hand, wheel=wheel, royal=royal,
                                                      suit_order=order)):
            assert (value.category, value.ranks, value.cards, value.key, value.suit_rank) == (
                ref.category, ref.ranks, ref.cards, ref.key, ref.suit_rank), hand
            assert value.reveal_stages() == ref.ranks
            assert category_of(hand, rules) is ref.category


def test_inputs_and_defaults() -> None:
    """Lists, tuples, iterables, ids, tokens and one text give the same value; the default
    value's key is rank()'s number; the options may also be given by position."""
    text = "As Kd Tc 9h 2s"
    cards = parse_cards(text)
    values = [evaluate(text), evaluate(list(cards)), evaluate(cards), evaluate(iter(cards)),
              evaluate([int(c) for c in cards]), evaluate(text.split())]
    assert all(v == values[0] and v.cards == values[0].cards for v in values)
    assert values[0].key == rank(list(cards))
    assert evaluate(list(cards), None, True, True, None) == values[0]
    wheel = list(parse_cards("Ah 2c 3d 4s 5h"))
    assert evaluate(wheel, None, False).category is Category.HIGH_CARD
    with pytest.raises(ValueError, match="5 cards"):
        evaluate(list(cards)[:4])
    with pytest.raises(ValueError):
        evaluate([0, 0, 1, 2, 3])
