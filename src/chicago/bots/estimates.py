"""Estimates of what the other players hold, for the ``ev`` and ``expert`` bots.

An opponent's poker hand is estimated from what the table saw: how many cards it drew in the
latest exchange round (and in which round), what it announced and revealed, whether it is
locked. The base table gives, for each exchange round and number of cards drawn, how often a
player ends with each category; it was measured from 150 games of ``basic`` self-play (about
20,000 hands), so it models a sensible player. Announcements override it: a player who
announced a category and exchanged nothing since holds exactly that category; one whose
combination R-EX-4 protects (it announced a round's highest category and has not shown its
hand since) holds at least that category.

:func:`win_chances` turns those estimates into the chance that a hand of each category beats
every opponent (:func:`beat_all`). Between equal categories the ranks decide: where an
opponent's defining ranks are known (revealed in a tie-break, :func:`known_stages`) and so
are ours, :func:`same_chance` compares them instead of counting an even chance.
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.engine.knowledge import DEFINING_STAGES, Knowledge, Opponent
from chicago.poker import Category

__all__ = [
    "CATEGORY_TABLE",
    "beat_all",
    "known_stages",
    "opponent_distribution",
    "same_chance",
    "win_chances",
]

_N = len(Category)

CATEGORY_TABLE: dict[tuple[int, int], tuple[float, ...]] = {
    (1, 0): (0.000, 0.000, 0.000, 0.000, 0.521, 0.271, 0.167, 0.042, 0.000, 0.000),
    (1, 1): (0.313, 0.144, 0.383, 0.022, 0.024, 0.078, 0.036, 0.000, 0.000, 0.000),
    (1, 2): (0.000, 0.622, 0.156, 0.200, 0.000, 0.000, 0.016, 0.006, 0.000, 0.000),
    (1, 3): (0.000, 0.707, 0.164, 0.118, 0.000, 0.000, 0.008, 0.004, 0.000, 0.000),
    (1, 4): (0.489, 0.442, 0.046, 0.021, 0.001, 0.000, 0.001, 0.000, 0.000, 0.000),
    (1, 5): (0.520, 0.417, 0.042, 0.015, 0.002, 0.000, 0.002, 0.002, 0.000, 0.000),
    (2, 0): (0.000, 0.000, 0.000, 0.000, 0.234, 0.365, 0.330, 0.071, 0.000, 0.000),
    (2, 1): (0.220, 0.086, 0.499, 0.071, 0.017, 0.046, 0.060, 0.001, 0.001, 0.000),
    (2, 2): (0.000, 0.567, 0.137, 0.264, 0.000, 0.000, 0.021, 0.012, 0.000, 0.000),
    (2, 3): (0.000, 0.716, 0.152, 0.125, 0.000, 0.000, 0.005, 0.002, 0.000, 0.000),
    (2, 4): (0.472, 0.445, 0.057, 0.021, 0.001, 0.002, 0.002, 0.000, 0.000, 0.000),
    (2, 5): (0.565, 0.304, 0.130, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000),
    (3, 0): (0.000, 0.000, 0.000, 0.000, 0.152, 0.309, 0.448, 0.088, 0.003, 0.000),
    (3, 1): (0.106, 0.052, 0.600, 0.135, 0.011, 0.029, 0.063, 0.004, 0.000, 0.000),
    (3, 2): (0.000, 0.557, 0.124, 0.289, 0.000, 0.000, 0.018, 0.011, 0.000, 0.000),
    (3, 3): (0.000, 0.691, 0.163, 0.132, 0.000, 0.000, 0.011, 0.004, 0.000, 0.000),
    (3, 4): (0.511, 0.417, 0.040, 0.020, 0.007, 0.002, 0.002, 0.000, 0.000, 0.000),
    (3, 5): (0.500, 0.420, 0.050, 0.020, 0.005, 0.002, 0.002, 0.001, 0.000, 0.000),
}
"""(exchange round, cards drawn in it) → probability of each category, HIGH_CARD first."""

_DEALT = (0.501, 0.423, 0.0475, 0.0211, 0.0039, 0.0020, 0.0014, 0.0002, 0.0000, 0.0000)
"""Categories of a freshly dealt five-card hand (a locked player's hand, R-EX-5)."""

# How often each number of cards is drawn in a round, to mix the rows when it is unknown.
_DRAW_MIX = (0.02, 0.15, 0.15, 0.35, 0.28, 0.05)

_MIN_COMBINATION = {
    Category.PAIR: 2, Category.TWO_PAIR: 4, Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 5, Category.FLUSH: 5, Category.FULL_HOUSE: 5,
    Category.FOUR_OF_A_KIND: 4, Category.STRAIGHT_FLUSH: 5, Category.ROYAL_FLUSH: 5,
}


def _row(round_: int, drawn: int | None) -> list[float]:
    r = max(1, min(3, round_))
    if drawn is None:
        row = [0.0] * _N
        for d, weight in enumerate(_DRAW_MIX):
            for i, p in enumerate(CATEGORY_TABLE[(r, d)]):
                row[i] += weight * p
        return row
    return list(CATEGORY_TABLE[(r, max(0, min(5, drawn)))])


def opponent_distribution(k: Knowledge, opp: Opponent) -> list[float]:
    """The estimated chance of each category (index = :class:`Category`) of ``opp``'s hand
    after its latest exchange, from what the table showed."""
    if opp.claim is not None:
        dist = [0.0] * _N
        dist[opp.claim.category] = 1.0
        return dist
    if opp.locked or not opp.exchanges:
        return list(_DEALT)
    acted = [c for c in opp.exchanges]
    round_ = len(acted)
    # In the round being played, a seat that has not acted yet shows a 0 that means nothing.
    current = k.phase in ("exchange", "one up") and opp.seat in k.to_speak_after()
    drawn: int | None = acted[-1]
    if current:
        round_ -= 1
        drawn = acted[-2] if len(acted) >= 2 else None
        if round_ == 0:
            return _row(1, None)
    dist = _row(round_, drawn)
    # An announcement followed by a small exchange: the combination was probably kept; a
    # protected one (R-EX-4) surely was, whatever was drawn.
    last = max(opp.announcements, default=0)
    announced = opp.announcements.get(last) if last else None
    floor = max((int(c.category) for c in opp.kept), default=0)
    if announced is not None and drawn is not None and drawn <= 5 - _MIN_COMBINATION[announced]:
        floor = max(floor, int(announced))
    if floor:
        mass = sum(dist[floor:])
        if mass > 0:
            dist = [0.0] * floor + [p / mass for p in dist[floor:]]
        else:
            dist = [0.0] * _N
            dist[floor] = 1.0
    return dist


def known_stages(opp: Opponent, category: int) -> tuple[int, ...]:
    """The tie-break stages (R-ANN-3) of ``opp``'s hand that are known if its hand is of
    ``category``: those of a claim of that category (its revealed ranks), else the defining
    ranks of a protected combination of that category (R-EX-4: a hand that kept a pair of
    kings and is still a pair holds the kings' pair). Empty when nothing is known."""
    claim = opp.claim
    best: tuple[int, ...] = ()
    if claim is not None and int(claim.category) == category:
        best = claim.stages
    for kept in opp.kept:
        if int(kept.category) == category and len(kept.stages) > len(best):
            best = kept.stages[: DEFINING_STAGES[kept.category]]
    return best


def same_chance(mine: Sequence[int], theirs: Sequence[int]) -> float:
    """The chance that a hand beats another of the same category, from the tie-break stages
    known of both: the first known stage where they differ decides (1 or 0); 0.5 if they
    agree as far as both are known."""
    for a, b in zip(mine, theirs, strict=False):
        if a != b:
            return 1.0 if a > b else 0.0
    return 0.5


def beat_all(
    category: int, dists: Sequence[Sequence[float]], same: float | Sequence[float] = 0.5
) -> float:
    """The chance that a hand of ``category`` beats every opponent whose category follows
    ``dists``; an equal category counts as ``same`` (the odds of the ranks: one number, or
    one per opponent)."""
    chance = 1.0
    for i, dist in enumerate(dists):
        even = same if isinstance(same, (int, float)) else same[i]
        chance *= sum(dist[:category]) + even * dist[category]
    return chance


def win_chances(
    k: Knowledge, stages: dict[int, tuple[int, ...]] | None = None
) -> list[float]:
    """For each category, the chance that a hand of it beats all of ``k``'s opponents.

    ``stages`` maps a category to the tie-break stages our hand would have in it, where
    known (a hand kept whole, a pair kept that stays a pair …); against an opponent whose
    ranks in that category are known too, :func:`same_chance` decides equal categories.
    """
    opponents = list(k.opponents.values())
    dists = [opponent_distribution(k, opp) for opp in opponents]
    out = []
    for c in range(_N):
        if not c:
            out.append(0.0)
            continue
        mine = stages.get(c, ()) if stages else ()
        if mine:
            out.append(beat_all(c, dists, [same_chance(mine, known_stages(o, c))
                                           for o in opponents]))
        else:
            out.append(beat_all(c, dists))
    return out
