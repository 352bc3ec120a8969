"""The websocket endpoint ``/ws/{table}``: one connection per player or spectator.

A :class:`Connection` checks every incoming message (size and rate as every socket of the
server: :mod:`chicago.server.sockets`; JSON and fields: :mod:`chicago.server.messages`),
hands it to the :class:`~chicago.server.tables.TableManager` and answers refusals with an
``error`` frame; the connection stays open. Outgoing frames go through a queue with its own
sender task, so a slow client never holds up a table (one that falls too far behind is
closed and resyncs when it reconnects).
"""

from __future__ import annotations

import logging

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from chicago.server import fanout, protocol
from chicago.server.headers import Origins
from chicago.server.live import LiveTable
from chicago.server.messages import (
    Act,
    Back,
    Chat,
    ClientMessage,
    Continue,
    Fill,
    Hello,
    Leave,
    Ping,
    Rematch,
    View,
    handler_table,
    parse_client,
)
from chicago.server.protocol import ProtocolError, TableError
from chicago.server.settings import Settings
from chicago.server.sockets import Socket, in_own_task
from chicago.server.tables import TableManager

__all__ = ["Connection", "table_socket"]

log = logging.getLogger("chicago.server")


class Connection(Socket):
    """One websocket of a table: its seat (None: spectator) and the seat token it said
    ``hello`` with, besides its send queue and rate limit (:class:`Socket`)."""

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        super().__init__(websocket, settings)
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.grant: str | None = None
        self.batched = False
        self.greeted = False


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """The websocket of one table (docs/PROTOCOL.md). A page of another origin than the
    server's own (or one admitted: :class:`~chicago.server.headers.Origins`) is refused
    with 403 before the handshake completes."""
    manager: TableManager = websocket.app.state.manager
    settings: Settings = websocket.app.state.settings
    origins: Origins = websocket.app.state.origins
    origin = websocket.headers.get("origin")
    if not origins.allows(origin, scheme=websocket.url.scheme,
                          host=websocket.headers.get("host")):
        await _refuse(websocket, origin)
        return
    await websocket.accept()
    conn = Connection(websocket, settings)
    conn.start()
    table: LiveTable | None = None
    try:
        try:
            table = await manager.get(table_id)
        except Exception:
            log.exception("table %s cannot be loaded", table_id)
            conn.send(protocol.error_frame(0, "internal", "the table cannot be loaded now; "
                                           "try again later"))
            conn.close(1011, "table unavailable")
            return
        if table is None:
            conn.send(protocol.error_frame(0, "unknown_table", f"no table {table_id!r}"))
            conn.close(4404, "unknown table")
            return
        await in_own_task(_serve(manager, table, conn))
    finally:
        if table is not None:
            manager.detach(table, conn)
        await conn.finish()


async def _refuse(websocket: WebSocket, origin: str | None) -> None:
    """Answer the handshake with 403 and a JSON error (or, where the server cannot send an
    answer of the application's own, close it: uvicorn then answers 403 itself)."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(JSONResponse(
            {"error": {"code": "bad_origin",
                       "message": f"pages of {origin!r} may not use this server"}},
            status_code=403))
    else:
        await websocket.close(1008)


async def _serve(manager: TableManager, table: LiveTable, conn: Connection) -> None:
    settings = conn.settings
    handlers = _Handlers(manager, table, conn)

    def answer(code: str, message: str, msg_id: object = None) -> None:
        """An error frame of the table's seq now (after the updates gathered before it)."""
        fanout.flush(table)
        conn.send(protocol.error_frame(table.state.seq, code, message, msg_id))

    def refuse(code: str, message: str) -> None:
        answer(code, message)

    async for raw in conn.messages(refuse):
        try:
            msg = parse_client(raw, settings.max_message)
        except ProtocolError as exc:
            answer(exc.code, exc.message, exc.msg_id)
            continue
        try:
            if msg.greeted and not conn.greeted:
                raise ProtocolError("hello_required", 'send {"type": "hello", …} first', msg.id)
            await _HANDLERS[type(msg)](handlers, msg)
            if msg.paced:
                conn.refund()
        except ProtocolError as exc:
            answer(exc.code, exc.message, msg.id)
        except TableError as exc:
            answer(exc.code, exc.message, msg.id)
        except Exception:  # a bug, not the client's fault: say so and keep the connection
            log.exception("table %s: %s message failed", table.id, msg.type)
            answer("internal", "the server failed to handle this message; send hello to "
                   "resync", msg.id)


class _Handlers:
    """What one connection does with each client message: ``on_<type>`` per message type
    of :mod:`chicago.server.messages` (:data:`_HANDLERS` is made from them). The ``hello``
    a message needs first is checked before its handler is called. A player's request is
    made as this connection's (``holder``): refused once its seat token no longer holds
    the seat (:mod:`chicago.server.credentials`)."""

    def __init__(self, manager: TableManager, table: LiveTable, conn: Connection) -> None:
        self.manager = manager
        self.table = table
        self.conn = conn

    def _seat(self, msg: ClientMessage) -> int:
        """The connection's seat, or ``not_seated``: the message is a player's."""
        if self.conn.seat is None:
            raise ProtocolError("not_seated", f"spectators cannot {msg.type}; join a seat to "
                                "play", msg.id)
        return self.conn.seat

    async def on_hello(self, msg: Hello) -> None:
        await self.manager.hello(self.table, self.conn, msg.token, msg.last_seq, msg.batch)
        self.conn.greeted = True

    async def on_act(self, msg: Act) -> None:
        await self.manager.act(self.table, self._seat(msg), msg.action, msg.seq,
                               holder=self.conn)

    async def on_back(self, msg: Back) -> None:
        await self.manager.back(self.table, self._seat(msg), holder=self.conn)

    async def on_continue(self, msg: Continue) -> None:
        await self.manager.continue_deal(self.table, self._seat(msg), holder=self.conn)

    async def on_rematch(self, msg: Rematch) -> None:
        await self.manager.rematch(self.table, self._seat(msg), holder=self.conn)

    async def on_leave(self, msg: Leave) -> None:
        await self.manager.decline(self.table, self._seat(msg), holder=self.conn)

    async def on_fill(self, msg: Fill) -> None:
        await self.manager.fill(self.table, self._seat(msg), holder=self.conn)

    async def on_chat(self, msg: Chat) -> None:
        await self.manager.chat(self.table, self._seat(msg), msg.text, holder=self.conn)

    async def on_view(self, msg: View) -> None:
        self.manager.snapshot(self.table, self.conn, "view")

    async def on_ping(self, msg: Ping) -> None:
        fanout.flush(self.table)  # the updates before the seq it says
        self.conn.send(protocol.dumps({"type": "pong", "seq": self.table.state.seq}))


_HANDLERS = handler_table(_Handlers)
"""Client message type -> its handler (every type of :data:`CLIENT_MESSAGES` has one)."""
