"""The club service of one server process (docs/CLUB.md).

It keeps the shown ratings of every ladder in memory (each live table reads its ladder's:
:attr:`chicago.server.core.state.TableState.ratings`), applies rated games once they are stored
(:meth:`ClubService.apply_ratings`: one applier at a time across every worker, through the
shared lock ``club:ratings``; the database makes each game's application happen once),
authenticates profiles and organizers by their secrets (only hashes are stored), limits how
fast one address creates profiles and tournaments, and hands finished tournament games to
the :class:`~chicago.server.club.director.TournamentDirector`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request

from chicago.server import credentials
from chicago.server.club.director import TournamentDirector
from chicago.server.club.secrets import check_secret
from chicago.server.core.decide import Joiner
from chicago.server.core.ports import Revocation, Subscription
from chicago.server.core.seats import hash_token
from chicago.server.limits import Limiter, make_limiter
from chicago.server.live import LiveTable, now
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.storage.club import ClubStore, ProfileRow
from chicago.server.tables import TableManager

__all__ = ["ClubService", "joiner_of", "public_info", "records_gate"]

log = logging.getLogger("chicago.server")

class ClubService:
    """Club play of one server process, wired into its :class:`TableManager`."""

    def __init__(self, manager: TableManager, store: Store, settings: Settings) -> None:
        self.manager = manager
        self.settings = settings
        self.store = ClubStore(store)
        self.shown: dict[str, dict[str, float]] = {}
        """Ladder -> participant -> shown rating (the dicts the live tables read)."""
        self.profiles = make_limiter(settings, "profiles", settings.club_creations,
                                     settings.club_creations)
        """Profiles created per address (in Redis when configured: all workers count one)."""
        self.tournaments = make_limiter(settings, "tournaments", settings.club_creations,
                                        settings.club_creations)
        """Tournaments created per address."""
        self.director = TournamentDirector(self.store, manager, self.shown)
        self._applying = asyncio.Lock()
        self._services: list[asyncio.Task[None]] = []
        self._revocations: Subscription | None = None
        manager.cache.installed.append(self._installed)
        manager.finished.append(self._finished)
        manager.spectator_gate = self.director.spectator_gate
        manager.seat_gate = self.seat_gate

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the club's background work (the server starts as quickly as without it):
        load the shown ratings, apply what is pending, resume the tournaments in play."""
        self._revocations = self.manager.bus.subscribe_revocations(self._revoked)
        await self._revocations.ready()
        self._services.append(asyncio.create_task(self._loop(), name="chicago-club"))

    async def stop(self) -> None:
        """Stop the background loop."""
        if self._revocations is not None:
            self._revocations.close()
        for task in self._services:
            task.cancel()
        await asyncio.gather(*self._services, return_exceptions=True)
        await self.profiles.close()
        await self.tournaments.close()

    # ------------------------------------------------------------------ rate limits
    @staticmethod
    async def creating(limiter: Limiter, key: str) -> None:
        """Count one creation of ``limiter.kind`` by address ``key`` (``club_creations``
        at once, as many more a minute), or TableError 429 ``rate_limited`` with the
        seconds to wait (nothing counted)."""
        wait = await limiter.take(key)
        if wait is not None:
            raise TableError("rate_limited", f"at most {limiter.burst} {limiter.kind} per "
                             "60 seconds from one address; try again later", 429,
                             retry_after=wait)

    async def _loop(self) -> None:
        """Forever: move on the tournaments whose round ended (also one whose last game was
        stored by a worker that died before it moved on), apply pending ratings, and, with
        several workers, reload the shown ratings."""
        try:
            await self.reload_ratings()
            await self.apply_ratings()
            await self.director.resume()
        except Exception:
            log.exception("club: starting failed; trying again in the periodic check")
        while True:
            await asyncio.sleep(self.settings.club_refresh)
            try:
                await self.director.resume()
                await self.apply_ratings()
                if self.manager.locks.shared:
                    await self.reload_ratings()
            except Exception:
                log.exception("club: the periodic check failed")

    # ------------------------------------------------------------------ ratings
    def _installed(self, table: LiveTable) -> None:
        table.state.ratings = self.shown.setdefault(table.state.ladder, {})

    def _finished(self, table: LiveTable) -> None:
        place = table.state.options.tournament
        if place is not None:  # the round may be over: its held-back games are rated then
            self.manager.tasks.spawn(self._round_may_end(place.id))
        elif table.state.rated:
            self.manager.tasks.spawn(self.apply_ratings())

    async def _round_may_end(self, tournament_id: str) -> None:
        await self.director.advance(tournament_id)
        await self.apply_ratings()

    async def reload_ratings(self) -> None:
        """Read every current rating into :attr:`shown` (the same dicts, updated)."""
        rows = await asyncio.to_thread(self.store.all_ratings)
        for (ladder, participant), rating in rows.items():
            self.shown.setdefault(ladder, {})[participant] = rating.shown

    async def apply_ratings(self) -> int:
        """Apply the stored rated games not applied yet (in their order); how many."""
        async with self._applying, self.manager.locks.hold("club:ratings"):
            done = await asyncio.to_thread(self.store.apply_ratings, now())
        for game, changes in done:
            ladder = self.shown.setdefault(game.ladder, {})
            for change in changes:
                ladder[change.participant] = change.after.shown
        return len(done)

    # ------------------------------------------------------------------ secrets
    async def seat_gate(self, table: LiveTable, seat: int) -> None:
        """TableError 401 ``bad_token`` when the token of ``seat`` (tied to a profile) was
        issued under a secret the profile has replaced since (signed out everywhere)."""
        held = table.state.seats[seat]
        if held.profile is None:
            return
        row = await asyncio.to_thread(self.store.profile, held.profile)
        if row is None or not credentials.granted(held, row.secret_hash, row.rotated_at):
            raise TableError("bad_token", "this seat token was signed out (sign out "
                             "everywhere): take the seat again with the profile", 401)

    async def rotated(self, profile: str, secret_hash: str) -> None:
        """The profile's secret is now the one of ``secret_hash``: every worker ends the
        connections of its seat tokens issued under an older one."""
        await self.manager.bus.publish_revocation(
            Revocation(profile, credentials.grant_of(secret_hash)))

    def _revoked(self, _site: str, note: Revocation) -> None:
        ended = credentials.revoke(self.manager.tables.values(), note)
        if ended:
            log.info("profile %s signed out everywhere: %d connections ended here",
                     note.profile, ended)

    async def profile_of(self, secret: str | None) -> ProfileRow:
        """The profile of a secret, or TableError 401 ``bad_profile``."""
        value = check_secret(secret, "profile")
        row = await asyncio.to_thread(self.store.profile_by_secret, hash_token(value))
        if row is None:
            raise TableError("bad_profile", "not the secret of any profile (signed out "
                             "everywhere? sign in again with a new link)", 401)
        return row


async def records_gate(request: Request, table_id: str) -> None:
    """Refuse (403 ``round_running``) the records and replays of a duplicate round still
    being played (docs/CLUB.md); nothing for other tables."""
    club: ClubService | None = getattr(request.app.state, "club", None)
    if club is None:
        return
    row = await asyncio.to_thread(club.store.store.table, table_id)
    if row is not None and not await club.director.round_open(table_id, row.options):
        raise TableError("round_running", "this duplicate round is still being played: its "
                         "records are served when the round is over", 403)


async def joiner_of(request: Request, secret: str | None) -> Joiner | None:
    """The profile joining a table (its secret in the ``X-Chicago-Profile`` header), or
    None for a guest (no header)."""
    if secret is None:
        return None
    club: ClubService = request.app.state.club
    row = await club.profile_of(secret)
    return Joiner(row.id, row.name, credentials.grant_of(row.secret_hash))


async def public_info(request: Request, table: LiveTable) -> dict[str, Any]:
    """A table's info for anyone (``GET /api/tables/{id}``): at a duplicate round still in
    play, without the scores (docs/CLUB.md)."""
    info = table.info()
    club: ClubService | None = getattr(request.app.state, "club", None)
    if club is not None and not await club.director.round_open(table.id,
                                                                 table.state.row.options):
        info["scores"] = None
    return info
