"""Cards as small integers, and their text form.

A card is an ``int`` from 0 to 51: ``rank_index * 4 + suit_index``, where the rank index runs
from 0 (a two) to 12 (an ace) and the suit index is clubs 0, diamonds 1, hearts 2, spades 3.
So sorting cards sorts them by rank, ``card >> 2`` is the rank index and ``card & 3`` the suit,
and a hand of cards is also a 52-bit mask (``1 << card`` for each card).

The text form is a rank letter and a suit letter: ``As Kd Tc 9h 2s``. On input ``10`` is
accepted for a ten, upper or lower case, and the suit symbols ``♠♥♦♣`` too.

>>> from chicago.cards import Card, parse_cards
>>> Card("As"), int(Card("As")), Card(0)
(Card('As'), 51, Card('2c'))
>>> parse_cards("As 10d kh")
(Card('As'), Card('Td'), Card('Kh'))
>>> Card("Qh").unicode()
'Q♥'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

__all__ = [
    "DECK",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
    "cards_from_mask",
    "cards_text",
    "ids_of_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
"""Rank letters by rank index (0 = two … 12 = ace)."""
SUITS = "cdhs"
"""Suit letters by suit index: clubs, diamonds, hearts, spades."""
SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols by suit index."""
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)

_RANK_OF_TEXT = {letter: index for index, letter in enumerate(RANKS)}
_RANK_OF_TEXT["10"] = 8
_SUIT_OF_TEXT = {letter: index for index, letter in enumerate(SUITS)}
_SUIT_OF_TEXT.update({symbol: index for index, symbol in enumerate(SUIT_SYMBOLS)})
# Variation selectors sometimes follow a suit symbol ("♥️"): accept them.
_SUIT_OF_TEXT.update({symbol + "\ufe0f": index for index, symbol in enumerate(SUIT_SYMBOLS)})


class Card(int):
    """One of the 52 cards, an ``int`` from 0 to 51 (``rank_index * 4 + suit_index``).

    ``Card(51)`` and ``Card("As")`` are the same card; ``str(card)`` is its text form and
    ``repr(card)`` can be pasted back.
    """

    __slots__ = ()
    _all: ClassVar[tuple[Card, ...]]

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, Card):
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"a card is made from an int 0-51 or a text like 'As', not {value!r}")
        if not 0 <= value < 52:
            raise ValueError(f"{value} is not a card id (0-51)")
        try:
            return cls._all[value]
        except AttributeError:  # while the 52 instances are being made
            return super().__new__(cls, value)

    @classmethod
    def of(cls, rank_index: int, suit_index: int) -> Card:
        """The card of rank index 0-12 (two … ace) and suit index 0-3 (clubs … spades)."""
        if not (0 <= rank_index < 13 and 0 <= suit_index < 4):
            raise ValueError(f"no card has rank index {rank_index} and suit index {suit_index}")
        return cls._all[rank_index * 4 + suit_index]

    @property
    def rank_index(self) -> int:
        """0 for a two … 12 for an ace."""
        return int(self) >> 2

    @property
    def rank(self) -> int:
        """The rank value 2 … 14 (jack 11, queen 12, king 13, ace 14)."""
        return (int(self) >> 2) + 2

    @property
    def suit(self) -> int:
        """The suit index: clubs 0, diamonds 1, hearts 2, spades 3."""
        return int(self) & 3

    @property
    def suit_letter(self) -> str:
        """``c``, ``d``, ``h`` or ``s``."""
        return SUITS[int(self) & 3]

    @property
    def mask(self) -> int:
        """This card as a one-bit mask."""
        return 1 << int(self)

    def unicode(self) -> str:
        """The text form with the suit as a symbol: ``A♠``."""
        return RANKS[int(self) >> 2] + SUIT_SYMBOLS[int(self) & 3]

    def name(self) -> str:
        """The card in words: ``ace of spades``."""
        return f"{RANK_NAMES[int(self) >> 2]} of {SUIT_NAMES[int(self) & 3]}"

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        if spec == "u":
            return self.unicode()
        if spec in ("", "s"):
            return str(self)
        return int.__format__(int(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


Card._all = tuple(int.__new__(Card, value) for value in range(52))

DECK: tuple[Card, ...] = Card._all
"""All 52 cards in id order (2c 2d 2h 2s 3c … As)."""


def parse_card(text: str) -> Card:
    """Parse one card: ``As``, ``as``, ``10c``, ``Q♥``. A bad token raises ``ValueError``."""
    token = text.strip()
    if len(token) >= 2:
        rank_text, suit_text = token[:-1], token[-1]
        if suit_text == "\ufe0f" and len(token) >= 3:
            rank_text, suit_text = token[:-2], token[-2:]
        rank = _RANK_OF_TEXT.get(rank_text.upper())
        suit = _SUIT_OF_TEXT.get(suit_text.lower())
        if rank is not None and suit is not None:
            return Card._all[rank * 4 + suit]
    raise ValueError(f"{text!r} is not a card")


def parse_cards(
    text: str | Iterable[str | int], *, allow_duplicates: bool = False
) -> tuple[Card, ...]:
    """Parse cards from text (``"As Kd Tc"``, commas allowed) or from an iterable of tokens/ids.

    A bad token raises ``ValueError`` naming it (``'1x' is not a card``); a card given twice
    raises ``ValueError`` too unless ``allow_duplicates``.
    """
    tokens: Iterable[str | int] = text.replace(",", " ").split() if isinstance(text, str) else text
    result: list[Card] = []
    seen = 0
    for token in tokens:
        card = parse_card(token) if isinstance(token, str) else Card(token)
        bit = 1 << card
        if seen & bit and not allow_duplicates:
            raise ValueError(f"duplicate card {str(card)!r}")
        seen |= bit
        result.append(card)
    return tuple(result)


def cards_text(cards: Iterable[int], *, symbols: bool = False) -> str:
    """The cards as text separated by spaces: ``As Kd`` (``A♠ K♦`` with ``symbols``)."""
    if symbols:
        return " ".join(Card(c).unicode() for c in cards)
    return " ".join(str(Card(c)) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """The 52-bit mask of the cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def ids_of_mask(mask: int) -> list[int]:
    """The card ids (plain ints) of a 52-bit mask, lowest first: for the search code."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _cards_of_bytes() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """Per byte of a mask (0-6, lowest first), per value of that byte, its cards."""
    table = []
    for place in range(7):
        base = place * 8
        table.append(tuple(
            tuple(Card._all[base + bit] for bit in range(8) if value >> bit & 1 and base + bit < 52)
            for value in range(256)))
    return tuple(table)


_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _cards_of_bytes()
"""The cards of each byte of a mask by its value (bytes 0-6; the last holds cards 48-51)."""
_MASK_LIMIT = 1 << 52
"""Every mask of cards is below it."""


def cards_from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a 52-bit mask, lowest id first; a mask with a bit above card 51 (or a
    negative one) raises ``ValueError``."""
    if not 0 <= mask < _MASK_LIMIT:
        raise ValueError(f"{mask!r} is not a mask of cards (52 bits)")
    # a table per byte: seven lookups instead of a step per card
    return (_B0[mask & 255] + _B1[mask >> 8 & 255] + _B2[mask >> 16 & 255]
            + _B3[mask >> 24 & 255] + _B4[mask >> 32 & 255] + _B5[mask >> 40 & 255]
            + _B6[mask >> 48])
