"""People (docs/SERVER.md, "People"): who is online, follows, and invitations to a table.

- A profile chooses to be shown as online (``PUT /api/profiles/me/online``, off until it
  does). ``GET /api/people`` lists the profiles online that chose so, each at its table
  unless that table is private (:mod:`chicago.server.together.online` says who is online);
  with a profile's secret, also the profiles it follows, online or not (online only if they
  chose to be shown).
- A profile follows another (``POST /api/profiles/me/follows``, ``follow: false`` to stop),
  at most :data:`MAX_FOLLOWS`; never itself.
- A profile seated at a table with an open seat invites a profile it follows or one shown
  online (``POST /api/tables/{id}/invite``). The invitee hears it on its site sockets (an
  ``invites`` frame, every worker) and, where the site sends mail and the invitee confirmed
  an address, by mail (the mail notices' caps and unsubscribe link). It takes the
  invitation (``…/accept``: the table id, to sit) or declines it; the inviter may withdraw
  it. An invitation ends when its table fills or ends, when its inviter leaves the table,
  and when the inviter signs out everywhere. Caps: :data:`OPEN_INVITES` open and
  :data:`INVITES_PER_HOUR` an hour per inviter, :data:`SITE_INVITES_PER_HOUR` an hour on
  the site, and the requests of one client (:data:`REQUESTS_BURST`). Nothing here names a
  private table to anyone but the invitee (and the people seated at it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any, TypedDict

from fastapi import APIRouter, Header, Path, Request
from pydantic import BaseModel, Field

from chicago.server.admission import client_key
from chicago.server.club.service import ClubService
from chicago.server.core.ports import Revocation, Subscription
from chicago.server.core.rows import Change
from chicago.server.core.state import FINISHED, WAITING
from chicago.server.limits import make_limiter
from chicago.server.live import LiveTable
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.storage.club import ProfileRow
from chicago.server.storage.people import InviteRow, PeopleStore
from chicago.server.strict import STRICT
from chicago.server.tables import TableManager
from chicago.server.together.mail import Mailer
from chicago.server.together.online import Online

__all__ = [
    "INVITES_PER_HOUR",
    "MAX_FOLLOWS",
    "MAX_LISTED",
    "OPEN_INVITES",
    "SITE_INVITES_PER_HOUR",
    "InviteInfo",
    "People",
    "invite_topic",
    "router",
]

log = logging.getLogger("chicago.server")

router = APIRouter(prefix="/api")

MAX_FOLLOWS = 200
"""Profiles one profile may follow."""
MAX_LISTED = 50
"""Profiles online listed at most (the ones at a table first)."""
OPEN_INVITES = 5
"""Open invitations one profile may have at once."""
INVITES_PER_HOUR = 20
"""Invitations one profile may make in an hour."""
SITE_INVITES_PER_HOUR = 1000
"""Invitations the whole site makes in an hour."""
REQUESTS_BURST = 30
"""Requests of this module one client (address) may make at once (then 60 a minute)."""
HOUR = 3600.0

_ID = r"^[A-Za-z0-9_-]{1,32}$"
ProfileId = Annotated[str, Field(pattern=_ID)]


def invite_topic(profile: str) -> str:
    """The bus topic of a profile's invitations (heard by its site sockets)."""
    return f"invites:p:{profile}"


class InviteInfo(TypedDict):
    """An invitation as its invitee or inviter sees it."""

    id: str
    table: str
    table_name: str
    by: dict[str, str]
    to: dict[str, str]
    created: float


class Person(TypedDict):
    """A profile in the lists of people."""

    profile: str
    name: str
    online: bool
    table: dict[str, str] | None


class People:
    """Follows, who is shown online and invitations, for one server process."""

    def __init__(self, manager: TableManager, store: Store, settings: Settings,
                 club: ClubService, mailer: Mailer, online: Online) -> None:
        self.manager = manager
        self.club = club
        self.mailer = mailer
        self.online = online
        self.store = store
        self.rows = PeopleStore(store)
        self.requests = make_limiter(settings, "people", REQUESTS_BURST, 60)
        self._revocations: Subscription | None = None
        manager.cache.stored.append(self._stored)

    async def start(self) -> None:
        """Hear the revocations (an inviter signed out everywhere) and who is online."""
        self._revocations = self.manager.bus.subscribe_revocations(self._revoked)
        await self._revocations.ready()
        await self.online.start()

    async def stop(self) -> None:
        """Stop hearing them."""
        if self._revocations is not None:
            self._revocations.close()
        await self.online.stop()
        await self.requests.close()

    async def gate(self, request: Request) -> None:
        """TableError 429 when this client made too many requests of people."""
        key = client_key(request.client.host if request.client else None)
        wait = await self.requests.take(key)
        if wait is not None:
            raise TableError("rate_limited", "too many requests about people from one "
                             "address; try again later", 429, retry_after=wait)

    # ------------------------------------------------------------------ online
    async def people(self, me: ProfileRow | None) -> dict[str, Any]:
        """The people online who chose to be shown, and the ones ``me`` follows."""
        where = self.online.everyone()
        shown = await asyncio.to_thread(self.rows.shown, sorted(where))
        tables = await self._table_names({t for p, t in where.items() if p in shown and t})
        people = [self._person(p, name, where, tables) for p, name in shown.items()]
        people.sort(key=lambda p: (p["table"] is None, p["name"].casefold(), p["profile"]))
        out: dict[str, Any] = {"online": people[:MAX_LISTED], "following": None,
                               "shows_online": None}
        if me is not None:
            follows = await asyncio.to_thread(self.rows.following, me.id)
            out["following"] = [
                self._person(p, name, where if show else {}, tables)
                for p, name, show in follows]
            out["shows_online"] = await asyncio.to_thread(self.rows.shows_online, me.id)
        return out

    @staticmethod
    def _person(profile: str, name: str, where: dict[str, str | None],
                tables: dict[str, str]) -> Person:
        table = where.get(profile)
        return {"profile": profile, "name": name, "online": profile in where,
                "table": {"id": table, "name": tables[table]}
                if table is not None and table in tables else None}

    async def _table_names(self, ids: set[str]) -> dict[str, str]:
        """Table id -> name of the tables that are public (checked again here: a table
        never appears by a worker's word alone)."""
        names = {}
        for table_id in sorted(ids):
            row = await asyncio.to_thread(self.store.table, table_id)
            if row is not None and not row.private:
                names[table_id] = row.name
        return names

    async def show_online(self, me: ProfileRow, show: bool) -> None:
        """Store ``me``'s choice; every worker's open pages hear that the list changed."""
        await asyncio.to_thread(self.rows.set_shows_online, me.id, show,
                                self.manager.clock.time())
        await self.online.shown_changed()

    # ------------------------------------------------------------------ follows
    async def follow(self, me: ProfileRow, profile_id: str, follow: bool) -> None:
        """Follow ``profile_id`` (or stop): TableError for oneself, an unknown profile,
        over :data:`MAX_FOLLOWS`."""
        if profile_id == me.id:
            raise TableError("bad_request", "profile: a profile cannot follow itself")
        if not follow:
            await asyncio.to_thread(self.rows.unfollow, me.id, profile_id)
            return
        if await asyncio.to_thread(self.club.store.profile, profile_id) is None:
            raise TableError("unknown_profile", f"no profile {profile_id!r}", 404)
        refused = await asyncio.to_thread(self.rows.follow, me.id, profile_id,
                                          self.manager.clock.time(), MAX_FOLLOWS)
        if refused is not None:
            raise TableError("follow_limited", f"a profile follows at most {MAX_FOLLOWS} "
                             "profiles: stop following one first", 409)

    # ------------------------------------------------------------------ invitations
    async def invite(self, me: ProfileRow, table_id: str, invitee_id: str) -> InviteInfo:
        """Invite ``invitee_id`` to ``table_id`` (see the module docstring); TableError
        naming why not, changing nothing."""
        table = await self.manager.require(table_id)
        state = table.state
        if not any(s.kind == "human" and s.profile == me.id for s in state.seats):
            raise TableError("not_seated", "invite people to a table where you are seated",
                             403)
        if invitee_id == me.id:
            raise TableError("bad_request", "profile: you cannot invite yourself")
        invitee = await asyncio.to_thread(self.club.store.profile, invitee_id)
        if invitee is None:
            raise TableError("unknown_profile", f"no profile {invitee_id!r}", 404)
        self._check_open(table)
        if any(s.profile == invitee_id for s in state.seats):
            raise TableError("already_seated", "this profile holds a seat at this table "
                             "already", 409)
        follows = await asyncio.to_thread(self.rows.follows, me.id, invitee_id)
        if not follows and not (invitee_id in self.online.everyone() and await
                                asyncio.to_thread(self.rows.shows_online, invitee_id)):
            raise TableError("not_invitable", "invite a profile you follow or one shown "
                             "online", 403)
        mine = await asyncio.to_thread(self.rows.open_invites, inviter=me.id)
        if any(r.table_id == table_id and r.invitee_id == invitee_id for r in mine):
            raise TableError("already_invited", "this profile has an open invitation to "
                             "this table already", 409)
        await self._check_caps(me, len(mine))
        row = InviteRow(self.manager.new_secret(12), table_id, me.id, invitee_id,
                        self.manager.clock.time(), None, None)
        await asyncio.to_thread(self.rows.add_invite, row)
        await self._tell(row)
        if self.mailer.on:
            await self.mailer.notice(invitee_id, "invite", table_id, state.row.name,
                                     by=me.name)
        return self._info(row, {me.id: me.name, invitee.id: invitee.name},
                          {table_id: state.row.name})

    @staticmethod
    def _check_open(table: LiveTable) -> None:
        status = table.state.status
        if status == FINISHED:
            raise TableError("invite_ended", "the game at this table is over", 409)
        if status != WAITING:
            raise TableError("no_open_seat", "every seat of this table is taken", 409)

    async def _check_caps(self, me: ProfileRow, open_now: int) -> None:
        if open_now >= OPEN_INVITES:
            raise TableError("invite_limited", f"at most {OPEN_INVITES} open invitations at "
                             "once: withdraw one first", 429, retry_after=60)
        since = self.manager.clock.time() - HOUR
        if await asyncio.to_thread(self.rows.invites_since, since, me.id) >= INVITES_PER_HOUR:
            raise TableError("invite_limited", f"at most {INVITES_PER_HOUR} invitations an "
                             "hour", 429, retry_after=600)
        if await asyncio.to_thread(self.rows.invites_since, since) >= SITE_INVITES_PER_HOUR:
            raise TableError("invite_limited", "this site sends too many invitations now; "
                             "try again later", 429, retry_after=600)

    async def invites(self, me: ProfileRow) -> dict[str, list[InviteInfo]]:
        """``me``'s open invitations: received (``invites``) and made (``sent``)."""
        received = await asyncio.to_thread(self.rows.open_invites, invitee=me.id)
        sent = await asyncio.to_thread(self.rows.open_invites, inviter=me.id)
        rows = received + sent
        names = await asyncio.to_thread(
            self.club.store.profiles_named, sorted({r.inviter_id for r in rows}
                                                   | {r.invitee_id for r in rows}))
        tables = {}
        for table_id in sorted({r.table_id for r in rows}):
            row = await asyncio.to_thread(self.store.table, table_id)
            tables[table_id] = row.name if row is not None else ""
        return {"invites": [self._info(r, names, tables) for r in received],
                "sent": [self._info(r, names, tables) for r in sent]}

    @staticmethod
    def _info(row: InviteRow, names: dict[str, str], tables: dict[str, str]) -> InviteInfo:
        return {"id": row.id, "table": row.table_id, "table_name": tables.get(row.table_id, ""),
                "by": {"profile": row.inviter_id, "name": names.get(row.inviter_id, "")},
                "to": {"profile": row.invitee_id, "name": names.get(row.invitee_id, "")},
                "created": row.created_at}

    async def answer(self, me: ProfileRow, invite_id: str, answer: str) -> str | None:
        """``accept`` (the table id, to sit; TableError when it filled or ended, which
        ends the invitation), ``decline`` (the invitee) or ``withdraw`` (the inviter)."""
        row = await asyncio.to_thread(self.rows.invite, invite_id)
        who = row.inviter_id if row is not None and answer == "withdraw" else (
            row.invitee_id if row is not None else None)
        if row is None or who != me.id:
            raise TableError("unknown_invite", f"no invitation {invite_id!r} for this profile",
                             404)
        if row.ended_at is not None:
            raise TableError("invite_ended", f"this invitation has ended ({row.outcome})", 409)
        if answer == "accept":
            table = await self.manager.get(row.table_id)
            try:
                if table is None:
                    raise TableError("invite_ended", "the table is gone", 409)
                self._check_open(table)
            except TableError as exc:
                await self.end([row], "full" if exc.code == "no_open_seat" else "ended")
                raise
        outcome = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[answer]
        await self.end([row], outcome)
        return row.table_id if answer == "accept" else None

    async def end(self, rows: list[InviteRow], outcome: str) -> None:
        """End open invitations with ``outcome``; their invitees' and inviters' pages hear
        it."""
        ended = await asyncio.to_thread(self.rows.end_invites, [r.id for r in rows], outcome,
                                        self.manager.clock.time())
        for row in ended:
            await self._tell(row)

    async def _tell(self, row: InviteRow) -> None:
        note = {"kind": "invites", "id": row.id, "outcome": row.outcome}
        for profile in (row.invitee_id, row.inviter_id):
            await self.manager.bus.publish_note(invite_topic(profile), note)

    # ------------------------------------------------------------------ ending them
    def _stored(self, table: LiveTable, change: Change, _before: int | None) -> None:
        kinds = {e.kind for e in change.entries}
        if not ({"join", "leave", "close"} & kinds or "status" in change.table_updates):
            return
        joined = {str(e.data.get("profile")) for e in change.entries
                  if e.kind == "join" and e.data.get("profile")}
        left = {h.seat for h in change.holders if h.profile is None and h.token_hash is None}
        self.manager.tasks.spawn(self._table_changed(table, joined, left))

    async def _table_changed(self, table: LiveTable, joined: set[str], left: set[int]) -> None:
        rows = await asyncio.to_thread(self.rows.open_invites, table_id=table.id)
        if not rows:
            return
        seated = {s.profile for s in table.state.seats if s.kind == "human" and s.profile}
        status = table.state.status
        if status != WAITING:
            await self.end(rows, "full" if status != FINISHED else "ended")
            return
        await self.end([r for r in rows if r.invitee_id in joined], "joined")
        if left:  # an inviter who left the table takes the invitation back
            await self.end([r for r in rows if r.inviter_id not in seated
                            and r.invitee_id not in joined], "withdrawn")

    def _revoked(self, _site: str, note: Revocation) -> None:
        self.manager.tasks.spawn(self._signed_out(note.profile))

    async def _signed_out(self, profile: str) -> None:
        """The inviter signed out everywhere: its invitations end (on every worker that
        hears it; only the first ends each)."""
        rows = await asyncio.to_thread(self.rows.open_invites, inviter=profile)
        await self.end(rows, "withdrawn")


# ---------------------------------------------------------------------- routes
ProfileHeader = Annotated[str | None, Header(alias="X-Chicago-Profile")]
InviteId = Annotated[str, Path(pattern=_ID)]


class OnlineRequest(BaseModel):
    """``PUT /api/profiles/me/online``."""

    model_config = STRICT

    show: bool


class FollowRequest(BaseModel):
    """``POST /api/profiles/me/follows``."""

    model_config = STRICT

    profile: ProfileId
    follow: bool = True


class InviteRequest(BaseModel):
    """``POST /api/tables/{table_id}/invite``."""

    model_config = STRICT

    profile: ProfileId


async def _people(request: Request) -> People:
    people: People = request.app.state.people
    await people.gate(request)
    return people


async def _me(request: Request, secret: str | None) -> ProfileRow:
    me: ProfileRow = await request.app.state.club.profile_of(secret)
    return me


@router.get("/people")
async def people_online(request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """The people online who chose to be shown (each at its table unless it is private);
    with a profile's secret also the profiles it follows and its own choice."""
    people = await _people(request)
    me = await _me(request, secret) if secret is not None else None
    return await people.people(me)


@router.get("/profiles/me/online")
async def my_online(request: Request, secret: ProfileHeader = None) -> dict[str, bool]:
    """Whether the profile chose to be shown as online."""
    people = await _people(request)
    me = await _me(request, secret)
    return {"show": await asyncio.to_thread(people.rows.shows_online, me.id)}


@router.put("/profiles/me/online")
async def set_my_online(body: OnlineRequest, request: Request,
                        secret: ProfileHeader = None) -> dict[str, bool]:
    """Choose whether the profile is shown as online (off until it says so)."""
    people = await _people(request)
    me = await _me(request, secret)
    await people.show_online(me, body.show)
    return {"show": body.show}


@router.post("/profiles/me/follows")
async def follow(body: FollowRequest, request: Request,
                 secret: ProfileHeader = None) -> dict[str, Any]:
    """Follow a profile (``follow: false``: stop following it)."""
    people = await _people(request)
    me = await _me(request, secret)
    await people.follow(me, body.profile, body.follow)
    return {"profile": body.profile, "following": body.follow}


@router.post("/tables/{table_id}/invite", status_code=201)
async def invite(table_id: InviteId, body: InviteRequest, request: Request,
                 secret: ProfileHeader = None) -> dict[str, Any]:
    """Invite a profile you follow (or one shown online) to the table where you sit."""
    people = await _people(request)
    me = await _me(request, secret)
    return {"invite": await people.invite(me, table_id, body.profile)}


@router.get("/invites")
async def my_invites(request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """The profile's open invitations: received and made."""
    people = await _people(request)
    me = await _me(request, secret)
    return dict(await people.invites(me))


async def _answer(request: Request, secret: str | None, invite_id: str,
                  answer: str) -> dict[str, Any]:
    people = await _people(request)
    me = await _me(request, secret)
    table = await people.answer(me, invite_id, answer)
    return {"id": invite_id, "table": table} if table is not None else {"id": invite_id}


@router.post("/invites/{invite_id}/accept")
async def accept(invite_id: InviteId, request: Request,
                 secret: ProfileHeader = None) -> dict[str, Any]:
    """Take an invitation: the table to sit at (an error when it filled or ended)."""
    return await _answer(request, secret, invite_id, "accept")


@router.post("/invites/{invite_id}/decline")
async def decline(invite_id: InviteId, request: Request,
                  secret: ProfileHeader = None) -> dict[str, Any]:
    """Decline an invitation."""
    return await _answer(request, secret, invite_id, "decline")


@router.post("/invites/{invite_id}/withdraw")
async def withdraw(invite_id: InviteId, request: Request,
                   secret: ProfileHeader = None) -> dict[str, Any]:
    """The inviter takes an invitation back."""
    return await _answer(request, secret, invite_id, "withdraw")
