"""Admission: every table the server starts passes here, whoever starts it.

Starting a table makes lasting work for the server (a stored table that the lobby lists, a
game that bots may play on their own), so every start is one admission (:class:`Start`):
a table created in the lobby (:meth:`Admission.admit`), the tables of a tournament's first
round (:meth:`Admission.admit_round`), a rematch (:meth:`Admission.admit_rematch`). It is
bounded per client address (an IPv6 address counts by its /64 network: one household or
host) and per site:

- a token bucket: ``Settings.create_rate`` tables per minute on average, bursts of
  ``Settings.create_burst`` (a :class:`~chicago.server.limits.Limiter`: shared by every
  worker when Redis is configured);
- tables waiting for players that changed within ``Settings.waiting_window``: at most
  ``Settings.max_waiting_per_address`` per address (counted by this worker, from the
  statuses of the tables this worker created) and
  ``Settings.max_waiting`` on the whole server (counted in the database);
- tables of bots only whose game is in play: at most ``Settings.max_bot_tables_per_address``
  per address and ``Settings.max_bot_tables`` on this worker (both counted by this worker;
  a tournament's tables of bots only count for the address that started it);
- tables whose game is in play: at most ``Settings.max_running_tables`` on the whole site
  (counted in the database): lobby tables of bots only, tournament rounds and rematches;
- tournaments in play: at most ``Settings.max_tournaments_per_address`` started by one
  address (counted by this worker) and ``Settings.max_tournaments`` on the site (counted in
  the database).

A tournament's first round is admitted whole or not at all: a start that does not fit is
refused, saying which cap, and nothing is stored. Its later rounds are not refused: they
replace the round that just ended (as many tables), and holding them back would strand the
tournament's players; they count like any other tables while they play. A stand-in that
plays for an absent person starts no table: it plays at a table already admitted.

A refusal is TableError 429 with the seconds to wait (``Retry-After``). Nothing here is
stored in the database: a restart forgets the caps' counts (the database still counts the
waiting tables), and the bucket too unless it is in Redis.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from chicago.server.core.state import PLAYING, WAITING
from chicago.server.limits import KEEP_IDLE, Limiter, make_limiter
from chicago.server.live import LiveTable
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage import Store

__all__ = ["Admission", "client_key"]

CAP_RETRY = 60
"""Seconds a client refused by a cap is told to wait (a join may free a place sooner)."""

def client_key(host: str | None) -> str:
    """Who a request counts for: its IPv4 address, its IPv6 address's /64 network, or the
    host text as given (a test client's name, a Unix socket).

    >>> client_key("2001:db8:1:2:3:4:5:6"), client_key("192.0.2.1"), client_key(None)
    ('2001:db8:1:2::/64', '192.0.2.1', '?')
    """
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass(frozen=True, slots=True)
class Start:
    """What a start would add: tables that begin to play now (``running``; of them
    ``bots_only``), tables that wait for players (``waiting``), a tournament (``tournament``:
    its first round)."""

    running: int = 0
    bots_only: int = 0
    waiting: int = 0
    tournament: bool = False


@dataclass
class _Client:
    waiting: list[str] = field(default_factory=list)  # table ids it created that may wait
    bots: list[str] = field(default_factory=list)  # bots-only tables it created
    tournaments: list[str] = field(default_factory=list)  # tournaments it started


class Admission:
    """The limits on table creation of one server process (see the module docstring);
    ``limiter`` counts the creations per address (by default the one the settings ask for:
    in Redis when configured, else in memory; :meth:`close` releases it)."""

    def __init__(self, settings: Settings, store: Store,
                 tables: Mapping[str, LiveTable], limiter: Limiter | None = None) -> None:
        self.settings = settings
        self.store = store
        self.tables = tables
        self.limiter = limiter if limiter is not None else make_limiter(
            settings, "tables", settings.create_burst, settings.create_rate)
        self._clients: dict[str, _Client] = {}
        self._bots: list[str] = []  # bots-only tables this worker created

    # ------------------------------------------------------------------ checks
    async def admit(self, key: str, *, bots_only: bool) -> None:
        """Take one table creation for ``key`` now, or raise TableError 429 (nothing
        taken). :meth:`refund` gives it back if the table is then not created."""
        settings = self.settings
        wait = await self.limiter.take(key)
        if wait is not None:
            raise TableError(
                "rate_limited", f"at most {settings.create_rate:g} tables per minute "
                f"(bursts of {settings.create_burst}) from one address; try again in "
                f"{wait} s", 429, retry_after=wait)
        start = Start(running=1, bots_only=1) if bots_only else Start(waiting=1)
        try:
            await self.check(key, start)
        except BaseException:
            await self.limiter.refund(key)
            raise

    async def admit_round(self, key: str, *, tables: int, bots_only: int) -> None:
        """Admit a tournament's first round of ``tables`` tables (``bots_only`` of them of
        bots only), started by ``key``, or raise TableError 429 ``too_many_tables`` naming
        the cap (nothing counted; :meth:`started` counts it once stored)."""
        await self.check(key, Start(running=tables, bots_only=bots_only, tournament=True))

    async def admit_rematch(self) -> None:
        """Admit the next game of a finished table (it plays again), or raise TableError
        429 ``too_many_tables`` when the site runs as many tables as it may."""
        await self.check(None, Start(running=1))

    async def check(self, key: str | None, start: Start) -> None:
        """TableError 429 ``too_many_tables`` when ``start`` would pass a cap of ``key``
        (None: no address's) or of the site."""
        settings = self.settings
        client = self._client(key) if key is not None else _Client()
        statuses = await self._statuses(client.waiting + client.bots + self._bots)
        since = time.time() - settings.waiting_window
        client.waiting = [t for t in client.waiting
                          if statuses.get(t, ("", 0.0))[0] == WAITING
                          and statuses[t][1] >= since]
        client.bots = [t for t in client.bots if statuses.get(t, ("", 0.0))[0] == PLAYING]
        self._bots = [t for t in self._bots if statuses.get(t, ("", 0.0))[0] == PLAYING]
        if start.tournament:
            await self._check_tournaments(client)
        if start.bots_only:
            more = self._more(start.bots_only)
            if len(client.bots) + start.bots_only > settings.max_bot_tables_per_address:
                raise self._cap(f"{_tables(settings.max_bot_tables_per_address)} of bots only "
                                f"from one address at a time{more}; wait until a game ends")
            if len(self._bots) + start.bots_only > settings.max_bot_tables:
                raise self._cap(f"{_tables(settings.max_bot_tables)} of bots only at a time "
                                f"on this server{more}; wait until a game ends")
        if start.waiting:
            if len(client.waiting) >= settings.max_waiting_per_address:
                raise self._cap(f"{_tables(settings.max_waiting_per_address)} waiting for "
                                "players from one address; fill one, or try again later")
            waiting = await asyncio.to_thread(self.store.count_waiting, since)
            if waiting >= settings.max_waiting:
                raise self._cap(f"{_tables(settings.max_waiting)} waiting for players on "
                                "this server; join one, or try again later")
        if start.running:
            running = await asyncio.to_thread(self.store.count_playing)
            if running + start.running > settings.max_running_tables:
                raise self._cap(f"{_tables(settings.max_running_tables)} in play on this "
                                f"site{self._more(start.running)}; wait until games end")

    async def _check_tournaments(self, client: _Client) -> None:
        settings = self.settings
        mine = await asyncio.to_thread(self.store.count_playing_tournaments,
                                       client.tournaments)
        if mine >= settings.max_tournaments_per_address:
            raise self._cap(f"{_count(settings.max_tournaments_per_address, 'tournament')} "
                            "in play started from one address; wait until one ends",
                            "too_many_tournaments")
        site = await asyncio.to_thread(self.store.count_playing_tournaments)
        if site >= settings.max_tournaments:
            raise self._cap(f"{_count(settings.max_tournaments, 'tournament')} in play on "
                            "this site; wait until one ends", "too_many_tournaments")

    @staticmethod
    def _more(count: int) -> str:
        return "" if count == 1 else f" (this would start {count})"

    async def refund(self, key: str) -> None:
        """Give back a creation :meth:`admit` took (the table was not created)."""
        await self.limiter.refund(key)

    def created(self, key: str, table: LiveTable, *, bots_only: bool) -> None:
        """Count ``table``, just created for ``key``, towards its caps."""
        client = self._client(key)
        if bots_only:
            client.bots.append(table.id)
            self._bots.append(table.id)
        elif table.state.status == WAITING:
            client.waiting.append(table.id)

    def started(self, key: str, tournament: str, bots_only: list[str]) -> None:
        """Count a tournament's first round, just stored for ``key``: the tournament, and
        its tables of bots only (``bots_only``), towards the caps."""
        client = self._client(key)
        client.tournaments.append(tournament)
        client.bots.extend(bots_only)
        self._bots.extend(bots_only)

    async def close(self) -> None:
        """Release the limiter's connection (if any)."""
        await self.limiter.close()

    # ------------------------------------------------------------------ internals
    def _client(self, key: str) -> _Client:
        client = self._clients.get(key)
        if client is None:
            if len(self._clients) >= KEEP_IDLE:
                self._forget_idle()
            client = self._clients[key] = _Client()
        return client

    def _forget_idle(self) -> None:
        """Forget the clients who count no table."""
        for key, client in list(self._clients.items()):
            if not client.waiting and not client.bots and not client.tournaments:
                del self._clients[key]

    async def _statuses(self, ids: list[str]) -> dict[str, tuple[str, float]]:
        """(status, UNIX time of its last change) of each table: the live table's when in
        memory, else the stored row's."""
        found: dict[str, tuple[str, float]] = {}
        missing = []
        for table_id in set(ids):
            table = self.tables.get(table_id)
            if table is not None:
                found[table_id] = (table.state.status, table.state.updated_at)
            else:
                missing.append(table_id)
        if missing:
            found.update(await asyncio.to_thread(self.store.statuses, missing))
        return found

    @staticmethod
    def _cap(message: str, code: str = "too_many_tables") -> TableError:
        return TableError(code, f"at most {message}", 429, retry_after=CAP_RETRY)


def _count(count: int, what: str) -> str:
    return f"{count} {what}" if count == 1 else f"{count} {what}s"


def _tables(count: int) -> str:
    return _count(count, "table")
