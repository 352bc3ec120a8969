"""Poker hands: categories, exact comparison and the staged reveal (R-HAND-1 … R-HAND-4).

``evaluate(cards)`` gives a :class:`HandValue` for five cards (or the best five of six, for
V-LOCK-6). Values are hashable and totally ordered: a higher value beats a lower one and
equal values are exactly equal (suits never break ties unless a ``suit_order`` is given,
V-TIE-SUIT).

For speed there are three more entry points, all backed by the C accelerator
``chicago._poker`` (with a pure-Python fallback when it is not built, see
:data:`ACCELERATED`):

- :func:`rank` — one hand to one comparable ``int``;
- :func:`evaluate_many` — a numpy array of hands (shape ``(n, 5)`` or ``(n, 6)``) at once;
- :func:`category_of` — just the :class:`Category`.

The integers of :func:`rank` and :func:`evaluate_many` are exactly
``rank_value(category, ranks)`` with the royal flush as its own category: they equal
``HandValue.key`` under the default options (wheel on, royal separate, no suit order), order
exactly like it under any royal option, and ``value >> 20`` is the category.

>>> from chicago.cards import parse_cards
>>> a = evaluate(parse_cards("8c 8d 8h Ks 2c"))
>>> b = evaluate(parse_cards("8s 8c 8d Qh Jc"))
>>> a.category.name, a > b, a.reveal_stages()
('THREE_OF_A_KIND', True, (8, 13, 2))
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from chicago.cards import DECK, RANKS, SUITS, Card, parse_cards
from chicago.categories import Category

try:
    if os.environ.get("CHICAGO_PURE_PYTHON"):
        raise ImportError("CHICAGO_PURE_PYTHON is set")
    from chicago import _poker
except ImportError:  # the extension is not built: the pure-Python paths below serve
    _poker = None  # type: ignore[assignment]

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from chicago.rules import Rules

__all__ = [
    "ACCELERATED",
    "DEFAULT_SUIT_ORDER",
    "Category",
    "HandValue",
    "category_of",
    "evaluate",
    "evaluate_many",
    "rank",
    "rank_value",
]

ACCELERATED: bool = _poker is not None
"""Whether the C accelerator ``chicago._poker`` is in use (set ``CHICAGO_PURE_PYTHON=1`` in
the environment before the import to force the pure-Python paths)."""


DEFAULT_SUIT_ORDER = "hdsc"
"""V-TIE-SUIT's usual order, highest first: hearts > diamonds > spades > clubs."""


_Options = tuple[bool, bool, "bytes | None"]
"""How a hand was evaluated: (wheel straight, royal separate, suit ranks or None)."""
_new = object.__new__


class HandValue:
    """The value of a poker hand: category, defining ranks and the five cards that make it.

    Compare values with ``<``, ``==`` …; ``key`` is the integer they compare by. Values are
    immutable and hashable. Only ``key`` is computed when a hand is evaluated: the category
    and the ranks are read from it, and the five cards in order are worked out from the
    hand when they are asked for.

    With the accelerator built, ``HandValue`` is its C type (``chicago._poker.HandValue``,
    made whole by one C call of :func:`evaluate`); this pure-Python class behaves the same.
    """

    __slots__ = ("_hand", "_key", "_options")

    _key: int
    _hand: tuple[Card, ...]
    _options: _Options
    """How the hand was evaluated: (wheel straight, royal separate, suit ranks or None)."""

    @property
    def key(self) -> int:
        """Integer that orders values exactly like poker (with the suit tie-break if enabled)."""
        return self._key

    @property
    def category(self) -> Category:
        """The hand's category (R-HAND-1)."""
        key = self._key
        return _CATEGORIES[key >> 22 if self._options[2] is not None else key >> 20]

    @property
    def ranks(self) -> tuple[int, ...]:
        """Rank values (2 … 14, a wheel's ace counts as 1 in a straight) in comparison order."""
        key = self._key >> 2 if self._options[2] is not None else self._key
        ranks = _RANKS_OF_KEY.get(key)
        if ranks is None:
            ranks = tuple(r for r in ((key >> s) & 15 for s in (16, 12, 8, 4, 0)) if r)
            _RANKS_OF_KEY[key] = ranks
        return ranks

    @property
    def cards(self) -> tuple[Card, ...]:
        """The five cards, most significant first."""
        wheel, royal, suit_ranks = self._options
        order = None if suit_ranks is None else _order_of_suit_ranks(suit_ranks)
        return _evaluate_py(self._hand, wheel, royal, order).cards

    @property
    def suit_rank(self) -> int | None:
        """Under V-TIE-SUIT: 3 for the best suit of the order … 0 for the worst, else None."""
        return self._key & 3 if self._options[2] is not None else None

    def reveal_stages(self) -> tuple[int, ...]:
        """Rank values in the order the staged tie-break reveals them (R-ANN-3).

        First the rank that defines the combination, then the next defining rank, then the
        odd cards one by one, highest first. A straight (or straight flush) is defined by its
        top card alone; a flush reveals all five ranks.
        """
        return self.ranks

    @property
    def text(self) -> str:
        """A description in words: ``pair of nines, K 7 2 kickers`` style, short."""
        names = [RANKS[r - 2] if r >= 2 else "A" for r in self.ranks]
        return f"{self.category.text} ({' '.join(names)})"

    def __repr__(self) -> str:
        return f"HandValue(category={self.category!r}, ranks={self.ranks!r}, cards={self.cards!r})"

    def __lt__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key >= other._key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self._hand, self._options)

    def __copy__(self) -> HandValue:
        return self  # immutable

    def __deepcopy__(self, memo: object) -> HandValue:
        return self


def _restore(hand: tuple[Card, ...], options: _Options) -> HandValue:
    """A pickled :class:`HandValue` back (``__reduce__``): the hand evaluated again."""
    wheel, royal, suit_ranks = options
    order = None if suit_ranks is None else _order_of_suit_ranks(suit_ranks)
    return evaluate(hand, None, wheel, royal, order)


class _Described:
    """The full description of a hand, as the reference evaluator returns it."""

    __slots__ = ("cards", "category", "key", "ranks", "suit_rank")

    category: Category
    ranks: tuple[int, ...]
    cards: tuple[Card, ...]
    key: int
    suit_rank: int | None

    def __init__(
        self,
        category: Category,
        ranks: tuple[int, ...],
        cards: tuple[Card, ...],
        key: int,
        suit_rank: int | None,
    ) -> None:
        self.category, self.ranks, self.cards = category, ranks, cards
        self.key, self.suit_rank = key, suit_rank

    def __repr__(self) -> str:
        return f"HandValue(category={self.category!r}, ranks={self.ranks!r}, cards={self.cards!r})"


_RANKS_OF_KEY: dict[int, tuple[int, ...]] = {}  # at most 7,462 x the wheel and royal options


def rank_value(category: Category, ranks: Sequence[int]) -> int:
    """Pack a category and its comparison ranks into one comparable integer."""
    value = int(category)
    for position in range(5):
        value = value * 16 + (ranks[position] if position < len(ranks) else 0)
    return value


_CATEGORIES: tuple[Category, ...] = tuple(Category)
_OPTIONS: dict[tuple[bool, bool, bytes | None], _Options] = {}


def _options(wheel: bool, royal: bool, suit_ranks: bytes | None) -> _Options:
    """One shared options tuple per combination (values keep a reference to it)."""
    key = (bool(wheel), bool(royal), suit_ranks)
    options = _OPTIONS.get(key)
    if options is None:
        options = _OPTIONS[key] = key
    return options


def _order_of_suit_ranks(suit_ranks: bytes) -> str:
    """The suit order (highest first) of :func:`_suit_ranks` bytes."""
    return "".join(sorted(SUITS, key=lambda letter: -suit_ranks[SUITS.index(letter)]))


_SUIT_RANKS: dict[str, bytes] = {}


def _suit_ranks(order: str) -> bytes:
    """The V-TIE-SUIT rank (3 best … 0) of each suit index, as the accelerator wants it."""
    ranks = _SUIT_RANKS.get(order)
    if ranks is None:
        _check_suit_order(order)
        ranks = bytes(3 - order.index(letter) for letter in SUITS)
        _SUIT_RANKS[order] = ranks
    return ranks


def _as_cards(cards: Iterable[int | str] | str) -> tuple[Card, ...]:
    """Cards from text, Card objects, ids or tokens; bad tokens raise as :class:`Card` does."""
    if isinstance(cards, str):
        return parse_cards(cards, allow_duplicates=True)
    return tuple(
        Card(c) if isinstance(c, int | str) else Card(operator.index(c))  # numpy ints too
        for c in cards
    )


def evaluate(
    cards: Iterable[int | str] | str,
    rules: Rules | None = None,
    wheel: bool | None = None,
    royal: bool | None = None,
    suit_order: str | None = None,
) -> HandValue:
    """Evaluate five cards, or the best five of six.

    ``cards`` are :class:`Card` objects, ids 0-51, tokens like ``"As"`` or one text like
    ``"As Kd Tc 9h 2s"``. Options come from ``rules`` (``wheel_straight``,
    ``royal_separate``, ``suit_order``) and can be overridden one by one: ``wheel``
    (A-2-3-4-5 is a straight, R-HAND-3, default on), ``royal`` (an ace-high straight flush
    is ROYAL_FLUSH, not STRAIGHT_FLUSH; V-ROYAL, default on), ``suit_order`` (V-TIE-SUIT:
    suit letters highest first, e.g. ``"hdsc"``; default none, so exactly equal hands stay
    equal). Of six cards, the first best five in :func:`itertools.combinations` order make
    the value; cards of equal rank keep their given order (best suit first under a suit
    order).

    Only the value's ``key`` is computed here (the table lookup of :func:`rank`), in one C
    call when the accelerator is built; the rest of the :class:`HandValue` is read from the
    key, or from the hand when asked for.
    """
    # This is the pure-Python evaluate(); with the accelerator built, chicago.poker.evaluate
    # is chicago._poker.evaluate (same docstring, same results).
    hand = _as_cards(cards)
    if rules is None:
        use_wheel = True if wheel is None else bool(wheel)
        use_royal = True if royal is None else bool(royal)
        order = suit_order
    else:
        use_wheel = bool(rules.wheel_straight if wheel is None else wheel)
        use_royal = bool(rules.royal_separate if royal is None else royal)
        order = rules.suit_order if suit_order is None else suit_order
    suit_ranks = None if order is None else _suit_ranks(order)
    key = _evaluate_py(hand, use_wheel, use_royal, order).key
    value = _new(HandValue)
    value._key = key
    value._hand = hand
    value._options = _options(use_wheel, use_royal, suit_ranks)
    return value


def category_of(cards: Iterable[int | str] | str, rules: Rules | None = None) -> Category:
    """The category of five cards (or the best five of six) under ``rules``: fast.

    Honours ``rules.wheel_straight`` (R-HAND-3) and ``rules.royal_separate`` (V-ROYAL); the
    defaults are wheel on, royal separate. Same inputs and errors as :func:`evaluate`.
    """
    wheel = True if rules is None else rules.wheel_straight
    royal = True if rules is None else rules.royal_separate
    if _poker is None:
        return _evaluate_py(_as_cards(cards), wheel, royal, None).category
    if type(cards) is not tuple and type(cards) is not list:
        cards = _as_cards(cards) if isinstance(cards, str) else tuple(cards)
    try:
        return _poker.category(cards, wheel, royal)
    except TypeError:
        return _poker.category(_as_cards(cards), wheel, royal)


def _rank_py(cards: Sequence[int], wheel: bool = True) -> int:
    """The value of five cards (or the best five of six) as one comparable ``int``.

    ``rank(cards, wheel=True)`` is the fastest single-hand evaluation (this is its
    pure-Python fallback). ``cards`` is a list or tuple of :class:`Card` objects or ids 0-51.
    The value is ``rank_value(category, ranks)`` with the royal flush as its own category,
    so a higher value beats a lower one, equal means exactly equal (no suit tie-break), and
    ``value >> 20`` is the category. ``wheel`` (default on) makes A-2-3-4-5 a straight
    (R-HAND-3). Bad ids, duplicates or a wrong count raise ``ValueError``.
    """
    return _evaluate_py(_as_cards(cards), wheel, True, None).key


if _poker is not None:
    rank = _poker.rank
else:  # pragma: no cover - exercised in a subprocess by the tests
    rank = _rank_py
_rank = rank


def evaluate_many(
    cards_array: npt.ArrayLike, *, wheel: bool = True
) -> npt.NDArray[np.int32]:
    """Evaluate a batch of hands at once: shape ``(n, 5)``, or ``(n, 6)`` for best of six.

    ``cards_array`` holds card ids 0-51 (any integer dtype; ``uint8`` avoids a copy). The
    result is an ``int32`` array of ``n`` values, the same numbers :func:`rank` gives, so
    they compare exactly like poker and ``values >> 20`` are the categories. ``wheel``
    (default on) makes A-2-3-4-5 a straight. A bad id or a hand holding a card twice raises
    ``ValueError`` naming the row. Needs numpy (the extra ``rl``): without it,
    :class:`~chicago.extras.MissingExtra` (an ``ImportError``) says how to install it.
    """
    try:
        import numpy as np  # imported here: most users of this module never need numpy
    except ImportError as exc:
        from chicago.extras import MissingExtra

        raise MissingExtra("rl", "evaluate_many", ["numpy"]) from exc

    array = np.asarray(cards_array)
    if array.ndim != 2 or array.shape[1] not in (5, 6):
        raise ValueError(f"hands must be an array of shape (n, 5) or (n, 6), not {array.shape}")
    if array.dtype != np.uint8:
        if array.dtype.kind not in "iu":
            raise TypeError(f"hands must hold integer card ids, not {array.dtype}")
        if array.size and (int(array.min()) < 0 or int(array.max()) > 51):
            raise ValueError("card ids must be 0-51")
        array = array.astype(np.uint8)
    array = np.ascontiguousarray(array)
    out = np.empty(array.shape[0], dtype=np.int32)
    if _poker is not None:
        _poker.rank_batch(array, int(array.shape[1]), out, bool(wheel))
        return out
    for row, hand in enumerate(array.tolist()):
        if len(set(hand)) != len(hand):
            raise ValueError(f"row {row} is not a hand of distinct card ids 0-51")
        out[row] = _rank_py(hand, wheel)
    return out


def _evaluate_py(
    hand: tuple[Card, ...], wheel: bool, royal: bool, suit_order: str | None
) -> _Described:
    """The pure-Python reference evaluator: slow, simple, and an independent cross-check.

    It returns the full description (category, ranks, cards, key, suit_rank) at once."""
    if len(set(hand)) != len(hand):
        raise ValueError("a hand cannot hold the same card twice")
    if suit_order is not None:
        _check_suit_order(suit_order)
    if len(hand) == 5:
        return _evaluate5(hand, wheel, royal, suit_order)
    if len(hand) == 6:
        return max(
            (_evaluate5(five, wheel, royal, suit_order) for five in combinations(hand, 5)),
            key=operator.attrgetter("key"),
        )
    raise ValueError(f"a poker hand has 5 cards (or 6 to choose from), not {len(hand)}")


def _check_suit_order(order: str) -> None:
    if sorted(order) != sorted(SUITS):
        raise ValueError(f"suit order {order!r} must name each of c, d, h, s once, highest first")


def _evaluate5(
    hand: Sequence[Card], wheel: bool, royal: bool, suit_order: str | None
) -> _Described:
    by_rank = sorted(hand, key=lambda c: (c.rank, _suit_rank(c, suit_order)), reverse=True)
    counts: dict[int, int] = {}
    for card in by_rank:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    # groups: most cards first, then higher rank first
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    is_flush = len({c.suit for c in hand}) == 1
    distinct = [rank for rank, _ in groups]
    top_of_straight = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top_of_straight = distinct[0]
        elif wheel and distinct == [14, 5, 4, 3, 2]:
            top_of_straight = 5

    cards: tuple[Card, ...]
    if top_of_straight:
        if is_flush:
            category = (
                Category.ROYAL_FLUSH if royal and top_of_straight == 14 else Category.STRAIGHT_FLUSH
            )
        else:
            category = Category.STRAIGHT
        ranks: tuple[int, ...] = (top_of_straight,)
        if top_of_straight == 5:  # the ace plays low
            cards = (*by_rank[1:], by_rank[0])
        else:
            cards = tuple(by_rank)
    else:
        shape = tuple(count for _, count in groups)
        category = Category.FLUSH if is_flush else _CATEGORY_OF_SHAPE[shape]
        ranks = tuple(distinct)
        order = {rank: index for index, rank in enumerate(distinct)}
        cards = tuple(sorted(by_rank, key=lambda c: order[c.rank]))

    key = rank_value(category, ranks)
    suit_rank: int | None = None
    if suit_order is not None:
        # the highest-ranked card (a wheel's five), best suit first among equal ranks
        highest = cards[0] if top_of_straight == 5 else by_rank[0]
        suit_rank = _suit_rank(highest, suit_order)
        key = key * 4 + suit_rank
    return _Described(category, ranks, cards, key, suit_rank)


def _suit_rank(card: Card, suit_order: str | None) -> int:
    if suit_order is None:
        return 0
    return 3 - suit_order.index(card.suit_letter)


_CATEGORY_OF_SHAPE = {
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.PAIR,
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
}

if _poker is not None:  # the accelerator's Python objects: cards, categories, helpers
    _poker.setup(DECK, _CATEGORIES, _as_cards, _suit_ranks, _restore)

if _poker is not None and not TYPE_CHECKING:
    # The accelerator builds the whole HandValue in one C call: evaluate() and HandValue are
    # its function and type (the pure-Python ones above serve when it is not built; they give
    # the same values, see tests/test_poker.py).
    HandValue = _poker.HandValue
    evaluate = _poker.evaluate
