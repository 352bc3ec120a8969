"""The pairing queue's decisions (issue 26, "Play now with people"): never a person at two
tables, tables only of compatible places, first come first seated."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chicago.server.pairing.match import (
    GAP_START,
    QueueKey,
    Waiting,
    allowed_gap,
    compatible,
    form_tables,
    next_deadline,
)

KEYS = [QueueKey("pagat", 4, False), QueueKey("pagat", 3, False), QueueKey("pagat", 2, True),
        QueueKey("swedish", 4, True)]


@st.composite
def queues(draw: st.DrawFn) -> list[Waiting]:
    count = draw(st.integers(0, 30))
    places = []
    for number in range(1, count + 1):
        key = draw(st.sampled_from(KEYS))
        profile = draw(st.one_of(st.none(), st.sampled_from(["p1", "p2", "p3", "p4", "p5"])))
        if key.rated and profile is None:
            profile = f"q{number}"
        places.append(Waiting(
            number=number, key=key, queued_at=float(draw(st.integers(0, 600))),
            wait=draw(st.one_of(st.none(), st.integers(0, 300).map(float))),
            profile=profile,
            rating=float(draw(st.integers(-10, 60))) if key.rated else None))
    return places


@settings(max_examples=300, deadline=None)
@given(places=queues(), now=st.integers(0, 1200).map(float))
def test_never_a_person_at_two_tables_and_only_compatible_tables(
        places: list[Waiting], now: float) -> None:
    by_number = {p.number: p for p in places}
    seated: set[int] = set()
    for table in form_tables(places, now):
        assert len(table.places) + table.bots == table.key.players
        assert not seated & set(table.places), "a place at two tables"
        seated |= set(table.places)
        people = [by_number[n] for n in table.places]
        assert all(p.key == table.key for p in people)
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                assert compatible(a, b, now)
        if table.bots:
            assert all(p.wait_over(now) for p in people), "bots for a place still waiting"


@settings(max_examples=300, deadline=None)
@given(places=queues(), now=st.integers(0, 1200).map(float))
def test_unrated_first_come_first_seated(places: list[Waiting], now: float) -> None:
    """In an unrated queue whose places wait for people only, the people left waiting are
    the latest to arrive, fewer than a table (no profile twice: compatible with all)."""
    key = QueueKey("pagat", 3, False)
    mine = [Waiting(p.number, key, p.queued_at, None) for p in places]
    formed = form_tables(mine, now)
    seated = {n for t in formed for n in t.places}
    left = sorted((p for p in mine if p.number not in seated),
                  key=lambda p: (p.queued_at, p.number))
    order = sorted(mine, key=lambda p: (p.queued_at, p.number))
    assert len(left) < 3
    assert left == order[len(order) - len(left):]
    assert all(t.bots == 0 for t in formed)


def test_the_first_n_compatible_make_a_table_in_arrival_order() -> None:
    key = QueueKey("pagat", 3, False)
    places = [Waiting(5, key, 1.0, None, "a"), Waiting(6, key, 2.0, None, "a"),
              Waiting(7, key, 3.0, None), Waiting(8, key, 4.0, None)]
    [table] = form_tables(places, 10.0)
    assert table.places == (5, 7, 8) and table.bots == 0  # one profile is never seated twice


def test_bots_fill_the_table_of_the_places_whose_wait_is_over() -> None:
    key = QueueKey("pagat", 4, False)
    places = [Waiting(1, key, 0.0, 30.0), Waiting(2, key, 10.0, 30.0),
              Waiting(3, key, 10.0, None), Waiting(4, key, 20.0, 60.0)]
    assert [t.bots for t in form_tables(places, 0.0)] == [0]  # four people: a full table
    three = [p for p in places if p.number != 2]
    assert form_tables(three, 29.0) == []
    assert next_deadline(three, 29.0) == 30.0
    [table] = form_tables(three, 45.0)
    assert table.places == (1,) and table.bots == 3  # 3 never wants bots, 4 waits on
    assert next_deadline(three, 45.0) == 80.0
    [two] = form_tables([*places[:2], places[3]], 45.0)
    assert two.places == (1, 2) and two.bots == 2
    [at_once] = form_tables([Waiting(9, key, 5.0, 0.0)], 5.0)
    assert at_once.places == (9,) and at_once.bots == 3


def test_rated_pairing_prefers_close_ratings_and_widens_with_waiting() -> None:
    key = QueueKey("pagat", 2, True)
    far = Waiting(1, key, 0.0, None, "a", 10.0)
    near = [Waiting(2, key, 0.0, None, "b", 30.0), Waiting(3, key, 0.0, None, "c", 31.0)]
    [table] = form_tables([far, *near], 0.0)
    assert table.places == (2, 3)  # the closer pair, though 1 came first
    assert form_tables([far, near[0]], 0.0) == []
    gap = 20.0
    seconds = (gap - GAP_START) / 0.05
    assert allowed_gap(far, seconds) >= gap
    [later] = form_tables([far, near[0]], seconds)
    assert later.places == (1, 2)
    assert form_tables([Waiting(4, key, 0.0, None, "d", None), far], 1e6) == []
