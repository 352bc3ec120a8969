"""One table in memory: its seats, its current game and that game's entries, rebuilt from its
stored log.

A :class:`LiveTable` changes only by :meth:`LiveTable.apply` of the next stored
:class:`~chicago.server.storage.LogEntry` (:mod:`chicago.server.tables` decides and stores
the changes; :mod:`chicago.server.cache` loads tables and follows other workers' changes), so
it can always be rebuilt from the log (:func:`build_table`). Besides that state it carries
the per-table bookkeeping of the modules that serve it, each field documented with its owner:
connections and what they were sent (:mod:`chicago.server.fanout`), who is connected
(:mod:`chicago.server.presence`), the bot or clock timer and the bots
(:mod:`chicago.server.schedule`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from chicago.bots import Bot
from chicago.club.ratings import bot_participant, ladder_key, profile_participant
from chicago.engine.game import Game
from chicago.rules import Rules
from chicago.server.bucket import TokenBucket
from chicago.server.bus import Subscription
from chicago.server.core.rows import SEAT_KINDS, LogEntry, TableRow
from chicago.server.protocol import TableError
from chicago.sim import duplicate_game

__all__ = [
    "AWAY_AFTER",
    "FINISHED",
    "OPTION_LIMITS",
    "PLAYING",
    "WAITING",
    "Client",
    "LiveTable",
    "Pause",
    "Seat",
    "TableOptions",
    "TournamentPlace",
    "build_table",
    "check_fresh",
    "default_name",
    "hash_token",
    "iso_time",
    "now",
    "stored_name",
]

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
"""A table's status: an open seat waits for a player; the game is played; it is over."""

AWAY_AFTER = 3
"""Turn clocks run out in a row after which a seat is marked away (its stand-in plays on)."""

CHAT_RETRY = 60
"""Seconds a player whose chat lines of the game are used up is told to wait."""


class Client(Protocol):
    """A connection as the tables see it (implemented in :mod:`chicago.server.ws`)."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue one frame (never blocks)."""
        ...

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the connection soon."""
        ...


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

    @property
    def participant(self) -> str | None:
        """The seat's participant in the ratings: ``profile:ID``, ``bot:LEVEL`` or None (an
        open seat or a guest)."""
        if self.kind == "bot" and self.level:
            return bot_participant(self.level)
        if self.kind == "human" and self.profile:
            return profile_participant(self.profile)
        return None

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
    "clock": (1, 3600), "bot_delay": (0, 5), "deal_pause": (0, 120)}
"""Seconds: a turn clock (when the table has one), a bot's pause before it acts, the pause
after a deal for its people to read it."""


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

    def __post_init__(self) -> None:
        for name, (low, high) in OPTION_LIMITS.items():
            value = getattr(self, name)
            if value is None and name == "clock":
                continue
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or not low <= value <= high):
                none = " or None (no clock)" if name == "clock" else ""
                raise ValueError(f"{name} must be {low:g}-{high:g} seconds{none}, "
                                 f"not {value!r}")
        if not isinstance(self.stand_in, str) or not self.stand_in:
            raise ValueError(f"stand_in must be a bot level, not {self.stand_in!r}")
        if not isinstance(self.rated, bool):
            raise ValueError(f"rated must be true or false, not {self.rated!r}")
        if self.tournament is not None and not isinstance(self.tournament, TournamentPlace):
            raise ValueError(f"tournament must be a TournamentPlace, not {self.tournament!r}")

    @classmethod
    def from_dict(cls, data: object) -> TableOptions:
        """The options of a stored ``options`` object (missing ones: the defaults; others
        are left for the version that wrote them); ``ValueError`` naming a bad one."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a table's options are a JSON object, not {data!r}")
        known = ("clock", "stand_in", "bot_delay", "deal_pause", "rated")
        values: dict[str, Any] = {name: data[name] for name in known if name in data}
        if data.get("tournament") is not None:
            values["tournament"] = TournamentPlace.from_dict(data["tournament"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """As stored (``rated`` and ``tournament`` only when set: a plain table's options
        stay as earlier versions stored them)."""
        data: dict[str, Any] = {"clock": self.clock, "stand_in": self.stand_in,
                                "bot_delay": self.bot_delay, "deal_pause": self.deal_pause}
        if self.rated:
            data["rated"] = True
        if self.tournament is not None:
            data["tournament"] = self.tournament.to_dict()
        return data


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

    def info(self, at: float) -> dict[str, Any]:
        """The pause as frames carry it: ``{"deal", "ms", "waiting"}`` (ms left at ``at``)."""
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


def now() -> float:
    """UNIX time rounded to whole microseconds (so ISO times round-trip exactly)."""
    return round(time.time(), 6)


def iso_time(timestamp: float) -> str:
    """A UNIX time as ISO 8601 in UTC, to the second (table infos)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


class LiveTable:
    """One table in memory: its seats, its current game and the entries of that game."""

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        if not isinstance(row.seats, list) or len(row.seats) != row.players:
            raise ValueError(f"table {row.id}: {row.players} players but seats {row.seats!r}")
        self.seats: list[Seat] = [Seat.from_spec(spec) for spec in row.seats]
        self.options = TableOptions.from_dict(row.options)
        self.clock: float | None = self.options.clock
        self.stand_in: str = self.options.stand_in
        self.bot_delay: float = float(self.options.bot_delay)
        self.deal_pause: float = float(self.options.deal_pause)
        """Seconds the table waits after a deal for its people to press Continue (0: none;
        tables stored before this option have none)."""
        self.pause: Pause | None = None
        """The pause after a deal, while it lasts: no one acts, no clock runs."""
        self.expiries: list[int] = [0] * row.players
        """Per seat: turn clocks run out in a row (each played by the stand-in); at
        :data:`AWAY_AFTER` the seat is marked away. Reset by a choice of the player's own
        (not by an action that was the only one possible, which the browser app sends by
        itself) and by taking the seat back."""
        self.chat_lines: list[int] = [0] * row.players
        """Per seat: chat lines written since the current game began (before the first
        game: since the table was made), from the log, so a restart counts the same."""
        self.chat_allowance: dict[int, TokenBucket] = {}
        """Per seat: the chat rate's token bucket, in this process's memory only
        (:meth:`take_chat_line`)."""
        self.game: Game | None = None
        self.game_number = 0
        self.game_start_seq = 0
        self.game_seq = 0
        """The seq of the last entry that changed the game: its ``game`` entry or its latest
        ``act``. An action decided at this seq or later is not stale (chat lines and seat
        changes since do not change what the action means)."""
        self.seq = 0
        self.entries: list[LogEntry] = []  # the current game's entries, from its "game" entry
        self.spans: dict[int, tuple[int, int]] = {}  # act seq -> its events in game.events
        self.turn_started: float | None = None
        """UNIX time at which the seat to act got its turn: the ``created_at`` of the stored
        entry that gave it (``game``, ``act``, ``join``, or that seat's ``back``), so the turn
        clock's deadline (this plus :attr:`clock`) survives restarts and is the same on every
        worker. Chat lines and other seats' changes do not move it."""
        self.updated_at = row.updated_at
        # -- kept by chicago.server.cache: the one change at a time, use, bus subscription
        self.lock = asyncio.Lock()
        self.touched = time.monotonic()
        self.subscription: Subscription | None = None
        # -- kept by chicago.server.fanout: this process's connections, what they were sent
        self.conns: set[Client] = set()
        self.sent = 0
        """The highest seq whose frames this process has sent its connections."""
        # -- kept by chicago.server.presence
        self.connected: list[bool] = [False] * row.players
        """Per seat: a bot, or a person with an open connection here or at another worker,
        as :mod:`chicago.server.presence` last worked it out (and told the clients)."""
        self.remote: dict[str, tuple[float, frozenset[int]]] = {}
        """Other workers' connected seats: worker id -> (monotonic time heard, seats)."""
        # -- kept by chicago.server.schedule
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: tuple[int, float] | None = None  # (seat, loop time) of the turn clock
        self.bots: dict[tuple[int, str], Bot] = {}
        # -- kept by chicago.server.club: the shown ratings of this table's ladder
        self.ladder = ladder_key(self.rules, row.players)
        self.ratings: Mapping[str, float] = {}
        """Participant -> shown rating on :attr:`ladder` (shared by the tables of a ladder,
        kept up to date by the club service; empty without one)."""

    # ------------------------------------------------------------------ state
    @property
    def players(self) -> int:
        """Number of seats."""
        return self.row.players

    @property
    def current(self) -> Game:
        """The current game (every table has one from its first entry on)."""
        if self.game is None:
            raise RuntimeError(f"table {self.id} has no game yet")
        return self.game

    @property
    def open_seats(self) -> int:
        """Seats nobody has joined yet."""
        return sum(1 for s in self.seats if s.kind == "open")

    @property
    def status(self) -> str:
        """``waiting`` (an open seat), ``playing`` or ``finished`` (the game is over)."""
        if self.open_seats:
            return WAITING
        return FINISHED if self.current.is_over else PLAYING

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        digest = hash_token(token)
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = index
        return found

    @property
    def rated(self) -> bool:
        """Whether the current game is rated (docs/CLUB.md): the table was created rated,
        every seat is a profile or a bot, and at least one is a profile."""
        if not self.options.rated:
            return False
        participants = [s.participant for s in self.seats]
        return None not in participants and any(s.profile for s in self.seats)

    def seat_infos(self) -> list[dict[str, Any]]:
        """The seats as the lobby and the clients see them (``rating``: the shown rating of
        the seat's profile or bot level on this table's ladder, None without one)."""
        infos = []
        for i, s in enumerate(self.seats):
            participant = s.participant
            rating = self.ratings.get(participant) if participant is not None else None
            infos.append({
                "seat": i, "kind": s.kind, "level": s.level, "name": s.name,
                "taken": s.kind != "open", "connected": self.connected[i], "away": s.away,
                "profile": s.profile, "rating": rating,
            })
        return infos

    def info(self) -> dict[str, Any]:
        """The table info of docs/PROTOCOL.md."""
        game = self.current
        options = self.options
        return {
            "id": self.id, "name": self.row.name, "status": self.status,
            "players": self.players, "preset": self.row.preset,
            "variations": list(self.row.variations), "rules": dict(self.row.rules),
            "seats": self.seat_infos(), "game": self.game_number, "seq": self.seq,
            "to_act": game.to_act, "scores": list(game.scores),
            "clock": options.clock, "stand_in": options.stand_in,
            "bot_delay": options.bot_delay, "deal_pause": options.deal_pause,
            "pause": self.pause.info(time.time()) if self.pause is not None else None,
            "private": self.row.private,
            "created": iso_time(self.row.created_at), "updated": iso_time(self.updated_at),
            "rated": self.rated, "ladder": self.ladder,
            "tournament": None if options.tournament is None else options.tournament.to_dict(),
        }

    def clock_left(self, at: float) -> float | None:
        """Seconds left on the turn clock at UNIX time ``at`` (negative: it ran out), or
        None when the table has no clock."""
        if not self.clock or self.turn_started is None:
            return None
        return self.turn_started + self.clock - at

    def grant_grace(self, at: float, grace: float) -> None:
        """After loading from storage: a turn clock with less than ``grace`` seconds left (it
        ran out, or nearly, while no server held the table) gets ``grace`` seconds, but never
        more than the clock itself."""
        left = self.clock_left(at)
        if left is not None and self.clock:
            floor = min(grace, self.clock)
            if left < floor:
                self.turn_started = at + floor - self.clock

    # ------------------------------------------------------------------ log
    def apply(self, entry: LogEntry, game: Game | None = None) -> None:
        """Apply a stored entry (the next in sequence). ``game``: the game after an ``act``
        entry when the caller already computed it (the writer does, to check the action)."""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"table {self.id}: entry {entry.seq} after {self.seq}")
        kind, data = entry.kind, entry.data
        started_turn = kind in ("game", "act") or (
            kind == "join" and not data.get("claim")) or (  # a claim keeps the turn's clock
            kind == "back" and self.game is not None and entry.seat == self.game.to_act)
        if kind == "game":
            deck_seed = data.get("deck_seed")
            if deck_seed is None:
                self.game = Game(self.rules, self.players, seed=int(data["seed"]))
            else:  # a duplicate tournament's game (docs/CLUB.md)
                self.game = duplicate_game(self.rules, self.players, seed=int(data["seed"]),
                                           deck_seed=int(deck_seed))
            self.game_number = int(data["number"])
            self.game_start_seq = entry.seq
            self.game_seq = entry.seq
            self.entries = []
            self.spans = {}
            self.pause = None
            self.expiries = [0] * self.players
            self.chat_lines = [0] * self.players
        elif kind == "continue":
            started_turn = self._continue(entry)
        elif kind == "act":
            if entry.seat is None:
                raise RuntimeError(f"table {self.id}: act entry {entry.seq} has no seat")
            start = len(self.current.events)
            if game is None:
                game = self.current
                if game.to_act != entry.seat:
                    raise RuntimeError(
                        f"table {self.id}: entry {entry.seq} by seat {entry.seat}, "
                        f"but seat {game.to_act} is to act"
                    )
                game.apply(data["action"])
            self.game = game
            self.game_seq = entry.seq
            self.spans[entry.seq] = (start, len(game.events))
            by = data.get("by", "player")
            if by == "clock":
                self.expiries[entry.seat] += 1
            elif by == "player" and not data.get("forced"):
                self.expiries[entry.seat] = 0  # a choice of the player's own
            self.pause = self._pause_after(entry, start)
            started_turn = self.pause is None
        elif kind in SEAT_KINDS:
            self._seat_change(entry)
        elif kind == "chat":
            if entry.seat is not None:
                self.chat_lines[entry.seat] += 1
        else:
            raise RuntimeError(f"table {self.id}: unknown entry kind {kind!r}")
        if started_turn:
            self.turn_started = entry.created_at
        self.seq = entry.seq
        self.entries.append(entry)
        self.updated_at = entry.created_at

    def _pause_after(self, entry: LogEntry, start: int) -> Pause | None:
        """The pause that the ``act`` entry whose events start at ``start`` begins: when it
        ended a deal but not the game, at a table that pauses, with people to wait for (a
        person whose stand-in plays is not waited for)."""
        game = self.current
        if not self.deal_pause or game.is_over:
            return None
        if not any(e.type == "deal_end" for e in game.events[start:]):
            return None
        people = {i for i, s in enumerate(self.seats) if s.kind == "human" and not s.away}
        if not people:
            return None
        return Pause(game.deal_number, entry.created_at + self.deal_pause, people)

    def _continue(self, entry: LogEntry) -> bool:
        """Apply a ``continue`` entry: a person pressed Continue (``seat``), or the pause
        ran out (no seat). True when the pause is over: the next deal's first turn begins."""
        if self.pause is None:
            return False
        if entry.seat is None:
            self.pause = None
        else:
            self.pause.waiting.discard(entry.seat)
            if not self.pause.waiting:
                self.pause = None
        return self.pause is None

    def _seat_change(self, entry: LogEntry) -> None:
        """Apply a ``join``, ``away`` or ``back`` entry to the seats."""
        if entry.seat is None or not 0 <= entry.seat < self.players:
            raise RuntimeError(f"table {self.id}: {entry.kind} entry {entry.seq} has no seat")
        seat = self.seats[entry.seat]
        if entry.kind == "join":  # a person takes the seat, or its profile claims it back
            seat.kind, seat.name = "human", stored_name(entry.data.get("name"), entry.seat)
            seat.token_hash = entry.data["token"]
            seat.profile = entry.data.get("profile")
        else:
            seat.away = entry.kind == "away"
            if entry.kind == "back":
                self.expiries[entry.seat] = 0

    def restore(self, entries: list[LogEntry]) -> None:
        """Rebuild a fresh table from stored entries (:meth:`Store.load`): the seat changes
        before the current game's ``game`` entry (earlier games' actions may be left out, so
        their seqs need not follow each other), then every entry from that ``game`` entry on,
        which must follow each other without a gap (:meth:`apply`)."""
        if self.seq or self.game is not None:
            raise RuntimeError(f"table {self.id}: restore needs a fresh table")
        start = next((i for i in range(len(entries) - 1, -1, -1)
                      if entries[i].kind == "game"), None)
        if start is None:
            raise RuntimeError(f"table {self.id}: the log has no game entry")
        for entry in entries[:start]:
            if entry.seq >= entries[start].seq:
                raise RuntimeError(f"table {self.id}: entries out of order at {entry.seq}")
            if entry.kind in SEAT_KINDS:
                self._seat_change(entry)
        self.seq = entries[start].seq - 1
        for entry in entries[start:]:
            self.apply(entry)

    def take_chat_line(self, seat: int, *, per_game: int, per_minute: float, burst: int,
                       at: float | None = None) -> None:
        """Allow one more chat line from ``seat`` now, or raise TableError 429
        ``chat_limited`` (nothing taken): at most ``per_game`` lines a game (the log's count)
        and ``per_minute`` lines a minute on average, in bursts of ``burst``."""
        if self.chat_lines[seat] >= per_game:
            raise TableError("chat_limited", f"at most {per_game} chat lines a player in one "
                             "game; the next game opens the chat again", 429,
                             retry_after=CHAT_RETRY)
        at = time.monotonic() if at is None else at
        bucket = self.chat_allowance.get(seat)
        if bucket is None:
            bucket = self.chat_allowance[seat] = TokenBucket(burst, per_minute / 60.0, at)
        wait = bucket.claim(at)
        if wait is not None:
            raise TableError("chat_limited", f"at most {per_minute:g} chat lines a minute "
                             f"(bursts of {burst}); try again in {wait} s", 429,
                             retry_after=wait)

    def entry(self, kind: str, seat: int | None, data: dict[str, Any],
              offset: int = 1) -> LogEntry:
        """A new entry of the current game, ``offset`` after the table's seq (not stored)."""
        return LogEntry(self.seq + offset, self.game_number, kind, seat, data, now())


def check_fresh(table: LiveTable, seen: int) -> None:
    """Refuse (``stale``) an action decided at seq ``seen`` when the game changed after it
    (an action was accepted or a new game began: :attr:`LiveTable.game_seq`), or when
    ``seen`` is beyond the table's seq. Chat lines and seat changes (``join``, ``away``,
    ``back``) since ``seen`` change nothing the action depends on, so they do not count."""
    if seen < table.game_seq:
        raise TableError(
            "stale", f"you saw seq {seen}, but the game changed at seq {table.game_seq} "
            f"(the table is at {table.seq}); the action was not applied", 409)
    if seen > table.seq:
        raise TableError(
            "stale", f"you saw seq {seen}, but the table is at {table.seq}; "
            "the action was not applied", 409)


def build_table(row: TableRow, entries: list[LogEntry]) -> LiveTable:
    """A live table rebuilt from its row and log entries (runs in a worker thread)."""
    table = LiveTable(row)
    table.restore(entries)
    return table
