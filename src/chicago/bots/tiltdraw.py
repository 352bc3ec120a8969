"""Dealing the hidden cards from the tilted law directly (``master:tilt=X;tiltdraw=1``,
issue 30).

``master:tilt=X`` (:mod:`chicago.bots.ranktilt`) reweighs a dealt pool by each opponent's
per-rank factor ``exp(X × Σ L[rank])``; the pool's few heavy worlds then fill the search
(docs/BOTS.md, "How good the worlds are, card by card"). Here the pool is *dealt* from that
law instead, so every world is a deal of its own and the weights left to apply (the
plausibility of each hand and the likelihood of the cards played) are the pool's usual ones.

**The free opponents, exactly.** The hidden cards — those the seat has not seen, less
every opponent's known one-up card — go each to one *place* (an opponent's hand, with
weight ``exp(log factor)`` of that card for it, 0 in a suit it showed void, R-TRICK-2) or
*nowhere* (the stock, the discards and the hands the engine builds, weight 1), each place
taking exactly the cards it is missing. An opponent that showed its hand (R-EX-4) is two
places: the shown cards it kept (exactly their known count; no other opponent holds a
shown card, kept or discarded) and its other cards. One that keeps a protected
combination of a revealed rank (R-EX-4) has a place more per such rank, the cards of it
that it must hold. The law of an assignment is the product of its weights;
:class:`TiltDrawer` works out, once per decision, the sum of that product over every
completion of each suffix of the cards for every count each place still takes (at most a
few hundred counts per card), and then deals a world card by card, each card's place drawn
with chances proportional to its weight there times the table's sum for what is left: an
exact draw from the tilted law, a few dozen random numbers a world. A hand holding more
cards of a protected rank than it must is reached once per choice of the required ones:
its weight is divided by that count. A protected combination of an unrevealed rank is a
latent choice: each choice of the ranks (:func:`_requirements`) has a table of its own,
with those ranks as places; a world's table is drawn with chances proportional to its sum,
and its hands are weighed down by the ways *every* table reaches them (a hand holding two
candidate pairs is reached by both tables), so the weighted draw is exact again, with no
draw redone. Where those tables would be too large (:data:`_WORK`), or the opponent showed
its hand, the rank is kept by rejection instead (the draw redone until every such opponent
holds it: also exact).

**The constrained opponents** (a claim that still holds, R-ANN-1; a protected straight,
flush or full house, R-EX-4) are then dealt by the engine's own sampler
(:func:`~chicago.engine.sampling.sample_hands`) from the cards left *nowhere*: the others'
dealt cards are handed to it as cards they are known to hold. Their tilt is not in the
draw; it is an importance weight (:meth:`TiltDrawer.deal`'s second value). Every such world
is checked with :func:`~chicago.engine.sampling.consistent`; where the constrained hands
cannot be built from what is left, the cards are dealt again (a few times), and failing
that (or where no assignment fits) the world is the engine's own deal with the whole tilt
as its weight. Where no hand of a claim made of groups can be filled from what is left
(:func:`buildable`, by the counts of each rank), the engine is not asked: that is a failed
build all the same, without its few thousand tries.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Mapping, Sequence

from chicago.cards import Card, ids_of_mask, mask_of
from chicago.engine.knowledge import Knowledge, Opponent
from chicago.engine.sampling import consistent, holds_kept, sample_hands, void_mask
from chicago.poker import Category, evaluate
from chicago.rules import Rules

__all__ = ["TiltDrawer", "buildable", "constrained"]

_REDEALS = 4
"""Deals of the free cards tried before a world falls back to the engine's deal where the
constrained opponents' hands cannot be built from what is left."""
_TABLES = 200
"""The most tables of a draw (one per choice of the opponents' unrevealed protected ranks,
:class:`TiltDrawer`); beyond it those ranks are kept by rejection."""
_WORK = 50_000
"""The most cells (states times cards, summed over the tables) the tables of a mixture
over unrevealed protected ranks may take; beyond it those ranks are kept by rejection,
which costs less there (docs/BOTS.md, "Cutting the tail")."""
_KEPT_TRIES = 24
"""Draws of the free cards tried, per deal, for one whose opponents with protected
combinations hold them (:meth:`TiltDrawer.deal`)."""


_GROUPS: dict[Category, tuple[int, ...]] = {
    Category.PAIR: (2,),
    Category.TWO_PAIR: (2, 2),
    Category.THREE_OF_A_KIND: (3,),
    Category.FOUR_OF_A_KIND: (4,),
}
"""The groups of equal ranks a protected combination keeps (R-EX-4); the others keep all
five cards."""


def constrained(opp: Opponent) -> bool:
    """Whether ``opp``'s hand is left to the engine's sampler, which builds it from its
    constraint (its whole hand of the deal in view): a claim that still holds (R-ANN-1),
    or a protected combination of five cards (a straight, flush or full house, R-EX-4)."""
    whole = opp.holding + len(opp.played) == 5
    return whole and (opp.claim is not None
                      or any(c.category not in _GROUPS for c in opp.kept))


_CLAIM_GROUPS = {**_GROUPS, Category.FULL_HOUSE: (3, 2)}
"""The groups of equal ranks a claimed category holds."""
_FAILURES = 8
"""Worlds whose constrained hands the engine could not build from what the draw left, after
which the drawer deals the rest of its worlds as the engine does (:meth:`TiltDrawer.deal`)."""


_PATTERNS: dict[Category, tuple[int, ...]] = {
    Category.PAIR: (2, 1, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4, 1),
}
"""The counts of equal ranks in a hand of each category made of groups (no straight or
flush can hold two cards of a rank, so these counts alone make the category)."""


def buildable(opp: Opponent, have: int, allowed: int, rules: Rules) -> bool:
    """Whether ``opp``, a constrained opponent (:func:`constrained`) holding the cards of
    ``have`` (with those it played), could fill its hand from ``allowed`` and hold its
    claim (R-ANN-1) and its protected combinations (R-EX-4): exact for the claims of a
    category made of groups (a pair … four of a kind, a full house), by the counts of each
    rank; True, not judged, for a claimed straight or flush (and where the shown cards kept
    would be the only obstacle: they are not checked). False means no hand fits, so the
    engine's sampler cannot build one (:meth:`TiltDrawer.deal` then skips its call)."""
    category = opp.claim.category if opp.claim is not None else None
    for claim in opp.kept:
        if claim.category not in _GROUPS:
            if category is not None and category is not claim.category:
                return True  # the engine's to judge
            category = claim.category
    pattern = _PATTERNS.get(category) if category is not None else None
    if pattern is None:
        return True
    fixed = [*map(int, opp.played), *ids_of_mask(have)]
    need = 5 - len(fixed)
    if need < 0:
        return False
    held = [0] * 15
    for card in fixed:
        held[(card >> 2) + 2] += 1
    spare = [0] * 15
    pick: list[list[int]] = [[] for _ in range(15)]
    for card in ids_of_mask(allowed & ~have):
        spare[(card >> 2) + 2] += 1
        pick[(card >> 2) + 2].append(card)
    left = list(pattern)
    chosen: list[int] = []

    def fits() -> bool:
        cards = fixed + chosen
        if opp.claim is not None:
            value = evaluate([Card(c) for c in cards], rules)
            stages = opp.claim.stages
            if value.category != opp.claim.category or value.ranks[: len(stages)] != stages:
                return False
        return all(holds_kept(cards, claim, rules) for claim in opp.kept)

    def walk(rank: int, extra: int) -> bool:
        if rank < 2:
            return extra == 0 and not left and fits()
        for take in range(min(spare[rank], extra), -1, -1):
            count = held[rank] + take
            if count and count not in left:
                continue
            if count:
                left.remove(count)
            chosen.extend(pick[rank][:take])
            found = walk(rank - 1, extra - take)
            del chosen[len(chosen) - take:]
            if count:
                left.append(count)
            if found:
                return True
        return False

    return walk(14, need)


def _cores(opp: Opponent) -> dict[int, int]:
    """The revealed ranks of ``opp``'s protected combinations (R-EX-4) or, for a player the
    engine builds, of its claim (R-ANN-1), and how many cards of each it must hold still
    among its hidden cards (those played or known count)."""
    if opp.holding + len(opp.played) != 5:
        return {}
    need: dict[int, int] = {}
    if constrained(opp):
        if opp.claim is not None and not _shows(opp):
            groups = _CLAIM_GROUPS.get(opp.claim.category, ())
            for size, value in zip(groups, opp.claim.stages, strict=False):
                need[value] = size
    else:
        for claim in opp.kept:
            groups = _GROUPS.get(claim.category, ())
            for size, value in zip(groups, claim.stages, strict=False):
                need[value] = max(need.get(value, 0), size)
    out = {}
    for value, size in need.items():
        bits = 0xF << ((value - 2) * 4)
        missing = size - ((mask_of(opp.played) | opp.known) & bits).bit_count()
        if missing > 0:
            out[value] = missing
    return out


def _keeps(opp: Opponent) -> bool:
    """Whether ``opp`` must still hold protected combinations (R-EX-4): the drawer deals it
    freely and keeps a draw only where it holds them."""
    return opp.holding + len(opp.played) == 5 and bool(opp.kept)


def _shows(opp: Opponent) -> bool:
    """Whether ``opp`` showed its hand and the count of the shown cards it kept is known."""
    return bool(opp.shown) and opp.kept_from_shown is not None

def _requirements(opp: Opponent) -> list[dict[int, int]]:
    """The alternatives of what a free opponent that keeps protected combinations (R-EX-4)
    must hold: per choice of distinct ranks for each combination's unrevealed groups (the
    revealed ones as they are, the larger count where two ask for one rank), the cards of
    each rank it must hold still among its hidden cards (those played or known count); an
    alternative asking at least what another asks is left out (its hands are the other's
    already). One alternative, :func:`_cores`, where no group is unrevealed."""
    if constrained(opp) or not _keeps(opp):
        return [_cores(opp)]
    held = mask_of(opp.played) | opp.known
    per_claim: list[list[dict[int, int]]] = []
    for claim in opp.kept:
        groups = _GROUPS.get(claim.category, ())
        revealed = dict(zip(claim.stages, groups, strict=False))
        sizes = groups[len(claim.stages):]
        ranks = [r for r in range(2, 15) if r not in revealed]
        picks = []
        for chosen in itertools.combinations(ranks, len(sizes)):
            need = dict(revealed)
            for rank, size in zip(chosen, sizes, strict=True):
                need[rank] = size
            picks.append(need)
        per_claim.append(picks)
    found: dict[frozenset[tuple[int, int]], dict[int, int]] = {}
    for combo in itertools.product(*per_claim):
        need = {}
        for part in combo:
            for rank, size in part.items():
                need[rank] = max(need.get(rank, 0), size)
        missing = {}
        for rank, size in need.items():
            short = size - (held & 0xF << ((rank - 2) * 4)).bit_count()
            if short > 0:
                missing[rank] = short
        found.setdefault(frozenset(missing.items()), missing)
    minimal: list[dict[int, int]] = []
    for option in sorted(found.values(), key=lambda d: (len(d), sum(d.values()))):
        if not any(all(option.get(r, 0) >= m for r, m in other.items()) for other in minimal):
            minimal.append(option)
    return minimal


class _Table:
    """The sums of one draw's law: per suffix of the cards and per count each place still
    takes (mixed radix), the sum of the weights of every way to place the suffix's cards
    (:class:`TiltDrawer`). ``cores``: per place of a rank the opponent must hold, its seat,
    the cards that place may take, and their count."""

    def __init__(self, seats: list[int], caps: list[int], allowed: list[int],
                 cores: list[tuple[int, int, int]], logs: Mapping[int, Sequence[float]],
                 pool: int) -> None:
        self.seats = seats
        self.caps = caps
        self.cores = cores
        tables = [[math.exp(x) for x in logs[seat]] for seat in seats]
        places = range(len(seats))
        cards: list[tuple[int, tuple[float, ...]]] = []
        for card in ids_of_mask(pool):
            weights = tuple(tables[i][card] if allowed[i] >> card & 1 else 0.0
                            for i in places)
            if any(weights):
                cards.append((card, weights))
        # The likeliest to be held first, so the counts run out early.
        cards.sort(key=lambda item: (-max(item[1]), item[0]))
        self.radix = [1] * len(seats)
        for i in range(len(seats) - 2, -1, -1):
            self.radix[i] = self.radix[i + 1] * (caps[i + 1] + 1)
        self.states = (caps[0] + 1) * self.radix[0] if seats else 1
        self.start = sum(cap * r for cap, r in zip(caps, self.radix, strict=True))
        self.table = self._sums(cards)
        self.options = [(card, tuple((i, w, self.radix[i]) for i, w in enumerate(weights) if w))
                        for card, weights in cards]
        """Per card: the places that may take it, with its weight and step there."""
        self.room = [sum(1 << i for i, (r, cap) in enumerate(zip(self.radix, caps,
                                                                   strict=True))
                         if (s // r) % (cap + 1)) for s in range(self.states)]
        """Per count left to each place (mixed radix): the mask of the places with room."""
        ones = self._sums([(card, tuple(1.0 if w else 0.0 for w in weights))
                           for card, weights in cards])
        self.total = self.table[0][self.start]
        """The sum of the weights of every assignment (0: none fits)."""
        self.flat = ones[0][self.start]
        """The number of assignments."""

    def _sums(self, cards: Sequence[tuple[int, tuple[float, ...]]]) -> list[list[float]]:
        """Per suffix of ``cards`` and per count left to each place (mixed radix): the sum
        of the weights of every way to place the suffix's cards."""
        size = self.states
        radix = self.radix
        caps = self.caps
        digits = [[(s // r) % (cap + 1) for r, cap in zip(radix, caps, strict=True)]
                  for s in range(size)]
        after = [0.0] * size
        after[0] = 1.0
        out = [after]
        for _, weights in reversed(cards):
            now = list(after)  # nowhere: the counts left unchanged
            for s in range(size):
                d = digits[s]
                total = now[s]
                for i, w in enumerate(weights):
                    if w and d[i]:
                        total += w * after[s - radix[i]]
                now[s] = total
            out.append(now)
            after = now
        out.reverse()
        return out

    def draw(self, rng: random.Random) -> list[int]:
        """One exact draw of the places' cards (a mask per place)."""
        table = self.table
        room = self.room
        hands = [0] * len(self.seats)
        state = self.start
        for j, (card, options) in enumerate(self.options):
            if not state:
                break
            nxt = table[j + 1]
            point = rng.random() * table[j][state]
            point -= nxt[state]
            if point < 0:
                continue
            open_ = room[state]
            last = -1
            for i, w, step in options:
                if open_ >> i & 1:
                    last = i
                    point -= w * nxt[state - step]
                    if point < 0:
                        hands[i] |= 1 << card
                        state -= step
                        break
            else:  # rounding: the last place that can take it
                hands[last] |= 1 << card
                state -= self.radix[last]
        return hands

    def ways(self, hands: Sequence[int]) -> int:
        """The ways this table's draw reaches these hands (a mask per seat): per place of a
        rank, the choices of its required cards among the hand's cards it may take."""
        out = 1
        for seat, cards, missing in self.cores:
            out *= math.comb((hands[seat] & cards).bit_count(), missing)
        return out


class TiltDrawer:
    """Deals worlds for one seat's view from the tilted law (module docstring).

    ``logs`` maps each opponent's seat to the log factor of each of the 52 cards in its hand
    (:func:`~chicago.bots.ranktilt.seat_log_factors`, with any power folded in).

    Each free opponent is one *place* of the draw; one that showed its hand (R-EX-4) is two:
    the shown cards it kept (exactly their known count) and its other cards (none of the
    shown ones, which it kept or discarded); one that keeps a protected combination has a
    place more per rank it must hold, the cards of that rank it must hold still (its other
    cards may hold more of them: such a hand is reached once per choice of the required
    ones). Where a protected rank was not revealed, each choice of it (:func:`_requirements`)
    has a table of its own (:class:`_Table`); a world's table is drawn with chances
    proportional to its sum, so a hand is drawn in proportion to its weight times the ways
    every table reaches it, and :meth:`deal` weighs it down by those ways."""

    def __init__(self, k: Knowledge, logs: Mapping[int, Sequence[float]]) -> None:
        self.k = k
        self.logs = logs
        opponents = [k.opponents[seat] for seat in sorted(k.opponents)]
        self.free = [opp for opp in opponents if not constrained(opp)]
        self.fixed = [opp for opp in opponents if constrained(opp)]
        self.tries = 0
        """Draws of the free cards so far (for tests and benchmarks)."""
        known = 0
        for opp in opponents:
            known |= opp.known
        pool = mask_of(k.unseen) & ~known
        self.pool = pool
        """The hidden cards of the draw."""
        self.skipped = 0
        """Engine builds skipped because :func:`buildable` found no hand for a constrained
        opponent (each counts as a failure, :data:`_FAILURES`)."""
        self.shown = 0
        for opp in opponents:
            if _shows(opp):
                self.shown |= mask_of(opp.shown)
        self.feasible = True
        """Whether any assignment deals every place its count (and the engine has built
        the constrained hands often enough)."""
        self.failures = 0
        """Worlds whose constrained hands the engine could not build (:data:`_FAILURES`)."""
        alternatives = [_requirements(opp) for opp in self.free]
        self.rejecting: list[Opponent] = []
        """The opponents whose unrevealed protected ranks are kept by rejection (one that
        showed its hand, or all of them where the tables would be more than
        :data:`_TABLES`): :meth:`_kept_hands`."""
        for index, opp in enumerate(self.free):
            if len(alternatives[index]) > 1 and _shows(opp):
                self.rejecting.append(opp)
                alternatives[index] = [_cores(opp)]
        if math.prod(len(a) for a in alternatives) > _TABLES:
            for index, opp in enumerate(self.free):
                if len(alternatives[index]) > 1:
                    self.rejecting.append(opp)
                    alternatives[index] = [_cores(opp)]
        seats = [opp.seat for opp in self.free]
        places = [self._places(dict(zip(seats, choice, strict=True)))
                  for choice in itertools.product(*alternatives)]
        cards = pool.bit_count()
        self.work = sum(math.prod(cap + 1 for cap in place[1]) * cards for place in places)
        """The cells of the tables to build (states times cards)."""
        if len(places) > 1 and self.work > _WORK:
            for index, opp in enumerate(self.free):
                if len(alternatives[index]) > 1:
                    self.rejecting.append(opp)
                    alternatives[index] = [_cores(opp)]
            places = [self._places(dict(zip(seats, alternatives_, strict=True)))
                      for alternatives_ in itertools.product(*alternatives)]
        self.tables: list[_Table] = []
        """The tables of the draw, one per choice of the unrevealed protected ranks that
        some assignment fits (:class:`_Table`)."""
        for place in places:
            if place[4]:
                table = _Table(*place[:4], self.logs, pool)
                if table.total > 0:
                    self.tables.append(table)
        self.feasible = self.feasible and bool(self.tables)
        total = sum(t.total for t in self.tables)
        self.sums = [t.total / total for t in self.tables] if self.feasible else []
        """Each table's share of the draw."""
        self.cumulative = list(itertools.accumulate(self.sums))
        self.scale = total / sum(t.flat for t in self.tables) if self.feasible else 0.0
        """The mean tilt of the free opponents' hands over the unweighted assignments
        (counted once per way a table reaches them): the importance weight of a drawn world
        against an untilted one (:meth:`deal`)."""

    def _places(self, need: Mapping[int, dict[int, int]]) -> tuple[
            list[int], list[int], list[int], list[tuple[int, int, int]], bool]:
        """The places of every opponent, a free one's ranks as ``need`` says (seat → rank →
        the cards of it still to hold): their seats, the cards each takes, the cards each
        may take, the places of a rank (:class:`_Table`), and whether they may fit (not
        where a place of a rank asks more than it may take); :attr:`feasible` False where
        no choice could fit."""
        seats: list[int] = []
        cores: list[tuple[int, int, int]] = []
        caps: list[int] = []
        allowed: list[int] = []
        pool, shown = self.pool, self.shown
        fits = True
        for opp in self.fixed:
            open_ = pool & ~void_mask(opp.voids) & ~shown
            for value, missing in _cores(opp).items():
                bits = 0xF << ((value - 2) * 4)
                if missing > (open_ & bits).bit_count():
                    self.feasible = False
                cores.append((opp.seat, open_ & bits, missing))
                seats.append(opp.seat)
                caps.append(min(missing, (open_ & bits).bit_count()))
                allowed.append(open_ & bits)
        for opp in self.free:
            hidden = opp.holding - opp.known.bit_count()
            open_ = pool & ~void_mask(opp.voids)
            if _shows(opp):
                assert opp.kept_from_shown is not None
                showed = mask_of(opp.shown)
                keep = opp.kept_from_shown - sum(
                    1 for c in opp.shown if c in opp.played or opp.known >> int(c) & 1)
                candidates = open_ & showed
                if keep < 0 or keep > hidden or keep > candidates.bit_count():
                    self.feasible = False
                    keep = max(0, min(keep, hidden))
                seats.append(opp.seat)
                caps.append(keep)
                allowed.append(candidates)
                hidden -= keep
            for value, missing in need[opp.seat].items():
                bits = 0xF << ((value - 2) * 4)
                if missing > hidden or missing > (open_ & ~shown & bits).bit_count():
                    fits = False
                    missing = max(0, min(missing, hidden))
                cores.append((opp.seat, open_ & ~shown & bits, missing))
                seats.append(opp.seat)
                caps.append(missing)
                allowed.append(open_ & ~shown & bits)
                hidden -= missing
            seats.append(opp.seat)
            caps.append(hidden)
            allowed.append(open_ & ~shown)
        if any(cap < 0 or cap > 5 for cap in caps):
            raise ValueError("an opponent's hidden cards must number 0 to 5")
        return seats, caps, allowed, cores, fits

    def _kept_hands(self, rng: random.Random) -> dict[int, int] | None:
        """The free opponents' hidden cards by seat: a table drawn with chances
        proportional to its sum (no draw where there is one), then its cards
        (:meth:`_Table.draw`), drawn again until every opponent of :attr:`rejecting` holds
        its protected combinations (rejection: the draw conditioned on them, still
        exact); None after :data:`_KEPT_TRIES` draws."""
        k = self.k
        tables = self.tables
        for _ in range(_KEPT_TRIES):
            self.tries += 1
            table = tables[0]
            if len(tables) > 1:
                table = rng.choices(tables, cum_weights=self.cumulative)[0]
            dealt: dict[int, int] = {}
            for seat, cards in zip(table.seats, table.draw(rng), strict=True):
                dealt[seat] = dealt.get(seat, 0) | cards
            if all(all(holds_kept([*map(int, opp.played),
                                   *ids_of_mask(opp.known | dealt[opp.seat])], claim, k.rules)
                       for claim in opp.kept)
                   for opp in self.rejecting):
                return dealt
        return None

    def _multiplicity(self, hands: Sequence[int]) -> int:
        """The ways the draw reaches these hands: summed over the tables, per place of a
        rank, the choices of its required cards among the hand's cards of that rank."""
        return sum(table.ways(hands) for table in self.tables)

    @staticmethod
    def _dealt_mask(dealt: Mapping[int, int]) -> int:
        out = 0
        for cards in dealt.values():
            out |= cards
        return out

    def _tilt(self, seat: int, hand: int) -> float:
        table = self.logs[seat]
        return math.exp(sum(table[card] for card in ids_of_mask(hand)))

    def deal(self, rng: random.Random) -> tuple[list[int], float]:
        """One world (a card mask per seat) and its importance weight against the seat's
        untilted law times the tilt: the mean tilt of the free hands (:attr:`scale`)
        times the tilt of the constrained opponents' hands, dealt untilted; for a world
        the engine had to deal alone, the tilt of every opponent's hand."""
        k = self.k
        for _ in range(_REDEALS if self.feasible else 0):
            dealt = self._kept_hands(rng)
            if dealt is None:
                break
            if not self.fixed:
                hands = [0] * k.players
                hands[k.seat] = k.hand_mask
                for opp in self.free:
                    hands[opp.seat] = opp.known | dealt.get(opp.seat, 0)
                return hands, self.scale / self._multiplicity(hands)
            left = self.pool & ~self._dealt_mask(dealt)
            if not all(buildable(opp, opp.known | dealt.get(opp.seat, 0),
                                 left & ~void_mask(opp.voids), k.rules) for opp in self.fixed):
                self.skipped += 1  # the engine could not build them: a failure, skipped
                self.failures += 1
                if self.failures >= _FAILURES:
                    self.feasible = False
                    break
                continue
            opponents = dict(k.opponents)
            for opp in (*self.free, *self.fixed):
                opponents[opp.seat] = dataclasses.replace(
                    opp, known=opp.known | dealt.get(opp.seat, 0))
            try:
                hands = sample_hands(dataclasses.replace(k, opponents=opponents), rng)
            except ValueError:
                hands = []
            if not hands or consistent(k, hands):
                self.failures += 1
                if self.failures >= _FAILURES:
                    self.feasible = False
                    break
                continue
            weight = self.scale / self._multiplicity(hands)
            for opp in self.fixed:
                weight *= self._tilt(opp.seat, hands[opp.seat] & ~dealt.get(opp.seat, 0))
            return hands, weight
        hands = sample_hands(k, rng)
        weight = 1.0
        for seat in k.opponents:
            weight *= self._tilt(seat, hands[seat])
        return hands, weight
