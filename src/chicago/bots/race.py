"""The score situation: a player's chance to win the game from the scores (R-END-1, R-EX-5).

The ``master`` bot values what a deal brings by how it changes its chance of winning the
game, not by points alone: a point is worth more to a player about to reach the target than
to one far behind, crossing the lock (46 in pagat) costs the exchanges of every later deal,
and reaching the target with fewer points than another player who reaches it in the same
deal wins nothing.

The chance comes from a race model. Each player gains points deal by deal, independently,
by a distribution measured from self-play (:data:`DEAL_POINTS`: points per deal of four
``ev`` players in pagat, apart for locked players, who gain far less). From that,
:class:`Race` computes once per rule set, for every score, the chance to have reached the
target within ``t`` deals; a player wins if it gets there first (on the same deal as ``j``
rivals, one time in ``j + 1``). Scores are taken to the whole point. At the end of the
game (someone at the target) the chance is the plain result: 1 for the top score, shared on
a tie, else 0.

>>> race = Race(52, 46)
>>> race.win_chance([51, 10, 10, 10], 0) > 0.5 > race.win_chance([10, 51, 10, 10], 0)
True
>>> race.win_chance([52, 40, 20, 0], 0)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

__all__ = ["DEAL_POINTS", "HORIZON", "Race", "race_for"]

DEAL_POINTS: dict[bool, tuple[tuple[int, float], ...]] = {
    False: (
        (-15, 0.0015), (0, 0.4465), (1, 0.0369), (2, 0.0465), (3, 0.0287), (4, 0.0312),
        (5, 0.1653), (6, 0.0545), (7, 0.0267), (8, 0.0192), (9, 0.0364), (10, 0.0229),
        (11, 0.0151), (12, 0.0167), (13, 0.0031), (14, 0.0131), (15, 0.0158), (16, 0.0006),
        (17, 0.0051), (18, 0.0078), (19, 0.0012), (20, 0.0023), (21, 0.0008), (22, 0.0003),
        (23, 0.0011), (24, 0.0008),
    ),
    True: (
        (0, 0.7636), (1, 0.0239), (2, 0.0152), (3, 0.0239), (4, 0.0043), (5, 0.1085),
        (6, 0.0108), (7, 0.0130), (8, 0.0043), (9, 0.0152), (11, 0.0043), (12, 0.0065),
        (14, 0.0022), (15, 0.0022), (21, 0.0022),
    ),
}
"""Points a player gains in one deal and their chance, for an unlocked and a locked player:
measured on 150 games of four ``ev`` players in pagat (6,511 deals of unlocked players,
3.57 points on average, a failed Chicago's loss counted as -15 and 24 or more as 24; 461
deals of locked players, 1.25 points on average: the lock costs most of a player's
points)."""
HORIZON = 100
"""Deals looked ahead (a game that lasts longer is as good as never won)."""


class Race:
    """Chances to win the race to ``target`` with a lock at ``lock`` (None: no lock)."""

    def __init__(self, target: int, lock: int | None) -> None:
        self.target = target
        self.lock = lock
        # reach[s][t]: the chance that a player at score s has reached the target within t
        # deals (reach[s][0] = 0 below the target)
        reach = [[0.0] * (HORIZON + 1) for _ in range(target)]
        for t in range(1, HORIZON + 1):
            for s in range(target):
                locked = lock is not None and s >= lock
                total = 0.0
                for points, chance in DEAL_POINTS[locked]:
                    after = s + points
                    total += chance * (1.0 if after >= target else reach[max(0, after)][t - 1])
                reach[s][t] = total
        self._reach = reach
        self._memo: dict[int, tuple[tuple[float, ...], tuple[float, ...]]] = {}
        self._chances: dict[tuple[int, ...], float] = {}

    def _first(self, score: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(the chance to reach the target first at deal t, the chance not to have reached it
        by deal t), for t = 0 … HORIZON, from ``score`` (memoized)."""
        known = self._memo.get(score)
        if known is None:
            reach = self._reach[min(self.target - 1, max(0, score))]
            first = (0.0, *(reach[t] - reach[t - 1] for t in range(1, HORIZON + 1)))
            known = self._memo[score] = (first, tuple(1.0 - r for r in reach))
        return known

    def win_chance(self, scores: Sequence[float], seat: int) -> float:
        """The chance that ``seat`` wins the game from ``scores`` at the start of a deal
        (scores are rounded to whole points; answers are memoized)."""
        whole = tuple(round(score) for score in scores)
        key = (*whole, seat)
        known = self._chances.get(key)
        if known is None:
            if len(self._chances) >= _MEMO:
                self._chances.clear()
            known = self._chances[key] = self._win_chance(whole, seat)
        return known

    def _win_chance(self, scores: tuple[int, ...], seat: int) -> float:
        top = max(scores)
        if top >= self.target:
            tops = [s for s, score in enumerate(scores) if score == top]
            return 1.0 / len(tops) if seat in tops else 0.0
        mine, _ = self._first(scores[seat])
        rivals = [self._first(score) for s, score in enumerate(scores) if s != seat]
        total = 0.0
        for t in range(1, HORIZON + 1):
            if mine[t] < 1e-12:
                continue
            # The chance that no rival got there before deal t, each of the j that get there
            # on deal t too as likely as the seat to end on top: the mean of 1 / (j + 1),
            # which is the integral over [0, 1] of the product of (behind + first * x) —
            # exact by three-point Gauss-Legendre for up to five rivals.
            share = 0.0
            for node, weight in _GAUSS:
                product = weight
                for first, behind in rivals:
                    product *= behind[t] + first[t] * node
                share += product
            total += mine[t] * share
        return total


_GAUSS = tuple(
    (0.5 + 0.5 * x, 0.5 * w)
    for x, w in ((-0.7745966692414834, 5 / 9), (0.0, 8 / 9), (0.7745966692414834, 5 / 9))
)
"""Gauss-Legendre nodes and weights on [0, 1] (exact for polynomials up to degree five)."""
_MEMO = 200_000
"""Answers kept per race before the memo starts again."""


@cache
def race_for(target: int, lock: int | None) -> Race:
    """The race of a rule set's target and lock (computed once)."""
    return Race(target, lock)
