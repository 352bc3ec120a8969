"""Admission: how many tables one client may create, and how many may wait on the server.

Creating a table is the one request that makes lasting work for the server (a stored table
that the lobby lists, a game that bots may play on their own), so it is bounded per client
address (an IPv6 address counts by its /64 network: one household or host):

- a token bucket: ``Settings.create_rate`` tables per minute on average, bursts of
  ``Settings.create_burst`` (a :class:`~chicago.server.limits.Limiter`: shared by every
  worker when Redis is configured);
- tables waiting for players that changed within ``Settings.waiting_window``: at most
  ``Settings.max_waiting_per_address`` per address (counted by this worker, from the
  statuses of the tables this worker created) and
  ``Settings.max_waiting`` on the whole server (counted in the database);
- tables of bots only whose game is in play: at most ``Settings.max_bot_tables_per_address``
  per address and ``Settings.max_bot_tables`` on this worker (both counted by this worker).

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


@dataclass
class _Client:
    waiting: list[str] = field(default_factory=list)  # table ids it created that may wait
    bots: list[str] = field(default_factory=list)  # bots-only tables it created


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
        try:
            await self._check_caps(key, bots_only=bots_only)
        except BaseException:
            await self.limiter.refund(key)
            raise

    async def _check_caps(self, key: str, *, bots_only: bool) -> None:
        """TableError 429 ``too_many_tables`` when a cap is reached."""
        settings = self.settings
        client = self._client(key)
        statuses = await self._statuses(client.waiting + client.bots + self._bots)
        since = time.time() - settings.waiting_window
        client.waiting = [t for t in client.waiting
                          if statuses.get(t, ("", 0.0))[0] == WAITING
                          and statuses[t][1] >= since]
        client.bots = [t for t in client.bots if statuses.get(t, ("", 0.0))[0] == PLAYING]
        self._bots = [t for t in self._bots if statuses.get(t, ("", 0.0))[0] == PLAYING]
        if bots_only:
            if len(client.bots) >= settings.max_bot_tables_per_address:
                raise self._cap(f"{_tables(settings.max_bot_tables_per_address)} of bots only "
                                "from one address at a time; wait until a game ends")
            if len(self._bots) >= settings.max_bot_tables:
                raise self._cap(f"{_tables(settings.max_bot_tables)} of bots only at a time "
                                "on this server; wait until a game ends")
        else:
            if len(client.waiting) >= settings.max_waiting_per_address:
                raise self._cap(f"{_tables(settings.max_waiting_per_address)} waiting for "
                                "players from one address; fill one, or try again later")
            waiting = await asyncio.to_thread(self.store.count_waiting, since)
            if waiting >= settings.max_waiting:
                raise self._cap(f"{_tables(settings.max_waiting)} waiting for players on "
                                "this server; join one, or try again later")

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
            if not client.waiting and not client.bots:
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
    def _cap(message: str) -> TableError:
        return TableError("too_many_tables", f"at most {message}", 429, retry_after=CAP_RETRY)


def _tables(count: int) -> str:
    return f"{count} table" if count == 1 else f"{count} tables"
