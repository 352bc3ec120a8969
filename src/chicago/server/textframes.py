"""A client's small text frames read directly, past websockets' frame parser (issue 28,
fifty-third pass; docs/SERVER.md, "Text frames received directly").

websockets parses every received frame with a generator (``Protocol.parse`` over a
``StreamReader``, ``Frame.parse``, the extensions, ``Frame.check``); for the frame a
client sends most (one complete, final, masked text frame without reserved bits) that is
most of what receiving a message costs. :func:`read_text_frames` reads such frames at the
start of a buffer itself: the header (2 bytes, then 2 or 8 of length), the mask, the
payload unmasked (websockets' own ``apply_mask``) and decoded strictly as UTF-8. It stops
at the first frame it does not take whole (any other opcode or flag, an unmasked frame, a
length over the limit, a frame not yet complete, bytes that are not UTF-8): from there on
the bytes are websockets' as before.

That is only right where websockets' parser stands at a frame's start with nothing of its
own buffered (:func:`at_frame_start`), which is seen in its generators: the server's
``parse`` waiting in the base ``parse`` waiting in ``StreamReader.at_eof``. Whether the
installed websockets is still built that way is checked once (:func:`frames_readable`) on
a protocol of its own; if not, every frame is websockets' (one warning line).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from websockets.frames import Frame
from websockets.http11 import Request
from websockets.protocol import OPEN, Protocol
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (websockets built without its C module)
    from websockets.utils import apply_mask

__all__ = ["apply_mask", "at_frame_start", "frame_limit", "frames_readable", "read_text_frames"]

log = logging.getLogger("chicago.server")

_SERVER_PARSE = ServerProtocol.parse.__code__
_PARSE = Protocol.parse.__code__
_AT_EOF = StreamReader.at_eof.__code__


def read_text_frames(data: bytes, limit: int | None) -> tuple[list[str], int]:
    """The texts of the complete, final, masked text frames without reserved bits and of
    at most ``limit`` bytes of payload (None: any) at the start of ``data``, and where the
    first byte not read is (``len(data)`` when all were read). A frame whose payload is
    not UTF-8 is not read (nor anything after it)."""
    texts: list[str] = []
    size_of = int.from_bytes
    end = len(data)
    at = 0
    while end - at >= 6 and data[at] == 0x81:
        size = data[at + 1] - 0x80  # masked: the mask bit set
        if size < 0:
            break
        if size < 126:
            mask = at + 2
        elif size == 126:
            if end - at < 8:
                break
            size = size_of(data[at + 2:at + 4], "big")
            mask = at + 4
        else:
            if end - at < 14:
                break
            size = size_of(data[at + 2:at + 10], "big")
            mask = at + 10
        if limit is not None and size > limit:
            break
        start = mask + 4
        stop = start + size
        if stop > end:
            break
        try:
            texts.append(apply_mask(data[start:stop], data[mask:start]).decode())
        except UnicodeDecodeError:
            break
        at = stop
    return texts, at


def at_frame_start(conn: Any) -> bool:
    """Whether websockets' server protocol ``conn`` stands at the start of a frame, open,
    with nothing buffered, no message begun, no extension and no debug log: the state in
    which a frame it is given is parsed on its own."""
    if (conn.state is not OPEN or conn.reader.buffer or conn.current_size is not None
            or conn.extensions or conn.debug):
        return False
    parser = conn.parser
    if parser.gi_code is not _SERVER_PARSE:
        return False
    base = parser.gi_yieldfrom
    if base is None or base.gi_code is not _PARSE:
        return False
    waiting = base.gi_yieldfrom
    return waiting is not None and waiting.gi_code is _AT_EOF


def frame_limit(conn: Any) -> int | None:
    """The largest payload websockets accepts in a frame that begins a message."""
    limit: int | None = conn.max_message_size
    fragment: int | None = conn.max_fragment_size
    if fragment is not None:
        limit = fragment if limit is None else min(limit, fragment)
    return limit


_REQUEST = (b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n")
_FRAME = b"\x81\x82\x01\x02\x03\x04ni"  # "ok", masked with 01 02 03 04


_QUIET = logging.Logger("chicago.server.textframes.check", logging.CRITICAL)
"""The check's protocol's logger: outside the loggers' tree, it writes nothing."""


@functools.cache
def frames_readable() -> bool:
    """Whether the installed websockets is built as :func:`at_frame_start` expects: a
    server protocol of its own, handshake done, stands at a frame's start, reads the frame
    this module would read and then stands at the next one. Checked once; False (with a
    warning line) means every frame goes to websockets."""
    try:
        conn = ServerProtocol(max_size=100, logger=_QUIET)
        conn.receive_data(_REQUEST)
        (request,) = conn.events_received()
        assert isinstance(request, Request)
        conn.send_response(conn.accept(request))
        conn.data_to_send()
        before = at_frame_start(conn) and frame_limit(conn) == 100
        conn.receive_data(_FRAME[:3])
        between = not at_frame_start(conn)
        conn.receive_data(_FRAME[3:])
        (frame,) = conn.events_received()
        assert isinstance(frame, Frame)
        after = at_frame_start(conn)
        texts, _ = read_text_frames(_FRAME, 100)
        ok = (before and between and after and texts == ["ok"]
              and bytes(frame.data) == b"ok")
    except Exception:  # anything not as expected: websockets' parser, always
        ok = False
    if not ok:
        log.warning("text frames received directly are off: websockets' parser is not "
                    "the one chicago knows")
    return ok
