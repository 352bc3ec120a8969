"""What every websocket of the server does alike: the table's ``/ws/{table}``
(:mod:`chicago.server.ws`) and the site's ``/ws/site`` (:mod:`chicago.server.together.site`).

- **Sending** writes a frame at once when nothing waits before it and the connection can
  take it (``chicago serve``'s transport offers it: :class:`~chicago.server.transport.
  DirectFrames`); otherwise the frame goes through a queue with its own sender task
  (:meth:`Socket.sender`), so a slow client never holds anything up; one that falls
  ``Settings.send_queue`` frames behind is closed (1013) and resyncs when it reconnects.
  Frames leave in the order they were sent either way.
- **Receiving** (:meth:`Socket.messages`) takes each message straight from ``chicago serve``'s
  websocket protocol where it offers it (:class:`~chicago.server.transport.DirectMessages`),
  else through the ASGI ``receive``, and checks it before the endpoint parses it: its
  rate (a token bucket of ``Settings.rate`` a second, bursts of ``Settings.burst``; a
  dropped message is answered ``rate_limited`` at most once a second, and
  ``Settings.flood_close`` dropped in a row close the connection, 1008) and its size in
  UTF-8 bytes (``too_large`` over ``Settings.max_message``). Either way the message is not
  handled and the connection stays up (unless it floods).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from chicago.server.bucket import TokenBucket
from chicago.server.headers import Origins
from chicago.server.settings import Settings
from chicago.server.transport import DIRECT_FRAMES, DIRECT_MESSAGES, DirectFrames, DirectMessages

__all__ = ["Refuse", "Socket", "accept_page", "in_own_task", "rate_clock"]

_CLOSE = object()

rate_clock: Callable[[], float] = time.monotonic
"""The clock of the connections' rate limits, in seconds (a test may put in a clock that it
moves itself, so that its counts never depend on how fast the machine is)."""

Refuse = Callable[[str, str], None]
"""``refuse(code, message)``: answer a refused message with the endpoint's error frame."""


T = TypeVar("T")


async def in_own_task(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` in a task of its own and wait for it (its result, its exception; a
    cancellation of the caller cancels it too).

    An endpoint runs its loop over a connection's messages so: a message then wakes only
    that task's few coroutines, not the ASGI application's whole stack around the endpoint
    (uvicorn's, the framework's and each middleware's coroutine: about twenty), which is
    resumed once, when the loop ends."""
    return await asyncio.create_task(coro)


async def accept_page(websocket: WebSocket) -> bool:
    """Accept a site-wide socket (``/ws/site``, ``/ws/pairing``) opened by a page of an
    origin the server allows; close any other at once (1008). Whether it was accepted."""
    origins: Origins = websocket.app.state.origins
    if not origins.allows(websocket.headers.get("origin"), scheme=websocket.url.scheme,
                          host=websocket.headers.get("host")):
        await websocket.close(1008)
        return False
    await websocket.accept()
    return True


class Socket:
    """One websocket's send queue and rate limit (an endpoint's connection extends it)."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.settings = settings
        self.closed = False
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._close_code = 1000
        self._close_reason = ""
        self._bucket = TokenBucket(settings.burst, settings.rate, rate_clock())
        self._dropped = 0
        self._last_limited: float | None = None
        self._sender: asyncio.Task[None] | None = None
        self._sending = False
        """The sender task is writing a frame it took from the queue."""
        extensions = websocket.scope.get("extensions") or {}
        self._direct: DirectFrames | None = extensions.get(DIRECT_FRAMES)
        """Writes a frame at once (None: a server without it, such as the test client's)."""
        self._inbox: DirectMessages | None = extensions.get(DIRECT_MESSAGES)
        """Hands over the messages received (None: a server without it)."""

    # ------------------------------------------------------------------ sending
    def send(self, text: str) -> None:
        """Send a frame: at once when no frame waits before it and the connection can take
        it, else through the queue; a client that falls too far behind is disconnected."""
        if self.closed:
            return
        direct = self._direct
        if (direct is not None and not self._sending and not self._queue.qsize()
                and direct.write_text(text)):
            return
        if self._queue.qsize() >= self.settings.send_queue:
            self.close(1013, "too far behind: reconnect and resync")
            return
        self._queue.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the frames already queued."""
        if self.closed:
            return
        self.closed = True
        self._close_code, self._close_reason = code, reason
        self._queue.put_nowait(_CLOSE)

    def start(self) -> None:
        """Start sending what is queued (:meth:`sender`, a task of its own)."""
        self._sender = asyncio.create_task(self.sender())

    async def finish(self) -> None:
        """The socket's handler ends: close, and let the sender send what is queued (for
        5 seconds at most)."""
        self.close()
        sender = self._sender
        if sender is None:
            return
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(sender, 5.0)
        sender.cancel()

    async def sender(self) -> None:
        """Send queued frames until closed."""
        try:
            while True:
                item = await self._queue.get()
                if item is _CLOSE:
                    await self.websocket.close(self._close_code, self._close_reason)
                    return
                assert isinstance(item, str)
                self._sending = True
                await self.websocket.send_text(item)
                self._sending = False
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True

    # ------------------------------------------------------------------ rate limit
    def refund(self) -> None:
        """Give back the token of a message that turned out to be an accepted action: the
        game itself bounds how fast those come, so a fast (bot) client is never limited."""
        self._bucket.refund()

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages per second, bursts of ``burst``."""
        if self._bucket.claim(rate_clock()) is None:
            self._dropped = 0
            return True
        self._dropped += 1
        return False

    def _limited(self, refuse: Refuse) -> None:
        """A message was dropped by the rate limit: say so (once a second at most); close
        the connection after ``flood_close`` in a row."""
        settings = self.settings
        now = rate_clock()
        if self._last_limited is None or now - self._last_limited >= 1.0:
            self._last_limited = now
            refuse("rate_limited", f"at most {settings.rate:g} messages per second (bursts "
                   f"of {settings.burst}); this one was dropped")
        if self._dropped >= settings.flood_close:
            self.close(1008, "flooding")

    # ------------------------------------------------------------------ receiving
    async def messages(self, refuse: Refuse) -> AsyncIterator[str | bytes]:
        """The client's messages (text, or the bytes of a binary frame) within its rate and
        size limits, until it disconnects or the connection is closed; the others are
        answered by ``refuse`` and left out (see the module docstring)."""
        settings = self.settings
        receive = self._receiver()
        while not self.closed:
            raw = await receive()
            if raw is None:
                return
            if not self.allow():
                self._limited(refuse)
                continue
            size = (len(raw.encode("utf-8", "surrogatepass"))
                    if isinstance(raw, str) and not raw.isascii() else len(raw))
            if size > settings.max_message:
                refuse("too_large", f"a message may have at most {settings.max_message} "
                       "bytes")
                continue
            yield raw

    def _receiver(self) -> Callable[[], Awaitable[str | bytes | None]]:
        """What gives the next message (None: the client went away): the protocol's
        :class:`DirectMessages` once the handshake was accepted, else the ASGI ``receive``."""
        inbox = self._inbox
        if (inbox is not None and self.websocket.client_state is WebSocketState.CONNECTED
                and inbox.start()):
            return inbox.receive
        return self._receive_asgi

    async def _receive_asgi(self) -> str | bytes | None:
        """The next message through starlette's ``receive``; None once disconnected."""
        try:
            message = await self.websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return None
        if message["type"] == "websocket.disconnect":
            return None
        raw: str | bytes | None = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        return raw
