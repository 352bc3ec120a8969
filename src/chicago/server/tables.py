"""The table manager: every request that changes a table, and the wiring of the modules that
serve the tables.

:class:`TableManager` is the only way a table changes. Every change (a game starts, a seat is
joined, an action is accepted, a stand-in bot takes a seat or gives it back, a chat line)
becomes a :class:`~chicago.server.storage.LogEntry` with the table's next sequence number, is
stored (a group commit shared by all tables), then applied to the in-memory table and
published on the :class:`~chicago.server.bus.TableBus`, whose handler sends each connection
the frames its seat may see. A table's memory state only ever moves on after its entry is
stored, and can always be rebuilt from the log (:meth:`LiveTable.apply`).

The work is split by concern:

- :mod:`chicago.server.live`: one table's state, rebuilt from its log;
- :mod:`chicago.server.writer`: the group-commit writer of every table's log;
- :mod:`chicago.server.cache`: the tables held in memory, loaded, followed and written;
- :mod:`chicago.server.schedule`: the next bot move or turn clock of each table, the bots;
- :mod:`chicago.server.presence`: who is connected, on the bus's presence channel;
- :mod:`chicago.server.fanout`: the frames of each entry, sent to the connections;
- :mod:`chicago.server.reviews`: the reviews of finished games, computed off the loop;
- this module: the lobby's and the players' requests (create, join, act, chat, rematch,
  hello …) and the bots' and clocks' moves, each decided on the table's current state.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from chicago.engine.game import Game, IllegalAction
from chicago.rules import Rules, RulesError
from chicago.server import fanout
from chicago.server.bus import InProcessBus, TableBus
from chicago.server.cache import TableCache
from chicago.server.club.finish import finish_rows
from chicago.server.core.chat import ChatLimits
from chicago.server.core.rows import Change, GameRow, LogEntry, TableRow
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import (
    AWAY_AFTER,
    FINISHED,
    PLAYING,
    WAITING,
    build_table,
    check_fresh,
)
from chicago.server.live import Client, LiveTable, now
from chicago.server.locking import NoLocks, TableLocks
from chicago.server.presence import Presence
from chicago.server.protocol import TableError
from chicago.server.reviews import ReviewService
from chicago.server.schedule import TurnScheduler
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.tasks import Tasks
from chicago.server.writer import GroupWriter

__all__ = ["Joiner", "TableManager", "TableSpec"]

log = logging.getLogger("chicago.server")


@dataclass
class TableSpec:
    """A checked request to create a table: its rules, its seats (``"open"`` or
    ``"bot:LEVEL"``), its options and its lobby entry."""

    rules: Rules
    seats: list[str]
    options: TableOptions = field(default_factory=TableOptions)
    name: str = ""
    preset: str = "pagat"
    variations: list[str] = field(default_factory=list)
    private: bool = False

    @property
    def bots_only(self) -> bool:
        """Whether every seat is a bot's (nobody at the table can stop its game)."""
        return all(seat != "open" for seat in self.seats)


@dataclass(frozen=True, slots=True)
class Joiner:
    """A profile taking a seat (docs/CLUB.md): its id and display name."""

    profile: str
    name: str


SpectatorGate = Callable[[LiveTable], Awaitable[None]]
"""Raises TableError when a spectator may not watch a table now (docs/CLUB.md: a running
duplicate round)."""


class TableManager:
    """Every live table of this server process, and the only writer of their logs."""

    def __init__(self, store: Store, settings: Settings, bus: TableBus | None = None,
                 locks: TableLocks | None = None) -> None:
        self.store = store
        self.settings = settings
        self.bus: TableBus = bus if bus is not None else InProcessBus()
        self.locks: TableLocks = locks if locks is not None else NoLocks()
        """The table-writer locks: shared ones when other workers write the same tables
        (docs/SCALING.md); then every change is decided on the stored state."""
        self.worker = secrets.token_hex(8)
        """This process's id in presence notes (several workers)."""
        self.actions = 0
        """Actions accepted so far (players', bots' and stand-ins')."""
        self.tasks = Tasks()
        self.writer = GroupWriter(store)
        self.scheduler = TurnScheduler(settings, self.tasks, bot_turn=self._bot_turn,
                                       clock_ran_out=self._clock_ran_out,
                                       pause_over=self._pause_over)
        self.presence = Presence(self.bus, self.tasks, shared=self.locks.shared,
                                 worker=self.worker)
        self.cache = TableCache(store, settings, bus=self.bus, locks=self.locks,
                                writer=self.writer, scheduler=self.scheduler,
                                presence=self.presence, tasks=self.tasks)
        self.reviews = ReviewService(store, settings, shared=self.locks.shared,
                                     worker=self.worker)
        """The reviews of finished games (queued when a game ends, computed in a process
        pool)."""
        self._services: list[asyncio.Task[None]] = []
        self.finished: list[Callable[[LiveTable], None]] = []
        """Called after a table's game ended and was stored here (the club service: ratings,
        tournament rounds)."""
        self.spectator_gate: SpectatorGate | None = None
        self._random: random.Random | None = (
            random.Random(settings.seed) if settings.seed is not None else None
        )

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables in memory, by id."""
        return self.cache.tables

    @property
    def stats(self) -> dict[str, int]:
        """Counters for ``GET /api/health``: actions accepted, changes stored, transactions,
        reviews computed here."""
        return {"actions": self.actions, "commits": self.writer.commits,
                "batches": self.writer.batches, "reviews": self.reviews.computed}

    def _secret_bits(self) -> int:
        """63 random bits: a game seed."""
        if self._random is not None:
            return self._random.getrandbits(63)
        return secrets.randbits(63)

    def _secret_text(self, nbytes: int) -> str:
        """An unguessable URL-safe text of ``nbytes`` random bytes (ids, tokens)."""
        if self._random is not None:
            return base64.urlsafe_b64encode(self._random.randbytes(nbytes)).rstrip(b"=").decode()
        return secrets.token_urlsafe(nbytes)

    def new_secret(self, nbytes: int = 24) -> str:
        """An unguessable URL-safe text (ids, tokens, profile and organizer secrets)."""
        return self._secret_text(nbytes)

    def new_seed(self) -> int:
        """63 random bits (a seed)."""
        return self._secret_bits()

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the writer; resume the tables in play (their bots and clocks go on)."""
        self.writer.start()
        self._services.append(asyncio.create_task(self.cache.sweep(), name="chicago-sweeper"))
        if self.locks.shared:
            self.tasks.spawn(self.presence.run())
        if self.settings.resume_tables:
            self.tasks.spawn(self.cache.resume())
        await self.reviews.start()

    async def stop(self) -> None:
        """Stop bots, clocks and the writer (pending writes are finished first)."""
        self.tasks.stopping = True
        tables = list(self.tables.values())
        for table in tables:
            self.scheduler.cancel(table)
            for conn in list(table.conns):
                conn.close(1001, "server shutting down")
        await self.tasks.stop()
        await self.reviews.stop()
        await self.scheduler.stop(tables)
        await self.writer.stop()
        for service in self._services:
            service.cancel()
        await asyncio.gather(*self._services, return_exceptions=True)
        await self.bus.close()
        await self.locks.close()

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table (loaded and rebuilt from the log if needed), or None if unknown."""
        return await self.cache.get(table_id)

    async def require(self, table_id: str) -> LiveTable:
        """The live table or TableError 404."""
        table = await self.get(table_id)
        if table is None:
            raise TableError("unknown_table", f"no table {table_id!r}", 404)
        return table

    # ------------------------------------------------------------------ lobby
    async def create(self, spec: TableSpec) -> LiveTable:
        """Create and store a table; it starts at once when no seat is open.

        The table is first built from the row that will be stored, through the very
        constructors that load it (:class:`TableState`, ``Rules.from_dict``, its seats and
        options): what is stored always loads. TableError ``bad_request`` if it cannot be.
        """
        created = now()
        table_id = self._secret_text(16)
        seed = self._secret_bits()
        open_seats = sum(1 for s in spec.seats if s == "open")
        row = TableRow(
            id=table_id, name=spec.name, players=len(spec.seats), preset=spec.preset,
            rules=spec.rules.to_dict(), variations=list(spec.variations),
            seats=list(spec.seats),
            options=spec.options.to_dict(),
            private=spec.private, secret=self._secret_text(16),
            status=WAITING if open_seats else PLAYING, open_seats=open_seats, game=1,
            created_at=created, updated_at=created,
        )
        entry = LogEntry(1, 1, "game", None, {"number": 1, "seed": seed}, created)
        game_row = GameRow(table_id=table_id, number=1, seed=seed, rules=row.rules,
                           players=row.players, status="playing", started_at=created)
        try:
            table = LiveTable(build_table(row, [entry]))
        except (RulesError, ValueError, TypeError, KeyError) as exc:
            raise TableError("bad_request", f"this table could not be stored: {exc}") from None
        await self.writer.commit(Change(table_id, [entry], new_table=row, new_game=game_row))
        self.cache.install(table)
        return table

    async def join(self, table_id: str, seat: int | None, name: str | None,
                   joiner: Joiner | None = None) -> tuple[str, int]:
        """Take an open seat: returns (seat token, seat). ``joiner``: the profile taking it
        (its name is the seat's name); a rated table takes only profiles, one seat each."""
        table = await self.require(table_id)
        async with self.cache.writing(table):
            if joiner is None and table.state.options.rated:
                raise TableError("profile_required", "this table is rated: join it with a "
                                 "profile (docs/CLUB.md)", 403)
            if joiner is not None and any(s.profile == joiner.profile for s in table.state.seats):
                raise TableError("already_seated", "this profile holds a seat at this table "
                                 "already", 409)
            if seat is None:
                seat = next((i for i, s in enumerate(table.state.seats) if s.kind == "open"), None)
                if seat is None:
                    raise TableError("seat_taken", "every seat is taken", 409)
            elif not 0 <= seat < table.state.players:
                raise TableError("bad_request",
                                 f"seat must be 0-{table.state.players - 1}, not {seat}", 400)
            elif table.state.seats[seat].kind != "open":
                what = "a bot's" if table.state.seats[seat].kind == "bot" else "taken"
                raise TableError("seat_taken", f"seat {seat} is {what}", 409)
            token = self._secret_text(24)
            data: dict[str, Any] = {"name": name or None, "token": hash_token(token)}
            if joiner is not None:
                data.update(name=joiner.name, profile=joiner.profile)
            entry = table.state.entry("join", seat, data, now())
            open_after = table.state.open_seats - 1
            status = (WAITING if open_after else
                      FINISHED if table.state.current.is_over else PLAYING)
            change = Change(table.id, [entry], table_updates={
                "open_seats": open_after, "status": status, "updated_at": entry.created_at,
            })
            await self.cache.store_and_publish(table, change)
        return token, seat

    async def claim(self, table_id: str, profile: str) -> tuple[str, int]:
        """The seat a profile holds at a table, with a new seat token (the old one stops
        working: docs/CLUB.md); TableError 404 ``not_seated`` if it holds none."""
        table = await self.require(table_id)
        async with self.cache.writing(table):
            seat = next((i for i, s in enumerate(table.state.seats) if s.profile == profile), None)
            if seat is None:
                raise TableError("not_seated", "this profile holds no seat at this table", 404)
            token = self._secret_text(24)
            entry = table.state.entry("join", seat, {
                "name": table.state.seats[seat].name, "token": hash_token(token),
                "profile": profile, "claim": True}, now())
            await self.cache.store_and_publish(table, Change(table.id, [entry]))
        return token, seat

    async def authenticate(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        """The table and seat of a token, or TableError 401."""
        table = await self.require(table_id)
        seat = table.state.seat_of(token) if token else None
        if seat is None and token and self.locks.shared:  # joined on another worker?
            await self.cache.follow(table)
            seat = table.state.seat_of(token)
        if seat is None:
            raise TableError("bad_token", "not a seat token of this table", 401)
        return table, seat

    async def rematch(self, table: LiveTable, seat: int) -> None:
        """Start the next game at a finished table: same seats, a fresh seed."""
        async with self.cache.writing(table):
            if not table.state.current.is_over:
                raise TableError("not_over", "the game is not over yet", 409)
            if table.state.options.tournament is not None:
                raise TableError("tournament_table", "a tournament table plays one game; the "
                                 "next round seats everyone again", 409)
            started = now()
            number = table.state.game_number + 1
            seed = self._secret_bits()
            entry = LogEntry(table.state.seq + 1, number, "game", seat,
                             {"number": number, "seed": seed}, started)
            change = Change(
                table.id, [entry],
                new_game=GameRow(table_id=table.id, number=number, seed=seed,
                                 rules=table.state.row.rules, players=table.state.players,
                                 status="playing", started_at=started),
                table_updates={"game": number, "status": PLAYING, "updated_at": started},
            )
            await self.cache.store_and_publish(table, change)

    async def table_info(self, row: TableRow) -> dict[str, Any]:
        """Table info for a lobby row (live data when the table is in memory)."""
        table = await self.get(row.id)
        return table.info() if table is not None else {}

    # ------------------------------------------------------------------ play
    async def act(self, table: LiveTable, seat: int, text: str,
                  expected_seq: int | None = None) -> None:
        """A player's action (``text`` in the notation); TableError names why it is refused."""
        async with self.cache.writing(table):
            if expected_seq is not None:
                check_fresh(table.state, expected_seq)
            await self._act_locked(table, seat, text, "player")

    async def _act_locked(self, table: LiveTable, seat: int, text: str, by: str) -> None:
        game = table.state.current
        if table.state.status == WAITING:
            raise TableError("not_started", "an open seat is still waiting for a player", 409)
        if game.is_over:
            raise TableError("game_over", "the game is over; ask for a rematch", 409)
        if table.state.pause is not None:
            raise TableError("paused", f"deal {table.state.pause.deal} starts when everyone has "
                             "pressed Continue", 409)
        if game.to_act != seat:
            raise TableError("not_your_turn", f"seat {game.to_act} is to act, not seat {seat}",
                             409)
        after = game.copy()
        try:
            after.apply(text)
        except IllegalAction as exc:
            raise TableError("illegal_action", f"{text!r}: {exc.reason}", 400) from None
        entries: list[LogEntry] = []
        games: list[Game | None] = []
        if by == "player" and table.state.seats[seat].away:
            entries.append(table.state.entry("back", seat, {}, now()))
            games.append(None)
        elif by == "clock" and table.state.expiries[seat] + 1 >= AWAY_AFTER:
            # the third clock in a row: the seat is marked away, its stand-in plays on
            entries.append(table.state.entry("away", seat, {"reason": "clock"}, now()))
            games.append(None)
        action = str(after.actions[-1][1])
        data: dict[str, Any] = {"action": action, "by": by}
        if len(game.legal_actions()) == 1:
            data["forced"] = True  # the only choice: not a sign the player is there
        entries.append(table.state.entry("act", seat, data, now(), offset=len(entries) + 1))
        games.append(after)
        change = Change(table.id, entries)
        if after.is_over:
            finished = entries[-1].created_at
            record = after.record()
            change.game_number = table.state.game_number
            change.game_updates = {
                "status": "finished", "finished_at": finished, "record": record,
                "result": record["result"],
                "names": [s.name for s in table.state.seats],  # None: a person gave no name
            }
            due = self.reviews.due(table.state.seats)
            if due:  # with the game's end, so that no restart can forget them
                change.game_updates["review_due"] = due
            change.table_updates = {"status": FINISHED, "updated_at": finished}
            change.players, change.rated = finish_rows(table.state, after, finished)
        await self.cache.store_and_publish(table, change, games)
        self.actions += 1
        if after.is_over:
            for listener in self.finished:
                listener(table)
            self.reviews.wake()

    async def back(self, table: LiveTable, seat: int) -> None:
        """The player of ``seat`` takes the seat back from the stand-in bot."""
        async with self.cache.writing(table):
            if table.state.seats[seat].away:
                entry = table.state.entry("back", seat, {}, now())
                await self.cache.store_and_publish(table, Change(table.id, [entry]))

    async def continue_deal(self, table: LiveTable, seat: int) -> None:
        """The person of ``seat`` pressed Continue after a deal; nothing when there is no
        pause or they pressed it already (a click racing the pause's end is harmless)."""
        async with self.cache.writing(table):
            if table.state.pause is not None and seat in table.state.pause.waiting:
                entry = table.state.entry("continue", seat, {"by": "player"}, now())
                await self.cache.store_and_publish(table, Change(table.id, [entry]))

    async def chat(self, table: LiveTable, seat: int, text: str) -> None:
        """A chat line from a seated player."""
        settings = self.settings
        async with self.cache.writing(table):
            table.chat.take(table.state.chat_lines, seat,
                            ChatLimits(settings.chat_per_game, settings.chat_per_minute,
                                       settings.chat_burst), time.monotonic())
            entry = table.state.entry("chat", seat, {"text": text}, now())
            await self.cache.store_and_publish(table, Change(table.id, [entry]))

    # ------------------------------------------------------------------ bots and clocks
    async def _bot_turn(self, table: LiveTable, seq: int, seat: int, by: str) -> None:
        """The scheduler's bot timer fired: the bot (or stand-in) of ``seat`` moves, unless
        the table moved on since ``seq``."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            if table.state.current.to_act != seat:
                return
            level = table.state.seats[seat].level if by == "bot" else table.state.stand_in
            action = await self.scheduler.decide(table, seat, level or "random", seq)
            if table.state.seq != seq:
                return
            try:
                await self._act_locked(table, seat, str(action), by)
            except TableError as exc:
                log.error("table %s: bot %s at seat %d: %s", table.id, level, seat, exc)

    async def _clock_ran_out(self, table: LiveTable, seq: int, seat: int) -> None:
        """The scheduler's turn clock fired: the stand-in makes this one decision for the
        seat (``by`` "clock"), which stays its player's and gets its clock again at its next
        turn; the third time in a row the seat is marked away as well (:meth:`_act_locked`)."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            state = table.state
            if state.current.to_act != seat or state.seats[seat].away or state.pause is not None:
                return
            action = await self.scheduler.decide(table, seat, table.state.stand_in, seq)
            if table.state.seq != seq:
                return
            try:
                await self._act_locked(table, seat, str(action), "clock")
            except TableError as exc:
                log.error("table %s: stand-in %s at seat %d: %s", table.id, table.state.stand_in,
                          seat, exc)

    async def _pause_over(self, table: LiveTable, seq: int) -> None:
        """The pause after a deal ran out: the next deal starts (a ``continue`` entry of no
        seat), whoever has not pressed Continue."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            if table.state.pause is not None:
                entry = table.state.entry("continue", None, {"by": "timeout"}, now())
                await self.cache.store_and_publish(table, Change(table.id, [entry]))

    async def expire_clock(self, table_id: str) -> bool:
        """Run out the turn clock of the seat to act now (for tests and admins): the
        stand-in makes one decision for it. True if it did."""
        table = await self.get(table_id)
        if table is None or table.deadline is None:
            return False
        seat = table.deadline[0]
        before = table.state.seq
        await self._clock_ran_out(table, table.state.seq, seat)
        return table.state.seq > before

    async def end_pause(self, table_id: str) -> bool:
        """Run out the pause after a deal now (for tests and admins); True if it ended."""
        table = await self.get(table_id)
        if table is None or table.state.pause is None:
            return False
        await self._pause_over(table, table.state.seq)
        return table.state.pause is None

    # ------------------------------------------------------------------ connections
    async def hello(self, table: LiveTable, client: Client, token: str | None,
                    last_seq: int | None) -> None:
        """(Re)identify a connection and bring it up to date: replay or snapshot."""
        await self.cache.follow(table)  # with several workers: what the others stored
        seat = None
        if token is not None:
            seat = table.state.seat_of(token)
            if seat is None:
                raise TableError("bad_token", "not a seat token of this table", 401)
            if table.state.seats[seat].away:
                await self.back(table, seat)
        elif self.spectator_gate is not None:
            await self.spectator_gate(table)
        table.conns.discard(client)
        fanout.send_unsent(table)  # stored but not yet sent: the others first, in order
        client.seat = seat
        loop_time = asyncio.get_running_loop().time()
        frames = (fanout.replay(table, seat, last_seq, loop_time)
                  if last_seq is not None else None)
        if frames is None:
            frames = [fanout.snapshot(table, seat, "hello", loop_time)]
        for text in frames:
            client.send(text)
        table.conns.add(client)
        table.touched = time.monotonic()
        self.presence.changed(table)

    def snapshot(self, table: LiveTable, client: Client, reason: str = "view") -> None:
        """Send a fresh snapshot to one connection."""
        client.send(fanout.snapshot(table, client.seat, reason,
                                    asyncio.get_running_loop().time()))

    def detach(self, table: LiveTable, client: Client) -> None:
        """A connection closed."""
        if client in table.conns:
            table.conns.discard(client)
            table.touched = time.monotonic()
            self.presence.changed(table)
