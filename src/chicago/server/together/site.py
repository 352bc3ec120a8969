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
from chicago.server.headers import Origins
from chicago.server.protocol import ProtocolError, TableError
from chicago.server.settings import Settings
from chicago.server.sockets import Socket
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
                 club: ClubService) -> None:
        super().__init__(websocket, settings)
        self.club = club
        self.games = games
        self.profile: str | None = None
        self.secret_hash: str | None = None
        self.tokens: list[str] = []
        self.subscriptions: list[Subscription] = []
        self.refreshing = False
        self.again = False

    def unsubscribe(self) -> None:
        for subscription in self.subscriptions:
            subscription.close()
        self.subscriptions = []

    async def hello(self, secret: str | None, tokens: list[str]) -> None:
        """Say who this socket is: subscribe to its turns' news, send its turns."""
        self.unsubscribe()
        self.forget()
        if secret is not None:
            row = await self.club.profile_of(secret)
            self.profile, self.secret_hash = row.id, row.secret_hash
            await self.games.pages.opened(row.id)
        self.tokens = tokens
        bus = self.games.manager.bus
        topics = [f"turns:t:{hash_token(t)}" for t in tokens]
        if self.profile is not None:
            topics.append(f"turns:p:{self.profile}")
        self.subscriptions = [bus.subscribe_note(topic, self._heard) for topic in topics]
        if self.profile is not None:
            self.subscriptions.append(bus.subscribe_revocations(self._revoked))
        for subscription in self.subscriptions:
            await subscription.ready()
        await self.refresh()

    def forget(self) -> None:
        """This socket is nobody's any more (closed, or about to say ``hello`` again)."""
        if self.profile is not None:
            self.games.pages.closed(self.profile)
        self.profile = self.secret_hash = None

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
        row = await asyncio.to_thread(self.club.store.profile_by_secret, self.secret_hash or "")
        return row is not None and row.id == self.profile


async def site_socket(websocket: WebSocket) -> None:
    """The site socket (see the module docstring); pages of other origins are refused."""
    settings: Settings = websocket.app.state.settings
    origins: Origins = websocket.app.state.origins
    if not origins.allows(websocket.headers.get("origin"), scheme=websocket.url.scheme,
                          host=websocket.headers.get("host")):
        await websocket.close(1008)
        return
    await websocket.accept()
    games: YourGames = websocket.app.state.your_games
    conn = SiteConnection(websocket, settings, games, websocket.app.state.club)
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
