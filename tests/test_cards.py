"""Cards as small ints and their text form (R-TABLE-2)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chicago.cards import DECK, Card, cards_from_mask, cards_text, mask_of, parse_card, parse_cards


def test_deck_has_52_distinct_cards_R_TABLE_2() -> None:
    assert len(DECK) == 52
    assert len({str(c) for c in DECK}) == 52
    assert [int(c) for c in DECK] == list(range(52))


def test_card_is_an_int_with_text_form() -> None:
    ace = Card("As")
    assert isinstance(ace, int)
    assert int(ace) == 51
    assert str(ace) == "As"
    assert repr(ace) == "Card('As')"
    assert eval(repr(ace)) == ace
    assert ace.rank == 14 and ace.suit == 3
    assert Card(0) == Card("2c")
    assert Card(ace) is ace
    assert Card(51) is ace


@pytest.mark.parametrize(
    ("text", "expected"),
    [("As", "As"), ("as", "As"), ("AS", "As"), ("10c", "Tc"), ("10C", "Tc"), ("tD", "Td"),
     ("Q♥", "Qh"), ("K♠", "Ks"), ("2♣", "2c"), ("J♦", "Jd"), ("A♥\ufe0f", "Ah")],
)
def test_parse_accepts_variants(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["1x", "", "A", "Ax", "11c", "Zs", "As5"])
def test_bad_token_names_itself(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(bad)


def test_parse_cards_error_names_the_token() -> None:
    with pytest.raises(ValueError, match="'1x' is not a card"):
        parse_cards("As 1x Kd")


def test_parse_cards_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="duplicate card 'As'"):
        parse_cards("As Kd as")
    assert len(parse_cards("As As", allow_duplicates=True)) == 2


def test_parse_cards_forms() -> None:
    assert parse_cards("As, Kd,Tc") == (Card("As"), Card("Kd"), Card("Tc"))
    assert parse_cards(["As", 0]) == (Card("As"), Card("2c"))


def test_symbols_on_output() -> None:
    hand = parse_cards("As Kd Tc 9h 2s")
    assert cards_text(hand) == "As Kd Tc 9h 2s"
    assert cards_text(hand, symbols=True) == "A♠ K♦ T♣ 9♥ 2♠"
    assert f"{Card('Ah'):u}" == "A♥"


def test_masks_round_trip() -> None:
    hand = parse_cards("As Kd Tc 9h 2s")
    mask = mask_of(hand)
    assert mask.bit_count() == 5
    assert sorted(cards_from_mask(mask)) == sorted(hand)


def _cards_bit_by_bit(mask: int) -> tuple[Card, ...]:
    """The former ``cards_from_mask``: the lowest bit taken off, one card at a time."""
    result = []
    while mask:
        low = mask & -mask
        result.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(result)


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_cards_from_mask_equals_the_bit_by_bit_walk(mask: int) -> None:
    """The table-driven ``cards_from_mask`` gives the cards (Card objects, lowest first) that
    taking the lowest bit off one at a time gives, for any 52-bit mask."""
    cards = cards_from_mask(mask)
    assert cards == _cards_bit_by_bit(mask)
    assert all(type(card) is Card for card in cards)
    assert mask_of(cards) == mask


@pytest.mark.parametrize("mask", [0, 1, 1 << 51, (1 << 52) - 1, 0xFF << 8, 0xF << 48])
def test_cards_from_mask_at_the_byte_edges(mask: int) -> None:
    assert cards_from_mask(mask) == _cards_bit_by_bit(mask)


@pytest.mark.parametrize("mask", [1 << 52, (1 << 53) | 1, -1, -(1 << 10)])
def test_cards_from_mask_refuses_a_mask_that_is_no_set_of_cards(mask: int) -> None:
    """A bit above card 51 (As) or a negative mask is no set of the 52 cards."""
    with pytest.raises(ValueError, match="not a mask of cards"):
        cards_from_mask(mask)


def test_numpy_batch_of_ids() -> None:
    hands = np.array([parse_cards("As Kd Tc 9h 2s")], dtype=np.int8)
    assert hands.shape == (1, 5)
    assert int(hands[0, 0]) == 51


def test_pickle_keeps_identity() -> None:
    assert pickle.loads(pickle.dumps(Card("7h"))) is Card("7h")


def test_bad_ids() -> None:
    with pytest.raises(ValueError):
        Card(52)
    with pytest.raises(TypeError):
        Card(True)
    with pytest.raises(ValueError):
        Card.of(13, 0)
