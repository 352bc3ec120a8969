"""The site socket ``/ws/site``: one per browser tab, for the news of a person rather than a
table: the tables where it is their turn ("Your games"), as it changes.

The client says who it is in ``hello``: a profile's secret (or null) and the seat tokens it
holds (a guest's seats, at most :data:`~chicago.server.together.turns.MAX_TOKENS`). The
answer is a ``turns`` frame, and another whenever a note on the bus says that a turn of that
profile or of one of those seats changed (on any worker). Messages are checked as strictly as
a table socket's (size and rate by the same code, :mod:`chicago.server.sockets`: too many
are answered ``rate_limited`` once a second and a flood closes the socket, 1008; then JSON
and fields) and refused with an ``error`` frame; a profile
that signed out everywhere since the ``hello`` ends the socket (close code 4401) at once
(the revocation on the bus, any worker), and at its next news in any case.

A socket that said ``hello`` with a profile also makes that profile online
(:mod:`chicago.server.together.online`) while it is open, is sent ``invites`` frames (its
open invitations, received and made, each time they change, with the ones that ended since
the last frame and why) and a ``people`` frame whenever who is online may have changed (the
page asks ``GET /api/people`` again if it shows them).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from starlette.websockets import WebSocket

from chicago.server import credentials, protocol
from chicago.server.club.service import ClubService
from chicago.server.core.ports import Revocation, Subscription
from chicago.server.core.seats import hash_token
from chicago.server.protocol import ProtocolError, TableError
from chicago.server.settings import Settings
from chicago.server.sockets import Socket, accept_page
from chicago.server.together.people import People, invite_topic
from chicago.server.together.turns import MAX_TOKENS, YourGames

__all__ = ["SIGNED_OUT", "site_socket"]

log = logging.getLogger("chicago.server")

SIGNED_OUT = 4401
"""Close code: the profile of the ``hello`` signed out everywhere."""

_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def _frame(kind: str, **fields: Any) -> str:
    return protocol.dumps({"type": kind, **fields})


def _error(code: str, message: str) -> str:
    return _frame("error", code=code, message=message)


def parse_hello(raw: str | bytes) -> tuple[str | None, list[str]] | None:
    """The profile secret and the seat tokens of a ``hello``, None for a ``ping``;
    ProtocolError naming the problem for anything else (its size is checked before:
    :meth:`~chicago.server.sockets.Socket.messages`)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "not valid JSON") from None
    if isinstance(data, dict) and data.get("type") == "ping":
        return None
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise ProtocolError("bad_message", 'the site socket takes {"type": "hello", '
                            '"profile": …, "tokens": […]} and {"type": "ping"}')
    unknown = set(data) - {"type", "profile", "tokens", "id"}
    if unknown:
        raise ProtocolError("bad_message", f"hello has no field {sorted(unknown)[0]!r}")
    profile = data.get("profile")
    if profile is not None and not (isinstance(profile, str) and 0 < len(profile) <= 128
                                    and _TOKEN_CHARS.issuperset(profile)):
        raise ProtocolError("bad_message", '"profile" must be a profile secret or null')
    tokens = data.get("tokens", [])
    if not isinstance(tokens, list) or len(tokens) > MAX_TOKENS or not all(
            isinstance(t, str) and 0 < len(t) <= 128 and _TOKEN_CHARS.issuperset(t)
            for t in tokens):
        raise ProtocolError("bad_message", f'"tokens" must be a list of at most {MAX_TOKENS} '
                            "seat tokens")
    return profile, list(dict.fromkeys(tokens))


class SiteConnection(Socket):
    """One site socket: who it is and what it listens to, besides its send queue and rate
    limit (:class:`~chicago.server.sockets.Socket`, as a table socket's)."""

    def __init__(self, websocket: WebSocket, settings: Settings, games: YourGames,
                 club: ClubService, people: People) -> None:
        super().__init__(websocket, settings)
        self.club = club
        self.people = people
        self.games = games
        self.profile: str | None = None
        self.secret_hash: str | None = None
        self.tokens: list[str] = []
        self.subscriptions: list[Subscription] = []
        self.refreshing = False
        self.again = False
        self.inviting = False
        self.invite_again = False
        self.ended: list[dict[str, str]] = []
        """Invitations that ended since the last ``invites`` frame: id and outcome."""

    def unsubscribe(self) -> None:
        for subscription in self.subscriptions:
            subscription.close()
        self.subscriptions = []

    async def hello(self, secret: str | None, tokens: list[str]) -> None:
        """Say who this socket is: subscribe to its turns' news, send its turns (a secret of
        no profile changes nothing). Who it was changes at once, in one step: news being
        answered meanwhile never sees half of it (a profile of None with the old secret
        read as signed out)."""
        profile = secret_hash = None
        if secret is not None:
            row = await self.club.profile_of(secret)
            profile, secret_hash = row.id, row.secret_hash
        self.unsubscribe()
        self.forget()
        self.profile, self.secret_hash = profile, secret_hash
        if profile is not None:
            await self.games.pages.opened(profile)
        self.tokens = tokens
        bus = self.games.manager.bus
        topics = [f"turns:t:{hash_token(t)}" for t in tokens]
        if self.profile is not None:
            topics.append(f"turns:p:{self.profile}")
        self.subscriptions = [bus.subscribe_note(topic, self._heard) for topic in topics]
        if self.profile is not None:
            self.subscriptions.append(bus.subscribe_revocations(self._revoked))
            self.subscriptions.append(bus.subscribe_note(invite_topic(self.profile),
                                                         self._invited))
        for subscription in self.subscriptions:
            await subscription.ready()
        await self.refresh()
        if self.profile is not None and self.profile == profile:
            self.people.online.update()
            self.people.online.listeners.append(self._people_changed)
            await self.send_invites()

    def forget(self) -> None:
        """This socket is nobody's any more (closed, or about to say ``hello`` again)."""
        if self.profile is not None:
            self.games.pages.closed(self.profile)
            online = self.people.online
            if self._people_changed in online.listeners:
                online.listeners.remove(self._people_changed)
            online.update()
        self.profile = self.secret_hash = None

    def _people_changed(self) -> None:
        self.send(_frame("people"))

    def _invited(self, _topic: str, note: dict[str, Any]) -> None:
        if isinstance(note.get("id"), str) and isinstance(note.get("outcome"), str):
            self.ended.append({"id": note["id"], "outcome": note["outcome"]})
        self.games.manager.tasks.spawn(self.send_invites())

    async def send_invites(self) -> None:
        """Send the profile's open invitations and the ones that ended since the last
        frame (one query at a time, in order: news that comes meanwhile is answered by one
        more)."""
        if self.inviting:
            self.invite_again = True
            return
        self.inviting = True
        try:
            while self.secret_hash is not None and not self.closed:
                self.invite_again = False
                secret_hash = self.secret_hash
                row = await asyncio.to_thread(self.club.store.profile_by_secret, secret_hash)
                if secret_hash != self.secret_hash:
                    return  # a new hello meanwhile: it sends its own frame
                if row is None or row.id != self.profile:
                    self.close(SIGNED_OUT, "signed out everywhere")
                    return
                found = await self.people.invites(row)
                if secret_hash != self.secret_hash:
                    return
                ended, self.ended = self.ended, []
                self.send(_frame("invites", invites=found["invites"], sent=found["sent"],
                                 ended=ended))
                if not self.invite_again:
                    return
        finally:
            self.inviting = False

    def _revoked(self, _site: str, note: Revocation) -> None:
        """The profile signed out everywhere (on any worker): a socket that said ``hello``
        with an older secret ends."""
        if (note.profile == self.profile and self.secret_hash is not None
                and note.grant != credentials.grant_of(self.secret_hash)):
            self.close(SIGNED_OUT, "signed out everywhere")

    def _heard(self, _topic: str, _note: dict[str, Any]) -> None:
        self.games.manager.tasks.spawn(self.refresh())

    async def refresh(self) -> None:
        """Send the turns as they are now (one query at a time; news that comes meanwhile
        is answered by one more)."""
        if self.refreshing:
            self.again = True
            return
        self.refreshing = True
        try:
            while True:
                self.again = False
                if self.secret_hash is not None and not await self._still_signed_in():
                    self.close(SIGNED_OUT, "signed out everywhere")
                    return
                turns = await self.games.turns(self.profile, self.tokens)
                self.send(_frame("turns", turns=turns))
                if not self.again:
                    return
        finally:
            self.refreshing = False

    async def _still_signed_in(self) -> bool:
        secret_hash, profile = self.secret_hash, self.profile
        row = await asyncio.to_thread(self.club.store.profile_by_secret, secret_hash or "")
        if secret_hash != self.secret_hash:
            return True  # a new hello meanwhile: it is answered by itself
        return row is not None and row.id == profile


async def site_socket(websocket: WebSocket) -> None:
    """The site socket (see the module docstring); pages of other origins are refused."""
    settings: Settings = websocket.app.state.settings
    if not await accept_page(websocket):
        return
    games: YourGames = websocket.app.state.your_games
    conn = SiteConnection(websocket, settings, games, websocket.app.state.club,
                          websocket.app.state.people)
    conn.start()

    def refuse(code: str, message: str) -> None:
        conn.send(_error(code, message))

    try:
        async for raw in conn.messages(refuse):
            try:
                hello = parse_hello(raw)
                if hello is None:
                    conn.send(_frame("pong"))
                else:
                    await conn.hello(*hello)
            except (ProtocolError, TableError) as exc:
                refuse(exc.code, exc.message)
    finally:
        conn.unsubscribe()
        conn.forget()
        await conn.finish()
