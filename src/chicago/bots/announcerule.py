"""Whether an opponent's hand could have made its word in the last scoring round, had it
announced, passed and exchanged by ``basic``'s rules (``master:annrule=1``).

``basic`` announces by a fixed rule: the hand's exact category whenever the rules offer it
(only a category at least the highest announced so far is offered, R-ANN-2); it passes a
pair of sixes or lower when at least two players are still to speak, and a hand without a
pair cannot be announced. So its word in a scoring round says what the five cards it held
then were. The samplers already read an announcement while it still describes the hand (no
exchange since: the claim, R-ANN-1) and the combination of a round's winner (R-EX-4); what
they do not read is a word followed by an exchange, nor any pass.

At trick play the hand before the last exchange is gone, but with ``basic``'s exchange rule
(:mod:`chicago.bots.exchangerule`) it can be rebuilt in a world: the ``5 - drawn`` cards the
rule kept are among the opponent's five cards now (held and played), and in the last
exchange the rule keeps every made combination, so the thrown cards made nothing with them.
:func:`word_fits` takes each part of the five cards that the rule could have kept beside a
neutral discard (:func:`~chicago.bots.exchangerule.neutral_discards`), and asks whether
that earlier hand (the part and the neutral discard) would have said the word the opponent
said in the scoring round just before its last exchange: announced that category, with the
defining ranks it revealed in a tie-break; or passed (no pair; a category below the highest
announced before it; a pair of sixes or lower with two or more to speak after it). It is an
existence test, like the exchange rule's: 1 or 0, not the chance of it.

Only the word just before the last exchange is read: the earlier rounds' hands would need
the earlier exchanges rebuilt too. Where the rules can make ``basic`` pass for another
reason (V-CHI-REQ3 passes a claim that would reset its score), a pass is not read.

Reads nothing but its arguments and the seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chicago.bots.exchangerule import earlier_hands
from chicago.engine.knowledge import DEFINING_STAGES, Knowledge, Opponent
from chicago.engine.viewtypes import SeatView
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = ["KeptMemo", "Word", "earlier_values", "opponent_word_fits", "word_fits",
           "words_of"]

_WEAK_PAIR = 6
"""``basic`` may pass a pair of this rank or lower (to hide a weak claim)."""
_MEMO_SIZE = 50_000
_QUEEN = 10
"""The rank index of the queen (``card >> 2``)."""
_ACE = 12
"""The rank index of the ace."""

_Value = tuple[Category, tuple[int, ...]]
"""A hand's category and its defining ranks (2 … 14)."""
KeptMemo = dict[tuple[int, int], tuple[_Value, ...]]
"""A memo of :func:`earlier_values` by (mask of the five cards, cards drawn)."""


@dataclass(frozen=True, slots=True)
class Word:
    """One opponent's word in a scoring round, with what a rule of it needs."""

    round: int
    """The scoring round, from 1."""
    category: Category | None
    """The category announced; None for a pass."""
    stages: tuple[int, ...]
    """The defining ranks it revealed in the round's tie-break (R-ANN-3), in order."""
    highest_before: Category | None
    """The highest category announced before it in the round (None: none)."""
    after: int
    """How many players spoke after it in the round."""


def words_of(view: SeatView, k: Knowledge) -> dict[int, Word]:
    """Each opponent's word in the scoring round just before its last exchange (the round
    after which it exchanged last: round ``r`` follows exchange ``r``), from the view's
    announcements of this deal and the knowledge's revealed ranks; only opponents who have
    such a round, and only at trick play or the Chicago call (the exchanges are over)."""
    if k.phase not in ("play", "chicago"):
        return {}
    by_round: dict[int, list[tuple[int, Category | None]]] = {}
    for word in view.announcements:
        by_round.setdefault(word.round, []).append((word.seat, word.category))
    out: dict[int, Word] = {}
    for seat, opp in k.opponents.items():
        if opp.locked or not opp.exchanges:
            continue
        rnd = len(opp.exchanges) - 1
        spoken = by_round.get(rnd)
        if rnd < 1 or not spoken:
            continue
        order = [s for s, _ in spoken]
        if seat not in order:
            continue
        index = order.index(seat)
        before = [c for _, c in spoken[:index] if c is not None]
        category = spoken[index][1]
        stages: tuple[int, ...] = ()
        if category is not None:
            stages = opp.stages.get(rnd, ())[: DEFINING_STAGES[category]]
        out[seat] = Word(rnd, category, stages, max(before, default=None),
                         len(spoken) - index - 1)
    return out


def _fast_values(cards: Sequence[int], drawn: int) -> tuple[_Value, ...] | None:
    """:func:`earlier_values` by the ranks alone, for 2 to 5 drawn (proven equal to trying
    the discards on random hands in the tests): drew 5, or 4 with a queen or higher, a hand
    of nothing; drew 3, a pair of each rank held twice or more; drew 2, trips of each rank
    held three times or more, and with an ace a pair of each other rank held twice. None
    for the other counts."""
    if drawn < 2:
        return None
    ranks = [c >> 2 for c in cards]
    if drawn == 5 or (drawn == 4 and max(ranks) >= _QUEEN):
        return ((Category.HIGH_CARD, ()),)
    if drawn == 4:
        return ()
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    if drawn == 3:
        return tuple((Category.PAIR, (r + 2,)) for r in sorted(counts, reverse=True)
                     if counts[r] >= 2)
    out = [(Category.THREE_OF_A_KIND, (r + 2,)) for r in sorted(counts, reverse=True)
           if counts[r] >= 3]
    if _ACE in counts:
        out += [(Category.PAIR, (r + 2,)) for r in sorted(counts, reverse=True)
                if r != _ACE and counts[r] >= 2]
    return tuple(out)


def earlier_values(cards: Sequence[int], drawn: int, rules: Rules,
                   memo: KeptMemo | None = None, *, fast: bool = True) -> tuple[_Value, ...]:
    """The values (category and its defining ranks, R-ANN-3) of the hands a ``basic``
    player could have held before a last exchange in which it drew ``drawn`` cards and was
    left with the five ``cards``: for each part of ``5 - drawn`` of them that
    :func:`~chicago.bots.heuristics.basic_keep` keeps exactly beside a neutral discard
    (tried spreading low and high), that hand's value. Empty when no part fits the rule.
    ``fast``: by the ranks alone where they say it (the same answer, quicker; False tries
    the discards every time, for the tests)."""
    if fast:
        quick = _fast_values(cards, drawn)
        if quick is not None:
            return quick
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    key = (mask, drawn)
    if memo is not None:
        found = memo.get(key)
        if found is not None:
            return found
    values: list[_Value] = []
    for hand in earlier_hands(cards, drawn, mask, rules, last=True):
        value = evaluate(hand, rules)
        category = value.category
        entry = (category, value.ranks[: DEFINING_STAGES.get(category, 0)])
        if entry not in values:
            values.append(entry)
    out = tuple(sorted(values, key=lambda v: (-v[0], [-r for r in v[1]])))
    if memo is not None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[key] = out
    return out


def says(word: Word, category: Category, ranks: Sequence[int], rules: Rules) -> bool:
    """Whether ``basic`` holding a hand of ``category`` with tie-break ``ranks`` would have
    said ``word`` (announced its category with those revealed ranks, or passed)."""
    if word.category is not None:
        return category is word.category and tuple(ranks[: len(word.stages)]) == word.stages
    if category is Category.HIGH_CARD:
        return True
    if word.highest_before is not None and category < word.highest_before:
        return True  # its category was not offered (R-ANN-2)
    return category is Category.PAIR and ranks[0] <= _WEAK_PAIR and word.after >= 2


def word_fits(cards: Sequence[int], drawn: int, word: Word, rules: Rules,
              memo: KeptMemo | None = None) -> bool | None:
    """Whether the five ``cards`` can be a ``basic`` player's hand after a last exchange
    of ``drawn`` cards that followed ``word``: some hand it could have held before
    (:func:`earlier_values`) says the word (:func:`says`). None where the exchange rule
    itself cannot explain the cards (that is the exchange rule's to weigh, ``exrule``)."""
    values = earlier_values(cards, drawn, rules, memo)
    if not values:
        return None
    return any(says(word, category, ranks, rules) for category, ranks in values)


def opponent_word_fits(k: Knowledge, opp: Opponent, cards: Sequence[int], word: Word | None,
                       memo: KeptMemo | None = None) -> bool | None:
    """:func:`word_fits` for ``opp``'s ``cards`` (held and played in a world) and its last
    word before its last exchange; None where it says nothing: no such word, a locked
    player, a known one-up card, a shown hand, not five cards, a pass under rules that make
    ``basic`` pass for another reason (V-CHI-REQ3), or cards the exchange rule cannot
    explain."""
    if (word is None or opp.locked or not opp.exchanges or len(cards) != 5 or opp.known
            or opp.shown):
        return None
    if word.category is None and k.rules.chicago_required == "made":
        return None
    drawn = opp.exchanges[-1]
    if not 0 <= drawn <= 5:
        return None
    return word_fits(cards, drawn, word, k.rules, memo)
