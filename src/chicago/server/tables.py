"""Live tables: the engine game of each table, rebuilt from its stored log, and the one writer.

:class:`TableManager` is the only way a table changes. Every change (a game starts, a seat is
joined, an action is accepted, a stand-in bot takes a seat or gives it back, a chat line)
becomes a :class:`~chicago.server.storage.LogEntry` with the table's next sequence number, is
stored (a group commit shared by all tables), then applied to the in-memory table and
published on the :class:`~chicago.server.bus.TableBus`, whose handler sends each connection
the frames its seat may see. A table's memory state only ever moves on after its entry is
stored, and can always be rebuilt from the log (:meth:`LiveTable.apply`).

Bots play here, through the same view/legal-actions interface as every shell:
``make_bot(level).decide(game.view(seat), game.legal_actions(), rng)`` with an rng seeded from
the table's secret and the sequence number (so a bot's choice does not depend on restarts).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from chicago.bots import Bot, make_bot
from chicago.engine.actions import Action, ActionKind
from chicago.engine.game import Game, IllegalAction
from chicago.rules import Rules
from chicago.server import protocol
from chicago.server.bus import InProcessBus, Subscription, TableBus
from chicago.server.locking import NoLocks, TableBusy, TableLocks
from chicago.server.settings import Settings, default_bot_workers
from chicago.server.storage import SEAT_KINDS, Change, GameRow, LogEntry, Store, TableRow

__all__ = [
    "Client",
    "LiveTable",
    "Seat",
    "TableError",
    "TableManager",
    "TableSpec",
    "default_name",
    "hash_token",
    "stored_name",
]

log = logging.getLogger("chicago.server")

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"

PRESENCE_EVERY = 10.0
"""With several workers: seconds between a worker's presence messages for the tables its
clients watch (who is connected there; not stored, carried by the bus)."""
PRESENCE_TTL = 3 * PRESENCE_EVERY
"""Seconds after which another worker's presence message no longer counts (it died)."""


class TableError(Exception):
    """A refused request: an error ``code`` (docs/PROTOCOL.md), words, and an HTTP status."""

    def __init__(self, code: str, message: str | None = None, status: int = 400) -> None:
        self.code = code
        self.message = message or protocol.ERROR_CODES.get(code, code)
        self.status = status
        super().__init__(f"{code}: {self.message}")


class Client(Protocol):
    """A connection as the manager sees it (implemented in :mod:`chicago.server.ws`)."""

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


@dataclass
class TableSpec:
    """A checked request to create a table."""

    rules: Rules
    seats: list[str]
    name: str = ""
    preset: str = "pagat"
    variations: list[str] = field(default_factory=list)
    private: bool = False
    clock: float | None = None
    stand_in: str = "random"
    bot_delay: float = 0.0


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


def _now() -> float:
    """UNIX time rounded to whole microseconds (so ISO times round-trip exactly)."""
    return round(time.time(), 6)


def _iso(timestamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


class LiveTable:
    """One table in memory: its seats, its current game and the entries of that game."""

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        self.seats: list[Seat] = []
        for spec in row.seats:
            if spec == "open":
                self.seats.append(Seat("open"))
            else:
                level = spec.split(":", 1)[1]
                self.seats.append(Seat("bot", level=level, name=level))
        self.clock: float | None = row.options.get("clock")
        self.stand_in: str = row.options.get("stand_in", "random")
        self.bot_delay: float = float(row.options.get("bot_delay", 0.0))
        self.game: Game | None = None
        self.game_number = 0
        self.game_start_seq = 0
        self.game_seq = 0
        """The seq of the last entry that changed the game: its ``game`` entry or its latest
        ``act``. An action decided at this seq or later is not stale (chat lines and seat
        changes since do not change what the action means)."""
        self.seq = 0
        self.sent = 0  # the highest seq whose frames this process has sent its connections
        self.entries: list[LogEntry] = []  # the current game's entries, from its "game" entry
        self.spans: dict[int, tuple[int, int]] = {}  # act seq -> its events in game.events
        self.conns: set[Client] = set()
        self.lock = asyncio.Lock()
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: tuple[int, float] | None = None  # (seat, loop time) of the turn clock
        self.turn_started: float | None = None
        """UNIX time at which the seat to act got its turn: the ``created_at`` of the stored
        entry that gave it (``game``, ``act``, ``join``, or that seat's ``back``), so the turn
        clock's deadline (this plus :attr:`clock`) survives restarts and is the same on every
        worker. Chat lines and other seats' changes do not move it."""
        self.bots: dict[tuple[int, str], Bot] = {}
        self.touched = time.monotonic()
        self.updated_at = row.updated_at
        self.subscription: Subscription | None = None
        self.remote: dict[str, tuple[float, frozenset[int]]] = {}
        """Other workers' connected seats: worker id -> (monotonic time heard, seats)."""

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

    def connected(self) -> list[bool]:
        """Per seat: a bot, or a person with an open connection (here or, with several
        workers, at another worker that said so in the last :data:`PRESENCE_TTL` seconds)."""
        people = {c.seat for c in self.conns}
        if self.remote:
            now = time.monotonic()
            for heard, seats in self.remote.values():
                if now - heard <= PRESENCE_TTL:
                    people |= seats
        return [s.kind == "bot" or i in people for i, s in enumerate(self.seats)]

    def seat_infos(self) -> list[dict[str, Any]]:
        """The seats as the lobby and the clients see them."""
        online = self.connected()
        return [
            {
                "seat": i, "kind": s.kind, "level": s.level, "name": s.name,
                "taken": s.kind != "open", "connected": online[i], "away": s.away,
            }
            for i, s in enumerate(self.seats)
        ]

    def info(self) -> dict[str, Any]:
        """The table info of docs/PROTOCOL.md."""
        game = self.current
        options = self.row.options
        return {
            "id": self.id, "name": self.row.name, "status": self.status,
            "players": self.players, "preset": self.row.preset,
            "variations": list(self.row.variations), "rules": dict(self.row.rules),
            "seats": self.seat_infos(), "game": self.game_number, "seq": self.seq,
            "to_act": game.to_act, "scores": list(game.scores),
            "clock": options.get("clock"), "stand_in": options.get("stand_in"),
            "bot_delay": options.get("bot_delay", 0.0), "private": self.row.private,
            "created": _iso(self.row.created_at), "updated": _iso(self.updated_at),
        }

    def clock_left(self, now: float) -> float | None:
        """Seconds left on the turn clock at UNIX time ``now`` (negative: it ran out), or
        None when the table has no clock."""
        if not self.clock or self.turn_started is None:
            return None
        return self.turn_started + self.clock - now

    def grant_grace(self, now: float, grace: float) -> None:
        """After loading from storage: a turn clock with less than ``grace`` seconds left (it
        ran out, or nearly, while no server held the table) gets ``grace`` seconds, but never
        more than the clock itself."""
        left = self.clock_left(now)
        if left is not None and self.clock:
            floor = min(grace, self.clock)
            if left < floor:
                self.turn_started = now + floor - self.clock

    def clock_info(self, loop_time: float) -> dict[str, int] | None:
        """The running turn clock: ``{"seat", "ms"}`` left, or None."""
        if self.deadline is None:
            return None
        seat, deadline = self.deadline
        return {"seat": seat, "ms": max(0, int((deadline - loop_time) * 1000))}

    # ------------------------------------------------------------------ log
    def apply(self, entry: LogEntry, game: Game | None = None) -> None:
        """Apply a stored entry (the next in sequence). ``game``: the game after an ``act``
        entry when the caller already computed it (the writer does, to check the action)."""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"table {self.id}: entry {entry.seq} after {self.seq}")
        kind, data = entry.kind, entry.data
        if kind == "game":
            self.game = Game(self.rules, self.players, seed=int(data["seed"]))
            self.game_number = int(data["number"])
            self.game_start_seq = entry.seq
            self.game_seq = entry.seq
            self.entries = []
            self.spans = {}
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
        elif kind in SEAT_KINDS:
            self._seat_change(entry)
        elif kind != "chat":
            raise RuntimeError(f"table {self.id}: unknown entry kind {kind!r}")
        if kind in ("game", "act", "join") or (
                kind == "back" and self.game is not None and entry.seat == self.game.to_act):
            self.turn_started = entry.created_at
        self.seq = entry.seq
        self.entries.append(entry)
        self.updated_at = entry.created_at

    def _seat_change(self, entry: LogEntry) -> None:
        """Apply a ``join``, ``away`` or ``back`` entry to the seats."""
        if entry.seat is None or not 0 <= entry.seat < self.players:
            raise RuntimeError(f"table {self.id}: {entry.kind} entry {entry.seq} has no seat")
        seat = self.seats[entry.seat]
        if entry.kind == "join":
            seat.kind, seat.name = "human", stored_name(entry.data.get("name"), entry.seat)
            seat.token_hash = entry.data["token"]
        else:
            seat.away = entry.kind == "away"

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

    # ------------------------------------------------------------------ frames
    def frames(
        self, entry: LogEntry, audience: int | None, *, state: bool, loop_time: float,
        public: dict[str, Any] | None = None,
    ) -> list[str]:
        """The frames of one stored entry for one audience (a seat, or None: spectators).

        ``state``: include the update's ``state`` (true for live frames and the last frame of
        a replay; the state is the table's current one).
        """
        kind = entry.kind
        if kind == "act":
            game = self.current
            start, end = self.spans[entry.seq]
            events = [e.to_json() for e in game.events[start:end] if e.visible_to(audience)]
            text = entry.data["action"]
            kind, shown = _action_kind(text)
            frame: dict[str, Any] = {
                "type": "update", "seq": entry.seq, "game": entry.game, "seat": entry.seat,
                "action": text if shown or audience == entry.seat else None, "kind": kind,
                "by": entry.data.get("by", "player"), "events": events, "state": None,
                "clock": None,
            }
            if state:
                if public is None:
                    public = protocol.public_state(game)
                frame["clock"] = self.clock_info(loop_time)
                del frame["state"]
                head = protocol.dumps(frame)
                # the public part of the state is encoded once per action and shared
                public_json = public.get("__json__")
                if public_json is None:
                    public_json = public["__json__"] = protocol.dumps(public)
                private = protocol.dumps(protocol.seat_state(game, audience, {}))
                out = [f'{head[:-1]},"state":{public_json[:-1]},{private[1:]}}}']
            else:
                out = [protocol.dumps(frame)]
            end_event = next((e for e in events if e["type"] == "game_end"), None)
            if end_event is not None:
                out.append(protocol.dumps({
                    "type": "game_over", "seq": entry.seq, "game": entry.game,
                    "winners": end_event["winners"], "scores": end_event["scores"],
                    "settlement": end_event["settlement"],
                    "record": f"/api/games/{self.id}/{entry.game}",
                }))
            return out
        if kind in ("join", "away", "back"):
            # status: a join that takes the last open seat starts the game ("playing");
            # clock: the turn clock as it runs now (it starts then, stops while a stand-in
            # plays, and starts again when the seat to act is given back)
            return [protocol.dumps({
                "type": "seats", "seq": entry.seq, "change": kind, "seat": entry.seat,
                "seats": self.seat_infos(), "status": self.status,
                "clock": self.clock_info(loop_time),
            })]
        if kind == "chat":
            seat = entry.seat if entry.seat is not None else -1
            return [protocol.dumps({
                "type": "chat", "seq": entry.seq, "seat": entry.seat,
                "name": self.seats[seat].name, "text": entry.data["text"],
            })]
        # a new game
        return [self.snapshot(audience, "rematch", loop_time)]

    def snapshot(self, audience: int | None, reason: str, loop_time: float) -> str:
        """A ``snapshot`` frame for one audience."""
        return protocol.dumps({
            "type": "snapshot", "seq": self.seq, "reason": reason, "you": audience,
            "table": self.info(), "view": self.current.view(audience),
            "clock": self.clock_info(loop_time),
        })

    def replay(self, audience: int | None, last_seq: int, loop_time: float) -> list[str] | None:
        """The frames after ``last_seq`` for a reconnecting client, or None when only a
        snapshot will do (``last_seq`` before the current game or beyond the table's seq)."""
        if last_seq < self.game_start_seq or last_seq > self.seq:
            return None
        missed = [e for e in self.entries if e.seq > last_seq]
        last_act = max((e.seq for e in missed if e.kind == "act"), default=None)
        out: list[str] = []
        for entry in missed:
            out.extend(self.frames(entry, audience, state=entry.seq == last_act,
                                   loop_time=loop_time))
        out.append(protocol.dumps({
            "type": "resumed", "seq": self.seq, "you": audience, "table": self.info(),
            "clock": self.clock_info(loop_time),
        }))
        return out


_HIDDEN_KINDS = (ActionKind.DISCARD, ActionKind.ONE_UP)


def _action_kind(text: str) -> tuple[str, bool]:
    """An action's kind word, and whether its text may be shown to every seat: the cards of a
    discard (R-EX-2) or of a one-up request (V-ONE-UP) are for the actor's eyes only."""
    action = Action.parse(text)
    return action.kind.value, not (action.kind in _HIDDEN_KINDS and action.cards)


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
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._queue: asyncio.Queue[tuple[Change, asyncio.Future[None]]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._writer: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopping = False
        self.stats = {"actions": 0, "commits": 0, "batches": 0}
        self.worker = secrets.token_hex(8)
        """This process's id in presence messages (several workers)."""
        self._random: random.Random | None = (
            random.Random(settings.seed) if settings.seed is not None else None
        )
        self._bot_pool = ThreadPoolExecutor(
            settings.bot_workers or default_bot_workers(), thread_name_prefix="chicago-bot")
        """Where built-in bots decide (not the default executor: the database's)."""
        self._external_pool = ThreadPoolExecutor(
            settings.external_bot_workers, thread_name_prefix="chicago-program")
        """Where external bot programs are asked and stopped: each holds its thread while it
        thinks, so they never keep built-in bots or the database waiting."""

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

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the writer; resume the tables in play (their bots and clocks go on)."""
        self._writer = asyncio.create_task(self._write_loop(), name="chicago-writer")
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="chicago-sweeper")
        if self.locks.shared:
            self._spawn(self._presence_loop())
        if self.settings.resume_tables:
            self._spawn(self._resume())

    async def _resume(self) -> None:
        """Load every table in play (so their bots and clocks go on). A table that cannot be
        loaded is logged and skipped: the others are resumed all the same."""
        try:
            ids = await asyncio.to_thread(self.store.live_table_ids)
        except Exception:
            log.exception("cannot list the tables in play to resume them")
            return
        failed = 0
        for table_id in ids:
            if self._stopping:
                return
            try:
                await self.get(table_id)
            except Exception:
                failed += 1
                log.exception("table %s cannot be resumed; skipping it", table_id)
        if failed:
            log.error("%d of %d tables in play could not be resumed", failed, len(ids))

    async def stop(self) -> None:
        """Stop bots, clocks and the writer (pending writes are finished first)."""
        self._stopping = True
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for conn in list(table.conns):
                conn.close(1001, "server shutting down")
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        releases = [r for r in (self._bots_release(t) for t in self.tables.values())
                    if r is not None]
        if releases:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self._external_pool, r)
                                   for r in releases))
        # decisions still running finish in their threads (an external one by its time limit)
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._external_pool.shutdown(wait=False, cancel_futures=True)
        while not self._queue.empty():
            await asyncio.sleep(0.01)
        for service in (self._writer, self._sweeper):
            if service is not None:
                service.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await service
        await self.bus.close()
        await self.locks.close()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table task failed", exc_info=task.exception())

    # ------------------------------------------------------------------ storage
    async def _commit(self, change: Change) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((change, future))
        await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 1000:
                batch.append(self._queue.get_nowait())
            try:
                results = await asyncio.to_thread(self.store.write, [c for c, _ in batch])
            except Exception as exc:  # the store itself failed
                results = [exc] * len(batch)
            self.stats["batches"] += 1
            self.stats["commits"] += len(batch)
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if result is None:
                    future.set_result(None)
                else:
                    future.set_exception(result)

    async def _store_and_publish(
        self, table: LiveTable, change: Change, games: list[Game | None] | None = None
    ) -> None:
        """Store ``change`` (its entries follow ``table.seq``), apply it, publish it.

        The caller holds ``table.lock``. On a storage failure the table is dropped from
        memory (it is rebuilt from the log on next use) and TableError("internal") raised.
        """
        try:
            await self._commit(change)
        except Exception as exc:
            log.error("table %s: storing seq %s failed: %s", table.id,
                      [e.seq for e in change.entries], exc)
            self._drop(table, 1011, "storage failure, reconnect to resync")
            raise TableError("internal", f"the change could not be stored ({exc})", 503) from exc
        for index, entry in enumerate(change.entries):
            table.apply(entry, games[index] if games else None)
        table.touched = time.monotonic()
        self._schedule(table)
        for entry in change.entries:
            await self.bus.publish(table.id, entry)

    @contextlib.asynccontextmanager
    async def _writing(self, table: LiveTable) -> AsyncIterator[None]:
        """Hold the table for a change: its in-process lock and, with several workers, its
        shared writer lock, having first applied what other workers stored meanwhile."""
        async with table.lock:
            try:
                async with self.locks.hold(table.id) as held:
                    if held.last_seq is not None and held.last_seq > table.seq:
                        await self._follow(table, wait=False)
                        if table.seq != held.last_seq or self.tables.get(table.id) is not table:
                            raise TableError("internal", "the table could not be brought up "
                                             "to date; reconnect to resync", 503)
                    yield
            except TableBusy as exc:
                raise TableError("internal", f"{exc}; try again", 503) from None

    async def _follow(self, table: LiveTable, *, wait: bool = True) -> None:
        """Apply and send the entries other workers stored after ``table.seq`` (read from the
        store). ``wait``: first wait until the bus delivers this table's news, so that
        nothing published after the read can be missed."""
        if not self.locks.shared or self.tables.get(table.id) is not table:
            return
        if wait and table.subscription is not None:
            await table.subscription.ready()
        entries = await asyncio.to_thread(self.store.entries_after, table.id, table.seq)
        for entry in entries:
            if not self._receive(table, entry):
                break

    def _receive(self, table: LiveTable, entry: LogEntry) -> bool:
        """One entry for this process's copy of the table: apply it if it is the next one
        (stored by another worker), send its frames unless sent. False on a gap."""
        if entry.seq > table.seq + 1:
            return False
        if entry.seq == table.seq + 1:
            try:
                table.apply(entry)
            except Exception as exc:  # this copy cannot follow: rebuild from the log on use
                log.error("table %s: cannot apply seq %d: %s", table.id, entry.seq, exc)
                self._drop(table, 1011, "resync")
                return False
            self._schedule(table, self.settings.takeover)
        self._send(table, entry)
        return True

    def _entry(self, table: LiveTable, kind: str, seat: int | None, data: dict[str, Any],
               offset: int = 1) -> LogEntry:
        return LogEntry(table.seq + offset, table.game_number, kind, seat, data, _now())

    # ------------------------------------------------------------------ tables in memory
    async def get(self, table_id: str) -> LiveTable | None:
        """The live table (loaded and rebuilt from the log if needed), or None if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not _plausible_id(table_id):
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            loaded = await asyncio.to_thread(self.store.load, table_id)
            result = None
            if loaded is not None:
                result = await asyncio.to_thread(build_table, loaded.table, loaded.entries)
                result.grant_grace(time.time(), self.settings.clock_grace)
                self._install(result, writer=False)
                if self.locks.shared:  # what was stored between the read and the subscription
                    self._spawn(self._follow(result))
            future.set_result(result)
            return result
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning
            raise
        finally:
            del self._loading[table_id]

    def _install(self, table: LiveTable, writer: bool = True) -> None:
        self.tables[table.id] = table
        table.sent = table.seq
        table.subscription = self.bus.subscribe(table.id, self._on_entry)
        self._schedule(table, self.settings.takeover if self.locks.shared and not writer
                       else 0.0)
        if self.locks.shared and not self._stopping:  # who is connected at the others?
            self._spawn(self._announce(table, ask=True))

    def _drop(self, table: LiveTable, code: int, reason: str) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if table.subscription is not None:
            table.subscription.close()
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        for conn in list(table.conns):
            conn.close(code, reason)
        table.conns.clear()
        if not self._stopping:
            self._release_bots(table)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, self.settings.idle_evict))
            now = time.monotonic()
            for table in list(self.tables.values()):
                if (not table.conns and table.timer is None and not table.lock.locked()
                        and now - table.touched > self.settings.idle_evict):
                    self._drop(table, 1000, "")

    def _on_entry(self, table_id: str, entry: LogEntry) -> None:
        """Bus handler: a stored entry (this process's, or another worker's to follow)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        if entry.kind == "presence":  # not a stored entry: another worker's connected seats
            self._heard(table, entry.data)
            return
        if not self._receive(table, entry) and self.tables.get(table_id) is table:
            if self.locks.shared:  # news went missing: read it from the store
                self._spawn(self._follow(table, wait=False))
            else:
                self._drop(table, 1012, "resync")

    def _send(self, table: LiveTable, entry: LogEntry) -> None:
        """Send the frames of an applied entry to this process's connections, once."""
        if entry.seq <= table.sent:
            return
        table.sent = entry.seq
        if not table.conns:
            return
        loop_time = asyncio.get_running_loop().time()
        cache: dict[int | None, list[str]] = {}
        public = protocol.public_state(table.current) if entry.kind == "act" else None
        for conn in list(table.conns):
            audience = conn.seat
            frames = cache.get(audience)
            if frames is None:
                frames = table.frames(entry, audience, state=True, loop_time=loop_time,
                                      public=public)
                cache[audience] = frames
            for text in frames:
                conn.send(text)

    # ------------------------------------------------------------------ bots and clocks
    def _schedule(self, table: LiveTable, grace: float = 0.0) -> None:
        """After every change: start the bot whose turn it is, or the turn clock.

        ``grace``: extra seconds before the bot moves or the clock runs out, for a worker
        that did not store the last change (the one that did normally acts first; this one
        takes over if it died)."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.deadline = None
        if self._stopping or table.game is None or table.status != PLAYING:
            if not self._stopping and table.game is not None and table.game.is_over:
                self._release_bots(table, game_over=True)  # their programs end with the game
            return
        seat = table.current.to_act
        if seat is None:
            return
        loop = asyncio.get_running_loop()
        seq = table.seq
        info = table.seats[seat]
        if info.kind == "bot" or info.away:
            by = "bot" if info.kind == "bot" else "stand-in"
            table.timer = loop.call_later(
                table.bot_delay + grace, self._spawn_later,
                lambda: self._bot_move(table, seq, seat, by),
            )
        elif table.clock:
            left = table.clock_left(time.time())
            left = table.clock if left is None else max(0.0, left)
            table.deadline = (seat, loop.time() + left)
            table.timer = loop.call_later(
                left + grace, self._spawn_later,
                lambda: self._clock_expired(table, seq, seat),
            )

    def _spawn_later(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        self._spawn(make())

    def _bot(self, table: LiveTable, seat: int, level: str) -> Bot:
        """The table's bot of ``level`` for ``seat`` (made once, kept for the game).

        A level named by the operator (``Settings.external_bots``) is that external program
        (``make_bot("cmd:" + COMMAND)``); a level this server does not know (a table stored
        by a worker with other ``--bot`` options) is logged and played by ``basic``."""
        bot = table.bots.get((seat, level))
        if bot is None:
            command = self.settings.external_bots.get(level)
            spec = level if command is None else "cmd:" + command
            try:
                bot = make_bot(spec)
            except ValueError as exc:
                log.error("table %s seat %d: bot %r cannot play here (%s); basic plays for it",
                          table.id, seat, level, exc)
                bot = make_bot("basic")
            table.bots[(seat, level)] = bot
        return bot

    def _release_bots(self, table: LiveTable, *, game_over: bool = False) -> None:
        """Stop the table's external bot programs, in a worker thread (each may take half a
        second to end). ``game_over``: first tell each the game has ended, with its seat's
        final view. A later decision starts a program again if needed."""
        release = self._bots_release(table, game_over=game_over)
        if release is not None:
            self._spawn(self._in_pool(self._external_pool, release))

    @staticmethod
    async def _in_pool(pool: ThreadPoolExecutor, work: Callable[[], None]) -> None:
        await asyncio.get_running_loop().run_in_executor(pool, work)

    def _bots_release(self, table: LiveTable, *,
                      game_over: bool = False) -> Callable[[], None] | None:
        """Take the table's bots that run programs (those with ``close``) out of it and give
        back the function that stops them, or None when there are none."""
        external = {key: bot for key, bot in table.bots.items()
                    if callable(getattr(bot, "close", None))}
        if not external:
            return None
        for key in external:
            del table.bots[key]
        views = ({seat: table.current.view(seat) for seat, _ in external}
                 if game_over and table.game is not None else {})

        def release() -> None:
            for (seat, _), bot in external.items():
                try:
                    if seat in views and callable(getattr(bot, "game_over", None)):
                        bot.game_over(views[seat])  # type: ignore[attr-defined]
                    bot.close()  # type: ignore[attr-defined]
                except Exception:
                    log.exception("table %s: stopping the bot of seat %d failed",
                                  table.id, seat)

        return release

    async def _bot_move(self, table: LiveTable, seq: int, seat: int, by: str) -> None:
        async with self._writing(table):
            if table.seq != seq or self.tables.get(table.id) is not table:
                return
            table.timer = None
            game = table.current
            if game.to_act != seat:
                return
            level = table.seats[seat].level if by == "bot" else table.stand_in
            bot = self._bot(table, seat, level or "random")
            view = game.view(seat)
            legal = game.legal_actions()
            rng = random.Random(f"{table.row.secret}:{seq}:{seat}")
            failures = getattr(bot, "failures", None)
            lost = sum(failures.values()) if isinstance(failures, dict) else 0
            loop = asyncio.get_running_loop()
            if callable(getattr(bot, "close", None)):  # a program: waits on its pipe
                action = await loop.run_in_executor(self._external_pool, bot.decide,
                                                    view, legal, rng)
            elif self.settings.bot_threads and level != "random":
                action = await loop.run_in_executor(self._bot_pool, bot.decide,
                                                    view, legal, rng)
            else:
                action = bot.decide(view, legal, rng)
            if isinstance(failures, dict) and sum(failures.values()) > lost:
                log.warning("table %s seat %d: the %s program lost its turn to its fallback "
                            "(%s)", table.id, seat, level, getattr(bot, "last_error", None))
            if table.seq != seq:
                return
            try:
                await self._act_locked(table, seat, str(action), by)
            except TableError as exc:
                log.error("table %s: bot %s at seat %d: %s", table.id, level, seat, exc)

    async def _clock_expired(self, table: LiveTable, seq: int, seat: int) -> None:
        async with self._writing(table):
            if table.seq != seq or self.tables.get(table.id) is not table:
                return
            table.timer = None
            if table.current.to_act != seat or table.seats[seat].away:
                return
            entry = self._entry(table, "away", seat, {"reason": "clock"})
            await self._store_and_publish(table, Change(table.id, [entry]))

    async def expire_clock(self, table_id: str) -> bool:
        """Run out the turn clock of the seat to act now (for tests and admins); True if a
        stand-in bot took over."""
        table = await self.get(table_id)
        if table is None or table.deadline is None:
            return False
        seat = table.deadline[0]
        await self._clock_expired(table, table.seq, seat)
        return table.seats[seat].away

    # ------------------------------------------------------------------ lobby
    async def create(self, spec: TableSpec) -> LiveTable:
        """Create and store a table; it starts at once when no seat is open."""
        now = _now()
        table_id = self._secret_text(16)
        seed = self._secret_bits()
        open_seats = sum(1 for s in spec.seats if s == "open")
        row = TableRow(
            id=table_id, name=spec.name, players=len(spec.seats), preset=spec.preset,
            rules=spec.rules.to_dict(), variations=list(spec.variations),
            seats=list(spec.seats),
            options={"clock": spec.clock, "stand_in": spec.stand_in,
                     "bot_delay": spec.bot_delay},
            private=spec.private, secret=self._secret_text(16),
            status=WAITING if open_seats else PLAYING, open_seats=open_seats, game=1,
            created_at=now, updated_at=now,
        )
        entry = LogEntry(1, 1, "game", None, {"number": 1, "seed": seed}, now)
        game_row = GameRow(table_id=table_id, number=1, seed=seed, rules=row.rules,
                           players=row.players, status="playing", started_at=now)
        await self._commit(Change(table_id, [entry], new_table=row, new_game=game_row))
        table = LiveTable(row)
        table.apply(entry)
        self._install(table)
        return table

    async def require(self, table_id: str) -> LiveTable:
        """The live table or TableError 404."""
        table = await self.get(table_id)
        if table is None:
            raise TableError("unknown_table", f"no table {table_id!r}", 404)
        return table

    async def join(self, table_id: str, seat: int | None, name: str | None) -> tuple[str, int]:
        """Take an open seat: returns (seat token, seat)."""
        table = await self.require(table_id)
        async with self._writing(table):
            if seat is None:
                seat = next((i for i, s in enumerate(table.seats) if s.kind == "open"), None)
                if seat is None:
                    raise TableError("seat_taken", "every seat is taken", 409)
            elif not 0 <= seat < table.players:
                raise TableError("bad_request",
                                 f"seat must be 0-{table.players - 1}, not {seat}", 400)
            elif table.seats[seat].kind != "open":
                what = "a bot's" if table.seats[seat].kind == "bot" else "taken"
                raise TableError("seat_taken", f"seat {seat} is {what}", 409)
            token = self._secret_text(24)
            entry = self._entry(table, "join", seat, {"name": name or None,
                                                      "token": hash_token(token)})
            open_after = table.open_seats - 1
            status = WAITING if open_after else (FINISHED if table.current.is_over else PLAYING)
            change = Change(table.id, [entry], table_updates={
                "open_seats": open_after, "status": status, "updated_at": entry.created_at,
            })
            await self._store_and_publish(table, change)
        return token, seat

    async def authenticate(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        """The table and seat of a token, or TableError 401."""
        table = await self.require(table_id)
        seat = table.seat_of(token) if token else None
        if seat is None and token and self.locks.shared:  # joined on another worker?
            await self._follow(table)
            seat = table.seat_of(token)
        if seat is None:
            raise TableError("bad_token", "not a seat token of this table", 401)
        return table, seat

    async def rematch(self, table: LiveTable, seat: int) -> None:
        """Start the next game at a finished table: same seats, a fresh seed."""
        async with self._writing(table):
            if not table.current.is_over:
                raise TableError("not_over", "the game is not over yet", 409)
            now = _now()
            number = table.game_number + 1
            seed = self._secret_bits()
            entry = LogEntry(table.seq + 1, number, "game", seat,
                             {"number": number, "seed": seed}, now)
            change = Change(
                table.id, [entry],
                new_game=GameRow(table_id=table.id, number=number, seed=seed,
                                 rules=table.row.rules, players=table.players,
                                 status="playing", started_at=now),
                table_updates={"game": number, "status": PLAYING, "updated_at": now},
            )
            await self._store_and_publish(table, change)

    # ------------------------------------------------------------------ play
    async def act(self, table: LiveTable, seat: int, text: str,
                  expected_seq: int | None = None) -> None:
        """A player's action (``text`` in the notation); TableError names why it is refused."""
        async with self._writing(table):
            if expected_seq is not None:
                check_fresh(table, expected_seq)
            await self._act_locked(table, seat, text, "player")

    async def _act_locked(self, table: LiveTable, seat: int, text: str, by: str) -> None:
        game = table.current
        if table.status == WAITING:
            raise TableError("not_started", "an open seat is still waiting for a player", 409)
        if game.is_over:
            raise TableError("game_over", "the game is over; ask for a rematch", 409)
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
        if by == "player" and table.seats[seat].away:
            entries.append(self._entry(table, "back", seat, {}))
            games.append(None)
        action = str(after.actions[-1][1])
        entries.append(self._entry(table, "act", seat, {"action": action, "by": by},
                                   offset=len(entries) + 1))
        games.append(after)
        change = Change(table.id, entries)
        if after.is_over:
            now = entries[-1].created_at
            record = after.record()
            change.game_number = table.game_number
            change.game_updates = {
                "status": "finished", "finished_at": now, "record": record,
                "result": record["result"],
                "names": [s.name for s in table.seats],  # None: a person gave no name
            }
            change.table_updates = {"status": FINISHED, "updated_at": now}
        await self._store_and_publish(table, change, games)
        self.stats["actions"] += 1

    async def back(self, table: LiveTable, seat: int) -> None:
        """The player of ``seat`` takes the seat back from the stand-in bot."""
        async with self._writing(table):
            if table.seats[seat].away:
                entry = self._entry(table, "back", seat, {})
                await self._store_and_publish(table, Change(table.id, [entry]))

    async def chat(self, table: LiveTable, seat: int, text: str) -> None:
        """A chat line from a seated player."""
        async with self._writing(table):
            entry = self._entry(table, "chat", seat, {"text": text})
            await self._store_and_publish(table, Change(table.id, [entry]))

    # ------------------------------------------------------------------ connections
    async def hello(self, table: LiveTable, client: Client, token: str | None,
                    last_seq: int | None) -> None:
        """(Re)identify a connection and bring it up to date: replay or snapshot."""
        await self._follow(table)  # with several workers: what the others stored
        seat = None
        if token is not None:
            seat = table.seat_of(token)
            if seat is None:
                raise TableError("bad_token", "not a seat token of this table", 401)
            if table.seats[seat].away:
                await self.back(table, seat)
        before = table.connected()
        table.conns.discard(client)
        for entry in table.entries:  # stored but not yet sent: the others first, in order
            if entry.seq > table.sent:
                self._send(table, entry)
        client.seat = seat
        loop_time = asyncio.get_running_loop().time()
        frames = table.replay(seat, last_seq, loop_time) if last_seq is not None else None
        if frames is None:
            frames = [table.snapshot(seat, "hello", loop_time)]
        for text in frames:
            client.send(text)
        table.conns.add(client)
        table.touched = time.monotonic()
        self._presence(table, before)

    def snapshot(self, table: LiveTable, client: Client, reason: str = "view") -> None:
        """Send a fresh snapshot to one connection."""
        client.send(table.snapshot(client.seat, reason, asyncio.get_running_loop().time()))

    def detach(self, table: LiveTable, client: Client) -> None:
        """A connection closed."""
        if client in table.conns:
            before = table.connected()
            table.conns.discard(client)
            table.touched = time.monotonic()
            self._presence(table, before)

    def _presence(self, table: LiveTable, before: list[bool]) -> None:
        if self.locks.shared and not self._stopping:
            self._spawn(self._announce(table))
        now = table.connected()
        if now == before:
            return
        text = protocol.dumps({"type": "presence", "seq": table.seq, "connected": now})
        for conn in table.conns:
            conn.send(text)

    # ------------------------------------------------------------------ presence of workers
    async def _announce(self, table: LiveTable, ask: bool = False) -> None:
        """Tell the other workers which seats are connected here (``ask``: and ask them to
        say the same), through the bus; not stored."""
        if ask and table.subscription is not None:
            await table.subscription.ready()
        seats = sorted({c.seat for c in table.conns if c.seat is not None})
        await self.bus.publish(table.id, LogEntry(
            0, 0, "presence", None, {"worker": self.worker, "seats": seats, "ask": ask},
            _now()))

    def _heard(self, table: LiveTable, data: dict[str, Any]) -> None:
        worker = str(data.get("worker"))
        if worker == self.worker:
            return
        before = table.connected()
        seats = frozenset(s for s in data.get("seats", ()) if isinstance(s, int))
        if seats:
            table.remote[worker] = (time.monotonic(), seats)
        else:
            table.remote.pop(worker, None)
        if data.get("ask") and table.conns and not self._stopping:
            self._spawn(self._announce(table))
        self._presence_frame(table, before)

    def _presence_frame(self, table: LiveTable, before: list[bool]) -> None:
        now = table.connected()
        if now != before:
            text = protocol.dumps({"type": "presence", "seq": table.seq, "connected": now})
            for conn in table.conns:
                conn.send(text)

    async def _presence_loop(self) -> None:
        """With several workers: repeat this worker's presence for the tables its clients
        watch, and forget what dead workers said (after :data:`PRESENCE_TTL`)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.conns:
                    await self._announce(table)
                stale = [w for w, (heard, _) in table.remote.items()
                         if now - heard > PRESENCE_TTL]
                if stale:
                    shown = [s.kind == "bot" or i in {c.seat for c in table.conns} or any(
                        i in seats for _, seats in table.remote.values())
                        for i, s in enumerate(table.seats)]
                    for worker in stale:
                        del table.remote[worker]
                    self._presence_frame(table, shown)

    # ------------------------------------------------------------------ queries
    async def table_info(self, row: TableRow) -> dict[str, Any]:
        """Table info for a lobby row (live data when the table is in memory)."""
        table = self.tables.get(row.id)
        if table is None:
            table = await self.get(row.id)
        return table.info() if table is not None else {}


def _plausible_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 32 and all(c.isalnum() or c in "-_" for c in table_id)
