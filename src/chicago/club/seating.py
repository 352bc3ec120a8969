"""Who sits with whom in a tournament round.

Round one is drawn at random from the tournament's seed (:func:`random_tables`). Later
rounds follow the standings (:func:`standings_tables`): the best placed entrant not yet
seated opens the next table, and the others are taken in standings order, so that entrants
close in the standings meet, except where that would repeat a meeting. Among all seatings
the one chosen has the fewest repeated meetings (pairs of entrants who already shared a
table, counted once per earlier meeting), and among those the one closest to the standings
order (the first found by a search that tries, table by table, the groups nearest the
standings first). The search is exact for club-sized fields; it stops after ``budget``
tried groups and keeps the best seating found so far (always a complete one: the very
first group tried at each table is the standings order itself).

>>> standings_tables(["a", "b", "c", "d"], 2, {})
[['a', 'b'], ['c', 'd']]
>>> standings_tables(["a", "b", "c", "d"], 2, {frozenset("ab"): 1})
[['a', 'c'], ['b', 'd']]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

__all__ = ["DEFAULT_BUDGET", "Meetings", "meetings", "random_tables", "repeats",
           "standings_tables"]

Meetings = Mapping[frozenset[str], int]
"""How many times each pair of entrants already shared a table."""

DEFAULT_BUDGET = 200_000
"""Groups the seating search tries at most before it keeps its best seating."""


def random_tables(entrants: Sequence[str], size: int, rng: random.Random) -> list[list[str]]:
    """Tables of ``size`` in a random order drawn from ``rng``."""
    _check(entrants, size)
    order = list(entrants)
    rng.shuffle(order)
    return [order[i:i + size] for i in range(0, len(order), size)]


def meetings(tables: Sequence[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """The meetings of earlier rounds' tables (one list of tables per round)."""
    met: dict[frozenset[str], int] = {}
    for round_tables in tables:
        for table in round_tables:
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return met


def repeats(tables: Sequence[Sequence[str]], met: Meetings) -> int:
    """The repeated meetings of a seating: earlier meetings of every pair at each table."""
    return sum(met.get(frozenset((a, b)), 0)
               for table in tables for a, b in itertools.combinations(table, 2))


def standings_tables(order: Sequence[str], size: int, met: Meetings,
                     budget: int = DEFAULT_BUDGET) -> list[list[str]]:
    """Tables of ``size`` for entrants in standings order (best first): the fewest repeated
    meetings, then the closest to the standings order (see the module docstring)."""
    _check(order, size)
    best: list[list[str]] | None = None
    best_cost = -1
    tried = 0

    def cost_of(group: Sequence[str]) -> int:
        return sum(met.get(frozenset((a, b)), 0) for a, b in itertools.combinations(group, 2))

    def search(left: list[str], tables: list[list[str]], cost: int) -> bool:
        """Depth first; True once a seating without repeats is found (nothing beats it)."""
        nonlocal best, best_cost, tried
        if not left:
            if best is None or cost < best_cost:
                best, best_cost = [list(t) for t in tables], cost
            return cost == 0
        head, rest = left[0], left[1:]
        for others in itertools.combinations(rest, size - 1):
            if best is not None and tried >= budget:
                return True
            tried += 1
            group = [head, *others]
            group_cost = cost + cost_of(group)
            if best is not None and group_cost >= best_cost:
                continue
            chosen = set(others)
            tables.append(group)
            done = search([e for e in rest if e not in chosen], tables, group_cost)
            tables.pop()
            if done:
                return True
        return False

    search(list(order), [], 0)
    assert best is not None
    return best


def _check(entrants: Sequence[str], size: int) -> None:
    if size < 2:
        raise ValueError(f"a table has at least 2 seats, not {size}")
    if not entrants or len(entrants) % size:
        raise ValueError(f"{len(entrants)} entrants do not fill tables of {size}")
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
