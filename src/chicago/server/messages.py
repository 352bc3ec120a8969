"""The client messages of the websocket protocol, one type each, and the dispatch made from
those types (docs/PROTOCOL.md).

Each message is a frozen dataclass whose ``type`` names it on the wire; each field says by
its annotation how it is read and checked (a :class:`Check`). :func:`parse_client` reads any
message through those checks, and :func:`handler_table` maps each type to the method of a
handler class called ``on_<type>`` (the websocket's, :mod:`chicago.server.ws`), refusing a
class that lacks one. A new message is then one dataclass here and one handler method.

>>> parse_client('{"type": "act", "action": "play Ah", "seq": 4}')
Act(id=None, action='play Ah', seq=4)
>>> parse_client('{"type": "act"}')
Traceback (most recent call last):
...
chicago.server.protocol.ProtocolError: bad_message: act needs "action", a text such as "play Ah"
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import string
import typing
import unicodedata
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from chicago.server.protocol import MAX_MESSAGE, ProtocolError

__all__ = [
    "CLIENT_MESSAGES",
    "CLIENT_TYPES",
    "Act",
    "Back",
    "Chat",
    "Check",
    "ClientMessage",
    "Continue",
    "Fill",
    "Hello",
    "Leave",
    "Ping",
    "Rematch",
    "View",
    "handler_table",
    "parse_client",
]

MessageId = str | int | None
"""A client's ``id`` of a message, echoed in the answer's error frame."""


@dataclass(frozen=True, slots=True)
class Check:
    """How one field of a client message is read: ``read(key, value, msg_id)`` returns the
    checked value of ``value`` (the JSON value under ``key``, None when missing) or raises
    :class:`ProtocolError` naming the problem."""

    read: Callable[[str, object, MessageId], object]


_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
"""The characters of a seat token (URL-safe base64, as :func:`secrets.token_urlsafe`)."""


def _unprintable(text: str) -> bool:
    """Does ``text`` hold a character of Unicode category C (controls, format characters,
    lone surrogates, private use, unassigned)? The same rule as for names in the lobby.
    (Of the ASCII characters only the controls are of category C, and they are exactly
    the ones ``str.isprintable`` refuses: an ASCII text is answered without the table.)"""
    if text.isascii():
        return not text.isprintable()
    return any(unicodedata.category(ch).startswith("C") for ch in text)


def _count(key: str, value: object, msg_id: MessageId) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ProtocolError("bad_message", f'"{key}" must be a whole number >= 0 or null', msg_id)
    return value


def _seat_token(key: str, value: object, msg_id: MessageId) -> str | None:
    if value is not None and not (
        isinstance(value, str) and 0 < len(value) <= 128 and _TOKEN_CHARS.issuperset(value)
    ):
        raise ProtocolError("bad_message", f'"{key}" must be a seat token (letters, digits, '
                            '"-" and "_") or null', msg_id)
    return value


def _flag(key: str, value: object, msg_id: MessageId) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ProtocolError("bad_message", f'"{key}" must be true or false', msg_id)
    return value


def _action(key: str, value: object, msg_id: MessageId) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("bad_message", f'act needs "{key}", a text such as "play Ah"',
                            msg_id)
    if len(value) > 100:
        raise ProtocolError("bad_message", "an action has at most 100 characters", msg_id)
    if _unprintable(value):
        raise ProtocolError("bad_message", "an action may not contain control characters "
                            "or lone surrogates", msg_id)
    return value.strip()


def _chat_line(key: str, value: object, msg_id: MessageId) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("bad_message", f'chat needs "{key}"', msg_id)
    text = " ".join(value.split())  # line breaks and tabs become single spaces
    if len(text) > 300:
        raise ProtocolError("bad_message", "a chat line has at most 300 characters", msg_id)
    if _unprintable(text):
        raise ProtocolError("bad_message", "a chat line may not contain control "
                            "characters or lone surrogates", msg_id)
    return text


Count = Annotated[int | None, Check(_count)]
"""A whole number >= 0 below 2**53, or null."""
SeatToken = Annotated[str | None, Check(_seat_token)]
"""A seat token (letters, digits, ``-`` and ``_``, 1-128 of them), or null."""
Flag = Annotated[bool, Check(_flag)]
"""true or false; missing or null: false."""
ActionText = Annotated[str, Check(_action)]
"""An action in the notation (1-100 printable characters; surrounding blanks dropped)."""
ChatLine = Annotated[str, Check(_chat_line)]
"""A chat line (1-300 printable characters once every run of blanks is one space)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientMessage:
    """Any checked client message. ``type`` names it on the wire; ``greeted``: the
    connection must have sent ``hello`` first; ``paced``: an accepted one does not count
    against the connection's message rate (the game itself bounds how fast they come)."""

    type: ClassVar[str]
    greeted: ClassVar[bool] = True
    paced: ClassVar[bool] = False
    id: MessageId = None
    """The client's id of the message, echoed in an error frame that answers it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(ClientMessage):
    """Say who this connection is (a seat's token, or none: a spectator) and what it saw
    last; the answer is a snapshot or the frames missed since ``last_seq``. ``batch``: the
    client takes the updates of a burst (an action and the bots' replies) in one ``batch``
    frame."""

    type: ClassVar[str] = "hello"
    greeted: ClassVar[bool] = False
    token: SeatToken = None
    last_seq: Count = None
    batch: Flag = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Act(ClientMessage):
    """The seat's action; ``seq``: the table's seq the player saw when choosing it."""

    type: ClassVar[str] = "act"
    paced: ClassVar[bool] = True
    action: ActionText
    seq: Count = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Back(ClientMessage):
    """The player takes the seat back from its stand-in."""

    type: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True, kw_only=True)
class Continue(ClientMessage):
    """The person has read the deal's end: the next deal may start."""

    type: ClassVar[str] = "continue"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rematch(ClientMessage):
    """After a game: this person wants to play again (the next game starts when every
    person at the table has agreed)."""

    type: ClassVar[str] = "rematch"


@dataclass(frozen=True, slots=True, kw_only=True)
class Leave(ClientMessage):
    """After a game: this person does not want to play again and leaves the table (the
    seat is open again; the connection watches on)."""

    type: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True, kw_only=True)
class Fill(ClientMessage):
    """After a game: this person, who agreed to play again, gives the open seats to bots."""

    type: ClassVar[str] = "fill"


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(ClientMessage):
    """A chat line of the seat."""

    type: ClassVar[str] = "chat"
    text: ChatLine


@dataclass(frozen=True, slots=True, kw_only=True)
class View(ClientMessage):
    """Ask for a fresh snapshot."""

    type: ClassVar[str] = "view"


@dataclass(frozen=True, slots=True, kw_only=True)
class Ping(ClientMessage):
    """Keep the connection alive; answered by ``pong``."""

    type: ClassVar[str] = "ping"
    greeted: ClassVar[bool] = False


CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (
    Hello, Act, Back, Continue, Rematch, Leave, Fill, Chat, View, Ping)
"""Every client message type, in the order docs/PROTOCOL.md lists them."""

CLIENT_TYPES = tuple(cls.type for cls in CLIENT_MESSAGES)
"""The ``type`` of every client message."""

_BY_TYPE: Mapping[str, type[ClientMessage]] = {cls.type: cls for cls in CLIENT_MESSAGES}


def _checks(cls: type[ClientMessage]) -> tuple[tuple[str, Check], ...]:
    """The fields of a message type besides ``id``, each with its :class:`Check` (from its
    annotation)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    checks = []
    for field in dataclasses.fields(cls):
        if field.name == "id":
            continue
        found = [m for m in getattr(hints[field.name], "__metadata__", ()) if isinstance(m, Check)]
        if len(found) != 1:
            raise TypeError(f"{cls.__name__}.{field.name}: annotate it with one Check")
        checks.append((field.name, found[0]))
    return tuple(checks)


_FIELDS: Mapping[type[ClientMessage], tuple[tuple[str, Check], ...]] = {
    cls: _checks(cls) for cls in CLIENT_MESSAGES}
"""Per message type, how each of its fields is read."""


def parse_client(raw: str | bytes, max_size: int = MAX_MESSAGE) -> ClientMessage:
    """Parse and check one client message; raise :class:`ProtocolError` naming the problem.
    Fields a message type does not have are ignored."""
    if len(raw) > max_size:
        raise ProtocolError("too_large", f"a message may have at most {max_size} bytes")
    try:
        data = json.loads(raw)
    except RecursionError:  # e.g. "[[[[…]]]]": deeper than the parser goes
        raise ProtocolError("bad_json", "not valid JSON: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    msg_id = data.get("id")
    if msg_id is not None and not (
        (isinstance(msg_id, str) and len(msg_id) <= 64)
        or (isinstance(msg_id, int) and not isinstance(msg_id, bool) and abs(msg_id) < 2**53)
    ):
        raise ProtocolError("bad_message", '"id" must be a string of at most 64 characters '
                            "or a number")
    kind = data.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(
            "bad_message",
            f"unknown message type {kind!r}; valid: {', '.join(CLIENT_TYPES)}",
            msg_id,
        )
    values = {name: check.read(name, data.get(name), msg_id) for name, check in _FIELDS[cls]}
    return cls(id=msg_id, **values)


H = typing.TypeVar("H")

Handler = Callable[[H, Any], Awaitable[None]]
"""A handler class's method for one message type: ``await handler(self, message)``."""


def handler_table(handlers: type[H]) -> dict[type[ClientMessage], Handler[H]]:
    """Message type -> the method ``on_<type>`` of the class ``handlers`` whose one
    argument is annotated with that type. TypeError naming what is missing or wrong, so
    that a message type without its handler fails where the table is made."""
    table: dict[type[ClientMessage], Handler[H]] = {}
    for cls in CLIENT_MESSAGES:
        name = f"on_{cls.type}"
        method = getattr(handlers, name, None)
        if method is None or not inspect.iscoroutinefunction(method):
            raise TypeError(f"{handlers.__name__} has no coroutine {name}() for {cls.__name__}")
        hints = typing.get_type_hints(method)
        params = [p for p in inspect.signature(method).parameters if p != "self"]
        if len(params) != 1 or hints.get(params[0]) is not cls:
            raise TypeError(f"{handlers.__name__}.{name} must take one {cls.__name__}")
        table[cls] = method
    return table
