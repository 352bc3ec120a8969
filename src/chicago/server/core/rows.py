"""What the table server stores, as plain values: the log entries of a table's stream, the
rows that go with them, and a :class:`Change` (one atomic write of one table).

The core decides changes (:mod:`chicago.server.core`); a storage
(:class:`~chicago.server.core.ports.Storage`, implemented with SQLAlchemy by
:class:`chicago.server.storage.Store`) keeps them. Nothing here imports a database driver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = [
    "SEAT_KINDS",
    "Change",
    "GamePlayerRow",
    "GameRow",
    "LoadedTable",
    "LogEntry",
    "RatedGameRow",
    "SeatHolder",
    "TableRow",
    "merged",
]

SEAT_KINDS = ("join", "away", "back", "leave", "fill")
"""Log entry kinds that change a table's seats (they outlast the game they were stored in)."""


@dataclass(frozen=True, slots=True, init=False)
class LogEntry:
    """One stored change of a table's stream (see :mod:`chicago.server.storage.models`)."""

    seq: int
    game: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    created_at: float

    def __init__(self, seq: int, game: int, kind: str, seat: int | None, data: dict[str, Any],
                 created_at: float) -> None:
        # what the frozen dataclass's own __init__ does, through each slot's setter taken
        # once (_ENTRY_SLOTS) instead of object.__setattr__ looked up and called by name for
        # every field: about half the cost, and four or more entries are made a person move
        # (issue 28, thirty-ninth pass)
        seq_, game_, kind_, seat_, data_, created_at_ = _ENTRY_SLOTS
        seq_(self, seq)
        game_(self, game)
        kind_(self, kind)
        seat_(self, seat)
        data_(self, data)
        created_at_(self, created_at)


_ENTRY_SLOTS: tuple[Callable[[LogEntry, Any], None], ...] = tuple(
    LogEntry.__dict__[f.name].__set__ for f in fields(LogEntry))
"""The setters of :class:`LogEntry`'s slots, in the order of its fields."""


@dataclass(slots=True)
class TableRow:
    """A ``tables`` row, JSON columns decoded."""

    id: str
    name: str
    players: int
    preset: str
    rules: dict[str, Any]
    variations: list[str]
    seats: list[str]
    options: dict[str, Any]
    private: bool
    secret: str
    status: str
    open_seats: int
    game: int
    created_at: float
    updated_at: float
    answer_by: float | None = None
    """After a game: until when its people may answer Play again (None: nobody is asked)."""
    to_act: int | None = None
    """The seat to act in the current game (None: the game is over; so "Your games" finds
    every table where it is someone's turn without loading it)."""
    turn_at: float | None = None
    """When the seat to act got its turn (UNIX time; None before it was stored)."""


@dataclass(slots=True)
class GameRow:
    """A ``games`` row, JSON columns decoded."""

    table_id: str
    number: int
    seed: int
    rules: dict[str, Any]
    players: int
    status: str
    started_at: float
    names: list[str | None] | None = None
    """Set when the game ends: each seat's name (a bot's is its level), None for a person
    who gave no name."""
    result: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    finished_at: float | None = None


@dataclass(slots=True)
class LoadedTable:
    """What rebuilding a live table needs: its row, its current game and its log entries
    (the seat changes of earlier games, then every entry of the current game; see
    :meth:`Store.load`)."""

    table: TableRow
    game: GameRow
    entries: list[LogEntry]


@dataclass(slots=True)
class Change:
    """One atomic write for one table: new log entries and the row changes that go with them."""

    table_id: str
    entries: list[LogEntry] = field(default_factory=list)
    new_table: TableRow | None = None
    table_updates: dict[str, Any] = field(default_factory=dict)
    new_game: GameRow | None = None
    game_updates: dict[str, Any] = field(default_factory=dict)
    game_number: int | None = None  # the game row that game_updates change
    players: list[GamePlayerRow] = field(default_factory=list)
    """When a game ends: one row per seat (who sat there, what the seat did)."""
    rated: RatedGameRow | None = None
    """When a rated game ends: the game to rate (applied later, exactly once)."""
    holders: list[SeatHolder] = field(default_factory=list)
    """Seats taken, claimed, released or given to a bot: who holds each now (the
    ``seat_holders`` rows "Your games" reads)."""


def merged(changes: Sequence[Change]) -> Change:
    """One change storing ``changes`` of one table in their order, all or none (an action
    and the bots' replies that follow it): their entries one after the other, the row
    updates of the later ones over the earlier ones'. ValueError for changes of several
    tables, or more than one new table, new game or game row updated."""
    if not changes:
        raise ValueError("no change to merge")
    first = changes[0]
    if any(c.table_id != first.table_id for c in changes):
        raise ValueError("changes of several tables cannot be stored as one")
    out = Change(first.table_id)
    for change in changes:
        out.entries.extend(change.entries)
        out.table_updates.update(change.table_updates)
        out.players.extend(change.players)
        out.holders.extend(change.holders)
        for name in ("new_table", "new_game", "rated", "game_number"):
            value = getattr(change, name)
            if value is not None:
                if getattr(out, name) is not None:
                    raise ValueError(f"two changes set {name}: they cannot be stored as one")
                setattr(out, name, value)
        out.game_updates.update(change.game_updates)
    return out


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who holds a seat of a table: its profile and the hash of its token (both None: the
    seat is no person's any more, its row goes)."""

    seat: int
    profile: str | None
    token_hash: str | None


@dataclass(slots=True)
class GamePlayerRow:
    """A ``game_players`` row: one seat of a finished game."""

    table_id: str
    number: int
    seat: int
    participant: str | None
    """``profile:ID``, ``bot:LEVEL``, or None for a guest."""
    profile_id: str | None
    ladder: str
    rated: bool
    line: dict[str, int]
    """The seat's counters (:func:`chicago.club.stats.game_lines`)."""
    finished_at: float


@dataclass(slots=True)
class RatedGameRow:
    """A ``rated_games`` row: a finished rated game, before or after its rating."""

    table_id: str
    number: int
    ladder: str
    participants: list[str]
    places: list[int]
    finished_at: float
    applied: bool = False
    seq: int | None = None
    """The order of rating (set by the database)."""
