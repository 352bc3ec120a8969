"""A client's small text frames read directly, past websockets' frame parser (issue 28,
fifty-third pass; docs/SERVER.md, "Text frames received directly").

- :func:`~chicago.server.textframes.read_text_frames` takes exactly the complete, final,
  masked text frames without reserved bits, within the limit and UTF-8, at a buffer's
  start, and stops at the first other one.
- ``chicago serve``'s websocket protocol reads them without websockets' parser while its
  handler receives directly, and gives websockets every other byte: a stream split at
  every byte boundary, and random streams of every kind of frame split at random places
  (hypothesis), give the same messages, refusals, closes, bytes and log lines as with
  every frame parsed by websockets.
- A websockets not built as expected turns the reading off, with one warning line.

Every test waits for events, never for a time."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_direct_messages import CLOSE, Handler, _connect, _run, masked
from test_socket_layer import FakeTransport

from chicago.server import sockets, textframes
from chicago.server.settings import Settings
from chicago.server.textframes import frames_readable, read_text_frames
from chicago.server.transport import protocol_classes

# ---------------------------------------------------------------------- the reader


def test_reads_the_texts_at_the_start_and_stops_at_the_first_other_frame() -> None:
    texts = [masked(0x81, b"a"), masked(0x81, b""), masked(0x81, "é".encode() * 70),
             masked(0x81, b"z" * 300), masked(0x81, b"w", b"\x7f" + (1).to_bytes(8, "big"))]
    data = b"".join(texts)
    assert read_text_frames(data, 1000) == (["a", "", "é" * 70, "z" * 300, "w"], len(data))
    others = {
        "binary": masked(0x82, b"b"), "ping": masked(0x89, b"p"), "close": CLOSE,
        "fragment": masked(0x01, b"f"), "continuation": masked(0x80, b"c"),
        "rsv1": masked(0xC1, b"r"), "rsv2": masked(0xA1, b"r"), "rsv3": masked(0x91, b"r"),
        "unmasked": b"\x81\x01u", "not UTF-8": masked(0x81, b"\xff"),
        "an encoded surrogate": masked(0x81, b"\xed\xa0\x80"),
        "over the limit": masked(0x81, b"y" * 1001),
    }
    for name, frame in others.items():
        assert read_text_frames(texts[0] + frame + texts[0], 1000) == (["a"], 7), name
    for cut in [masked(0x81, b"abc")[:-1], masked(0x81, b"q" * 200)[:3],
                masked(0x81, b"q" * 200)[:7], masked(0x81, b"w", b"\x7f" + bytes(8))[:12]]:
        assert read_text_frames(texts[0] + cut, 1000) == (["a"], 7), cut
    assert read_text_frames(masked(0x81, b"y" * 1000), 1000) == (["y" * 1000], 1008)
    assert read_text_frames(masked(0x81, b"y" * 1001), None) == (["y" * 1001], 1009)


# ---------------------------------------------------------------------- the protocol


def test_small_text_frames_are_read_without_websockets_parser() -> None:
    """While the handler receives directly and websockets stands at a frame's start, a
    read of text frames does not reach websockets; after a ping (websockets') the next read
    is read directly again. Fails before this pass: every read went to websockets."""
    async def main() -> None:
        handler = Handler(Settings(), direct=True)
        protocol = _connect(handler, FakeTransport())
        await handler.accepted.wait()
        await asyncio.sleep(0)  # the handler's loop starts receiving directly
        conn = protocol.conn
        parse = conn.receive_data
        parsed: list[bytes] = []

        def counted(data: bytes) -> None:
            parsed.append(data)
            parse(data)

        conn.receive_data = counted
        protocol.data_received(masked(0x81, b"one"))
        protocol.data_received(masked(0x81, b"two") + masked(0x81, b"three"))
        ping = masked(0x89, b"p")
        protocol.data_received(masked(0x81, b"four") + ping + masked(0x81, b"five"))
        protocol.data_received(masked(0x81, b"six"))
        assert parsed == [ping + masked(0x81, b"five")]
        protocol.data_received(CLOSE)
        await handler.ended.wait()
        assert handler.log == ["one", "two", "three", "four", "five", "six", "end"]
        protocol.connection_lost(None)

    asyncio.run(main())


@pytest.mark.parametrize("reads", [
    [masked(0x81, b"a" * 9), masked(0x81, b"b" * 10), masked(0x81, b"c" * 11), CLOSE],
    [masked(0x81, b""), masked(0x81, b"\xc3\xa9"), masked(0x81, b"\xc3"), CLOSE],
    [masked(0x81, b"ok"), bytes((0x81, 2)) + b"no", CLOSE],
    [masked(0x81, b"ok"), masked(0xC1, b"r"), CLOSE],
    [masked(0x81, b"ok"), masked(0x81, b"ok")[:-1], b"k", masked(0x81, b"k"), CLOSE],
], ids=["the limit to the byte", "empty and not UTF-8", "unmasked", "rsv1", "cut"])
def test_reads_of_one_frame_each_give_the_same(reads: list[bytes]) -> None:
    """A read of exactly one small frame (read on a path of its own), with ``ws_max_size``
    10: the same either way (10 bytes read, 11 closed with 1009)."""
    async def main() -> None:
        options = {"direct": True, "late": False, "settings": Settings(),
                   "ws_max_size": 10}
        slow = await _run(reads, fast=False, **options)
        fast = await _run(reads, fast=True, **options)
        assert (fast[0], fast[1], fast[3]) == (slow[0], slow[1], slow[3])

    asyncio.run(main())


STREAM = b"".join([
    masked(0x81, b'{"type": "ping"}'), masked(0x81, "é".encode() * 3),
    masked(0x89, b"p"), masked(0x81, b"x" * 130), masked(0x01, b"ab"),
    masked(0x80, b"cd"), masked(0x81, b""), masked(0x82, b"\x00"),
    masked(0x81, b"w", b"\x7f" + (1).to_bytes(8, "big")), CLOSE])
BAD_STREAM = b"".join([masked(0x81, b"ok"), masked(0x81, b"a\xc3"), masked(0x81, b"b")])


@pytest.mark.parametrize("stream", [STREAM, BAD_STREAM], ids=["good", "not UTF-8"])
def test_a_stream_split_at_every_byte_gives_the_same(stream: bytes) -> None:
    async def main() -> None:
        options = {"direct": True, "late": False, "settings": Settings(),
                   "ws_max_size": 1000}
        whole = await _run([stream], fast=False, **options)
        for at in range(1, len(stream)):
            for cuts in ([at], [at // 2, at]):
                chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)
                          if b > a]  # (an empty read would be the connection lost)
                slow = await _run(chunks, fast=False, **options)
                fast = await _run(chunks, fast=True, **options)
                assert (fast[0], fast[1], fast[3]) == (slow[0], slow[1], slow[3]), at
                assert fast[0] == whole[0], at

    asyncio.run(main())


@st.composite
def frames(draw: st.DrawFn, limit: int) -> bytes:
    """One frame of any kind a client may send, well-formed or not (``limit``: the
    server's ``ws_max_size``)."""
    kind = draw(st.sampled_from(["text", "text", "text", "text", "bytes", "size", "other",
                                 "unmasked"]))
    key = draw(st.binary(min_size=4, max_size=4))
    if kind == "text":
        payload = draw(st.text(max_size=40)).encode("utf-8", "surrogatepass")
        return masked(0x81, payload, key=key)
    if kind == "bytes":  # a text frame's payload that may not be UTF-8
        return masked(0x81, draw(st.binary(max_size=8)), key=key)
    if kind == "size":  # about the limit, in a 7-, 16- or 64-bit length field
        size = draw(st.sampled_from([0, 125, 126, limit - 1, limit, limit + 1]))
        payload = b"s" * size
        field = draw(st.sampled_from(["short", "16", "64"]))
        length = (None if field == "short" else b"\x7e" + size.to_bytes(2, "big")
                  if field == "16" else b"\x7f" + size.to_bytes(8, "big"))
        return masked(0x81, payload, length, key=key)
    if kind == "unmasked":
        payload = draw(st.binary(max_size=5))
        return bytes((0x81, len(payload))) + payload
    first = draw(st.sampled_from([0x01, 0x00, 0x80, 0x82, 0x02, 0x89, 0x8A, 0x09, 0xC1,
                                  0xA1, 0x91, 0x83, 0x8B, 0x88]))
    payload = draw(st.binary(max_size=6))
    if first == 0x88:
        payload = draw(st.sampled_from([b"", b"\x03\xe8", b"\x03\xe8bye", b"\x00", b"\xff\xff"]))
    return masked(first, payload, key=key)


@st.composite
def streams(draw: st.DrawFn, limit: int) -> list[bytes]:
    """Frames sent one after another, split into reads at random places (often none, or
    at frames' ends: a read of one frame is read on a path of its own)."""
    sent = draw(st.lists(frames(limit), max_size=12))
    data = b"".join(sent)
    ends = [sum(map(len, sent[:n])) for n in range(len(sent) + 1)]
    places = st.integers(0, len(data)) | st.sampled_from(ends)
    cuts = sorted(draw(st.sets(places, max_size=6)))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True) if b > a]


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), limit=st.sampled_from([10, 125, 200]))
def test_random_streams_give_the_same_either_way(data: st.DataObject, limit: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Any frames, split anywhere, with ``ws_max_size`` below, at and above the 7-bit
    lengths: the same messages, refusals, closes, bytes and log lines either way."""
    monkeypatch.setattr(sockets, "rate_clock", lambda: 100.0)
    chunks = data.draw(streams(limit))

    async def both() -> None:
        options: dict[str, Any] = {
            "direct": True, "late": False, "ws_max_size": limit,
            "settings": Settings(max_message=150, burst=8, flood_close=12)}
        slow = await _run([*chunks, CLOSE], fast=False, **options)
        fast = await _run([*chunks, CLOSE], fast=True, **options)
        assert (fast[0], fast[1], fast[3]) == (slow[0], slow[1], slow[3])

    asyncio.run(both())


# ---------------------------------------------------------------------- another websockets


def test_a_websockets_built_otherwise_turns_the_reading_off(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(textframes, "_AT_EOF", (lambda: None).__code__)
    frames_readable.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, "chicago.server"):
            assert protocol_classes()[1].frames_direct is False
            assert protocol_classes()[1].frames_direct is False
        assert [r.getMessage() for r in caplog.records] == [
            "text frames received directly are off: websockets' parser is not the one "
            "chicago knows"]
    finally:
        frames_readable.cache_clear()
    monkeypatch.undo()
    assert protocol_classes()[1].frames_direct is True
