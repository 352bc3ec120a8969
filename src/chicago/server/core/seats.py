"""A table's seats and options as stored: who sits where, the clock and the stand-in, the
pause after a deal, the tournament a table belongs to; and how names and seat tokens are
stored.

>>> Seat.from_spec("bot:basic")
Seat(kind='bot', level='basic', name='basic', token_hash=None, away=False, profile=None)
>>> TableOptions(clock=0)
Traceback (most recent call last):
...
ValueError: clock must be 1-3600 seconds or None (no clock), not 0
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from chicago.club.ratings import bot_participant, profile_participant

__all__ = [
    "CLOCK_DAYS",
    "DAY",
    "OPTION_LIMITS",
    "REMATCH_WAIT",
    "Pause",
    "PauseInfo",
    "Seat",
    "TableOptions",
    "TournamentPlace",
    "default_name",
    "hash_token",
    "stored_name",
]


def hash_token(token: str) -> str:
    """How seat tokens are stored: SHA-256, hex. Never raises: any text hashes (a lone
    surrogate too, which is simply not a token of any seat)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Seat:
    """One seat of a live table."""

    kind: str  # open | human | bot
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    away: bool = False
    profile: str | None = None
    """The profile the seat is tied to (joined with a profile), None for a guest or a bot."""
    grant: str | None = field(default=None, repr=False)
    """The profile credential the seat's token was issued under
    (:func:`chicago.server.credentials.grant_of`; None: a guest, or a token issued before
    grants were stored)."""
    issued_at: float | None = field(default=None, repr=False)
    """When the seat's token was issued (its ``join`` entry)."""

    @property
    def participant(self) -> str | None:
        """The seat's participant in the ratings: ``profile:ID``, ``bot:LEVEL`` or None (an
        open seat or a guest)."""
        if self.kind == "bot" and self.level:
            return bot_participant(self.level)
        if self.kind == "human" and self.profile:
            return profile_participant(self.profile)
        return None

    def release(self) -> None:
        """The person leaves: the seat is open again (its token no longer works)."""
        self.kind, self.level, self.name = "open", None, None
        self.token_hash, self.away, self.profile = None, False, None
        self.grant, self.issued_at = None, None

    def give_bot(self, level: str) -> None:
        """An open seat is given to a bot of ``level``."""
        self.release()
        self.kind, self.level, self.name = "bot", level, level

    @classmethod
    def from_spec(cls, spec: object) -> Seat:
        """The seat of a table's stored seat spec: ``"open"`` or ``"bot:LEVEL"``;
        ``ValueError`` for anything else."""
        if spec == "open":
            return cls("open")
        if isinstance(spec, str) and spec.startswith("bot:") and spec[4:]:
            return cls("bot", level=spec[4:], name=spec[4:])
        raise ValueError(f"a seat is \"open\" or \"bot:LEVEL\", not {spec!r}")


OPTION_LIMITS: Mapping[str, tuple[float, float]] = {
    "clock": (1, 3600), "bot_delay": (0, 5), "deal_pause": (0, 120),
    "rematch_wait": (10, 7 * 86400)}
"""Seconds: a turn clock (when the table has one), a bot's pause before it acts, the pause
after a deal for its people to read it, the time each person has to answer Play again."""

CLOCK_DAYS = (1, 2, 3, 7)
"""The days per move a correspondence table may give (the table option ``clock_days``)."""

REMATCH_WAIT = 120.0
"""Seconds each person has to answer Play again after a live game (a correspondence
table's people have its days per move)."""

DAY = 86400.0
"""Seconds in a day (a correspondence table's clock)."""

_MAY_BE_NONE = ("clock", "rematch_wait")


@dataclass(frozen=True, slots=True)
class TableOptions:
    """A table's options besides its rules and seats, as stored (``TableRow.options``)."""

    clock: float | None = None
    """Seconds a person has for each turn before the stand-in plays for them; None: no clock."""
    stand_in: str = "random"
    """The bot level that plays for a person who is away."""
    bot_delay: float = 0.0
    """Seconds a bot waits before it acts."""
    deal_pause: float = 0.0
    """Seconds the table waits after a deal until its people have pressed Continue (0: not
    at all; tables stored before this option have none)."""
    rated: bool = False
    """docs/CLUB.md: the games count for the ratings; open seats take profiles only."""
    tournament: TournamentPlace | None = None
    """The tournament table this table is (docs/CLUB.md), None for any other table."""
    clock_days: int | None = None
    """A correspondence table: days per move (one of :data:`CLOCK_DAYS`) instead of a turn
    clock in seconds; None: a live table."""
    rematch_wait: float | None = None
    """Seconds each person has to answer Play again once a game is over (those who do not
    answer in time lose their seats); None: :data:`REMATCH_WAIT`, or at a correspondence
    table its days per move."""

    def __post_init__(self) -> None:
        for name, (low, high) in OPTION_LIMITS.items():
            value = getattr(self, name)
            if value is None and name in _MAY_BE_NONE:
                continue
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or not low <= value <= high):
                none = " or None (no clock)" if name == "clock" else (
                    " or None (the default)" if name in _MAY_BE_NONE else "")
                raise ValueError(f"{name} must be {low:g}-{high:g} seconds{none}, "
                                 f"not {value!r}")
        if self.clock_days is not None:
            if isinstance(self.clock_days, bool) or self.clock_days not in CLOCK_DAYS:
                raise ValueError(f"clock_days must be one of {', '.join(map(str, CLOCK_DAYS))} "
                                 f"or None (a live table), not {self.clock_days!r}")
            if self.clock is not None:
                raise ValueError("a table has clock (seconds) or clock_days, not both")
            if self.deal_pause:
                raise ValueError("a correspondence table (clock_days) has no pause after a "
                                 "deal: deal_pause must be 0")
        if not isinstance(self.stand_in, str) or not self.stand_in:
            raise ValueError(f"stand_in must be a bot level, not {self.stand_in!r}")
        if not isinstance(self.rated, bool):
            raise ValueError(f"rated must be true or false, not {self.rated!r}")
        if self.tournament is not None and not isinstance(self.tournament, TournamentPlace):
            raise ValueError(f"tournament must be a TournamentPlace, not {self.tournament!r}")

    @property
    def turn_seconds(self) -> float | None:
        """Seconds a person has for each turn: the clock, a correspondence table's days, or
        None (no clock)."""
        if self.clock_days is not None:
            return self.clock_days * DAY
        return self.clock

    @property
    def answer_seconds(self) -> float:
        """Seconds each person has to answer Play again (:attr:`rematch_wait`)."""
        if self.rematch_wait is not None:
            return float(self.rematch_wait)
        if self.clock_days is not None:
            return self.clock_days * DAY
        return REMATCH_WAIT

    @classmethod
    def from_dict(cls, data: object) -> TableOptions:
        """The options of a stored ``options`` object (missing ones: the defaults; others
        are left for the version that wrote them); ``ValueError`` naming a bad one."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a table's options are a JSON object, not {data!r}")
        known = ("clock", "stand_in", "bot_delay", "deal_pause", "rated", "clock_days",
                 "rematch_wait")
        values: dict[str, Any] = {name: data[name] for name in known if name in data}
        if data.get("tournament") is not None:
            values["tournament"] = TournamentPlace.from_dict(data["tournament"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """As stored (``rated``, ``tournament``, ``clock_days`` and ``rematch_wait`` only when
        set: a plain table's options stay as earlier versions stored them)."""
        data: dict[str, Any] = {"clock": self.clock, "stand_in": self.stand_in,
                                "bot_delay": self.bot_delay, "deal_pause": self.deal_pause}
        if self.rated:
            data["rated"] = True
        if self.tournament is not None:
            data["tournament"] = self.tournament.to_dict()
        if self.clock_days is not None:
            data["clock_days"] = self.clock_days
        if self.rematch_wait is not None:
            data["rematch_wait"] = self.rematch_wait
        return data


class PauseInfo(TypedDict):
    """The pause after a deal as frames and table infos carry it: the deal that starts when
    it ends, milliseconds left, the seats of the people who have not pressed Continue."""

    deal: int
    ms: int
    waiting: list[int]


@dataclass
class Pause:
    """The pause after a deal at a table with people: the next deal (already dealt) starts
    when every person in :attr:`waiting` has pressed Continue, or at :attr:`until`."""

    deal: int
    """The deal that starts when the pause ends."""
    until: float
    """UNIX time at which the pause ends by itself."""
    waiting: set[int]
    """The seats of the people who have not pressed Continue yet."""

    def info(self, at: float) -> PauseInfo:
        """The pause as frames carry it, at UNIX time ``at``."""
        return {"deal": self.deal, "ms": max(0, int((self.until - at) * 1000)),
                "waiting": sorted(self.waiting)}


@dataclass(frozen=True, slots=True)
class TournamentPlace:
    """Which tournament table a table is: the tournament, the round, the table's number
    (from 1), and whether the round is duplicate (docs/CLUB.md)."""

    id: str
    round: int
    table: int
    duplicate: bool

    @classmethod
    def from_dict(cls, data: object) -> TournamentPlace:
        """From :meth:`to_dict`; ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"tournament must be a JSON object, not {data!r}")
        try:
            place = cls(str(data["id"]), int(data["round"]), int(data["table"]),
                        bool(data["duplicate"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"tournament needs id, round, table, duplicate: {exc}") from None
        if not place.id or place.round < 1 or place.table < 1:
            raise ValueError(f"tournament: not a tournament table {dict(data)!r}")
        return place

    def to_dict(self) -> dict[str, Any]:
        """As stored and shown (the table info's ``tournament``)."""
        return {"id": self.id, "round": self.round, "table": self.table,
                "duplicate": self.duplicate}


def default_name(seat: int) -> str:
    """The name a seat is called by where a text is required (records, the text notation's
    tags, ``GET /api/games`` ``names``) when its player gave none: ``"Player N"``, N =
    seat + 1. Views and frames carry ``null`` instead, so that each client names the seat in
    its own language."""
    return f"Player {seat + 1}"


def stored_name(name: str | None, seat: int) -> str | None:
    """A person's name as stored (a ``join`` entry, a game's ``names``): None when they gave
    none. Earlier versions stored :func:`default_name` for that; it is read back as None."""
    if name is None or name == default_name(seat):
        return None
    return name
