"""Exact draw odds: what each way of keeping cards can become after one exchange.

:func:`draw_odds` takes a five-card hand and the cards known to be out of play (``dead``),
and for each of the 32 ways to keep cards gives the exact probability of every category
after drawing from the unseen cards (unseen = 52 − hand − dead), and the expected points
under the rules' points table (R-HAND-1, R-EX-1).

Exact means every equally likely draw is counted, never sampled: the C accelerator
enumerates the draws as multisets of ranks, weighted by how many ways the unseen cards give
each, and counts flushes and straight flushes combinatorially. A pure-Python version of the
same counting serves when the accelerator is not built.

>>> from chicago.odds import draw_odds
>>> best = draw_odds("Ah Kh Qh Jh 2c")[0]
>>> " ".join(map(str, best.keep)), round(best.probabilities["ROYAL_FLUSH"] * 47)
('Ah Kh Qh Jh', 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from math import comb
from operator import itemgetter, mul
from typing import Any

from chicago.cards import Card, mask_of, parse_cards
from chicago.poker import ACCELERATED, Category
from chicago.rules import Rules

try:
    if not ACCELERATED:
        raise ImportError("chicago.poker runs without the accelerator")
    from chicago import _poker
except ImportError:
    _poker = None  # type: ignore[assignment]

__all__ = ["CATEGORY_NAMES", "Hold", "draw_counts", "draw_odds"]

CATEGORY_NAMES: tuple[str, ...] = tuple(c.name for c in sorted(Category, reverse=True))
"""Category names best first, the key order of :attr:`Hold.probabilities`."""

_DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Hold:
    """One way to keep cards, with the exact odds of what the draw makes of it.

    ``probabilities`` maps every category name (best first, ``ROYAL_FLUSH`` … ``HIGH_CARD``)
    to its exact probability; ``counts`` holds the same as whole numbers of equally likely
    draws out of ``draws``.
    """

    keep: tuple[Card, ...]
    """The cards kept, in the hand's order."""
    discard: tuple[Card, ...]
    """The cards thrown away, in the hand's order."""
    expected_points: float
    """The expected points of the hand after the draw under the rules' points table."""
    probabilities: dict[str, float] = field(hash=False)
    """Category name -> exact probability after the draw; every category is named."""
    counts: dict[str, int] = field(hash=False, repr=False)
    """Category name -> number of draws that make it (out of :attr:`draws`)."""
    draws: int = field(repr=False)
    """The number of equally likely draws: C(unseen, len(discard))."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"keep": ["Ah", …], "discard": […], "expected_points": …,
        "probabilities": {"ROYAL_FLUSH": …, …, "HIGH_CARD": …}}``."""
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "expected_points": self.expected_points,
            "probabilities": dict(self.probabilities),
        }


def _cards(cards: str | Iterable[int | str], what: str) -> tuple[Card, ...]:
    try:
        return parse_cards(cards)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{what}: {exc}") from None


def draw_odds(
    hand: str | Iterable[int | str],
    dead: str | Iterable[int | str] = (),
    rules: Rules | None = None,
    *,
    max_discard: int | None = None,
) -> list[Hold]:
    """The exact odds of every way to keep cards from ``hand``, best expected points first.

    ``hand`` is five distinct cards (``"Ah Kh Qh Jh 2c"``, Card objects or ids); ``dead``
    are cards known not to be in the stock (seen, discarded, shown), distinct and not in
    the hand. ``rules`` (default ``pagat``) gives the points table (``rules.points``), the
    wheel straight (``rules.wheel_straight``) and whether a royal flush is its own category
    (``rules.royal_separate``; when it is not, royal flushes count as straight flushes and
    ``ROYAL_FLUSH`` is 0.0).

    The result holds one :class:`Hold` for each of the 32 ways to keep cards, except:

    - holds that discard more than ``max_discard`` cards (default ``rules.max_discard``,
      R-EX-2) are left out, so with the default rules all 32 are there;
    - holds that would draw more cards than are unseen (only with 48 or more cards out of
      play) are left out.

    Holds are sorted by expected points, highest first; ties go to fewer discards, then to
    keeping the higher cards (compared by card id, highest first), so the order is fully
    determined. Bad input raises ``ValueError`` with a message naming the problem.
    """
    rules = _DEFAULT_RULES if rules is None else rules
    cards = _cards(hand, "bad hand")
    if len(cards) != 5:
        raise ValueError(f"a hand for draw odds has 5 cards, not {len(cards)}")
    dead_cards = _cards(dead, "bad dead cards")
    in_hand = [c for c in dead_cards if c in cards]
    if in_hand:
        raise ValueError(f"dead card {str(in_hand[0])!r} is in the hand")
    limit = rules.max_discard if max_discard is None else max_discard
    if not 0 <= limit <= 5:
        raise ValueError(f"max_discard must be 0-5, not {limit}")

    dead_mask = mask_of(dead_cards)
    if _poker is not None:
        return _poker.draw_odds(
            cards, dead_mask, rules.wheel_straight, rules.royal_separate, rules.points, limit
        )
    return _draw_odds_py(cards, dead_mask, rules, limit)


def _draw_odds_py(
    cards: tuple[Card, ...], dead_mask: int, rules: Rules, limit: int
) -> list[Hold]:
    """:func:`draw_odds` after its checks, in Python (the accelerator does the same in C)."""
    table = draw_counts(cards, dead_mask, wheel=rules.wheel_straight)
    points = rules.points[::-1]  # best first, like CATEGORY_NAMES
    royal_separate = rules.royal_separate
    bits_of = [1 << c for c in cards]
    holds: list[tuple[tuple[float, int, int], Hold]] = []
    for hold_bits, row in enumerate(table):
        draws = row[0]
        keep_at, discard_at = _SPLITS[hold_bits]
        if len(discard_at) > limit or draws == 0:
            continue
        counts = list(row[:0:-1])  # ROYAL_FLUSH … HIGH_CARD
        if not royal_separate:
            counts[1] += counts[0]
            counts[0] = 0
        expected = sum(map(mul, points, counts)) / draws
        hold = Hold(
            tuple([cards[i] for i in keep_at]),
            tuple([cards[i] for i in discard_at]),
            expected,
            dict(zip(CATEGORY_NAMES, [n / draws for n in counts], strict=True)),
            dict(zip(CATEGORY_NAMES, counts, strict=True)),
            draws,
        )
        # ties: fewer discards, then the higher kept cards (the larger mask of card ids)
        holds.append(((-expected, len(discard_at), -sum(bits_of[i] for i in keep_at)), hold))
    holds.sort(key=itemgetter(0))
    return [hold for _, hold in holds]


_SPLITS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (
        tuple(i for i in range(5) if bits >> i & 1),
        tuple(i for i in range(5) if not bits >> i & 1),
    )
    for bits in range(32)
)
"""For each hold (bit i set: keep card i), the positions kept and the positions discarded."""


def draw_counts(
    hand: Iterable[int], dead_mask: int = 0, *, wheel: bool = True
) -> tuple[tuple[int, ...], ...]:
    """Exact outcome counts of the 32 holds of a five-card hand (the engine of :func:`draw_odds`).

    Item ``h`` is the hold that keeps ``hand[i]`` for every bit ``i`` set in ``h``: a tuple
    ``(draws, n_0, …, n_9)`` where ``draws`` = C(unseen, cards drawn) and ``n_c`` is the
    number of those draws that make category ``c`` (:class:`Category` order, ROYAL_FLUSH its
    own category). ``dead_mask`` is the 52-bit mask of the dead cards. Inputs are trusted
    to be five distinct ids and a mask disjoint from them (:func:`draw_odds` checks).
    """
    ids = [int(c) for c in hand]
    if _poker is not None:
        return _poker.draw_counts(ids, dead_mask, wheel)
    return _draw_counts_py(ids, dead_mask, wheel)


# ---------------------------------------------------------------------- pure Python


def _straights(wheel: bool) -> list[int]:
    masks = [0x1F << (top - 4) for top in range(12, 3, -1)]
    if wheel:
        masks.append(0x100F)
    return masks


_ROYAL = 0x1F00


def _draw_counts_py(hand: list[int], dead_mask: int, wheel: bool) -> tuple[tuple[int, ...], ...]:
    """The same counting as the accelerator's ``draw_counts``, in Python."""
    hand_mask = mask_of(hand)
    unseen = [c for c in range(52) if not (hand_mask | dead_mask) >> c & 1]
    avail = [0] * 13
    suit_ranks = [0] * 4
    for card in unseen:
        avail[card >> 2] += 1
        suit_ranks[card & 3] |= 1 << (card >> 2)
    avail_after = [0] * 14
    for r in range(12, -1, -1):
        avail_after[r] = avail_after[r + 1] + avail[r]
    straights = _straights(wheel)
    straight_set = set(straights)
    result: list[tuple[int, ...]] = []
    for hold in range(32):
        kept = [0] * 13
        kept_mask = 0
        kept_suits = 0
        for i in range(5):
            if hold >> i & 1:
                kept[hand[i] >> 2] += 1
                kept_mask |= 1 << (hand[i] >> 2)
                kept_suits |= 1 << (hand[i] & 3)
        n_keep = sum(kept)
        k = 5 - n_keep
        counts = [0] * len(Category)
        draws = comb(len(unseen), k)
        if draws:
            _walk(counts, kept, list(kept), avail, avail_after, straight_set, 0, k, 1)
            if n_keep == 0 or kept_suits & (kept_suits - 1) == 0:
                for s in range(4):
                    if n_keep and not kept_suits >> s & 1:
                        continue
                    suited = comb(suit_ranks[s].bit_count(), k)
                    made = [
                        st for st in straights
                        if kept_mask & ~st == 0 and (st & ~kept_mask) & ~suit_ranks[s] == 0
                    ]
                    royals = sum(1 for st in made if st == _ROYAL)
                    straight_flushes = len(made) - royals
                    plain = suited - len(made)
                    counts[Category.FLUSH] += plain
                    counts[Category.HIGH_CARD] -= plain
                    counts[Category.STRAIGHT] -= len(made)
                    counts[Category.STRAIGHT_FLUSH] += straight_flushes
                    counts[Category.ROYAL_FLUSH] += royals
        result.append((draws, *counts))
    return tuple(result)


def _walk(
    counts: list[int],
    kept: list[int],
    final: list[int],
    avail: list[int],
    avail_after: list[int],
    straights: set[int],
    r: int,
    left: int,
    weight: int,
) -> None:
    """Add ``weight`` × the draws of ``left`` more cards of ranks >= ``r`` to ``counts``."""
    if left == 0:
        shape = sorted((n for n in final if n), reverse=True)
        if shape[0] == 4:
            category = Category.FOUR_OF_A_KIND
        elif shape[0] == 3:
            category = Category.FULL_HOUSE if shape[1] == 2 else Category.THREE_OF_A_KIND
        elif shape[0] == 2:
            category = Category.TWO_PAIR if shape[1] == 2 else Category.PAIR
        else:
            mask = sum(1 << i for i, n in enumerate(final) if n)
            category = Category.STRAIGHT if mask in straights else Category.HIGH_CARD
        counts[category] += weight
        return
    if left > avail_after[r]:
        return
    for c in range(min(avail[r], left) + 1):
        final[r] = kept[r] + c
        _walk(counts, kept, final, avail, avail_after, straights, r + 1, left - c,
              weight * comb(avail[r], c))
    final[r] = kept[r]


if _poker is not None:
    _poker.setup_odds(
        Hold,
        tuple(Hold.__dict__[name] for name in
              ("keep", "discard", "expected_points", "probabilities", "counts", "draws")),
        CATEGORY_NAMES,
    )
