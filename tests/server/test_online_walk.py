"""Who is online worked out over many tables (issue 28, forty-fifth pass).

``Online._live`` walks every table held at each hello and close; at 1,000 tables of guests
(the load benchmark's) it read every table's status each time. Now a table's status is read
only where a connection sits at a profile's seat, and the answer is the same as the whole
walk's (the rule of docs/SERVER.md, "People": a profile's table is named unless private or
over).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from chicago.server.core.state import FINISHED, PLAYING
from chicago.server.together.online import Online, Where


@dataclass
class Seat:
    profile: str | None


@dataclass
class Row:
    private: bool


@dataclass(eq=False)
class Conn:
    seat: int | None


@dataclass
class State:
    seats: list[Seat]
    row: Row
    finished: bool
    reads: list[int] = field(default_factory=lambda: [0])

    @property
    def status(self) -> str:
        self.reads[0] += 1
        return FINISHED if self.finished else PLAYING


@dataclass(eq=False)
class Table:
    id: str
    state: State
    conns: set[Conn]


class Manager:
    def __init__(self, tables: dict[str, Table]) -> None:
        self.tables = tables
        self.worker = "w"
        self.presence = type("P", (), {"listeners": []})()


def whole_walk(tables: dict[str, Table], pages: Counter[str]) -> Where:
    """The walk as it was: every table's shown flag worked out first."""
    where: Where = {}
    for table in tables.values():
        shown = not table.state.row.private and table.state.status != FINISHED
        for conn in table.conns:
            seat = conn.seat
            profile = table.state.seats[seat].profile if seat is not None else None
            if profile is not None and (shown or profile not in where):
                where[profile] = table.id if shown else None
    for profile in pages:
        where.setdefault(profile, None)
    return where


def tables_of(rng: random.Random, count: int) -> dict[str, Table]:
    tables = {}
    for n in range(count):
        profiled = rng.random() < 0.1
        seats = [Seat(f"p{rng.randrange(20)}" if profiled and rng.random() < 0.5 else None)
                 for _ in range(4)]
        conns = {Conn(rng.choice([None, 0, 1, 2, 3])) for _ in range(rng.randrange(3))}
        tables[f"t{n}"] = Table(f"t{n}", State(seats, Row(rng.random() < 0.3),
                                               rng.random() < 0.3), conns)
    return tables


def test_only_tables_with_a_profiles_connection_have_their_status_read() -> None:
    rng = random.Random(45)
    for _ in range(30):
        tables = tables_of(rng, 200)
        pages = Counter({f"p{rng.randrange(30)}": 1 for _ in range(3)})
        online = Online(Manager(tables), pages, shared=False)  # type: ignore[arg-type]
        for table in tables.values():
            table.state.reads[0] = 0
        live = online._live()
        heard = {t.id for t in tables.values()
                 if any(c.seat is not None and t.state.seats[c.seat].profile is not None
                        for c in t.conns)}
        read = {t.id for t in tables.values() if t.state.reads[0]}
        assert read <= heard  # before: every table's status, at every hello and close
        assert live == whole_walk(tables, pages)


def test_a_guests_table_is_not_read() -> None:
    tables: dict[str, Any] = {
        f"t{n}": Table(f"t{n}", State([Seat(None)] * 4, Row(False), False), {Conn(0)})
        for n in range(50)}
    online = Online(Manager(tables), Counter(), shared=False)  # type: ignore[arg-type]
    assert online._live() == {}
    assert sum(t.state.reads[0] for t in tables.values()) == 0
