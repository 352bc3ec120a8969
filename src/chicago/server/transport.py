"""uvicorn's protocols as ``chicago serve`` runs them (docs/SERVER.md, "Protocol errors").

uvicorn parses HTTP and websocket frames itself, before the application sees anything. Two
of its habits are changed here, in subclasses of its own protocol classes
(:func:`protocol_classes`, given to ``uvicorn.Config(http=…, ws=…)``):

- **Parser-level 400s carry the safe headers.** A request the HTTP parser cannot read (a
  method such as ``BREW``, a broken request line or header) and a websocket handshake
  websockets cannot parse are answered by uvicorn with a plain 400; these answers now carry
  :data:`~chicago.server.headers.SAFE_HEADERS` like every answer of the application.
- **A protocol error is one log line, rate-limited.** uvicorn logs a text frame that is not
  UTF-8 (closed with 1007) as an ERROR with a traceback, and an unreadable request as a
  warning: a client sending them in a loop filled the log (300 frames, 150,900 bytes).
  Here each is one warning line of ``chicago.server`` naming the client's address and the
  error, without a traceback: at most one per connection, and per address at most
  :data:`LOG_BURST` lines, then one every :data:`LOG_EVERY` seconds, the next line saying
  how many were left out (:class:`ProtocolErrorLog`).

And one is added: **frames written at once** (:class:`DirectFrames`). Every websocket's
scope carries, under the ASGI extension :data:`DIRECT_FRAMES`, an object that writes a text
frame to the connection there and then, the bytes uvicorn's own ``websocket.send`` would
write, when the connection can take it (handshake done, not closing, the transport not
paused by flow control); :class:`chicago.server.sockets.Socket` writes through it whenever
no frame of its own waits, instead of waking its sender task and passing the frame down
starlette's and the middleware's layers of ``send`` (none of which looks at a frame).
Where websockets' own state allows it (the connection open, no fragment begun, no extension,
nothing of its own waiting, no debug log) the frame's bytes are made here: a text frame the
server sends is a 2-, 4- or 10-byte header and the payload, unmasked.

And **messages received directly** (:class:`DirectMessages`, the ASGI extension
:data:`DIRECT_MESSAGES`): once :meth:`DirectMessages.start` is called (by
:meth:`chicago.server.sockets.Socket.messages`, after the handshake), each complete message
websockets parses is handed to the waiting handler as its text (or bytes), not wrapped in an
ASGI event, queued in uvicorn's receive queue and taken out through uvicorn's, the
middleware's and starlette's ``receive``; uvicorn's checks before it (the frame size
``ws_max_size``, a text frame's UTF-8 closed with 1007, the close handshake) are unchanged,
and reading pauses while a message waits for a busy handler, as uvicorn's does.
While messages are received directly, the small text frames a client sends are read here
too (:mod:`chicago.server.textframes`), not by websockets' frame parser, where its parser
stands at a frame's start: whatever this reading does not take whole (other frames, a
frame not yet complete, one over the limit or not UTF-8, and every byte after it in that
read) is websockets' as before, and a read websockets fails in is refused whole.

And **keep-alive pings spread over the interval** (:func:`ping_delay`): uvicorn pings each
connection ``ws_ping_interval`` seconds after its handshake, then that long after each ping
(the pong's delay taken off), so connections opened together ping together, and every ping
that falls due during a lag of the loop is sent in the one turn after it, its connection's
pings together with the others' from then on. Here each connection has a moment of its
own in the interval (:data:`PING_SPREAD`: the golden-ratio sequence over the connections
in the order they are made, deterministic and even for any run of them) and pings at the
next such moment of the loop's clock, at most one interval after its handshake or its last
pong: a dead peer is still found within ``ws_ping_interval + ws_ping_timeout``, and a ping
delayed by a lag does not take the next one along.

A connection that ended leaves no reference cycle (docs/SERVER.md, "Connections without
cycles"): the HTTP protocol lets go of its parser after a websocket upgrade, the websocket
protocol releases its :class:`DirectFrames` and handshake hook when the connection is lost,
and the connection's logger holds its protocol weakly; so its objects are freed by
reference counting, not left to the tuned garbage collector (``Settings.tune_gc``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import itertools
import logging
import time
import weakref
from collections import deque
from typing import Any, cast

from websockets.exceptions import InvalidState
from websockets.protocol import OPEN

from chicago.server.bucket import TokenBucket
from chicago.server.headers import SAFE_HEADERS
from chicago.server.textframes import (
    apply_mask,
    at_frame_start,
    frame_limit,
    frames_readable,
    read_text_frames,
)

__all__ = ["DIRECT_FRAMES", "DIRECT_MESSAGES", "LOG_BURST", "LOG_EVERY", "PING_SPREAD",
           "DirectFrames", "DirectMessages", "ProtocolErrorLog", "frame_head", "ping_delay",
           "protocol_classes"]

log = logging.getLogger("chicago.server")

LOG_BURST = 3
"""Protocol-error lines one address may cause at once."""

LOG_EVERY = 60.0
"""Seconds between two protocol-error lines of one address once its burst is spent."""

KEEP = 10_000
"""Addresses whose line budget is remembered at most (the oldest are forgotten)."""

PING_SPREAD = (5 ** 0.5 - 1) / 2
"""The step between two consecutive connections' moments of pinging, as a fraction of the
ping interval (the golden ratio's fractional part: any n consecutive connections' moments
are about 1/n of the interval apart, whatever n)."""


def ping_delay(now: float, interval: float, phase: float) -> float:
    """Seconds from ``now`` (the loop's clock) to the connection's next keep-alive ping: the
    next moment whose place in the interval is ``phase`` (a fraction, 0 to 1), after
    ``now`` and at most ``interval`` away."""
    wait = (phase * interval - now) % interval
    return wait if wait > 0 else interval


ERRORS = {
    "Invalid UTF-8 sequence received from client.":
        "a websocket text frame that is not UTF-8 (closed with 1007)",
    "Invalid HTTP request received.": "an HTTP request the parser cannot read (answered 400)",
}
"""uvicorn's messages for a client's protocol error, and what the one line says instead."""


class ProtocolErrorLog:
    """The log lines of clients' protocol errors: one line each, at most :data:`LOG_BURST`
    per address at once and one per :data:`LOG_EVERY` seconds after, counting the rest."""

    def __init__(self, burst: int = LOG_BURST, every: float = LOG_EVERY) -> None:
        self.burst = burst
        self.every = every
        self._budgets: dict[str, TokenBucket] = {}
        self._left_out: dict[str, int] = {}

    def report(self, address: str, what: str, at: float | None = None) -> bool:
        """Log that ``address`` made the protocol error ``what``, unless its budget is
        spent (then it is counted); True if a line was written."""
        at = time.monotonic() if at is None else at
        budget = self._budgets.get(address)
        if budget is None:
            if len(self._budgets) >= KEEP:
                self._budgets.clear()
                self._left_out.clear()
            budget = self._budgets[address] = TokenBucket(self.burst, 1.0 / self.every, at)
        if budget.claim(at) is not None:
            self._left_out[address] = self._left_out.get(address, 0) + 1
            return False
        left_out = self._left_out.pop(address, 0)
        more = f" ({left_out} more from this address not logged)" if left_out else ""
        log.warning("protocol error from %s: %s%s", address, what, more)
        return True


class _NotDirect:
    """Stands for a protocol :class:`DirectFrames` cannot write to (every frame refused) and
    :class:`DirectMessages` no longer reads from (nothing paused or resumed)."""

    handshake_complete = False
    read_paused = False


_NOT_DIRECT = _NotDirect()

DIRECT_FRAMES = "chicago.direct_frames"
"""The ASGI extension (``scope["extensions"]``) under which a websocket's
:class:`DirectFrames` is found."""


class DirectFrames:
    """Writes a connection's text frames at once, from the event loop's thread, as uvicorn's
    websocket protocol writes a ``websocket.send`` (its websockets ``ServerProtocol`` makes
    the frame, its transport takes the bytes), without the ASGI ``send`` around it.

    :meth:`write_text` refuses (False, nothing written) whenever uvicorn's own ``send``
    would not write at once: before the handshake completed, after a close was sent or the
    client went away (or its transport is closing), after a refusal of the handshake, or
    while the transport is paused because its buffer is full (then the frame must wait its
    turn, as in ``send``)."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    def release(self) -> None:
        """Let go of the protocol once its connection is lost (every later frame is
        refused, as it would be anyway): the protocol holds this object in its scope, so
        holding the protocol back would make a cycle only the garbage collector frees."""
        self._protocol = _NOT_DIRECT

    def write_text(self, text: str) -> bool:
        """Write one text frame now; False when it must go through ``send`` instead."""
        protocol = self._protocol
        try:
            if (not protocol.handshake_complete or protocol.close_sent
                    or protocol.disconnected or protocol.initial_response is not None
                    or not protocol.writable.is_set() or protocol.transport.is_closing()):
                return False
            conn = protocol.conn
            data = text.encode()
            if (conn.state is OPEN and not conn.expect_continuation_frame
                    and not conn.extensions and not conn.writes and not conn.debug):
                # What websockets' send_text and data_to_send would give, made here.
                protocol.transport.write(frame_head(len(data)) + data)
                return True
            conn.send_text(data)
        except InvalidState:  # websockets saw the closing handshake begin
            return False
        except AttributeError:  # a uvicorn whose protocol differs: its own send, always
            log.warning("frames written at once are off: uvicorn's websocket protocol "
                        "is not the one chicago knows")
            self._protocol = _NOT_DIRECT
            return False
        protocol.transport.write(b"".join(conn.data_to_send()))
        return True


_SMALL_HEADS = tuple(bytes((0x81, n)) for n in range(126))


def frame_head(size: int) -> bytes:
    """The header of a server's final, unmasked text frame of ``size`` bytes of payload (RFC
    6455 section 5.2): FIN and the text opcode, then the length in 7 bits, or 126 and 16
    bits, or 127 and 64 bits."""
    if size < 126:
        return _SMALL_HEADS[size]
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big")
    return b"\x81\x7f" + size.to_bytes(8, "big")


DIRECT_MESSAGES = "chicago.direct_messages"
"""The ASGI extension (``scope["extensions"]``) under which a websocket's
:class:`DirectMessages` is found."""

_END = object()
"""In a :class:`DirectMessages`' items: the client went away (or the connection closed)."""


class DirectMessages:
    """A connection's received messages handed to its handler directly, from the event
    loop's thread: each complete text message as its ``str``, a binary one as its ``bytes``,
    in the order received, then None once the client disconnected or the connection closed.

    Until :meth:`start` nothing changes (uvicorn's ASGI queue, read by ``receive``). After
    it, uvicorn's protocol puts no event in its queue: a message goes to the handler waiting
    in :meth:`receive`, or, while the handler is busy, waits here, and reading pauses until
    the handler has taken every message waiting (uvicorn pauses the same way, after each
    message queued, until its queue is empty), so a slow handler is never read ahead of by
    more than what one read of the socket brought."""

    __slots__ = ("_done", "_end_event", "_ended", "_items", "_loop", "_protocol", "_waiter")

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol
        self._loop: asyncio.AbstractEventLoop = protocol.loop
        self._items: deque[object] = deque()
        self._waiter: asyncio.Future[object] | None = None
        self._ended = False
        """The end was put (after the items before it)."""
        self._done = False
        """The end was handed to the handler."""
        self._end_event: dict[str, Any] = {"type": "websocket.disconnect", "code": 1006}

    def start(self) -> bool:
        """Receive directly from now on (after the handshake was accepted and its
        ``websocket.connect`` taken): the events uvicorn queued already come first, in
        order. False (nothing changed) when the protocol cannot: the handshake not
        complete, a refused one, or the connection already released."""
        protocol = self._protocol
        if protocol is _NOT_DIRECT:
            return False
        try:
            queue = protocol.queue
            if isinstance(queue, _Inbox):
                return True
            if not protocol.handshake_complete or protocol.initial_response is not None:
                return False
            inbox = _Inbox(self)
            while not queue.empty():
                inbox.put_nowait(queue.get_nowait())
            protocol.queue = inbox
            protocol.direct_messages = self
        except AttributeError:  # a uvicorn whose protocol differs: its queue, always
            log.warning("messages received directly are off: uvicorn's websocket protocol "
                        "is not the one chicago knows")
            self._protocol = _NOT_DIRECT
            return False
        return True

    def release(self) -> None:
        """Let go of the protocol once its connection is lost (see
        :meth:`DirectFrames.release`); the messages and the end already here stay."""
        self._protocol = _NOT_DIRECT

    def put(self, message: str | bytes) -> None:
        """A message received (the protocol's side)."""
        waiter = self._waiter
        if waiter is not None and not self._items:
            self._waiter = None
            if not waiter.done():  # else the handler was cancelled: it waits here
                waiter.set_result(message)
                return
        self._items.append(message)
        protocol = self._protocol
        if not protocol.read_paused and protocol is not _NOT_DIRECT:
            protocol.read_paused = True
            protocol.transport.pause_reading()

    def end(self, event: dict[str, Any]) -> None:
        """The client went away or the connection is closing (the protocol's side): after
        the messages already here, :meth:`receive` gives None."""
        if self._ended:
            return
        self._ended = True
        self._end_event = event
        waiter = self._waiter
        if waiter is not None and not self._items:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(_END)
                return
        self._items.append(_END)

    async def receive(self) -> str | bytes | None:
        """The next message; None once the client disconnected (and ever after)."""
        items = self._items
        if items:
            item = items.popleft()
            if not items:
                protocol = self._protocol
                if protocol.read_paused:
                    protocol.read_paused = False
                    protocol.transport.resume_reading()
        elif self._done:
            return None
        else:
            waiter = self._waiter = self._loop.create_future()
            try:
                item = await waiter
            finally:
                self._waiter = None
        if item is _END:
            self._done = True
            return None
        assert isinstance(item, (str, bytes))
        return item


class _Inbox:
    """What uvicorn's websocket protocol takes for its ASGI receive queue once its
    :class:`DirectMessages` started: the events put in it go there (a disconnect is its
    end), and a ``receive`` through the ASGI stack, if any, still gets them in order."""

    __slots__ = ("_messages",)

    def __init__(self, messages: DirectMessages) -> None:
        self._messages = messages

    def put_nowait(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "websocket.receive":
            text = event.get("text")
            self._messages.put(text if text is not None else event.get("bytes") or b"")
        elif kind == "websocket.disconnect":
            self._messages.end(event)
        else:  # pragma: no cover (uvicorn queues nothing else after the handshake)
            raise RuntimeError(f"unexpected ASGI event {kind!r} after the handshake")

    def empty(self) -> bool:
        return not self._messages._items

    async def get(self) -> dict[str, Any]:
        messages = self._messages
        message = await messages.receive()
        if message is None:
            return messages._end_event
        if isinstance(message, str):
            return {"type": "websocket.receive", "text": message}
        return {"type": "websocket.receive", "bytes": message}


ERROR_LOG = ProtocolErrorLog()
"""The process's one log of protocol errors (every connection shares its budgets)."""


class _ConnectionLogger:
    """What a uvicorn protocol object takes for ``logging.getLogger("uvicorn.error")``: the
    same logger, but a client's protocol error becomes one line of :data:`ERROR_LOG`
    (once per connection) instead of uvicorn's message and traceback."""

    def __init__(self, protocol: Any, logger: logging.Logger) -> None:
        self._protocol = weakref.ref(protocol)  # the protocol holds this logger
        self._logger = logger
        self._reported = False

    @property
    def level(self) -> int:
        return self._logger.level

    def _protocol_error(self, msg: object) -> bool:
        what = ERRORS.get(str(msg))
        if what is None:
            return False
        if not self._reported:
            self._reported = True
            client = getattr(self._protocol(), "client", None)
            ERROR_LOG.report(str(client[0]) if client else "?", what)
        return True

    def exception(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if not self._protocol_error(msg):
            self._logger.exception(msg, *args, **kwargs)

    def warning(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if not self._protocol_error(msg):
            self._logger.warning(msg, *args, **kwargs)

    def error(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if not self._protocol_error(msg):
            self._logger.error(msg, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._logger, name)


def _bad_request(protocol: Any, msg: str) -> None:
    """uvicorn's plain 400 for a request its parser could not read, with the safe headers."""
    content = [b"HTTP/1.1 400 Bad Request\r\n"]
    for name, value in (*protocol.server_state.default_headers, *SAFE_HEADERS):
        content.extend([name, b": ", value, b"\r\n"])
    body = msg.encode("ascii", "replace")
    content.extend([b"content-type: text/plain; charset=utf-8\r\n",
                    b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                    b"connection: close\r\n", b"\r\n", body])
    protocol.transport.write(b"".join(content))
    protocol.transport.close()


def protocol_classes() -> tuple[type[Any], type[Any]]:
    """(HTTP protocol, websocket protocol) for ``uvicorn.Config(http=…, ws=…)``: uvicorn's
    own (httptools when installed, else h11; websockets' sans-I/O implementation) with the
    changes of this module."""
    http_base: type[Any]
    if importlib.util.find_spec("httptools") is not None:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        http_base = HttpToolsProtocol
    else:  # pragma: no cover (httptools comes with uvicorn[standard])
        from uvicorn.protocols.http.h11_impl import H11Protocol

        http_base = H11Protocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as WsBase,
    )

    class HttpProtocol(http_base):  # type: ignore[misc]
        """uvicorn's HTTP protocol: safe headers on its 400s, protocol errors in a line."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.logger = cast(logging.Logger,
                               _ConnectionLogger(self, logging.getLogger("uvicorn.error")))

        def send_400_response(self, msg: str) -> None:
            _bad_request(self, msg)

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The connection is the websocket protocol's now and this object is never
            # called again; uvicorn lets go of its parser (which calls back into this
            # object: a cycle) when a connection is lost, but not after an upgrade.
            self.parser = None

    made = itertools.count()

    class WebSocketProtocol(WsBase):
        """uvicorn's websocket protocol: safe headers on a refused handshake, protocol
        errors in a line, frames written at once (:class:`DirectFrames`), messages
        received directly (:class:`DirectMessages`), small text frames read directly
        (:mod:`chicago.server.textframes`), keep-alive pings spread over the interval
        (:func:`ping_delay`)."""

        frames_direct = frames_readable()
        """Whether a client's small text frames are read here while its messages are
        received directly (False: every byte is websockets' to parse)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.ping_phase = (next(made) * PING_SPREAD) % 1.0
            """This connection's place in the ping interval (a fraction)."""
            self.frame_limit = frame_limit(self.conn) if self.frames_direct else None
            """The largest text frame read here (websockets' limit, ``ws_max_size``)."""
            limit = self.frame_limit
            self.small_frame = 125 if limit is None else min(125, limit)
            """The largest payload of a frame with a 7-bit length read here."""
            self.logger = cast(logging.Logger,
                               _ConnectionLogger(self, logging.getLogger("uvicorn.error")))
            self.direct_messages: DirectMessages | None = None
            """Set once its handler receives directly (:meth:`DirectMessages.start`)."""
            accept = self.conn.accept

            def accept_with_headers(request: Any) -> Any:
                response = accept(request)
                if response.status_code != 101:  # a refused handshake: websockets' answer
                    for name, value in SAFE_HEADERS:
                        response.headers[name.decode()] = value.decode()
                return response

            self.conn.accept = accept_with_headers  # type: ignore[method-assign]

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # a valid handshake: the application now accepts or refuses
                extensions = scope["extensions"]
                extensions[DIRECT_FRAMES] = DirectFrames(self)
                extensions[DIRECT_MESSAGES] = DirectMessages(self)

        def data_received(self, data: bytes) -> None:
            direct = self.direct_messages
            if (direct is None or not self.frames_direct or self.close_sent
                    or not at_frame_start(self.conn)):
                super().data_received(data)
                return
            size = len(data) - 6
            if 0 <= size <= self.small_frame and data[0] == 0x81 and data[1] == 0x80 + size:
                # One small frame and nothing else in the read (the common case): what
                # read_text_frames reads, without its loop.
                try:
                    text = apply_mask(data[6:], data[2:6]).decode()
                except UnicodeDecodeError:
                    super().data_received(data)
                    return
                direct.put(text)
                return
            texts, at = read_text_frames(data, self.frame_limit)
            if not texts:
                super().data_received(data)
                return
            if at < len(data):
                # The rest is websockets', as uvicorn's data_received gives it; if it
                # fails, the whole read is refused, the messages read here with it, as
                # websockets refuses every frame of a read it fails in.
                conn = self.conn
                conn.receive_data(data[at:])
                if conn.parser_exc is not None:
                    self.handle_parser_exception()
                    return
                for text in texts:
                    direct.put(text)
                self.handle_events()
                return
            for text in texts:
                direct.put(text)

        def send_receive_event_to_app(self) -> None:
            if self._not_utf8_after_the_peers_close():
                return
            direct = self.direct_messages
            if direct is None:
                super().send_receive_event_to_app()
                return
            # uvicorn's own steps, the message handed over instead of queued.
            frames = self.frames
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            self.frames = []
            if self.close_sent:  # past the application's close: discarded, as uvicorn does
                return
            if self.curr_msg_data_type == "text":
                try:
                    text = data.decode()
                except UnicodeDecodeError:
                    self.logger.exception("Invalid UTF-8 sequence received from client.")
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
                direct.put(text)
            else:
                direct.put(data)

        def _not_utf8_after_the_peers_close(self) -> bool:
            """A text that is not UTF-8, read with the peer's close in the same data: uvicorn
            would answer it with a close of its own (1007), which websockets refuses
            (InvalidState, out of ``data_received``) as it has answered the peer's close
            already. The text is dropped and said in the log, as uvicorn does, and the
            peer's close, the next event, ends the connection."""
            if self.close_sent or self.curr_msg_data_type != "text" or self.conn.state is OPEN:
                return False
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                return True
            return False

        def schedule_ping(self) -> None:
            # uvicorn's: the interval after the handshake, or after the last ping (the
            # pong's delay taken off); here the connection's next moment in the interval.
            interval = self.ping_interval
            assert interval is not None  # as uvicorn's: only scheduled with an interval
            self.ping_timer = self.loop.call_later(
                ping_delay(self.loop.time(), interval, self.ping_phase),
                self.send_keepalive_ping)

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            # Nothing is written to a lost connection: what refers back to this object
            # goes, so that it is freed when the application lets go of it.
            extensions = getattr(self, "scope", {}).get("extensions", {})
            direct = extensions.get(DIRECT_FRAMES)
            if isinstance(direct, DirectFrames):
                direct.release()
            messages = extensions.get(DIRECT_MESSAGES)
            if isinstance(messages, DirectMessages):
                messages.release()
            self.direct_messages = None
            self.conn.__dict__.pop("accept", None)  # accept_with_headers holds conn

        def handle_handshake_exception(self) -> None:
            self.handshake_complete = True
            self.close_sent = True
            pending = b"".join(self.conn.data_to_send())
            if pending:  # websockets' own 414/431 for a request over its limits
                head, _, rest = pending.partition(b"\r\n")
                extra = b"".join(name + b": " + value + b"\r\n" for name, value in SAFE_HEADERS)
                self.transport.write(head + b"\r\n" + extra + rest)
                self.transport.close()
                return
            _bad_request(self, "Failed to open a WebSocket connection: invalid request.\n")

    return HttpProtocol, WebSocketProtocol
