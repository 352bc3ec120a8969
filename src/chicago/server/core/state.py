"""One table's state: its seats, its current game and that game's entries, rebuilt from its
stored log.

A :class:`TableState` changes only by :meth:`TableState.apply` of the next stored
:class:`~chicago.server.core.rows.LogEntry`, so it can always be rebuilt from the log
(:func:`build_table`). The decisions on a table (:mod:`chicago.server.core.decide`) read it
and return the entries to store; nothing here reads a clock (times come in as arguments) or
knows who is connected, beyond what the shells tell it (:attr:`TableState.connected`,
:attr:`TableState.ratings`).
"""

from __future__ import annotations

import dataclasses
import hmac
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chicago.club.ratings import ladder_key
from chicago.engine.game import Game
from chicago.rules import Rules
from chicago.server.core.makers import new_entry
from chicago.server.core.rematch import Vote, vote_info
from chicago.server.core.rows import SEAT_KINDS, LogEntry, TableRow
from chicago.server.core.seats import Pause, Seat, TableOptions, hash_token, stored_name
from chicago.server.protocol import TableError
from chicago.sim import duplicate_game

__all__ = [
    "AWAY_AFTER",
    "FINISHED",
    "PLAYING",
    "WAITING",
    "TableState",
    "build_table",
    "check_fresh",
    "iso_time",
]

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
"""A table's status: an open seat waits for a player; the game is played; it is over."""

AWAY_AFTER = 3
"""Turn clocks run out in a row after which a seat is marked away (its stand-in plays on)."""


def iso_time(timestamp: float) -> str:
    """A UNIX time as ISO 8601 in UTC, to the second (table infos)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


class _NoGameYet:
    """:attr:`TableState.current` before the table's first game: reading it raises. Once
    a game is dealt the state keeps it in its own ``__dict__`` as ``current`` (beside
    :attr:`TableState.game`), which a descriptor without ``__set__`` leaves to be read
    directly: read some 19 times a person move, it was a property call each time (issue
    28, forty-fifth pass)."""

    def __get__(self, state: TableState | None, owner: type[TableState]) -> Any:
        if state is None:
            return self
        raise RuntimeError(f"table {state.id} has no game yet")


class TableState:
    """One table: its seats, its current game and the entries of that game."""

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        if not isinstance(row.seats, list) or len(row.seats) != row.players:
            raise ValueError(f"table {row.id}: {row.players} players but seats {row.seats!r}")
        self.seats: list[Seat] = [Seat.from_spec(spec) for spec in row.seats]
        self.options = TableOptions.from_dict(row.options)
        self.clock: float | None = self.options.turn_seconds
        """Seconds each person has for a turn (a correspondence table's days), None: no
        clock."""
        self.stand_in: str = self.options.stand_in
        self.bot_delay: float = float(self.options.bot_delay)
        self.deal_pause: float = float(self.options.deal_pause)
        """Seconds the table waits after a deal for its people to press Continue (0: none;
        tables stored before this option have none)."""
        self.pause: Pause | None = None
        """The pause after a deal, while it lasts: no one acts, no clock runs."""
        self.vote: Vote | None = None
        """After a game (not a tournament's): who agreed to play again, and until when the
        others may answer (:mod:`chicago.server.core.rematch`)."""
        self.closed = False
        """Everyone left after a game: no game is played at this table again."""
        self.expiries: list[int] = [0] * row.players
        """Per seat: turn clocks run out in a row (each played by the stand-in); at
        :data:`AWAY_AFTER` the seat is marked away. Reset by a choice of the player's own
        (not by an action that was the only one possible, which the browser app sends by
        itself) and by taking the seat back."""
        self.chat_lines: list[int] = [0] * row.players
        """Per seat: chat lines written since the current game began (before the first
        game: since the table was made), from the log, so a restart counts the same."""
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
        self.ladder = ladder_key(self.rules, row.players)
        # -- told by the shells: shown in the table info, never stored
        self.connected: list[bool] = [False] * row.players
        """Per seat: a bot, or a person with an open connection to some worker, as
        :mod:`chicago.server.presence` last worked it out."""
        self.ratings: Mapping[str, float] = {}
        """Participant -> shown rating on :attr:`ladder` (shared by the tables of a ladder,
        kept up to date by the club service; empty without one)."""

    # ------------------------------------------------------------------ state
    @property
    def players(self) -> int:
        """Number of seats."""
        return self.row.players

    if TYPE_CHECKING:
        current: Game
        """The current game (every table has one from its first entry on); before it,
        reading it raises RuntimeError."""
    else:
        current = _NoGameYet()

    @property
    def open_seats(self) -> int:
        """Seats nobody has joined yet."""
        return [s.kind for s in self.seats].count("open")

    @property
    def status(self) -> str:
        """``waiting`` (an open seat), ``playing`` or ``finished`` (the game is over).
        Read about three times per action (whose turn follows, each decision): it stops at
        the first open seat and counts none."""
        if self.closed:
            return FINISHED
        for seat in self.seats:
            if seat.kind == "open":
                return WAITING
        game = self.game
        if game is None:
            raise RuntimeError(f"table {self.id} has no game yet")
        return FINISHED if game.is_over else PLAYING

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

    def info(self, at: float) -> dict[str, Any]:
        """The table info of docs/PROTOCOL.md at UNIX time ``at`` (the pause's time left)."""
        game = self.current
        options = self.options
        return {
            "id": self.id, "name": self.row.name, "status": self.status,
            "players": self.players, "preset": self.row.preset,
            "variations": list(self.row.variations), "rules": dict(self.row.rules),
            "seats": self.seat_infos(), "game": self.game_number, "seq": self.seq,
            "to_act": game.to_act, "scores": list(game.scores),
            "clock": options.clock, "clock_days": options.clock_days,
            "rematch_wait": options.answer_seconds, "stand_in": options.stand_in,
            "bot_delay": options.bot_delay, "deal_pause": options.deal_pause,
            "pause": self.pause.info(at) if self.pause is not None else None,
            "rematch": vote_info(self, at), "closed": self.closed,
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
        if self.vote is not None and self.vote.until < at + grace:
            self.vote.until = at + grace  # the time to answer Play again, likewise

    def entry(self, kind: str, seat: int | None, data: dict[str, Any], at: float,
              offset: int = 1) -> LogEntry:
        """A new entry of the current game made at UNIX time ``at``, ``offset`` after the
        table's seq (not stored)."""
        return new_entry(self.seq + offset, self.game_number, kind, seat, data, at)

    def preview(self) -> TableState:
        """A copy of this state on which ``act`` entries not yet stored may be applied, to
        decide what follows them (the bots' replies stored in the same write as the action
        they answer: :meth:`chicago.server.tables.TableManager`). The seats, the row and the
        games are shared, not copied: apply nothing but ``act`` entries, each with the game
        after it (:class:`~chicago.server.core.decide.Move`), so that neither state's
        game is changed in place.

        A preview's :attr:`entries` and :attr:`spans` begin empty and hold only the entries
        applied to it: what it is read for (whose turn follows, the next decision) needs
        none of the game's earlier entries, and copying them cost more the longer the game
        went on. Frames, replays and :meth:`games_after` read the table's own state.

        The preview's attributes are one copy of this state's ``__dict__`` (a dict's copy,
        made at once), not inserted one by one into a new one (issue 28, forty-eighth
        pass)."""
        copy = object.__new__(TableState)
        copy.__dict__ = self.__dict__.copy()
        copy.entries = []
        copy.spans = {}
        copy.expiries = list(self.expiries)
        copy.chat_lines = list(self.chat_lines)
        if self.pause is not None:
            copy.pause = dataclasses.replace(self.pause, waiting=set(self.pause.waiting))
        if self.vote is not None:
            copy.vote = dataclasses.replace(self.vote, agreed=set(self.vote.agreed))
        return copy

    # ------------------------------------------------------------------ log
    def dealt(self, entry: LogEntry) -> Game:
        """The game a ``game`` entry begins, as dealt (before any action)."""
        data = entry.data
        deck_seed = data.get("deck_seed")
        if deck_seed is None:
            return Game(self.rules, self.players, seed=int(data["seed"]))
        # a duplicate tournament's game (docs/CLUB.md)
        return duplicate_game(self.rules, self.players, seed=int(data["seed"]),
                              deck_seed=int(deck_seed))

    def games_after(self, seqs: set[int]) -> dict[int, Game]:
        """The current game as it was after each ``act`` entry of ``seqs`` (of the current
        game), rebuilt from its ``game`` entry by applying its actions again (a replay's
        earlier states: the table keeps only the game now). Each game returned is a copy of
        its own."""
        wanted = set(seqs)
        found: dict[int, Game] = {}
        if not wanted or not self.entries:
            return found
        game = self.dealt(self.entries[0])
        for entry in self.entries[1:]:
            if not wanted:
                break
            if entry.kind != "act":
                continue
            game.apply(entry.data["action"])
            if entry.seq in wanted:
                wanted.discard(entry.seq)
                found[entry.seq] = game
                game = game.copy()
        return found

    def apply(self, entry: LogEntry, game: Game | None = None) -> None:
        """Apply a stored entry (the next in sequence). ``game``: the game after an ``act``
        entry when the caller already computed it (the writer does, to check the action)."""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"table {self.id}: entry {entry.seq} after {self.seq}")
        if entry.kind == "act":
            self._act(entry, game)
        else:
            self._other(entry)
        self.seq = entry.seq
        self.entries.append(entry)
        self.updated_at = entry.created_at

    def _act(self, entry: LogEntry, game: Game | None) -> None:
        """Apply an ``act`` entry (:meth:`apply`), with the game after it if given. Twice
        for most entries (the preview's, then the table's: issue 28), so the game is read
        once and asked whether it is over once, and a table that never pauses after a deal
        does not look for a deal's end (:meth:`_pause_after` would find none to wait
        for), nor does one that pauses after an entry that did not end the deal."""
        seat = entry.seat
        if seat is None:
            raise RuntimeError(f"table {self.id}: act entry {entry.seq} has no seat")
        current = self.game
        if current is None:
            raise RuntimeError(f"table {self.id} has no game yet")
        start = current.event_count
        deal = current.deal_number
        if game is None:
            game = current
            if game.to_act != seat:
                raise RuntimeError(
                    f"table {self.id}: entry {entry.seq} by seat {seat}, "
                    f"but seat {game.to_act} is to act"
                )
            game.apply(entry.data["action"])
        self.game = self.current = game
        self.game_seq = entry.seq
        self.spans[entry.seq] = (start, game.event_count)
        data = entry.data
        by = data.get("by", "player")
        if by == "clock":
            self.expiries[seat] += 1
        elif by == "player" and not data.get("forced"):
            self.expiries[seat] = 0  # a choice of the player's own
        over = game.is_over
        # a deal ended (its deal_end among the entry's events) exactly when the game goes on
        # with the next deal's number: only then are the events read for it (issue 28,
        # forty-fifth pass; tests/server/test_move_reads.py checks the two agree)
        pause = (self._pause_after(entry, start)
                 if self.deal_pause and not over and game.deal_number != deal else None)
        self.pause = pause
        if pause is None:  # the next turn begins now (after a pause: when it ends)
            self.turn_started = entry.created_at
        if over and self.options.tournament is None:
            self.vote = Vote(entry.created_at + self.options.answer_seconds)

    def _other(self, entry: LogEntry) -> None:
        """Apply an entry of any kind but ``act`` (:meth:`apply`)."""
        kind, data = entry.kind, entry.data
        started_turn = kind == "game" or (
            kind == "join" and not data.get("claim")) or (  # a claim keeps the turn's clock
            kind == "back" and self.game is not None and entry.seat == self.game.to_act)
        if kind == "game":
            self.game = self.current = self.dealt(entry)
            self.game_number = int(data["number"])
            self.game_start_seq = entry.seq
            self.game_seq = entry.seq
            self.entries = []
            self.spans = {}
            self.pause = None
            self.vote = None
            self.expiries = [0] * self.players
            self.chat_lines = [0] * self.players
        elif kind == "continue":
            started_turn = self._continue(entry)
        elif kind == "rematch":
            if self.vote is None or entry.seat is None:
                raise RuntimeError(f"table {self.id}: rematch entry {entry.seq} without a "
                                   "question or a seat")
            self.vote.agreed.add(entry.seat)
        elif kind == "close":
            self.closed = True
            self.vote = None
        elif kind in SEAT_KINDS:
            self._seat_change(entry)
        elif kind == "chat":
            if entry.seat is not None:
                self.chat_lines[entry.seat] += 1
        else:
            raise RuntimeError(f"table {self.id}: unknown entry kind {kind!r}")
        if started_turn:
            self.turn_started = entry.created_at

    def _pause_after(self, entry: LogEntry, start: int) -> Pause | None:
        """The pause that the ``act`` entry whose events start at ``start`` begins: when it
        ended a deal but not the game, at a table that pauses, with people to wait for (a
        person whose stand-in plays is not waited for)."""
        game = self.current
        if not self.deal_pause or game.is_over:
            return None
        if not any(e.type == "deal_end" for e in game.events_between(start)):
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
        """Apply a ``join``, ``away``, ``back``, ``leave`` or ``fill`` entry to the seats."""
        if entry.seat is None or not 0 <= entry.seat < self.players:
            raise RuntimeError(f"table {self.id}: {entry.kind} entry {entry.seq} has no seat")
        seat = self.seats[entry.seat]
        if entry.kind == "join":  # a person takes the seat, or its profile claims it back
            seat.kind, seat.name = "human", stored_name(entry.data.get("name"), entry.seat)
            seat.token_hash = entry.data["token"]
            seat.profile = entry.data.get("profile")
            seat.grant = entry.data.get("grant")
            seat.issued_at = entry.created_at
            if self.vote is not None:  # taking a seat after a game: to play the next
                self.vote.agreed.add(entry.seat)
        elif entry.kind == "leave":  # the person left after a game: the seat is open
            seat.release()
            if self.vote is not None:
                self.vote.agreed.discard(entry.seat)
        elif entry.kind == "fill":  # an open seat given to a bot after a game
            seat.give_bot(str(entry.data["level"]))
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


def check_fresh(table: TableState, seen: int) -> None:
    """Refuse (``stale``) an action decided at seq ``seen`` when the game changed after it
    (an action was accepted or a new game began: :attr:`TableState.game_seq`), or when
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


def build_table(row: TableRow, entries: list[LogEntry]) -> TableState:
    """A table rebuilt from its row and log entries (the server runs it in a worker
    thread)."""
    table = TableState(row)
    table.restore(entries)
    return table
