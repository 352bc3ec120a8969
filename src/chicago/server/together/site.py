"""The site socket ``/ws/site``: one per browser tab, for the news of a person rather than a
table: the tables where it is their turn ("Your games"), as it changes.

The client says who it is in ``hello``: a profile's secret (or null) and the seat tokens it
holds (a guest's seats, at most :data:`~chicago.server.together.turns.MAX_TOKENS`). The
answer is a ``turns`` frame, and another whenever a note on the bus says that a turn of that
profile or of one of those seats changed (on any worker). Messages are checked as strictly as
a table socket's (size, rate, JSON, fields) and refused with an ``error`` frame; a profile
that signed out everywhere since the ``hello`` ends the socket (close code 4401) at once
(the revocation on the bus, any worker), and at its next news in any case.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from chicago.server import credentials, protocol
from chicago.server.bucket import TokenBucket
from chicago.server.club.service import ClubService
from chicago.server.core.ports import Revocation, Subscription
from chicago.server.core.seats import hash_token
from chicago.server.headers import Origins
from chicago.server.protocol import ProtocolError, TableError
from chicago.server.settings import Settings
from chicago.server.together.turns import MAX_TOKENS, YourGames

__all__ = ["SIGNED_OUT", "SiteConnection", "admitted", "serve", "site_socket"]

log = logging.getLogger("chicago.server")

SIGNED_OUT = 4401
"""Close code: the profile of the ``hello`` signed out everywhere."""

_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def _frame(kind: str, **fields: Any) -> str:
    return protocol.dumps({"type": kind, **fields})


def _error(code: str, message: str) -> str:
    return _frame("error", code=code, message=message)


def parse_hello(raw: str | bytes, max_size: int) -> tuple[str | None, list[str]] | None:
    """The profile secret and the seat tokens of a ``hello``, None for a ``ping``;
    ProtocolError naming the problem for anything else."""
    if len(raw) > max_size:
        raise ProtocolError("too_large", f"a message may have at most {max_size} bytes")
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


class SiteConnection:
    """One site socket: who it is, what it listens to, its send queue and rate limit."""

    def __init__(self, websocket: WebSocket, settings: Settings, games: YourGames,
                 club: ClubService) -> None:
        self.websocket = websocket
        self.club = club
        self.settings = settings
        self.games = games
        self.profile: str | None = None
        self.secret_hash: str | None = None
        self.tokens: list[str] = []
        self.subscriptions: list[Subscription] = []
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = TokenBucket(settings.burst, settings.rate, time.monotonic())
        self.refreshing = False
        self.again = False
        self.closed = False
        self.close_code = 1000

    def send(self, text: str) -> None:
        if not self.closed and self.queue.qsize() < self.settings.send_queue:
            self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def sender(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)
            await self.websocket.close(self.close_code)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True

    def unsubscribe(self) -> None:
        for subscription in self.subscriptions:
            subscription.close()
        self.subscriptions = []

    async def hello(self, secret: str | None, tokens: list[str]) -> None:
        """Say who this socket is: subscribe to its turns' news, send its turns."""
        self.unsubscribe()
        self.profile = self.secret_hash = None
        if secret is not None:
            row = await self.club.profile_of(secret)
            self.profile, self.secret_hash = row.id, row.secret_hash
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

    def _revoked(self, _site: str, note: Revocation) -> None:
        """The profile signed out everywhere (on any worker): a socket that said ``hello``
        with an older secret ends."""
        if (note.profile == self.profile and self.secret_hash is not None
                and note.grant != credentials.grant_of(self.secret_hash)):
            self.close(SIGNED_OUT)

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
                    self.close(SIGNED_OUT)
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


async def admitted(websocket: WebSocket) -> bool:
    """Accept a site-wide socket (the site socket, the pairing socket) from a page of an
    allowed origin; one of another origin is closed (1008) and False."""
    origins: Origins = websocket.app.state.origins
    if not origins.allows(websocket.headers.get("origin"), scheme=websocket.url.scheme,
                          host=websocket.headers.get("host")):
        await websocket.close(1008)
        return False
    await websocket.accept()
    return True


async def serve(conn: SiteConnection,
                answer: Callable[[str | bytes], Awaitable[None]]) -> None:
    """Run an accepted site-wide socket until it closes: each message within the rate limit
    is answered by ``answer`` (a ProtocolError or TableError it raises becomes an ``error``
    frame, with the bad ``field`` when it names one); at the end the connection unsubscribes
    and its last frames are sent."""
    settings, websocket = conn.settings, conn.websocket
    sender = asyncio.create_task(conn.sender())
    try:
        while not conn.closed:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text") or message.get("bytes") or b""
            if conn.bucket.claim(time.monotonic()) is not None:
                conn.send(_error("rate_limited", f"at most {settings.rate:g} messages per "
                                 "second; this one was dropped"))
                continue
            try:
                await answer(raw)
            except (ProtocolError, TableError) as exc:
                field = getattr(exc, "field", None)
                extra = {"field": field} if isinstance(field, str) else {}
                conn.send(_frame("error", code=exc.code, message=exc.message, **extra))
    finally:
        conn.unsubscribe()
        conn.close()
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(sender, 5.0)
        sender.cancel()


async def site_socket(websocket: WebSocket) -> None:
    """The site socket (see the module docstring); pages of other origins are refused."""
    if not await admitted(websocket):
        return
    settings: Settings = websocket.app.state.settings
    conn = SiteConnection(websocket, settings, websocket.app.state.your_games,
                          websocket.app.state.club)

    async def answer(raw: str | bytes) -> None:
        hello = parse_hello(raw, settings.max_message)
        if hello is None:
            conn.send(_frame("pong"))
        else:
            await conn.hello(*hello)

    await serve(conn, answer)
