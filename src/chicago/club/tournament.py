"""Tournaments: entrants, rounds, duplicate deal sequences and standings (pure).

A tournament has a number of tables of one size and a number of rounds. Entrants join
(profiles); when it starts, bots of the organizer's level fill the empty seats
(:func:`fill_with_bots`). Each round seats every entrant at a table (:func:`plan_round`;
:mod:`chicago.club.seating` says how) and plays one game per table.

Duplicate
    In a duplicate tournament every table of a round plays the same deal sequence: the same
    first dealer and, deal by deal, the same deck (:func:`chicago.sim.deal_deck` of the
    round's deck seed), with the stock drawn in per-seat queues as ``chicago simulate``
    does (:class:`chicago.engine.sources.DuplicateDecks`), so the entrants who hold seat *s* at the
    different tables get the same cards, and the same draws as long as they discard alike.
    Without duplicate, each table gets its own seeds.

Standings (:func:`standings`), from the finished games:

- **game points**: in each game, a seat at place *p* (:func:`chicago.engine.settlement.
  finish_places`) of a table of *n* earns ``n - p`` points; seats sharing a place share the
  points of the places they cover (two winners of a four-table game get ``(3 + 2) / 2`` each);
- **duplicate** (duplicate tournaments only): for every deal, each seat is compared with
  the seats that held the same cards (the same seat number) at the other tables of the round
  that played that deal: 1 matchpoint for gaining more points in the deal, ½ for as many,
  0 for fewer. The score is ``100 × matchpoints / comparisons`` (50 is even);
- **score**: the final scores of the games added up; **wins**: games won.

Ties are broken in this order: game points, then the duplicate percentage (duplicate
tournaments), then score, then wins, then who joined first. Entrants equal on everything
but the joining order share a rank.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chicago.club import seating
from chicago.engine.settlement import finish_places
from chicago.sim import derive_seed

__all__ = [
    "Entrant",
    "RoundPlan",
    "Standing",
    "TableResult",
    "TournamentShape",
    "fill_with_bots",
    "game_points",
    "plan_round",
    "standings",
]

@dataclass(frozen=True, slots=True)
class TournamentShape:
    """What the pure model needs of a tournament: its size, rounds, kind and seed."""

    tables: int
    table_size: int
    rounds: int
    duplicate: bool
    seed: int

    def __post_init__(self) -> None:
        if self.tables < 1:
            raise ValueError(f"tables must be at least 1, not {self.tables}")
        if not 2 <= self.table_size <= 6:
            raise ValueError(f"table_size must be 2-6, not {self.table_size}")
        if self.rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {self.rounds}")

    @property
    def seats(self) -> int:
        """Seats in every round: the most entrants the tournament takes."""
        return self.tables * self.table_size


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant: a profile, or a bot that fills a seat."""

    id: str
    """Stable within the tournament (``e1``, ``e2``, … in joining order, bots after)."""
    name: str
    order: int
    """Joining order (0 first); the last tie-break."""
    profile: str | None = None
    level: str | None = None
    """A bot's level (None for a profile)."""

    @property
    def is_bot(self) -> bool:
        """A bot filling a seat."""
        return self.level is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"id": self.id, "name": self.name, "order": self.order,
                "profile": self.profile, "level": self.level,
                "kind": "bot" if self.is_bot else "profile"}


def fill_with_bots(entrants: Sequence[Entrant], shape: TournamentShape,
                   level: str) -> list[Entrant]:
    """The entrants plus bots of ``level`` for every empty seat (ids ``b1``, ``b2`` …),
    joining after every entrant (the joining orders of people may have gaps: some left)."""
    if len(entrants) > shape.seats:
        raise ValueError(f"{len(entrants)} entrants, but the tournament has {shape.seats} "
                         "seats")
    out = list(entrants)
    base = max((e.order for e in entrants), default=-1) + 1
    for number in range(1, shape.seats - len(entrants) + 1):
        out.append(Entrant(f"b{number}", f"{level} {number}", base + number - 1,
                           level=level))
    return out


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round's tables: who sits where, and the seeds of the games."""

    number: int
    """1-based."""
    tables: tuple[tuple[str, ...], ...]
    """Per table, per seat, the entrant id."""
    game_seeds: tuple[int, ...]
    """Per table, the game's seed (first dealer, reshuffles)."""
    deck_seed: int | None
    """Duplicate rounds: the seed of every table's decks; None otherwise."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form (seeds as texts: JavaScript numbers cannot hold 63 bits)."""
        return {"number": self.number, "tables": [list(t) for t in self.tables],
                "game_seeds": [str(s) for s in self.game_seeds],
                "deck_seed": None if self.deck_seed is None else str(self.deck_seed)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundPlan:
        """From :meth:`to_dict`."""
        deck = data.get("deck_seed")
        return cls(int(data["number"]), tuple(tuple(t) for t in data["tables"]),
                   tuple(int(s) for s in data["game_seeds"]),
                   None if deck is None else int(deck))


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished game of a round, as the standings need it."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    deal_points: tuple[tuple[int, ...], ...] = ()
    """Per deal, per seat: the points gained in that deal."""

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> TableResult:
        """From a game record (replayed: the deal points are not in its result)."""
        from chicago.record import replay_record

        game = replay_record(dict(record))
        return cls(tuple(game.scores), tuple(game.winners),
                   tuple(d.points for d in game.deal_history))


def plan_round(shape: TournamentShape, entrants: Sequence[Entrant], number: int,
               earlier: Sequence[RoundPlan],
               results: Mapping[int, Mapping[int, TableResult]]) -> RoundPlan:
    """Round ``number``: round one at random from the seed, later rounds by the standings
    after the earlier rounds, avoiding repeated meetings (:mod:`chicago.club.seating`).
    Within a table the seats are drawn from the seed. ``results``: round -> table -> result.
    """
    if number != len(earlier) + 1:
        raise ValueError(f"round {number} cannot follow {len(earlier)} rounds")
    if number > shape.rounds:
        raise ValueError(f"the tournament has {shape.rounds} rounds, not {number}")
    if len(entrants) != shape.seats:
        raise ValueError(f"{len(entrants)} entrants for {shape.seats} seats: fill with bots")
    ids = [e.id for e in entrants]
    if number == 1:
        groups = seating.random_tables(ids, shape.table_size,
                                       random.Random(derive_seed(shape.seed, 1)))
    else:
        order = [s.entrant.id for s in standings(shape, entrants, earlier, results)]
        met = seating.meetings([plan.tables for plan in earlier])
        groups = seating.standings_tables(order, shape.table_size, met)
    tables = []
    for index, group in enumerate(groups):
        seats = list(group)
        random.Random(derive_seed(shape.seed, number, index, 7)).shuffle(seats)
        tables.append(tuple(seats))
    if shape.duplicate:
        same = derive_seed(shape.seed, number, 1)
        seeds = tuple(same for _ in tables)
        deck: int | None = derive_seed(shape.seed, number, 2)
    else:
        seeds = tuple(derive_seed(shape.seed, number, 3, i) for i in range(len(tables)))
        deck = None
    return RoundPlan(number, tuple(tables), seeds, deck)


def game_points(places: Sequence[int]) -> list[float]:
    """Each seat's game points from its place: ``n - p``; a shared place shares the points
    of the places it covers.

    >>> game_points([1, 1, 3, 4])
    [2.5, 2.5, 1.0, 0.0]
    """
    n = len(places)
    out = []
    for place in places:
        shared = sum(1 for p in places if p == place)
        out.append(math.fsum(n - q for q in range(place, place + shared)) / shared)
    return out


@dataclass
class Standing:
    """One entrant's line in the standings."""

    entrant: Entrant
    rank: int = 0
    games: int = 0
    game_points: float = 0.0
    score: int = 0
    wins: int = 0
    matchpoints: float = 0.0
    comparisons: int = 0
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Per finished game: round, table, seat, place, game points, score, matchpoints and
    comparisons (how the line was computed)."""

    @property
    def duplicate(self) -> float | None:
        """The duplicate percentage (None before any comparison)."""
        return 100.0 * self.matchpoints / self.comparisons if self.comparisons else None

    def key(self, duplicate: bool) -> tuple[float, ...]:
        """The sort key of the documented tie-break order (smaller first), without the
        joining order."""
        dup = self.duplicate if duplicate and self.duplicate is not None else 0.0
        return (-self.game_points, -dup if duplicate else 0.0, -self.score, -self.wins)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"entrant": self.entrant.to_dict(), "rank": self.rank, "games": self.games,
                "game_points": self.game_points, "score": self.score, "wins": self.wins,
                "matchpoints": self.matchpoints, "comparisons": self.comparisons,
                "duplicate": self.duplicate, "rounds": self.rounds}


def standings(shape: TournamentShape, entrants: Sequence[Entrant],
              plans: Sequence[RoundPlan],
              results: Mapping[int, Mapping[int, TableResult]]) -> list[Standing]:
    """The standings after the finished games of ``plans`` (``results``: round -> table ->
    result; a table without a result is still playing and counts nothing yet), best first.
    """
    lines = {e.id: Standing(e) for e in entrants}
    for plan in plans:
        done = results.get(plan.number, {})
        for table_index, table in enumerate(plan.tables):
            result = done.get(table_index)
            if result is None:
                continue
            places = finish_places(result.winners, result.scores)
            points = game_points(places)
            for seat, entrant in enumerate(table):
                line = lines[entrant]
                line.games += 1
                line.game_points += points[seat]
                line.score += result.scores[seat]
                line.wins += int(seat in result.winners)
                line.rounds.append({"round": plan.number, "table": table_index + 1,
                                    "seat": seat, "place": places[seat],
                                    "game_points": points[seat],
                                    "score": result.scores[seat],
                                    "matchpoints": 0.0, "comparisons": 0})
        if shape.duplicate:
            _compare(plan, done, lines)
    ordered = sorted(lines.values(), key=lambda s: (s.key(shape.duplicate), s.entrant.order))
    previous: tuple[float, ...] | None = None
    for position, line in enumerate(ordered, start=1):
        key = line.key(shape.duplicate)
        line.rank = position if key != previous else ordered[position - 2].rank
        previous = key
    return ordered


def _compare(plan: RoundPlan, done: Mapping[int, TableResult],
             lines: Mapping[str, Standing]) -> None:
    """Matchpoints of one duplicate round: each seat against the same seat at every other
    table, deal by deal, over the deals both tables played."""
    finished = sorted(done)
    for table_index in finished:
        mine = done[table_index]
        for seat, entrant in enumerate(plan.tables[table_index]):
            line = lines[entrant]
            got, count = 0.0, 0
            for other_index in finished:
                if other_index == table_index:
                    continue
                theirs = done[other_index]
                for deal in range(min(len(mine.deal_points), len(theirs.deal_points))):
                    a, b = mine.deal_points[deal][seat], theirs.deal_points[deal][seat]
                    got += 1.0 if a > b else 0.5 if a == b else 0.0
                    count += 1
            line.matchpoints += got
            line.comparisons += count
            for row in line.rounds:
                if row["round"] == plan.number:
                    row["matchpoints"], row["comparisons"] = got, count
