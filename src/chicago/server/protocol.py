"""The websocket protocol: client messages (parsed and checked) and server frames.

docs/PROTOCOL.md is the reference. Client messages are JSON objects with a ``type``; a
message that is not valid raises :class:`ProtocolError` with the error ``code`` and words for
the person. Server frames are built here as JSON text, once per audience (a seat or the
spectators) and shared by every connection of that audience.

>>> parse_client('{"type": "act", "action": "play Ah", "seq": 4}')
ClientMessage(type='act', id=None, token=None, last_seq=None, action='play Ah', seq=4, text=None)
>>> parse_client('{"type": "act"}')
Traceback (most recent call last):
...
chicago.server.protocol.ProtocolError: bad_message: act needs "action", a text such as "play Ah"
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chicago.engine import views

__all__ = [
    "CLIENT_TYPES",
    "ERROR_CODES",
    "STATE_KEYS",
    "ClientMessage",
    "ProtocolError",
    "TableError",
    "dumps",
    "error_frame",
    "parse_client",
    "public_state",
    "seat_state",
]

MAX_MESSAGE = 16 * 1024
"""Largest client message in bytes (docs/PROTOCOL.md)."""

CLIENT_TYPES = ("hello", "act", "back", "continue", "rematch", "chat", "view", "ping")

ERROR_CODES = {
    "bad_json": "not a JSON object",
    "too_large": "message too large",
    "bad_message": "not a valid message",
    "hello_required": "send hello first",
    "bad_token": "not a seat token of this table",
    "unknown_table": "no such table",
    "not_seated": "spectators cannot do that",
    "not_started": "the table is still waiting for players",
    "not_your_turn": "another seat is to act",
    "illegal_action": "illegal action",
    "stale": "the table has moved on",
    "game_over": "the game is over",
    "paused": "the next deal starts when everyone has pressed Continue",
    "not_over": "the game is not over",
    "rate_limited": "too many messages",
    "chat_limited": "too many chat lines",
    "too_many_tables": "too many tables waiting or in play",
    "bad_origin": "a page of another origin",
    "bad_host": "a request for a host this server does not answer",
    "review_busy": "too many reviews are waiting",
    "no_reviews": "this server computes no reviews",
    "internal": "the server could not store the change",
    # club play (docs/CLUB.md)
    "bad_profile": "not the secret of any profile",
    "bad_organizer": "not the organizer secret of this tournament",
    "unknown_profile": "no such profile",
    "name_taken": "another profile has this name",
    "profile_required": "a rated table takes profiles only",
    "already_seated": "this profile holds a seat at this table already",
    "unknown_tournament": "no such tournament",
    "tournament_full": "the tournament is full",
    "tournament_started": "the tournament has started",
    "tournament_over": "the tournament is over",
    "tournament_cancelled": "the organizer cancelled the tournament",
    "unknown_entrant": "the tournament has no such entrant",
    "already_joined": "this profile has joined already",
    "no_entrants": "nobody has joined the tournament",
    "not_playing": "the tournament has no round in play",
    "not_entered": "this profile has no seat in this round",
    "round_running": "the duplicate round is still being played",
    "tournament_table": "a tournament table plays one game",
}
"""Every error code the server sends, with a default message."""

STATE_KEYS = (
    "seat", "players", "deal", "dealer", "phase", "round", "to_act", "scores", "locked",
    "stock", "discard_pile", "exchanges", "announcements", "reveals", "round_results", "shown",
    "one_up", "chicago", "trick_number", "trick", "tricks", "played", "over", "winners",
    "settlement", "chicago_declared", "chicago_made", "hand", "hand_category", "discarded",
    "legal_actions", "known_out",
)
"""The keys of an update's ``state``: the view without ``rules``, ``events`` and ``history``."""


class ProtocolError(Exception):
    """A refused client message: ``code`` (see :data:`ERROR_CODES`) and a message in words."""

    def __init__(self, code: str, message: str | None = None, msg_id: Any = None) -> None:
        self.code = code
        self.message = message or ERROR_CODES.get(code, code)
        self.msg_id = msg_id
        super().__init__(f"{code}: {self.message}")


class TableError(Exception):
    """A refused request (over HTTP or the websocket): an error ``code`` (see
    :data:`ERROR_CODES`), words, an HTTP status, and for a limit (429) the seconds after
    which to try again (``Retry-After``)."""

    def __init__(self, code: str, message: str | None = None, status: int = 400, *,
                 retry_after: int | None = None) -> None:
        self.code = code
        self.message = message or ERROR_CODES.get(code, code)
        self.status = status
        self.retry_after = retry_after
        super().__init__(f"{code}: {self.message}")


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A checked client message; fields not used by its type are None."""

    type: str
    id: str | int | None = None
    token: str | None = None
    last_seq: int | None = None
    action: str | None = None
    seq: int | None = None
    text: str | None = None


_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
"""The characters of a seat token (URL-safe base64, as :func:`secrets.token_urlsafe`)."""


def _unprintable(text: str) -> bool:
    """Does ``text`` hold a character of Unicode category C (controls, format characters,
    lone surrogates, private use, unassigned)? The same rule as for names in the lobby."""
    return any(unicodedata.category(ch).startswith("C") for ch in text)


def _int_or_none(data: dict[str, Any], key: str, msg_id: Any) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ProtocolError("bad_message", f'"{key}" must be a whole number >= 0 or null', msg_id)
    return value


def parse_client(raw: str | bytes, max_size: int = MAX_MESSAGE) -> ClientMessage:
    """Parse and check one client message; raise :class:`ProtocolError` naming the problem."""
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
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad_message",
            f"unknown message type {kind!r}; valid: {', '.join(CLIENT_TYPES)}",
            msg_id,
        )
    if kind == "hello":
        token = data.get("token")
        if token is not None and not (
            isinstance(token, str) and 0 < len(token) <= 128 and _TOKEN_CHARS.issuperset(token)
        ):
            raise ProtocolError("bad_message", '"token" must be a seat token (letters, digits, '
                                '"-" and "_") or null', msg_id)
        return ClientMessage("hello", msg_id, token=token,
                             last_seq=_int_or_none(data, "last_seq", msg_id))
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip():
            raise ProtocolError(
                "bad_message", 'act needs "action", a text such as "play Ah"', msg_id
            )
        if len(action) > 100:
            raise ProtocolError("bad_message", "an action has at most 100 characters", msg_id)
        if _unprintable(action):
            raise ProtocolError("bad_message", "an action may not contain control characters "
                                "or lone surrogates", msg_id)
        return ClientMessage("act", msg_id, action=action.strip(),
                             seq=_int_or_none(data, "seq", msg_id))
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ProtocolError("bad_message", 'chat needs "text"', msg_id)
        text = " ".join(text.split())  # line breaks and tabs become single spaces
        if len(text) > 300:
            raise ProtocolError("bad_message", "a chat line has at most 300 characters", msg_id)
        if _unprintable(text):
            raise ProtocolError("bad_message", "a chat line may not contain control "
                                "characters or lone surrogates", msg_id)
        return ClientMessage("chat", msg_id, text=text)
    return ClientMessage(kind, msg_id)


def dumps(frame: Mapping[str, object]) -> str:
    """A frame as compact JSON text (the one encoding of every frame)."""
    return json.dumps(frame, separators=(",", ":"))


def error_frame(seq: int, code: str, message: str | None = None, msg_id: Any = None) -> str:
    """An ``error`` frame (JSON text)."""
    frame: dict[str, Any] = {
        "type": "error", "seq": seq, "code": code,
        "message": message or ERROR_CODES.get(code, code),
    }
    if msg_id is not None:
        frame["id"] = msg_id
    return dumps(frame)


# ---------------------------------------------------------------------- states
# The update ``state`` of a seat is the engine's view without its heavy fields; both are
# built by the engine (one public part per action, then each seat's own cards).
public_state = views.public_state
seat_state = views.seat_state
