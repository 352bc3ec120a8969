"""Whether an opponent's hand could have come from ``basic``'s exchange rule
(``master:exrule=1|2``).

``basic`` exchanges by a fixed rule (:func:`~chicago.bots.heuristics.basic_keep`): from the
five cards it holds it keeps made hands, four-card draws, aces or one high card, and throws
the rest. So the number of cards it drew in an exchange says what its kept part was: drew 3,
it kept a pair (with no ace beside it); drew 4, one card, an ace or else a king or queen
that topped a hand of nothing; drew 2, trips or a pair with an ace; drew 1, two pairs, trips
with an ace, a four-flush or an open-ended four-straight; drew 0, a straight or better; drew
5, nothing. The expert's hand-made plausibility (:func:`~chicago.bots.plausibility.
hand_weight`) only leans that way (a hand with no pair after drawing 3 keeps 0.1 to 0.5 of
the weight); the rule itself says such a hand cannot be a ``basic`` player's.

:func:`rule_fits` tells whether five cards (the opponent's hand after its last exchange: the
cards it holds in a world and those it played this deal) can be what the rule leaves after
drawing ``drawn`` cards: whether some ``5 - drawn`` of them are exactly what the rule keeps
from those cards and ``drawn`` discards the seat has not seen. The discards are unknown, so
the test asks for one neutral set of them (:func:`neutral_discards`: ranks below the queen,
far from the kept ranks and from each other, in the least used suits, none of the five
cards): if the rule keeps exactly those cards beside a neutral discard, the hand is
possible. That is an existence test, not the chance of it (a hand that fits two ways counts
once, a kept king needs discards without an ace): a likelihood of 0 or 1, which is where
the rule differs most from the hand-made weights. Only the last exchange is read, as the
hand-made weight reads it.

Reads nothing but its arguments and the seat's :class:`~chicago.engine.knowledge.Knowledge`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from chicago.bots.heuristics import basic_keep
from chicago.cards import Card
from chicago.engine.knowledge import Knowledge, Opponent
from chicago.rules import Rules

__all__ = ["RuleMemo", "earlier_hands", "may_keep", "neutral_discards", "opponent_fits",
           "rule_fits"]

RuleMemo = dict[tuple[int, int, bool], bool]
"""A memo of :func:`rule_fits` by (mask of the five cards, cards drawn, last exchange)."""

_QUEEN = 10
"""The rank index of the queen: neutral discards are lower (the rule keeps a lone top
queen, king or ace)."""
_MEMO_SIZE = 50_000
"""The most hands a :data:`RuleMemo` keeps (then it starts afresh)."""


def neutral_discards(kept: Sequence[int], count: int, exclude: int, *,
                     high_first: bool = False) -> list[int] | None:
    """``count`` cards that make nothing with ``kept``: ranks below the queen, none of
    ``kept``'s, each as far as can be from the ranks taken (the ace counts at both ends),
    each in the suit least used so far (the lowest of equals); no card of mask ``exclude``.
    ``high_first``: the higher rank of equally far ones (else the lower). None when there
    are not enough."""
    taken = {c >> 2 for c in kept}
    if 12 in taken:
        taken.add(-1)
    suits = [0, 0, 0, 0]
    for c in kept:
        suits[c & 3] += 1
    ranks = [r for r in range(_QUEEN) if r not in taken]
    out: list[int] = []
    while len(out) < count:
        best: tuple[int, int, int] | None = None
        for r in ranks:
            far = min((abs(r - t) for t in taken), default=99)
            key = (far, r if high_first else -r)
            if best is not None and key <= best[:2]:
                continue
            suit = min((s for s in range(4) if not exclude >> (r * 4 + s) & 1),
                       key=lambda s: (suits[s], s), default=None)
            if suit is not None:
                best = (far, key[1], r * 4 + suit)
        if best is None:
            return None
        card = best[2]
        out.append(card)
        taken.add(card >> 2)
        ranks.remove(card >> 2)
        suits[card & 3] += 1
    return out


def may_keep(kept: Sequence[int]) -> bool:
    """A quick necessary test of the rule's kept cards by their number (one: a queen or
    higher; two: a pair; three: a pair among them; four: two pairs, trips and an ace, one suit, or
    four ranks in a row below the ace); the rule decides the rest."""
    ranks = [c >> 2 for c in kept]
    if len(kept) == 1:
        return ranks[0] >= _QUEEN
    distinct = set(ranks)
    if len(distinct) < len(ranks):
        if len(kept) == 4:  # two pairs, or trips below the ace with an ace
            shape = sorted(ranks.count(r) for r in distinct)
            return shape == [2, 2] or (shape == [1, 3] and ranks.count(12) == 1)
        return len(kept) != 2 or len(distinct) == 1
    if len(kept) in (2, 3):
        return False
    if len(kept) == 4:
        if len({c & 3 for c in kept}) == 1:
            return True
        return max(distinct) - min(distinct) == 3 and 12 not in distinct
    return True


def _fast_fits(cards: Sequence[int], drawn: int) -> bool | None:
    """:func:`rule_fits` without trying discards where the answer follows from the ranks
    alone (proven equal to the rule's test on random hands in the tests): drew 4, a queen or
    higher among the cards; drew 3, a pair; drew 2, trips, or a pair other than aces and an ace.
    None for the other counts."""
    ranks = [c >> 2 for c in cards]
    if drawn == 4:
        return max(ranks) >= _QUEEN
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    most = max(counts.values())
    if drawn == 3:
        return most >= 2
    if drawn == 2:
        return most >= 3 or (12 in counts and any(n >= 2 for r, n in counts.items() if r != 12))
    return None


def earlier_hands(cards: Sequence[int], drawn: int, mask: int, rules: Rules, *,
                  last: bool) -> Iterator[list[Card]]:
    """The hands a ``basic`` player may have held before an exchange in which it drew
    ``drawn`` cards and was left with the five ``cards`` (``mask``: their bits): for each
    part of ``5 - drawn`` of them that :func:`~chicago.bots.heuristics.basic_keep` keeps
    exactly, that part beside a neutral discard of ``drawn`` other cards
    (:func:`neutral_discards`, tried spreading low and high). Lazily, in a fixed order;
    a hand may come twice (the two spreads)."""
    for kept in combinations(sorted(int(c) for c in cards), 5 - drawn):
        if not may_keep(kept):
            continue
        for high_first in (False, True):
            thrown = neutral_discards(kept, drawn, mask, high_first=high_first)
            if thrown is None:
                continue
            hand = [Card(c) for c in sorted([*kept, *thrown])]
            if sorted(int(c) for c in basic_keep(hand, rules, last=last)) == list(kept):
                yield hand
            if drawn == 0:
                break


def rule_fits(cards: Sequence[int], drawn: int, rules: Rules, *, last: bool,
              memo: RuleMemo | None = None, fast: bool = True) -> bool:
    """Whether the five ``cards`` can be a ``basic`` player's hand after an exchange in
    which it drew ``drawn`` cards (``last``: the deal's last exchange): some ``5 - drawn``
    of them are exactly what :func:`~chicago.bots.heuristics.basic_keep` keeps from them
    and a neutral discard of ``drawn`` other cards (:func:`neutral_discards`, tried
    spreading low and high). Always true for 5 drawn (it kept nothing) or a hand that is
    not five cards. ``fast``: decide by the ranks alone where they say it (the same
    answer, quicker; False tries the discards every time, for the tests)."""
    if len(cards) != 5 or not 0 <= drawn < 5:
        return True
    if fast:
        quick = _fast_fits(cards, drawn)
        if quick is not None:
            return quick
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    key = (mask, drawn, last)
    if memo is not None:
        found = memo.get(key)
        if found is not None:
            return found
    fits = next(earlier_hands(cards, drawn, mask, rules, last=last), None) is not None
    if memo is not None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[key] = fits
    return fits


def opponent_fits(k: Knowledge, opp: Opponent, cards: Sequence[int],
                  memo: RuleMemo | None = None, *, kept: bool = False) -> bool | None:
    """Whether ``cards`` (its held and played cards of a world) can be ``opp``'s hand after
    its latest exchange had it exchanged by ``basic``'s rule (:func:`rule_fits`, with the
    number it drew then); None where the rule says nothing the test can read: a locked
    player, one that has not exchanged, one holding a known card (a one-up card) or that
    showed its hand, or a hand that is not five cards; and, unless ``kept``, one holding a
    combination protected through the exchanges (R-EX-4). With ``kept`` those are read
    too: the protected cards are in every world's hand already, and what the rule adds is
    the rest of the keep (a protected pair with two drawn means an ace beside it)."""
    if (opp.locked or not opp.exchanges or len(cards) != 5 or opp.known or opp.shown
            or (opp.kept and not kept)):
        return None
    acted = len(opp.exchanges)
    if k.phase in ("exchange", "one up") and opp.seat in k.to_speak_after():
        acted -= 1
    if acted <= 0:
        return None
    drawn = opp.exchanges[acted - 1]
    return rule_fits(cards, drawn, k.rules, last=acted >= k.exchanges_total, memo=memo)
