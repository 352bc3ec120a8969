"""The pairing queue's service on one worker: places in, tables out, news to the people.

A place is added (:meth:`Pairing.join`) with a *ticket*: a secret only its person holds. The
database keeps the hash of the ticket; once the place is seated the ticket is also the seat
token of its seat (the seat's ``join`` entry holds the same hash), so nothing secret is ever
stored and a person who reconnects with the ticket finds their place or their seat.

Every worker runs passes (:meth:`Pairing.run_pass`): when a place is added, when the clock
moves (:class:`~chicago.server.clock.ShiftedClock`), when the next wait ends, and every
:data:`TICK` seconds. A pass, under the pairing lock of the database
(:class:`~chicago.server.storage.pairing.PairingStore`): marks the places held by this
worker's sockets as seen, forgets those whose sockets closed more than
``Settings.pairing_grace`` seconds ago (not in a worker's first grace period: after a restart
people have that long to reconnect), and forms the tables :func:`~.match.form_tables` says,
storing them with their people already seated and the bots at the other seats. A note on the
bus (``pairing:TICKET_HASH``) tells the person's socket, on whichever worker it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chicago.club.ratings import DEFAULT_MU, ladder_key, profile_participant
from chicago.engine.game import Game
from chicago.rules import PRESETS
from chicago.server.admission import Admission, Start
from chicago.server.club.service import ClubService
from chicago.server.core.decide import Joiner
from chicago.server.core.ports import Revocation, Subscription
from chicago.server.core.rows import Change, GameRow, LogEntry, SeatHolder, TableRow
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import build_table
from chicago.server.credentials import grant_of
from chicago.server.lobby import bot_levels, rules_of
from chicago.server.pairing.match import QueueKey, Waiting, form_tables, next_deadline
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.storage.pairing import CapReached, NewPlace, PairingStore, PlaceRow, Seating
from chicago.server.tables import TableManager
from chicago.server.tasks import wait_woken

__all__ = ["MAX_WAIT", "PLAYERS", "TABLE_CLOCK", "TICK", "Pairing", "PairingRequest",
           "players_of"]

log = logging.getLogger("chicago.server")

TICK = 2.0
"""Seconds between passes when nothing else asks for one (rated gaps widen meanwhile)."""

MAX_WAIT = 600
"""The longest wait before bots (seconds) a place may choose."""

PLAYERS = (2, 3, 4)
"""The numbers of players one may queue for (those the preset allows)."""

TABLE_CLOCK = 60.0
"""Seconds per turn at a paired table: strangers who leave are played for by the
stand-in, never keep the others waiting."""

PAIRED_KEPT = 3600.0
"""Seconds a paired place is kept, for its person to come back to it."""


def players_of(preset: str) -> list[int]:
    """The numbers of players of :data:`PLAYERS` the preset's rules allow."""
    return list(_players_of(preset))


@functools.cache
def _players_of(preset: str) -> tuple[int, ...]:
    rules = PRESETS[preset]
    allowed = []
    for count in PLAYERS:
        with contextlib.suppress(TypeError, ValueError):
            Game(rules, players=count, seed=0)
            allowed.append(count)
    return tuple(allowed)


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """A checked request for a place (:func:`chicago.server.pairing.socket.parse_queue`)."""

    preset: str
    players: int
    wait: float | None
    rated: bool
    name: str | None
    profile: str | None
    """The profile's secret, or None for a guest."""


class Pairing:
    """The queue's service of one worker (see the module docstring)."""

    def __init__(self, manager: TableManager, store: Store, club: ClubService,
                 settings: Settings, admission: Admission) -> None:
        self.manager = manager
        self.admission = admission
        """The lobby's limits on starting tables: a place may start one, so each takes one
        from its address's bucket, and none is taken or formed beyond the site's cap of
        tables in play."""
        self.store = store
        self.club = club
        self.settings = settings
        self.places = PairingStore(store)
        self.held: Counter[str] = Counter()
        """Ticket hashes held by this worker's sockets (how many sockets each)."""
        self.counted: list[Callable[[dict[tuple[str, int, bool], int]], None]] = []
        """Called with the waiting places per queue whenever they may have changed."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._subscriptions: list[Subscription] = []
        self.started_at = 0.0
        self.deadline: float | None = None

    @property
    def bot_level(self) -> str:
        """The level of the bots that fill empty seats."""
        levels = bot_levels(self.settings)
        return self.settings.pairing_bot if self.settings.pairing_bot in levels else levels[0]

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the passes; listen for news of other workers and for the clock."""
        self.started_at = self.manager.clock.time()
        self.manager.clock.on_moved(self.wake)
        bus = self.manager.bus
        self._subscriptions = [bus.subscribe_note("pairing", self._heard),
                               bus.subscribe_revocations(self._revoked)]
        for subscription in self._subscriptions:
            await subscription.ready()
        self._task = asyncio.create_task(self._run(), name="chicago-pairing")

    async def stop(self) -> None:
        """Stop the passes."""
        for subscription in self._subscriptions:
            subscription.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self) -> None:
        """Run a pass now."""
        self._wake.set()

    def _heard(self, _topic: str, _note: dict[str, Any]) -> None:
        self.wake()
        self.manager.tasks.spawn(self._count())

    def _revoked(self, _site: str, note: Revocation) -> None:
        self.manager.tasks.spawn(self.revoke(note))

    async def revoke(self, note: Revocation) -> int:
        """The profile of ``note`` signed out everywhere: its waiting places taken under an
        older credential end (how many; ending none twice is harmless)."""
        return await asyncio.to_thread(self.places.revoke, note.profile, note.grant)

    async def _run(self) -> None:
        while True:
            try:
                await self.run_pass()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away a moment: the next tick tries again
                log.exception("pairing pass failed")
            timeout = TICK
            if self.deadline is not None:
                timeout = max(0.0, min(TICK, self.deadline - self.manager.clock.time()))
            await wait_woken(self._wake, timeout)
            self._wake.clear()

    # ------------------------------------------------------------------ places
    async def join(self, request: PairingRequest, client: str) -> tuple[str, PlaceRow]:
        """A new place for ``request`` from the address ``client``: its ticket and row.
        TableError (nothing stored): a rated place without a profile, a profile signed
        out, a cap passed (429)."""
        joiner: Joiner | None = None
        rating = None
        if request.profile is not None:
            profile = await self.club.profile_of(request.profile)
            joiner = Joiner(profile.id, profile.name, grant_of(profile.secret_hash))
        if request.rated:
            if joiner is None:
                raise TableError("profile_required", "rated: a rated place needs a profile "
                                 "(docs/CLUB.md)", 403)
            rules, _ = rules_of(request.preset, {}, [])
            ladder = ladder_key(rules, request.players)
            rated = await asyncio.to_thread(self.club.store.ratings_of,
                                            [profile_participant(joiner.profile)], ladder)
            found = rated.get((ladder, profile_participant(joiner.profile)))
            rating = found[0].mu if found else DEFAULT_MU
        wait = await self.admission.limiter.take(client)
        if wait is not None:
            raise TableError("rate_limited", f"at most {self.settings.create_rate:g} places "
                             "or tables per minute from one address; try again in "
                             f"{wait} s", 429, retry_after=wait)
        try:
            await self.admission.check(None, Start(running=1))
            return await self._add(request, client, joiner, rating)
        except BaseException:
            await self.admission.refund(client)
            raise

    async def _add(self, request: PairingRequest, client: str, joiner: Joiner | None,
                   rating: float | None) -> tuple[str, PlaceRow]:
        ticket = secrets.token_urlsafe(24)  # a credential: never from a seeded stream
        place = NewPlace(
            ticket_hash=hash_token(ticket), client=client,
            profile_id=joiner.profile if joiner else None,
            grant=joiner.grant if joiner else None, rating=rating,
            name=joiner.name if joiner else request.name, preset=request.preset,
            players=request.players, rated=request.rated, wait=request.wait,
            queued_at=self.manager.clock.time())
        try:
            await asyncio.to_thread(self.places.add, place,
                                    per_client=self.settings.max_pairing_per_address,
                                    per_site=self.settings.max_pairing)
        except CapReached as exc:
            if exc.code == "already_queued":
                raise TableError("already_queued", exc.message, 409) from None
            if exc.code == "too_many_places":
                raise TableError("too_many_places", exc.message, 429, retry_after=60) from None
            raise TableError("queue_full", exc.message, 429, retry_after=60) from None
        await self._changed()
        row = await self.place(ticket)
        assert row is not None
        return ticket, row

    async def place(self, ticket: str) -> PlaceRow | None:
        """The place of a ticket, or None."""
        return await asyncio.to_thread(self.places.place, hash_token(ticket))

    async def leave(self, ticket: str) -> bool:
        """Take a waiting place out; False when it was not waiting."""
        left = await asyncio.to_thread(self.places.leave, hash_token(ticket))
        if left:
            await self._changed()
        return left

    def hold(self, ticket_hash: str) -> None:
        """A socket of this worker holds the place."""
        self.held[ticket_hash] += 1

    def release(self, ticket_hash: str) -> None:
        """A socket let the place go: its grace starts now."""
        self.held[ticket_hash] -= 1
        if self.held[ticket_hash] <= 0:
            del self.held[ticket_hash]
            self.manager.tasks.spawn(asyncio.to_thread(
                self.places.seen, [ticket_hash], self.manager.clock.time()))

    async def counts(self) -> dict[tuple[str, int, bool], int]:
        """Waiting places per queue."""
        return await asyncio.to_thread(self.places.counts)

    async def _changed(self) -> None:
        """The queue changed: a pass here, the counts everywhere."""
        self.wake()
        await self.manager.bus.publish_note("pairing", {})

    async def _count(self) -> None:
        if self.counted:
            counts = await self.counts()
            for callback in list(self.counted):
                callback(counts)

    # ------------------------------------------------------------------ passes
    async def run_pass(self) -> list[Seating]:
        """One pass (see the module docstring): the tables it formed."""
        now = self.manager.clock.time()
        grace = self.settings.pairing_grace
        await asyncio.to_thread(self.places.seen, list(self.held), now)
        if now - self.started_at >= grace:
            gone = await asyncio.to_thread(self.places.sweep, now - grace, now - PAIRED_KEPT)
            if gone:
                await self.manager.bus.publish_note("pairing", {})  # the counts changed
        seated: dict[str, str] = {}  # ticket hash -> table id
        deadline: list[float | None] = [None]

        def plan(rows: list[PlaceRow]) -> list[Seating]:
            seated.clear()
            seatings = self._plan(rows, now)[:room]
            by_number = {row.id: row.ticket_hash for row in rows}
            seated.update({by_number[n]: s.table_id for s in seatings for n in s.seats})
            left = [p for p in map(_waiting, rows) if p.number not in
                    {n for s in seatings for n in s.seats}]
            deadline[0] = next_deadline(left, now)
            return seatings

        room = self.settings.max_running_tables - await asyncio.to_thread(
            self.store.count_playing)  # the site's cap of tables in play
        if room <= 0:
            return []
        seatings = await asyncio.to_thread(self.places.pair, now, plan)
        self.deadline = deadline[0]
        for seating in seatings:
            log.info("pairing: table %s formed (%d people)", seating.table_id,
                     len(seating.seats))
            with contextlib.suppress(Exception):  # its bots and clock start here
                await self.manager.get(seating.table_id)
        for ticket_hash, table_id in seated.items():
            await self.manager.bus.publish_note(f"pairing:{ticket_hash}", {"table": table_id})
        if seatings:
            await self.manager.bus.publish_note("pairing", {})
        return seatings

    def _plan(self, rows: list[PlaceRow], now: float) -> list[Seating]:
        by_number = {row.id: row for row in rows}
        seatings = []
        for formed in form_tables([_waiting(row) for row in rows], now):
            people = [by_number[n] for n in formed.places]
            seating = self._table(formed.key, people, formed.bots, now)
            seatings.append(seating)
        return seatings

    def _table(self, key: QueueKey, people: list[PlaceRow], bots: int, at: float) -> Seating:
        """The change that stores a paired table, its people seated (their tickets are
        their seat tokens) and ``bots`` bots after them."""
        manager = self.manager
        table_id, secret, seed = manager.new_secret(16), manager.new_secret(16), manager.new_seed()
        rules, _ = rules_of(key.preset, {}, [])
        level = self.bot_level
        options = TableOptions(clock=TABLE_CLOCK, stand_in=level, bot_delay=0.5,
                               deal_pause=15.0, rated=key.rated)
        row = TableRow(
            id=table_id, name=f"Play now · {key.preset}", players=key.players,
            preset=key.preset, rules=rules.to_dict(), variations=[],
            seats=["open"] * len(people) + [f"bot:{level}"] * bots,
            options=options.to_dict(), private=True, secret=secret, status="playing",
            open_seats=0, game=1, created_at=at, updated_at=at)
        entries = [LogEntry(1, 1, "game", None, {"number": 1, "seed": seed}, at)]
        holders = []
        for seat, person in enumerate(people):
            data: dict[str, Any] = {"name": person.name, "token": person.ticket_hash}
            if person.profile_id is not None:
                data.update(profile=person.profile_id, grant=person.grant)
            entries.append(LogEntry(len(entries) + 1, 1, "join", seat, data, at))
            holders.append(SeatHolder(seat, person.profile_id, person.ticket_hash))
        state = build_table(row, entries)  # what is stored always loads (raises if not)
        row.to_act, row.turn_at = state.current.to_act, at
        game = GameRow(table_id=table_id, number=1, seed=seed, rules=row.rules,
                       players=key.players, status="playing", started_at=at)
        change = Change(table_id, entries, new_table=row, new_game=game, holders=holders)
        return Seating(table_id, {p.id: seat for seat, p in enumerate(people)}, change)


def _waiting(row: PlaceRow) -> Waiting:
    return Waiting(number=row.id, key=QueueKey(row.preset, row.players, row.rated),
                   queued_at=row.queued_at, wait=row.wait, profile=row.profile_id,
                   rating=row.rating)
