"""The socket ``/ws/pairing``: where a person waits for a table ("Play now with people").

Messages from the page (JSON, checked as strictly as a table socket's: size, rate, fields):

- ``{"type": "queue", "preset", "players", "wait", "rated", "name", "profile"}``: a new
  place (one per socket: a socket that holds a waiting place must leave it first). ``wait``:
  seconds before bots fill the empty seats, 0 (at once) to :data:`~.service.MAX_WAIT`, or
  null (never); ``rated``: with people close in rating (a profile's secret in ``profile``);
- ``{"type": "resume", "ticket"}``: take a place back (a reload, a reconnect, a restart);
- ``{"type": "leave"}``; ``{"type": "ping"}``.

Answers: ``queued`` (the ticket, the queue, when the place came, and how many wait in that
queue: the only thing told about other people), ``paired`` (the table and seat; the ticket
is the seat token), ``left`` (the place is gone: left, or forgotten), ``pong``, and
``error`` (``code``, ``message``, and for a bad field its name in ``field``; nothing
changed). A place whose profile signed out everywhere ends, and its socket closes (4401).
Closing the socket leaves the place in the queue for ``Settings.pairing_grace`` seconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
from typing import Any

from starlette.websockets import WebSocket

from chicago.rules import PRESETS
from chicago.server import protocol
from chicago.server.admission import client_key
from chicago.server.core.ports import Revocation, Subscription
from chicago.server.core.seats import hash_token
from chicago.server.core.state import iso_time
from chicago.server.lobby import clean_name
from chicago.server.pairing.service import MAX_WAIT, Pairing, PairingRequest, players_of
from chicago.server.protocol import ProtocolError, TableError
from chicago.server.settings import Settings
from chicago.server.sockets import Socket, accept_page
from chicago.server.storage.pairing import PAIRED, PlaceRow
from chicago.server.together.site import SIGNED_OUT

__all__ = ["FieldError", "PairingConnection", "pairing_socket", "parse_message"]

log = logging.getLogger("chicago.server")

_SECRET_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

_FIELDS = {"queue": {"preset", "players", "wait", "rated", "name", "profile"},
           "resume": {"ticket"}, "leave": set(), "ping": set()}


class FieldError(ProtocolError):
    """A field of a message is wrong: its name, and what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__("bad_request", f"{field}: {message}")
        self.field = field


def _secret(data: dict[str, Any], field: str, *, required: bool) -> str | None:
    value = data.get(field)
    if value is None and not required:
        return None
    if not (isinstance(value, str) and 0 < len(value) <= 128
            and _SECRET_CHARS.issuperset(value)):
        raise FieldError(field, "must be a secret of 1-128 letters, digits, - and _")
    return value


def _queue(data: dict[str, Any]) -> PairingRequest:
    preset = data.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise FieldError("preset", f"must be one of {', '.join(PRESETS)}")
    allowed = players_of(preset)
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
        raise FieldError("players", f"must be one of {', '.join(map(str, allowed))} for "
                         f"{preset}")
    wait = data.get("wait")
    if wait is not None and (isinstance(wait, bool) or not isinstance(wait, int | float)
                             or not math.isfinite(wait) or not 0 <= wait <= MAX_WAIT):
        raise FieldError("wait", f"must be 0-{MAX_WAIT} seconds, or null (never bots)")
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise FieldError("rated", "must be true or false")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise FieldError("name", "must be a text or null")
    try:
        name = clean_name(name, "name")
    except TableError as exc:
        raise FieldError("name", exc.message.removeprefix("name ")) from None
    profile = _secret(data, "profile", required=rated)
    return PairingRequest(preset, players, None if wait is None else float(wait), rated,
                          name, profile)


def parse_message(raw: str | bytes) -> tuple[str, PairingRequest | str | None]:
    """The kind of a message and what it carries (a queue's request, a ticket, or None);
    ProtocolError (a :class:`FieldError` for a bad field) naming the problem. (Its size
    and rate were checked by :meth:`Socket.messages`.)"""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "not valid JSON") from None
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("bad_message", "the pairing socket takes the types "
                            f"{', '.join(_FIELDS)}")
    unknown = set(data) - _FIELDS[kind] - {"type", "id"}
    if unknown:
        raise FieldError(sorted(unknown)[0], f"{kind} has no such field")
    if kind == "queue":
        return kind, _queue(data)
    if kind == "resume":
        return kind, _secret(data, "ticket", required=True)
    return kind, None


class PairingConnection(Socket):
    """One pairing socket: the place it holds (its ticket) and what it listens to, besides
    its send queue and rate limit (:class:`~chicago.server.sockets.Socket`)."""

    def __init__(self, websocket: WebSocket, settings: Settings, pairing: Pairing) -> None:
        super().__init__(websocket, settings)
        self.pairing = pairing
        self.ticket: str | None = None
        self.watching: list[Subscription] = []
        self.key: tuple[str, int, bool] | None = None
        """The queue of the held place (its counts are sent)."""
        self.profile_id: str | None = None
        self.grant: str | None = None

    def _frame(self, kind: str, **fields: Any) -> None:
        self.send(protocol.dumps({"type": kind, **fields}))

    async def take(self, ticket: str, joined: PlaceRow | None = None) -> None:
        """Hold the place of ``ticket`` and tell how it stands. A place just ``joined`` is
        answered ``queued`` first, whatever happens next: a pass of another worker may pair
        it before this socket listens, and the page still learns its ticket in order
        (``queued``, then ``paired``)."""
        self.drop()
        if joined is not None:
            await self._queued(ticket, joined)
        self.ticket = ticket
        ticket_hash = hash_token(ticket)
        self.pairing.hold(ticket_hash)
        bus = self.pairing.manager.bus
        self.watching = [bus.subscribe_note(f"pairing:{ticket_hash}", self._news),
                         bus.subscribe_revocations(self._revoked)]
        self.pairing.counted.append(self._counts)
        for subscription in self.watching:
            await subscription.ready()
        await self.tell(again=joined is None)

    def drop(self) -> None:
        """Hold no place any more."""
        if self.ticket is not None:
            self.pairing.release(hash_token(self.ticket))
            self.ticket = None
            for subscription in self.watching:
                subscription.close()
            self.watching = []
            with contextlib.suppress(ValueError):
                self.pairing.counted.remove(self._counts)

    def _news(self, _topic: str, _note: dict[str, Any]) -> None:
        self.pairing.manager.tasks.spawn(self.tell())

    def _revoked(self, _site: str, note: Revocation) -> None:
        if note.profile == self.profile_id and note.grant != self.grant:
            self.pairing.manager.tasks.spawn(self._signed_out(note))

    async def _signed_out(self, note: Revocation) -> None:
        """The place ends in storage first, then the page hears ``left``: once told, it is
        counted nowhere and paired with nobody."""
        ticket = self.ticket
        try:
            await self.pairing.revoke(note)
        except Exception:  # the database away: the socket still ends, and so does the
            # place, once its grace is over with no socket holding it
            log.exception("ending the places of a signed-out profile failed")
        if ticket is not None and self.ticket == ticket:  # not let go meanwhile
            self._frame("left", reason="signed_out")
            self.drop()
        self.close(SIGNED_OUT)

    def _counts(self, counts: dict[tuple[str, int, bool], int]) -> None:
        if self.key is not None and self.ticket is not None:
            self._frame("waiting", waiting=counts.get(self.key, 0))

    async def tell(self, *, again: bool = True) -> None:
        """Send how the held place stands: queued (unless told just now: ``again`` false),
        paired, or gone."""
        ticket = self.ticket
        if ticket is None:
            return
        row = await self.pairing.place(ticket)
        if ticket != self.ticket:
            return
        if row is None:
            self.drop()
            self._frame("left", reason="gone")
        elif row.status == PAIRED:
            self.drop()
            self._frame("paired", table=row.table_id, seat=row.seat, token=ticket)
        elif again:
            await self._queued(ticket, row)

    async def _queued(self, ticket: str, row: PlaceRow) -> None:
        self.key = (row.preset, row.players, row.rated)
        self.profile_id, self.grant = row.profile_id, row.grant
        counts = await self.pairing.counts()
        self._frame("queued", ticket=ticket, preset=row.preset, players=row.players,
                    rated=row.rated, wait=row.wait, since=iso_time(row.queued_at),
                    waiting=counts.get(self.key, 0))

    async def handle(self, kind: str, value: PairingRequest | str | None) -> None:
        """Answer one checked message."""
        if kind == "ping":
            self._frame("pong")
        elif kind == "leave":
            if self.ticket is None or not await self.pairing.leave(self.ticket):
                raise ProtocolError("no_place", "this socket holds no waiting place")
            self.drop()
            self._frame("left", reason="left")
        elif kind == "resume":
            assert isinstance(value, str)
            if await self.pairing.place(value) is None:
                raise ProtocolError("no_place", "no place in the queue has this ticket (it "
                                    "was left, or forgotten after the grace)")
            await self.take(value)
        else:
            assert isinstance(value, PairingRequest)
            if self.ticket is not None:
                raise ProtocolError("already_queued", "this socket holds a place already: "
                                    "leave it first")
            host = self.websocket.client.host if self.websocket.client else None
            ticket, row = await self.pairing.join(value, client_key(host))
            await self.take(ticket, joined=row)


async def pairing_socket(websocket: WebSocket) -> None:
    """The pairing socket (see the module docstring); pages of other origins are refused."""
    settings: Settings = websocket.app.state.settings
    if not await accept_page(websocket):
        return
    conn = PairingConnection(websocket, settings, websocket.app.state.pairing)
    conn.start()

    def refuse(code: str, message: str) -> None:
        conn._frame("error", code=code, message=message)

    try:
        async for raw in conn.messages(refuse):
            try:
                await conn.handle(*parse_message(raw))
            except FieldError as exc:
                conn._frame("error", code=exc.code, field=exc.field, message=exc.message)
            except (ProtocolError, TableError) as exc:
                refuse(exc.code, exc.message)
    finally:
        conn.drop()
        await conn.finish()
