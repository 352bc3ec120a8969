"""A client's text frames received by ``chicago serve``'s websocket protocol alone.

One connection of ``chicago serve``'s websocket protocol (uvicorn's, with the changes of
:mod:`chicago.server.transport`) over a transport that keeps nothing, its handshake
accepted and its messages received directly (:class:`~chicago.server.transport.DirectMessages`);
then ``--reads`` reads of the socket, each bringing ``--frames`` masked text frames of
``{"type": "ping"}`` (what a client sends most), handed to ``data_received`` one after the
other, the messages taken out as they come. ``--side`` says who parses the frames: ``fast``
this project's reader (:mod:`chicago.server.textframes`), ``websockets`` websockets' own
parser (``frames_direct`` off), ``both`` alternating blocks of the two. No event loop turns
during the timed part and every read is the same, so the work is deterministic: two
versions or the two sides compare in instructions too (``valgrind --tool=cachegrind
--cache-sim=no``, a run with ``--reads 0`` subtracted).

    python benchmarks/bench_frames_in.py --reads 200000 --side both --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from chicago.server.transport import DIRECT_MESSAGES, protocol_classes

HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\n\r\n")


class Transport:
    """What the protocol needs of a transport; writes nothing anywhere."""

    def write(self, data: bytes) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def connection() -> tuple[Any, Any, asyncio.Future[None]]:
    """(the websocket protocol, its DirectMessages, what ends its application), handshake
    accepted, messages direct."""
    accepted = asyncio.Event()
    forever: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    found: list[Any] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        direct = scope["extensions"][DIRECT_MESSAGES]
        assert direct.start()
        found.append(direct)
        accepted.set()
        await forever

    _, ws_protocol = protocol_classes()
    config = Config(app, ws=ws_protocol, ws_ping_interval=None, lifespan="off",
                    log_level="warning", interface="asgi3")
    config.load()
    protocol = ws_protocol(config=config, server_state=ServerState(), app_state={})
    protocol.connection_made(Transport())
    protocol.data_received(HANDSHAKE)
    await accepted.wait()
    return protocol, found[0], forever


def feed(protocol: Any, direct: Any, read: bytes, reads: int) -> float:
    """CPU seconds of ``reads`` reads of ``read``, the messages taken out after each."""
    received = protocol.data_received
    items = direct._items
    t0 = time.process_time()
    for _ in range(reads):
        received(read)
        items.clear()
    return time.process_time() - t0


async def main_async(args: argparse.Namespace) -> None:
    protocol, direct, forever = await connection()
    frame = Frame(Opcode.TEXT, b'{"type": "ping"}').serialize(mask=True)
    read = frame * args.frames
    sides = ["fast", "websockets"] if args.side == "both" else [args.side]
    times: dict[str, list[float]] = {side: [] for side in sides}
    for run in range(args.runs):
        for side in sides if run % 2 == 0 else sides[::-1]:
            protocol.frames_direct = side == "fast"
            times[side].append(feed(protocol, direct, read, args.reads))
    if args.reads:
        for side, spent in times.items():
            per = statistics.median(spent) / (args.reads * args.frames) * 1e6
            print(f"{side}: {per:.2f} µs a frame (median of {args.runs}; "
                  f"{args.frames} frame(s) a read)")
    forever.set_result(None)
    await asyncio.gather(*protocol.tasks)
    protocol.connection_lost(None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=100_000)
    parser.add_argument("--frames", type=int, default=1, help="frames in one read")
    parser.add_argument("--side", choices=["fast", "websockets", "both"], default="both")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
