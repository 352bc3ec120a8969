"""Determinization: deal the hidden cards in a way consistent with everything public.

A search bot does not know the other hands. It samples them many times ("determinizes") and
solves each sample as if every card were face up. Each sample must agree with what the table
has shown (see :class:`~chicago.engine.knowledge.Knowledge`):

- cards the seat has seen leave play (played, its own discards, rejected one-up cards) are in
  no hand; an accepted one-up card is in its taker's hand (if not exchanged since);
- a player who announced a category and has exchanged nothing since holds exactly that
  category (counting the cards it has played to tricks since), and its hand starts with the
  ranks it revealed in the tie-break (R-ANN-1, R-ANN-3);
- a player who had to show its hand (R-EX-4) and then exchanged ``k`` cards still holds
  ``5 - k`` of the shown cards (if it has not exchanged again);
- a player who announced the highest category of a scoring round and has not shown its hand
  since kept that combination (R-EX-4 protects it), with the ranks it revealed: its odd
  cards may have been exchanged, the combination was not;
- a player who did not follow suit holds no card of that suit (R-TRICK-2);
- each hand has the right number of cards.

Hands are built constrained players first; a claimed category is built from its defining
cards (the revealed ranks when known) and checked with the evaluator, so rare categories do
not need blind rejection. If a sample cannot be completed in a few tries (it always can when
the constraints are consistent, except in freak cases) the softest constraint is dropped.

>>> import random
>>> from chicago import Game, Rules
>>> from chicago.engine.knowledge import knowledge
>>> game = Game(Rules.preset("pagat"), players=4, seed=3)
>>> k = knowledge(game.view(game.to_act))
>>> hands = sample_hands(k, random.Random(1))
>>> [h.bit_count() for h in hands], hands[k.seat] == k.hand_mask
([5, 5, 5, 5], True)
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence

from chicago.cards import Card, ids_of_mask
from chicago.engine.errors import WorldError
from chicago.engine.knowledge import Claim, Knowledge, Opponent
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = [
    "Weight",
    "consistent",
    "hand_problems",
    "holds_kept",
    "kept_cards",
    "sample_hands",
    "sample_many",
    "void_mask",
]

_SUIT_BITS = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))
_RANK_BITS = {r: 0xF << ((r - 2) * 4) for r in range(2, 15)}
"""Rank value (2 … 14) → mask of its four cards."""

# The groups of equal ranks that make each category, in tie-break order.
_GROUPS: dict[Category, tuple[int, ...]] = {
    Category.PAIR: (2,),
    Category.TWO_PAIR: (2, 2),
    Category.THREE_OF_A_KIND: (3,),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4,),
}
_CLAIM_TRIES = 60
_SAMPLE_TRIES = 20
_EXACT_TRIES = 200
"""Tries of an exact sample (every constraint kept) before it is given up."""
_WEIGHT_TRIES = 12
"""Draws of one opponent's hidden cards before a weighted sample takes the last one."""

Weight = Callable[[Knowledge, Opponent, Sequence[int]], float]
"""How plausible five cards (held plus played) are as an opponent's hand: a bot's model of
how players exchange, 0 … 1 as a chance of acceptance (``chicago.bots.plausibility.
hand_weight``), or any positive number as a relative weight when resampling (``proposals``;
``chicago.bots.handmodel``)."""

def _card(rank: int, suit: int) -> int:
    """The card id of rank value ``rank`` (1 or 14 = ace) and suit index ``suit``."""
    return ((rank - 2) if rank >= 2 else 12) * 4 + suit


_bits = ids_of_mask


def _matches(cards: Sequence[int], claim: Claim, rules: Rules) -> bool:
    value = evaluate([Card(c) for c in cards], rules)
    return value.category == claim.category and value.ranks[: len(claim.stages)] == claim.stages


def _propose(
    available: int, fixed: list[int], claim: Claim, rng: random.Random
) -> list[int] | None:
    """Defining cards of the claimed category (fixed cards included where they fit)."""
    category = claim.category
    stages = claim.stages
    chosen: set[int] = set(fixed)
    pool = available | sum(1 << c for c in fixed)
    groups = _GROUPS.get(category)
    if groups is not None:
        used_ranks: list[int] = []
        for index, size in enumerate(groups):
            if index < len(stages):
                rank = stages[index]
            else:
                options = [
                    r for r in range(2, 15)
                    if r not in used_ranks
                    and sum(1 for s in range(4) if pool >> _card(r, s) & 1) >= size
                ]
                if not options:
                    return None
                rank = _pick_rank(options, chosen, available, size, rng)
            used_ranks.append(rank)
            have = [c for c in chosen if (c >> 2) + 2 == rank]
            free = [_card(rank, s) for s in range(4) if available >> _card(rank, s) & 1]
            free = [c for c in free if c not in chosen]
            missing = size - len(have)
            if missing < 0 or len(free) < missing:
                return None
            chosen.update(rng.sample(free, missing))
        kickers = stages[len(groups):]
        for rank in kickers:
            if any((c >> 2) + 2 == rank for c in chosen):
                continue
            free = [_card(rank, s) for s in range(4) if available >> _card(rank, s) & 1]
            free = [c for c in free if c not in chosen]
            if not free:
                return None
            chosen.add(rng.choice(free))
        return list(chosen)
    straight = category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    flush = category in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    suits = [0, 1, 2, 3]
    if flush:
        fixed_suits = {c & 3 for c in fixed}
        if len(fixed_suits) > 1:
            return None
        suits = list(fixed_suits) if fixed_suits else [
            s for s in range(4) if (pool & _SUIT_BITS[s]).bit_count() >= 5
        ]
        if not suits:
            return None
    suit = rng.choice(suits)
    if straight:
        if category is Category.ROYAL_FLUSH:
            top = 14
        elif stages:
            top = stages[0]
        else:
            top = rng.randrange(5, 15)
        for rank in range(top - 4, top + 1):
            r = 14 if rank == 1 else rank
            if any((c >> 2) + 2 == r for c in chosen):
                continue
            options = [s for s in (suits if flush else range(4)) if available >> _card(r, s) & 1]
            if flush:
                options = [s for s in options if s == suit]
            if not options:
                return None
            chosen.add(_card(r, rng.choice(options)))
        return list(chosen)
    # A plain flush: the revealed ranks (its highest, R-ANN-3), then others of the suit
    # below the lowest of them.
    for rank in stages:
        if any((c >> 2) + 2 == rank for c in chosen):
            continue
        card = _card(rank, suit)
        if not available >> card & 1:
            return None
        chosen.add(card)
    below = stages[-1] if stages else 15
    free = [c for c in _bits(available & _SUIT_BITS[suit]) if c not in chosen and _rank(c) < below]
    missing = 5 - len(chosen)
    if missing > len(free):
        return None
    chosen.update(rng.sample(free, missing))
    return list(chosen)


def _claimed_hidden(
    available: int, fixed: list[int], need: int, claim: Claim, rules: Rules,
    rng: random.Random, kept: Sequence[Claim] = (),
) -> list[int] | None:
    """``need`` hidden cards that with ``fixed`` make the claimed hand, containing the
    protected combinations ``kept`` (from earlier rounds), or None."""
    combinations = _combinations(kept)
    for _ in range(_CLAIM_TRIES):
        base = fixed
        pool = available
        if kept:
            core = _kept_core(available, fixed, combinations, rng)
            if core is None or len(core) > len(fixed) + need:
                continue
            base = core
            pool = available & ~_mask(core)
        core = _propose(pool, base, claim, rng)
        if core is None or len(core) > len(fixed) + need:
            continue
        hidden = [c for c in core if c not in fixed]
        rest = [c for c in _bits(available) if c not in core]
        missing = need - len(hidden)
        if missing > len(rest):
            continue
        hidden += rng.sample(rest, missing)
        if len(fixed) + len(hidden) == 5 and _matches(fixed + hidden, claim, rules) and all(
            holds_kept(fixed + hidden, c, rules) for c in kept
        ):
            return hidden
    return None


def _pick_rank(
    options: Sequence[int], chosen: set[int], available: int, size: int, rng: random.Random
) -> int:
    """A rank for a group of ``size`` equal cards not revealed, among ``options``, drawn in
    proportion to the number of five-card hands that hold it: the ways to add the missing
    cards of that rank (cards already ``chosen`` count) times the ways to fill the other
    places from ``available``. So a rank the chosen cards already hold is much likelier
    (a hand holding two played sevens and claiming a pair holds the sevens' pair)."""
    slots = 5 - len(chosen)
    pool = available.bit_count()
    held_mask = _mask(chosen)
    weights = []
    for r in options:
        bits = _RANK_BITS[r]
        held = (held_mask & bits).bit_count()
        free = (available & bits & ~held_mask).bit_count()
        missing = max(0, size - held)
        if missing > slots or missing > free:
            weights.append(0)
            continue
        weights.append(math.comb(free, missing) * math.comb(pool - free, slots - missing))
    if not any(weights):
        return rng.choice(list(options))
    return rng.choices(list(options), weights=weights)[0]


def _with_kept(claim: Claim, kept: Sequence[Claim]) -> tuple[Claim, list[Claim]]:
    """A claim and the protected combinations that still say more than it: one protected
    in the claim's round or later says nothing more; one of the claim's own category from
    an earlier round *is* the claimed combination (the hand holds it and is of that
    category), so its revealed ranks join the claim's."""
    earlier: list[Claim] = []
    for combination in kept:
        if combination.round >= claim.round:
            continue
        if combination.category is claim.category:
            stages = combination.stages
            if len(stages) > len(claim.stages) and stages[: len(claim.stages)] == claim.stages:
                claim = Claim(claim.round, claim.category, stages)
            continue
        earlier.append(combination)
    return claim, earlier


def _rank(card: int) -> int:
    """The rank value (2 … 14) of a card id."""
    return (card >> 2) + 2


def _combinations(kept: Sequence[Claim]) -> list[Claim]:
    """The protected combinations ``kept`` (R-EX-4) in the order :func:`_kept_core` builds
    them. Two combinations of one category are one (the later round's announcement named
    the hand's category, so the earlier combination it still held *was* that one:
    :func:`_with_kept`), and those with the fewest unrevealed ranks come first
    (:func:`_unrevealed`), so that an unrevealed group finds the cards already chosen (a
    revealed pair of queens, then two pair with aces on top: the queens are the other
    pair)."""
    if len(kept) > 1:
        latest = max(kept, key=lambda c: c.round)
        merged, earlier = _with_kept(latest, [c for c in kept if c is not latest])
        kept = [merged, *earlier]
    return sorted(kept, key=lambda c: (_unrevealed(c), -int(c.category)))


def _kept_core(
    available: int, fixed: Sequence[int], combinations: Sequence[Claim], rng: random.Random
) -> list[int] | None:
    """The cards of the protected ``combinations`` (R-EX-4; as :func:`_combinations` orders
    them), added to ``fixed`` from ``available``: each combination's groups of equal ranks
    (a revealed rank where known, else one drawn by :func:`_pick_rank`), or all five cards
    of a five-card combination. None if they do not fit in five cards."""
    chosen = set(fixed)
    for claim in combinations:
        groups = _GROUPS.get(claim.category)
        if groups is None or claim.category is Category.FULL_HOUSE:
            core = _propose(available & ~_mask(chosen), sorted(chosen), claim, rng)
            if core is None or len(core) > 5:
                return None
            chosen = set(core)
            continue
        used: list[int] = []
        for index, size in enumerate(groups):
            held_mask = _mask(chosen)
            if index < len(claim.stages):
                rank = claim.stages[index]
            else:
                options = [
                    r for r in range(2, 15)
                    if r not in used and ((held_mask | available) & _RANK_BITS[r]).bit_count()
                    >= size
                ]
                if not options:
                    return None
                rank = _pick_rank(options, chosen, available, size, rng)
            used.append(rank)
            missing = size - (held_mask & _RANK_BITS[rank]).bit_count()
            if missing > 0:
                free = _bits(available & _RANK_BITS[rank] & ~held_mask)
                if len(free) < missing:
                    return None
                chosen.update(rng.sample(free, missing))
    if len(chosen) > 5:
        return None
    return sorted(chosen)


def _unrevealed(claim: Claim) -> int:
    """How many of a combination's defining ranks the tie-break left unrevealed: its groups
    of equal ranks without a stage, or 1 for a straight or a flush with no stage."""
    groups = _GROUPS.get(claim.category)
    if groups is None:
        return 0 if claim.stages else 1
    return max(0, len(groups) - len(claim.stages))


def _mask(cards: Sequence[int] | set[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def kept_cards(cards: Sequence[int], claim: Claim, rules: Rules) -> list[int] | None:
    """The cards of ``cards`` (five, held plus played) that make the protected combination
    ``claim`` (R-EX-4: the pair, both pairs, the trips, the four, or all five), or None if
    they do not hold it; an unrevealed group is the highest rank that has enough cards."""
    groups = _GROUPS.get(claim.category)
    if groups is None or claim.category is Category.FULL_HOUSE:
        value = evaluate([Card(c) for c in cards], rules)
        if value.category != claim.category or value.ranks[: len(claim.stages)] != claim.stages:
            return None
        return list(cards)
    by_rank: dict[int, list[int]] = {}
    for c in cards:
        by_rank.setdefault(_rank(c), []).append(c)
    out: list[int] = []
    used: list[int] = []
    for index, size in enumerate(groups):
        if index < len(claim.stages):
            rank = claim.stages[index]
            if rank in used or len(by_rank.get(rank, ())) < size:
                return None
        else:
            options = [r for r in range(14, 1, -1)
                       if r not in used and len(by_rank.get(r, ())) >= size]
            if not options:
                return None
            rank = options[0]
        used.append(rank)
        out.extend(sorted(by_rank[rank])[:size])
    return out


def holds_kept(cards: Sequence[int], claim: Claim, rules: Rules) -> bool:
    """Whether the five ``cards`` (held plus played) contain the protected combination
    ``claim`` (see :attr:`~chicago.engine.knowledge.Opponent.kept`)."""
    return kept_cards(cards, claim, rules) is not None


def _order(k: Knowledge) -> list[Opponent]:
    """Opponents, most constrained first (the order of the quick tries)."""
    def weight(opp: Opponent) -> tuple[int, int, int, int]:
        return (
            0 if opp.claim is not None else 1,
            0 if opp.shown and opp.kept_from_shown is not None else 1,
            -opp.voids.bit_count(),
            opp.seat,
        )
    return sorted(k.opponents.values(), key=weight)


def _orders(k: Knowledge) -> list[list[Opponent]]:
    """The orders of the thorough tries: :func:`_order` first, then every other order of the
    opponents bound by a claim, a protected combination or a shown hand (the others after
    them as before). Built one after another, an earlier hand can take cards that a later
    one must hold: a claimed full house dealt tens full leaves too few tens for another
    player's protected pair of tens (R-ANN-1, R-EX-4), while the other order fits."""
    first = _order(k)
    bound = [opp for opp in first
             if opp.claim is not None or opp.kept
             or (opp.shown and opp.kept_from_shown is not None)]
    free = [opp for opp in first if all(opp.seat != b.seat for b in bound)]
    orders = [first]
    for head in itertools.permutations(bound):
        order = [*head, *free]
        if [opp.seat for opp in order] != [opp.seat for opp in first]:
            orders.append(order)
    return orders


def void_mask(voids: int) -> int:
    """The mask of every card of the suits set in ``voids`` (bit ``s`` for suit ``s``)."""
    mask = 0
    for s in range(4):
        if voids >> s & 1:
            mask |= _SUIT_BITS[s]
    return mask


def _try_sample(
    k: Knowledge, rng: random.Random, strict: int, weight: Weight | None = None,
    thorough: bool = False, proposals: int = 0, order: Sequence[Opponent] | None = None,
) -> list[int] | None:
    """One sample; ``strict`` 2 keeps every constraint, 1 drops claims and shows, 0 voids too;
    ``weight``: an opponent's freely drawn cards are redrawn until accepted with the chance
    ``weight`` gives (at most a few times), or with ``proposals`` > 1 chosen among that many
    draws in proportion to ``weight`` (:func:`_resample`); ``thorough``: a claim made after
    a shown hand is built on each possible choice of the shown cards kept in turn
    (:func:`_claimed_from_shown`) instead of being checked afterwards; ``order``: the
    order the opponents' hands are built in (:func:`_order` if None)."""
    pool = 0
    for card in k.unseen:
        pool |= 1 << card
    for opp in k.opponents.values():
        pool &= ~opp.known
    hands = [0] * k.players
    hands[k.seat] = k.hand_mask
    for opp in _order(k) if order is None else order:
        known = opp.known
        need = opp.holding - known.bit_count()
        allowed = pool & ~void_mask(opp.voids) if strict >= 1 else pool
        hidden: list[int] | None = None
        whole = opp.holding + len(opp.played) == 5
        kept = opp.kept if strict >= 2 and whole else ()
        if strict >= 2 and opp.claim is not None and whole:
            fixed = [*map(int, opp.played), *_bits(known)]
            claim, earlier = _with_kept(opp.claim, kept)
            from_shown = bool(opp.shown) and opp.kept_from_shown is not None
            if thorough and from_shown:
                hidden = _claimed_from_shown(allowed, fixed, need, claim, opp, k.rules, rng,
                                             earlier)
                if hidden is None:
                    return None
                pool &= ~_mask([int(c) for c in opp.shown])  # the others were discarded
            else:
                hidden = _claimed_hidden(allowed, fixed, need, claim, k.rules, rng, earlier)
            if hidden is None:
                return None
            if from_shown and not thorough:
                held = set(hidden) | set(fixed)
                if sum(1 for c in opp.shown if c in held) != opp.kept_from_shown:
                    return None
        elif strict >= 2 and opp.shown and opp.kept_from_shown is not None:
            shown = [int(c) for c in opp.shown]
            kept_played = [c for c in shown if c in opp.played]
            candidates = [c for c in shown if allowed >> c & 1 and not known >> c & 1]
            keep = opp.kept_from_shown - len(kept_played) - sum(
                1 for c in shown if known >> c & 1
            )
            if keep < 0 or keep > len(candidates) or keep > need:
                return None
            hidden = rng.sample(candidates, keep)
            for c in shown:
                pool &= ~(1 << c)  # the shown cards not kept went to the discard pile
            allowed &= pool
            rest = _bits(allowed & ~sum(1 << c for c in hidden))
            if need - keep > len(rest):
                return None
            hidden += rng.sample(rest, need - keep)
        else:
            cards = _bits(allowed)
            fixed = [*map(int, opp.played), *_bits(known)]
            hidden = _free_hidden(cards, allowed, fixed, need, kept, rng)
            if hidden is None:
                return None
            if weight is not None and proposals > 1:
                draw = functools.partial(_free_hidden, cards, allowed, fixed, need, kept, rng)
                hidden = _resample(k, opp, hidden, fixed, proposals, weight, rng, draw)
            elif weight is not None and not opp.locked and opp.exchanges:
                for _ in range(_WEIGHT_TRIES):
                    if rng.random() < weight(k, opp, fixed + hidden):
                        break
                    hidden = _free_hidden(cards, allowed, fixed, need, kept, rng) or hidden
        mask = known
        for c in hidden:
            mask |= 1 << c
        pool &= ~mask
        hands[opp.seat] = mask
    return hands


def _claimed_from_shown(
    allowed: int, fixed: list[int], need: int, claim: Claim, opp: Opponent, rules: Rules,
    rng: random.Random, kept: Sequence[Claim] = (),
) -> list[int] | None:
    """``need`` hidden cards for a player that showed its hand, exchanged, and then claimed
    ``claim``: exactly ``opp.kept_from_shown`` of the shown cards (those played or known
    count), the rest drawn from ``allowed`` without the other shown cards, making the claim.
    Each choice of the kept shown cards is tried in a random order; None if none works."""
    shown = [int(c) for c in opp.shown]
    assert opp.kept_from_shown is not None
    keep = opp.kept_from_shown - sum(1 for c in shown if c in fixed)
    candidates = [c for c in shown if allowed >> c & 1 and c not in fixed]
    if keep < 0 or keep > len(candidates) or keep > need:
        return None
    rest = allowed & ~_mask(shown)
    choices = list(itertools.combinations(candidates, keep))
    rng.shuffle(choices)
    for choice in choices:
        base = [*fixed, *choice]
        hidden = _claimed_hidden(rest, base, need - keep, claim, rules, rng, kept)
        if hidden is not None:
            return [*choice, *hidden]
    return None


def _free_hidden(
    cards: list[int], allowed: int, fixed: list[int], need: int, kept: Sequence[Claim],
    rng: random.Random,
) -> list[int] | None:
    """``need`` hidden cards from ``cards``: the protected combinations ``kept`` first
    (:func:`_kept_core`), the rest at random; None if they cannot be had."""
    extra: list[int] = []
    combinations = _combinations(kept)
    for _ in range(_CLAIM_TRIES if kept else 0):
        core = _kept_core(allowed, fixed, combinations, rng)
        if core is not None and len(core) - len(fixed) <= need:
            extra = [c for c in core if c not in fixed]
            break
    else:
        if kept:
            return None
    rest = [c for c in cards if c not in extra]
    if need - len(extra) > len(rest):
        return None
    return extra + rng.sample(rest, need - len(extra))


def _resample(
    k: Knowledge, opp: Opponent, first: list[int], fixed: list[int], proposals: int,
    weight: Weight, rng: random.Random, draw: Callable[[], list[int] | None],
) -> list[int]:
    """One of ``proposals`` draws of ``opp``'s free cards (``first`` and more from ``draw``),
    chosen with a chance proportional to ``weight`` of the whole hand (sampling-importance-
    resampling: the draws come from the uniform sampler, so the choice follows ``weight``
    times uniform, more closely the more proposals)."""
    candidates = [first]
    weights = [weight(k, opp, fixed + first)]
    for _ in range(proposals - 1):
        hidden = draw()
        if hidden is None:
            break
        candidates.append(hidden)
        weights.append(weight(k, opp, fixed + hidden))
    point = rng.random() * sum(weights)
    for hidden, w in zip(candidates, weights, strict=True):
        point -= w
        if point < 0:
            return hidden
    return candidates[-1]


def sample_hands(
    k: Knowledge, rng: random.Random, *, weight: Weight | None = None, exact: bool = False,
    proposals: int = 0,
) -> list[int]:
    """One determinization: a card mask per seat of the cards each holds now.

    The seat's own hand is its real hand; every other hand is drawn from the cards the seat
    has not seen, consistent with the public information (see the module docstring). With
    a ``weight``, an opponent's hand that is not fixed by a claim or a shown hand is drawn
    in proportion to how plausible it is after its latest exchange (the bots'
    ``chicago.bots.plausibility.hand_weight``: players keep pairs, draws and high cards), by
    rejection.

    With ``proposals`` > 1 the weighting is by resampling instead: each such hand is chosen
    among that many uniform draws with a chance proportional to ``weight`` (any positive
    number then; the ``master`` bot's learned model, :mod:`chicago.bots.handmodel`).

    A sample that keeps every constraint is looked for first, the quick way, then the
    thorough way; both build the bound opponents' hands in each order in turn (the first
    quick try in :func:`_order`'s), so that one hand built first cannot keep taking the
    cards another needs (two claimed flushes in one suit: the ace-high one, built first,
    takes the nine or ten the jack-high one must hold). Only if both fail is the softest
    constraint dropped. With ``exact`` no
    constraint is ever dropped: if no fitting deal is found,
    :class:`~chicago.engine.errors.WorldError` is raised (the worlds that the engine plays
    on, :func:`chicago.engine.worlds.sample_world`, must fit every announcement).
    """
    if exact:
        every = _orders(k)
        for attempt in range(_EXACT_TRIES):
            hands = _try_sample(k, rng, 2, weight, thorough=True, proposals=proposals,
                                order=every[attempt % len(every)])
            if hands is not None:
                return hands
        raise WorldError(f"no deal of the hidden cards fits what seat {k.seat} knows")
    orders: list[list[Opponent]] | None = None
    for strict in (2, 1, 0):
        for attempt in range(_SAMPLE_TRIES if strict else 1):
            order: list[Opponent] | None = None
            if strict == 2 and attempt:
                if orders is None:
                    orders = _orders(k)
                order = orders[attempt % len(orders)]
            hands = _try_sample(k, rng, strict, weight, proposals=proposals, order=order)
            if hands is not None:
                return hands
        if strict == 2:
            if orders is None:
                orders = _orders(k)
            for attempt in range(_SAMPLE_TRIES):
                hands = _try_sample(k, rng, 2, weight, thorough=True, proposals=proposals,
                                    order=orders[attempt % len(orders)])
                if hands is not None:
                    return hands
    raise ValueError("no deal of the hidden cards fits what this seat knows")


def sample_many(k: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
    """``count`` independent determinizations (see :func:`sample_hands`)."""
    return [sample_hands(k, rng) for _ in range(count)]


def consistent(k: Knowledge, hands: Sequence[int]) -> list[str]:
    """The ways a deal of hands breaks what the seat knows (empty when it fits): for tests."""
    problems: list[str] = []
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & seen:
            problems.append(f"seat {seat} holds a card held twice")
        seen |= hand
    if hands[k.seat] != k.hand_mask:
        problems.append("own hand differs")
    for opp in k.opponents.values():
        problems += hand_problems(k, opp, hands[opp.seat])
    return problems


def hand_problems(k: Knowledge, opp: Opponent, hand: int) -> list[str]:
    """The ways ``hand`` (the mask of the cards ``opp`` holds now) breaks what the seat of
    ``k`` knows of that opponent (empty when it fits): its size, the dead cards, its voids
    (R-TRICK-2), its known one-up card, its claim (R-ANN-1), its protected combinations
    (R-EX-4) and the cards it kept of a shown hand."""
    problems: list[str] = []
    if hand.bit_count() != opp.holding:
        problems.append(f"seat {opp.seat} holds {hand.bit_count()} cards, not {opp.holding}")
    if hand & k.dead:
        problems.append(f"seat {opp.seat} holds a dead card")
    if hand & void_mask(opp.voids):
        problems.append(f"seat {opp.seat} holds a card of a suit it showed void")
    if opp.known & ~hand:
        problems.append(f"seat {opp.seat} lacks its known one-up card")
    if opp.claim is not None and opp.holding + len(opp.played) == 5:
        cards = [*map(int, opp.played), *_bits(hand)]
        if not _matches(cards, opp.claim, k.rules):
            problems.append(f"seat {opp.seat} does not hold its claim {opp.claim}")
    if opp.holding + len(opp.played) == 5:
        cards = [*map(int, opp.played), *_bits(hand)]
        for claim in opp.kept:
            if not holds_kept(cards, claim, k.rules):
                problems.append(f"seat {opp.seat} lacks its protected {claim}")
    if opp.shown and opp.kept_from_shown is not None:
        held = sum(1 for c in opp.shown if hand >> c & 1 or c in opp.played)
        if held != opp.kept_from_shown:
            problems.append(f"seat {opp.seat} keeps {held} shown cards, not "
                            f"{opp.kept_from_shown}")
    return problems
