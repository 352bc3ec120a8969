"""Tournaments (docs/CLUB.md): seating invariants, duplicate deal sequences, standings
against a hand computation, a whole bot tournament played through the pure model."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chicago import Rules
from chicago.bots import make_bot
from chicago.club import seating
from chicago.club.tournament import (
    Entrant,
    RoundPlan,
    TableResult,
    TournamentShape,
    fill_with_bots,
    game_points,
    plan_round,
    standings,
)
from chicago.sim import deal_deck, duplicate_game


def _partitions(items: list[str], size: int) -> Iterator[list[list[str]]]:
    """Every way to split ``items`` into unordered tables of ``size`` (brute force)."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [e for e in rest if e not in others]
        for tail in _partitions(left, size):
            yield [[head, *others], *tail]


fields = st.sampled_from([(4, 2), (6, 2), (6, 3), (8, 2), (8, 4), (9, 3), (12, 4)])


@settings(max_examples=60, deadline=None)
@given(fields, st.randoms(use_true_random=False), st.integers(0, 3))
def test_standings_seating_seats_everyone_once_with_fewest_repeats(
    field: tuple[int, int], rng: random.Random, rounds: int
) -> None:
    """Every entrant sits exactly once at a full table, and no seating has fewer repeated
    meetings than the one chosen (brute force over every seating of the field)."""
    count, size = field
    entrants = [f"e{i}" for i in range(count)]
    history = [seating.random_tables(entrants, size, rng) for _ in range(rounds)]
    met = seating.meetings(history)
    order = list(entrants)
    rng.shuffle(order)
    tables = seating.standings_tables(order, size, met)
    assert sorted(e for t in tables for e in t) == sorted(entrants)
    assert all(len(t) == size for t in tables)
    best = min(seating.repeats(p, met) for p in _partitions(entrants, size))
    assert seating.repeats(tables, met) == best
    # the best placed entrant opens the first table
    assert tables[0][0] == order[0]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(8, 4), (12, 4), (6, 3)]), st.randoms(use_true_random=False))
def test_without_history_tables_follow_the_standings(field: tuple[int, int],
                                                     rng: random.Random) -> None:
    count, size = field
    order = [f"e{i}" for i in range(count)]
    rng.shuffle(order)
    tables = seating.standings_tables(order, size, {})
    assert tables == [order[i:i + size] for i in range(0, count, size)]


def test_a_large_field_is_seated_within_the_search_budget() -> None:
    """48 entrants after three rounds: a seating comes back (the best found when the budget
    runs out), complete and with every entrant once."""
    entrants = [f"e{i}" for i in range(48)]
    rng = random.Random(4)
    history = [seating.random_tables(entrants, 4, rng) for _ in range(3)]
    tables = seating.standings_tables(entrants, 4, seating.meetings(history), budget=5000)
    assert sorted(e for t in tables for e in t) == sorted(entrants)


def test_bad_fields_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fill tables of 4"):
        seating.standings_tables(["a", "b", "c"], 4, {})
    with pytest.raises(ValueError, match="listed twice"):
        seating.random_tables(["a", "a"], 2, random.Random(1))


def _entrants(people: int) -> list[Entrant]:
    return [Entrant(f"e{i + 1}", f"P{i + 1}", i, profile=f"p{i + 1}") for i in range(people)]


def test_bots_fill_the_empty_seats_after_the_people() -> None:
    shape = TournamentShape(tables=2, table_size=4, rounds=3, duplicate=True, seed=5)
    field = fill_with_bots(_entrants(5), shape, "basic")
    assert [e.id for e in field] == ["e1", "e2", "e3", "e4", "e5", "b1", "b2", "b3"]
    assert [e.level for e in field[5:]] == ["basic"] * 3
    with pytest.raises(ValueError, match="9 entrants, but the tournament has 8 seats"):
        fill_with_bots(_entrants(9), shape, "basic")


def test_duplicate_rounds_give_every_table_the_same_seeds() -> None:
    shape = TournamentShape(tables=3, table_size=3, rounds=2, duplicate=True, seed=9)
    field = fill_with_bots(_entrants(4), shape, "random")
    plan = plan_round(shape, field, 1, [], {})
    assert len(set(plan.game_seeds)) == 1 and plan.deck_seed is not None
    assert sorted(e for t in plan.tables for e in t) == sorted(e.id for e in field)
    assert RoundPlan.from_dict(plan.to_dict()) == plan
    assert plan_round(shape, field, 1, [], {}) == plan  # the seed decides
    other = TournamentShape(tables=3, table_size=3, rounds=2, duplicate=False, seed=9)
    plain = plan_round(other, field, 1, [], {})
    assert len(set(plain.game_seeds)) == 3 and plain.deck_seed is None


def test_game_points_share_places() -> None:
    assert game_points([1, 2, 3, 4]) == [3.0, 2.0, 1.0, 0.0]
    assert game_points([1, 1, 3, 3]) == [2.5, 2.5, 0.5, 0.5]
    assert game_points([2, 1]) == [0.0, 1.0]


def test_standings_match_a_hand_computation() -> None:
    """Two tables of three, one duplicate round of two deals. Entrant by entrant, by hand:

    table 0 (seats a b c): deal points (5, 2, 0) then (0, 7, 1); scores 5 9 1; winner b
    table 1 (seats d e f): deal points (3, 2, 0) then (0, 7, 4); scores 3 9 4; winner e

    places: a 2, b 1, c 3 | d 3, e 1, f 2  -> game points a 1, b 2, c 0 | d 0, e 2, f 1
    matchpoints (seat against seat, deal by deal, 2 comparisons each):
      a vs d: 5>3 (1) 0=0 (½) = 1.5      d: 0 + ½ = 0.5
      b vs e: 2=2 (½) 7=7 (½) = 1        e: 1
      c vs f: 0=0 (½) 1<4 (0) = 0.5      f: ½ + 1 = 1.5
    so b and e tie on game points 2 and duplicate 50%, and on score 9 and wins 1: b joined
    first, both rank 1. Then f (1 point, 75%) over a (1 point, 75%, score 5 vs 4)?
    f and a: game points 1 each, duplicate 75% each, score a 5 > f 4: a is third, f fourth.
    Then c (0, 25%) and d (0, 25%), score d 3 > c 1: d fifth, c sixth.
    """
    shape = TournamentShape(tables=2, table_size=3, rounds=1, duplicate=True, seed=1)
    field = [Entrant(x, x.upper(), i, profile=x) for i, x in enumerate("abcdef")]
    plan = RoundPlan(1, (("a", "b", "c"), ("d", "e", "f")), (7, 7), 8)
    results = {1: {
        0: TableResult((5, 9, 1), (1,), ((5, 2, 0), (0, 7, 1))),
        1: TableResult((3, 9, 4), (1,), ((3, 2, 0), (0, 7, 4))),
    }}
    table = standings(shape, field, [plan], results)
    rows = [(s.entrant.id, s.rank, s.game_points, s.duplicate, s.score) for s in table]
    assert rows == [
        ("b", 1, 2.0, 50.0, 9), ("e", 1, 2.0, 50.0, 9),
        ("a", 3, 1.0, 75.0, 5), ("f", 4, 1.0, 75.0, 4),
        ("d", 5, 0.0, 25.0, 3), ("c", 6, 0.0, 25.0, 1),
    ]
    a = table[2]
    assert a.matchpoints == 1.5 and a.comparisons == 2
    assert a.rounds == [{"round": 1, "table": 1, "seat": 0, "place": 2, "game_points": 1.0,
                         "score": 5, "matchpoints": 1.5, "comparisons": 2}]
    # a table still playing counts nothing yet
    half = standings(shape, field, [plan], {1: {0: results[1][0]}})
    assert {s.entrant.id: s.games for s in half} == dict.fromkeys("abcdef", 0) | {
        "a": 1, "b": 1, "c": 1}
    assert all(s.comparisons == 0 for s in half)


def _play(plan: RoundPlan, rules: Rules, seed: int) -> dict[int, TableResult]:
    """Every table of a round played by basic bots; each table's first deal is checked."""
    results = {}
    first_hands = []
    for index, seats in enumerate(plan.tables):
        if plan.deck_seed is not None:
            game = duplicate_game(rules, len(seats), seed=plan.game_seeds[index],
                                  deck_seed=plan.deck_seed)
        else:
            from chicago import Game
            game = Game(rules, len(seats), seed=plan.game_seeds[index])
        first_hands.append([list(h) for h in game.hands])
        bots = [make_bot("basic") for _ in seats]
        rng = random.Random(seed + index)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rng))
        results[index] = TableResult.from_record(game.record())
    if plan.deck_seed is not None:
        assert all(h == first_hands[0] for h in first_hands)
        assert game.record()["decks"][0] == [str(c) for c in deal_deck(plan.deck_seed, 0)]
    return results


def test_a_whole_duplicate_tournament_of_bots_through_the_model() -> None:
    """Eight entrants, two tables, three rounds: every table of a round gets the same cards;
    later rounds avoid repeated meetings as far as possible; the standings add up."""
    shape = TournamentShape(tables=2, table_size=4, rounds=3, duplicate=True, seed=2024)
    field = fill_with_bots(_entrants(4), shape, "basic")
    rules = Rules.preset("pagat", max_deals=2)
    plans: list[RoundPlan] = []
    results: dict[int, dict[int, TableResult]] = {}
    for number in range(1, 4):
        plan = plan_round(shape, field, number, plans, results)
        plans.append(plan)
        results[number] = _play(plan, rules, number)
    table = standings(shape, field, plans, results)
    assert all(s.games == 3 for s in table)
    # four game points per four-seat game (3 + 2 + 1 + 0 = 6), two tables, three rounds
    assert sum(s.game_points for s in table) == 6 * 2 * 3
    # every seat is compared deal by deal with one other table: 2 deals per round
    assert all(s.comparisons == 2 * 3 for s in table)
    assert sum(s.matchpoints for s in table) == 8 * 2 * 3 / 2
    assert [s.rank for s in table] == sorted(s.rank for s in table)


@st.composite
def _round_results(draw: st.DrawFn) -> tuple[TournamentShape, list[Entrant], RoundPlan,
                                             dict[int, dict[int, TableResult]]]:
    """A one-round tournament with random results at some of its tables."""
    tables = draw(st.integers(1, 4))
    size = draw(st.integers(2, 5))
    shape = TournamentShape(tables, size, 1, draw(st.booleans()), draw(st.integers(0, 99)))
    field = [Entrant(f"e{i}", f"E{i}", i, profile=f"p{i}") for i in range(shape.seats)]
    plan = plan_round(shape, field, 1, [], {})
    done: dict[int, TableResult] = {}
    for index in range(tables):
        if not draw(st.booleans()):
            continue  # still playing
        deals = draw(st.integers(1, 4))
        points = tuple(tuple(draw(st.integers(0, 8)) for _ in range(size))
                       for _ in range(deals))
        scores = tuple(sum(d[s] for d in points) for s in range(size))
        best = max(scores)
        winners = tuple(s for s in range(size) if scores[s] == best)
        done[index] = TableResult(scores, winners, points)
    return shape, field, plan, {1: done}


@settings(max_examples=150, deadline=None)
@given(_round_results())
def test_standings_invariants(case: tuple[TournamentShape, list[Entrant], RoundPlan,
                                          dict[int, dict[int, TableResult]]]) -> None:
    """Everyone once; ranks follow the documented order; game points add up to n(n-1)/2 per
    finished game; every duplicate comparison hands out one matchpoint between its two
    seats (so the matchpoints are half the comparisons); finished games only count."""
    shape, field, plan, results = case
    table = standings(shape, field, [plan], results)
    assert sorted(s.entrant.id for s in table) == sorted(e.id for e in field)
    n = shape.table_size
    done = results[1]
    assert sum(s.game_points for s in table) == pytest.approx(len(done) * n * (n - 1) / 2)
    assert sum(s.games for s in table) == len(done) * n
    keys = [(s.key(shape.duplicate), s.entrant.order) for s in table]
    assert keys == sorted(keys)
    assert table[0].rank == 1
    for before, after in itertools.pairwise(table):
        same = before.key(shape.duplicate) == after.key(shape.duplicate)
        assert after.rank == (before.rank if same else table.index(after) + 1)
    if shape.duplicate:
        assert sum(s.matchpoints for s in table) * 2 == sum(s.comparisons for s in table)
        for s in table:
            mine = next((i for i, t in enumerate(plan.tables) if s.entrant.id in t), None)
            expected = sum(min(len(done[mine].deal_points), len(done[o].deal_points))
                           for o in done if o != mine) if mine in done else 0
            assert s.comparisons == expected
    else:
        assert all(s.comparisons == 0 and s.duplicate is None for s in table)
