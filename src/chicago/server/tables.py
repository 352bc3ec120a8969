"""The table manager: every request that changes a table, and the wiring of the modules that
serve the tables.

:class:`TableManager` is the only way a table changes. For every request (a game starts, a
seat is joined, an action is accepted, a stand-in bot takes a seat or gives it back, a chat
line) it holds the table and has the table core decide on its current state
(:mod:`chicago.server.core.decide`): the answer is a :class:`~chicago.server.core.rows.Change`
whose log entries carry the table's next sequence numbers. The change is stored (a group
commit shared by all tables, through the :class:`~chicago.server.core.ports.Storage`), then
applied to the in-memory table and published on the
:class:`~chicago.server.core.ports.TableBus`, whose handler sends each connection the frames
its seat may see. A table's memory state only ever moves on after its entry is stored, and
can always be rebuilt from the log (:meth:`TableState.apply`).

The work is split by concern:

- :mod:`chicago.server.core`: one table's state, the decisions on it, what it waits for and
  its frames, apart from storage and transport;
- :mod:`chicago.server.live`: a table held by this process (its state and how it is served);
- :mod:`chicago.server.writer`: the group-commit writer of every table's log;
- :mod:`chicago.server.cache`: the tables held in memory, loaded, followed and written;
- :mod:`chicago.server.schedule`: the timer of what each table waits for, the bots;
- :mod:`chicago.server.presence`: who is connected, on the bus's presence channel;
- :mod:`chicago.server.fanout`: the frames of each entry, sent to the connections;
- this module: the lobby's and the players' requests (create, join, act, chat, rematch,
  hello …) and the bots' and clocks' moves.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from chicago.engine.actions import Action
from chicago.server import credentials, fanout
from chicago.server.bus import InProcessBus
from chicago.server.cache import TableCache
from chicago.server.clock import Clock, SystemClock
from chicago.server.core import decide
from chicago.server.core.chat import ChatLimits
from chicago.server.core.decide import Joiner, TableSpec
from chicago.server.core.ports import Client, Storage, TableBus
from chicago.server.core.rows import Change, TableRow
from chicago.server.core.seats import Seat, hash_token
from chicago.server.core.state import check_fresh
from chicago.server.core.turns import BotMoves, ClockRuns, next_turn
from chicago.server.live import LiveTable
from chicago.server.locking import NoLocks, TableLocks
from chicago.server.presence import Presence
from chicago.server.protocol import TableError
from chicago.server.schedule import TurnScheduler
from chicago.server.settings import Settings
from chicago.server.tasks import Tasks
from chicago.server.writer import GroupWriter

__all__ = ["REPLIES_PER_SEAT", "NoReviews", "Reviews", "SpectatorGate", "TableManager"]

log = logging.getLogger("chicago.server")


REPLIES_PER_SEAT = 2
"""The most replies per seat that the bots make at once after an action, stored and sent
with it (one burst, one ``batch`` frame for a client that takes batches): a bot may answer
twice when a trick ends between its turns; a table of bots alone still yields to the
others after two rounds."""


SpectatorGate = Callable[[LiveTable], Awaitable[None]]
"""Raises TableError when a spectator may not watch a table now (docs/CLUB.md: a running
duplicate round)."""

SeatGate = Callable[[LiveTable, int], Awaitable[None]]
"""Raises TableError 401 when the token of a seat tied to a profile was issued under a
credential the profile has replaced since (:mod:`chicago.server.credentials`)."""


class Reviews(Protocol):
    """The reviews of finished games as the table manager sees them
    (:class:`chicago.server.reviews.ReviewService`; :class:`NoReviews` without one)."""

    computed: int
    """Reviews computed by this process so far."""

    def due(self, seats: Sequence[Seat]) -> list[int]:
        """The seats to mark due for review when a game at a table of these seats ends."""
        ...

    def wake(self) -> None:
        """A game ended: look for due reviews now."""
        ...

    async def start(self) -> None:
        """Start computing reviews."""
        ...

    async def stop(self) -> None:
        """Stop computing them."""
        ...


class NoReviews:
    """No reviews: no seat is ever due (a table manager without a review service)."""

    computed = 0

    def due(self, seats: Sequence[Seat]) -> list[int]:
        """None."""
        return []

    def wake(self) -> None:
        """Nothing to wake."""

    async def start(self) -> None:
        """Nothing to start."""

    async def stop(self) -> None:
        """Nothing to stop."""


class TableManager:
    """Every live table of this server process, and the only writer of their logs.

    Driven through protocols only (:mod:`chicago.server.core.ports`): ``storage`` keeps the
    logs (the SQLAlchemy :class:`~chicago.server.storage.Store` in the server), ``bus``
    carries the news between workers, ``reviews`` reviews finished games. ``worker``: this
    process's id among the workers (random when not given)."""

    def __init__(self, storage: Storage, settings: Settings, bus: TableBus | None = None,
                 locks: TableLocks | None = None, *, reviews: Reviews | None = None,
                 worker: str | None = None, clock: Clock | None = None) -> None:
        self.storage = storage
        self.settings = settings
        self.clock: Clock = clock if clock is not None else SystemClock()
        """The server's clock: every decision's time (tests move it forward)."""
        self.bus: TableBus = bus if bus is not None else InProcessBus()
        self.locks: TableLocks = locks if locks is not None else NoLocks()
        """The table-writer locks: shared ones when other workers write the same tables
        (docs/SCALING.md); then every change is decided on the stored state."""
        self.worker = worker if worker is not None else secrets.token_hex(8)
        """This process's id in presence notes (several workers)."""
        self.actions = 0
        """Actions accepted so far (players', bots' and stand-ins')."""
        self.tasks = Tasks()
        self.writer = GroupWriter(storage)
        self.scheduler = TurnScheduler(settings, self.tasks, bot_turn=self._bot_turn,
                                       clock_ran_out=self._clock_ran_out,
                                       pause_over=self._pause_over,
                                       answers_over=self._answers_over, clock=self.clock)
        self.presence = Presence(self.bus, self.tasks, shared=self.locks.shared,
                                 worker=self.worker)
        self.cache = TableCache(storage, settings, bus=self.bus, locks=self.locks,
                                writer=self.writer, scheduler=self.scheduler,
                                presence=self.presence, tasks=self.tasks, clock=self.clock)
        self.reviews: Reviews = reviews if reviews is not None else NoReviews()
        """The reviews of finished games (queued when a game ends, computed in a process
        pool)."""
        self._services: list[asyncio.Task[None]] = []
        self.finished: list[Callable[[LiveTable], None]] = []
        """Called after a table's game ended and was stored here (the club service: ratings,
        tournament rounds)."""
        self.spectator_gate: SpectatorGate | None = None
        self.seat_gate: SeatGate | None = None
        self.rematch_gate: Callable[[], Awaitable[None]] | None = None
        """Raises TableError (429) when the site may start no more games now: every next
        game a table starts (a rematch all agreed to) passes it (the server's admission:
        :mod:`chicago.server.admission`)."""
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
        self.clock.on_moved(self._clock_moved)
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
        """Create and store a table; it starts at once when no seat is open. TableError
        ``bad_request`` if what would be stored could not be loaded
        (:func:`chicago.server.core.decide.new_table`)."""
        table_id = self._secret_text(16)
        seed = self._secret_bits()  # id, seed, secret: a seeded server makes the same tables
        state, change = decide.new_table(spec, table_id=table_id, seed=seed,
                                         secret=self._secret_text(16), at=self.clock.time())
        await self.writer.commit(change)
        table = LiveTable(state, self.clock)
        self.cache.install(table)
        return table

    async def join(self, table_id: str, seat: int | None, name: str | None,
                   joiner: Joiner | None = None) -> tuple[str, int]:
        """Take an open seat: returns (seat token, seat). ``joiner``: the profile taking it
        (its name is the seat's name); a rated table takes only profiles, one seat each."""
        table = await self.require(table_id)
        async with self.cache.writing(table):
            token = self._secret_text(24)
            seat, change = decide.join(table.state, seat, name, joiner,
                                       token_hash=hash_token(token), seed=self._secret_bits(),
                                       at=self.clock.time())
            await self._store(table, change)
        return token, seat

    async def claim(self, table_id: str, profile: str,
                    grant: str | None = None) -> tuple[str, int]:
        """The seat a profile holds at a table, with a new seat token issued under the
        profile's ``grant`` (the old token stops working, and its open connections end:
        docs/CLUB.md); TableError 404 ``not_seated`` if it holds none."""
        table = await self.require(table_id)
        async with self.cache.writing(table):
            token = self._secret_text(24)
            seat, change = decide.claim(table.state, profile, token_hash=hash_token(token),
                                        at=self.clock.time(), grant=grant)
            await self.cache.store_and_publish(table, change)
        return token, seat

    async def authenticate(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        """The table and seat of a token, or TableError 401."""
        table = await self.require(table_id)
        if token and self.locks.shared:  # joined, or claimed, on another worker?
            await self.cache.follow(table)
        seat = table.state.seat_of(token) if token else None
        if seat is None:
            raise TableError("bad_token", "not a seat token of this table", 401)
        await self._check_grant(table, seat)
        return table, seat

    async def _check_grant(self, table: LiveTable, seat: int) -> None:
        """TableError 401 when the seat's token was issued under a profile credential
        replaced since (sign out everywhere)."""
        if self.seat_gate is not None and table.state.seats[seat].profile is not None:
            await self.seat_gate(table, seat)

    # ------------------------------------------------------------------ after a game
    async def rematch(self, table: LiveTable, seat: int, *,
                      holder: Client | None = None) -> None:
        """The person of ``seat`` wants to play again: the next game starts (same seats, a
        fresh seed) when every person at the table has agreed
        (:mod:`chicago.server.core.rematch`). ``holder``: the connection asking (refused if
        it no longer holds the seat), as for every player's request below."""
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            await self._store(table, decide.agree(table.state, seat, seed=self._secret_bits(),
                                                  at=self.clock.time()))

    async def decline(self, table: LiveTable, seat: int, *,
                      holder: Client | None = None) -> None:
        """The person of ``seat`` does not want to play again: they leave the table."""
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            await self._store(table, decide.decline(table.state, seat, at=self.clock.time()))

    async def fill(self, table: LiveTable, seat: int, *,
                   holder: Client | None = None) -> None:
        """A person who agreed to play again gives the open seats to bots."""
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            await self._store(table, decide.fill(table.state, seat, seed=self._secret_bits(),
                                                 at=self.clock.time()))

    async def _answers_over(self, table: LiveTable, seq: int) -> None:
        """The time to answer Play again ran out: who did not answer leaves the table."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            await self._store(table, decide.answers_over(table.state, at=self.clock.time()))

    def _clock_moved(self) -> None:
        """The clock jumped forward (tests): every table's timer is worked out again."""
        for table in list(self.tables.values()):
            self.scheduler.schedule(table)

    async def table_info(self, row: TableRow) -> dict[str, Any]:
        """Table info for a lobby row (live data when the table is in memory)."""
        table = await self.get(row.id)
        return table.info() if table is not None else {}

    # ------------------------------------------------------------------ play
    async def act(self, table: LiveTable, seat: int, text: str,
                  expected_seq: int | None = None, *, holder: Client | None = None) -> None:
        """A player's action (``text`` in the notation); TableError names why it is refused."""
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            if expected_seq is not None:
                check_fresh(table.state, expected_seq)
            await self._act_locked(table, seat, text, "player")
        self.cache.let_go(table)

    async def _act_locked(self, table: LiveTable, seat: int, text: str | Action,
                          by: str) -> None:
        at = self.clock.time()
        due = self.reviews.due(table.state.seats)
        move = decide.act(table.state, seat, text, by, at=at, review_due=due)
        moves = [move, *await self._replies(table, move, at, due)]
        await self.cache.store_all(table, [(m.change, m.games) for m in moves])
        self.actions += len(moves)
        if moves[-1].game_over:
            for listener in self.finished:
                listener(table)
            self.reviews.wake()

    async def _replies(self, table: LiveTable, move: decide.Move, at: float,
                       review_due: Sequence[int]) -> list[decide.Move]:
        """The replies of the bots whose turns follow ``move`` at once (a table without a
        ``bot_delay``, bots that decide in the loop: :meth:`TurnScheduler.in_loop`), to be
        stored in the same write as ``move``: what their timers would have made, one after
        the other, each decided on the state after the ones before (a preview of it,
        :meth:`TableState.preview`), with the same seeds. At most :data:`REPLIES_PER_SEAT`
        replies per seat of the table (enough for every bot's turn up to the person's next
        one at a table of one person, across a trick's end), and none past a deal's pause
        or the game's end, so that a table of bots still takes turns with the others: its
        timer takes it on from there. A reply that the core refuses, or a bot that fails,
        is the bot's bug: logged, and the replies end before it (the action and the replies
        before it are stored all the same; the bot's timer tries again)."""
        if move.game_over or any(e.kind != "act" for e in move.change.entries):
            return []  # a seat taken back or marked away: its timers take it on
        state = table.state.preview()
        for entry, game in zip(move.change.entries, move.games, strict=True):
            state.apply(entry, game)
        replies: list[decide.Move] = []
        while len(replies) < REPLIES_PER_SEAT * state.players:
            turn = next_turn(state, at)
            if (not isinstance(turn, BotMoves) or turn.delay > 0
                    or not self.scheduler.in_loop(table, turn.seat, turn.level)):
                break
            try:
                action = await self.scheduler.decide(table, turn.seat, turn.level, state.seq,
                                                     state.current)
                reply = decide.act(state, turn.seat, action, turn.by, at=at,
                                   review_due=review_due)
            except TableError as exc:
                log.error("table %s: %s %s at seat %d: %s", table.id, turn.by, turn.level,
                          turn.seat, exc)
                break
            except Exception:  # the bot's bug: the action it answers is stored all the same
                log.exception("table %s: the %s %s of seat %d failed to reply", table.id,
                              turn.by, turn.level, turn.seat)
                break
            replies.append(reply)
            if reply.game_over:
                break
            for entry, game in zip(reply.change.entries, reply.games, strict=True):
                state.apply(entry, game)
        return replies

    async def back(self, table: LiveTable, seat: int, *,
                   holder: Client | None = None) -> None:
        """The player of ``seat`` takes the seat back from the stand-in bot."""
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            await self._store(table, decide.back(table.state, seat, at=self.clock.time()))

    async def continue_deal(self, table: LiveTable, seat: int, *,
                            holder: Client | None = None) -> None:
        """The person of ``seat`` pressed Continue after a deal; nothing when there is no
        pause or they pressed it already (a click racing the pause's end is harmless)."""
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            await self._store(table, decide.continue_deal(table.state, seat, at=self.clock.time()))

    async def chat(self, table: LiveTable, seat: int, text: str, *,
                   holder: Client | None = None) -> None:
        """A chat line from a seated player (within the chat limits)."""
        settings = self.settings
        async with self.cache.writing(table):
            credentials.require_holder(table, seat, holder)
            table.chat.take(table.state.chat_lines, seat,
                            ChatLimits(settings.chat_per_game, settings.chat_per_minute,
                                       settings.chat_burst), time.monotonic())
            await self._store(table, decide.chat(table.state, seat, text, at=self.clock.time()))

    async def _store(self, table: LiveTable, change: Change | None) -> None:
        """Store, apply and publish a decided change (none: nothing to do). A change that
        starts a game (a rematch all agreed to) passes :attr:`rematch_gate` first."""
        if change is None:
            return
        if change.new_game is not None and self.rematch_gate is not None:
            await self.rematch_gate()
        await self.cache.store_and_publish(table, change)

    # ------------------------------------------------------------------ bots and clocks
    async def _bot_turn(self, table: LiveTable, seq: int, seat: int, by: str) -> None:
        """The scheduler's bot timer fired: the bot (or stand-in) of ``seat`` moves, unless
        the table moved on since ``seq``."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            turn = next_turn(table.state, self.clock.time())
            if not isinstance(turn, BotMoves) or (turn.seat, turn.by) != (seat, by):
                return
            await self._stand_in_acts(table, seq, turn.seat, turn.level, by)
        self.cache.let_go(table)  # a game of bots that nobody watched is over

    async def _clock_ran_out(self, table: LiveTable, seq: int, seat: int) -> None:
        """The scheduler's turn clock fired: the stand-in makes this one decision for the
        seat (``by`` "clock"), which stays its player's and gets its clock again at its next
        turn; the third time in a row the seat is marked away as well
        (:func:`chicago.server.core.decide.act`)."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            turn = next_turn(table.state, self.clock.time())
            if not isinstance(turn, ClockRuns) or turn.seat != seat:
                return
            await self._stand_in_acts(table, seq, seat, table.state.stand_in, "clock")

    async def _stand_in_acts(self, table: LiveTable, seq: int, seat: int, level: str,
                             by: str) -> None:
        """The bot of ``level`` decides for ``seat`` and its action is made ``by`` it (the
        caller holds the table, unchanged since ``seq``); a refusal is the bot's bug, logged."""
        action = await self.scheduler.decide(table, seat, level, seq)
        if table.state.seq != seq:
            return
        try:
            await self._act_locked(table, seat, action, by)
        except TableError as exc:
            log.error("table %s: %s %s at seat %d: %s", table.id, by, level, seat, exc)

    async def _pause_over(self, table: LiveTable, seq: int) -> None:
        """The pause after a deal ran out: the next deal starts (a ``continue`` entry of no
        seat), whoever has not pressed Continue."""
        async with self.cache.writing(table):
            if not self.cache.holds(table) or not self.scheduler.fired(table, seq):
                return
            await self._store(table, decide.pause_over(table.state, at=self.clock.time()))

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
                    last_seq: int | None, batch: bool = False) -> None:
        """(Re)identify a connection and bring it up to date: replay or snapshot. ``batch``:
        from now on it takes the updates of a burst in one ``batch`` frame
        (:mod:`chicago.server.fanout`), and a replay's updates in batches too."""
        await self.cache.follow(table)  # with several workers: what the others stored
        seat = None
        grant = None
        if token is not None:
            seat = table.state.seat_of(token)
            if seat is None:
                raise TableError("bad_token", "not a seat token of this table", 401)
            grant = table.state.seats[seat].grant
            await self._check_grant(table, seat)
            if table.state.seats[seat].away:
                await self.back(table, seat)
        elif self.spectator_gate is not None:
            await self.spectator_gate(table)
        table.conns.discard(client)
        fanout.send_unsent(table)  # stored but not yet sent: the others first, in order
        client.seat = seat
        client.batched = batch
        client.token_hash = hash_token(token) if seat is not None and token else None
        client.grant = grant
        loop_time = asyncio.get_running_loop().time()
        frames = (fanout.replay(table, seat, last_seq, loop_time, batch)
                  if last_seq is not None else None)
        if frames is None:
            frames = [fanout.snapshot(table, seat, "hello", loop_time)]
        for text in frames:
            client.send(text)
        table.conns.add(client)
        credentials.end_replaced(table)  # a claim stored while it was brought up to date
        table.touched = time.monotonic()
        self.presence.changed(table)

    def snapshot(self, table: LiveTable, client: Client, reason: str = "view") -> None:
        """Send a fresh snapshot to one connection."""
        client.send(fanout.snapshot(table, client.seat, reason,
                                    asyncio.get_running_loop().time()))

    def detach(self, table: LiveTable, client: Client) -> None:
        """A connection closed. A finished table that its last connection left is let go
        (:meth:`TableCache.let_go`)."""
        if client in table.conns:
            table.conns.discard(client)
            table.touched = time.monotonic()
            self.presence.changed(table)
            self.cache.let_go(table)
