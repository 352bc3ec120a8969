"""The websocket protocol's shared words: the error codes, the refusals
(:class:`ProtocolError` for a message, :class:`TableError` for a request), the one encoding
of frames (:func:`dumps`) and the update ``state`` of a seat.

docs/PROTOCOL.md is the reference. The client messages are :mod:`chicago.server.messages`,
the frames :mod:`chicago.server.core.frames`.

>>> error_frame(7, "not_your_turn")
'{"type":"error","seq":7,"code":"not_your_turn","message":"another seat is to act"}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from chicago.engine import viewjson
from chicago.engine.jsontypes import JSON, EventJSON
from chicago.engine.native import ENGINE

__all__ = [
    "ERROR_CODES",
    "EVENTS_MARK",
    "STATE_KEYS",
    "STATE_MARK",
    "ProtocolError",
    "TableError",
    "dumps",
    "dumps_with_states",
    "error_frame",
    "public_state",
    "seat_state",
    "seat_state_text",
    "update_state",
]

MAX_MESSAGE = 16 * 1024
"""Largest client message in bytes (docs/PROTOCOL.md)."""

ERROR_CODES = {
    "bad_json": "not a JSON object",
    "too_large": "message too large",
    "bad_message": "not a valid message",
    "hello_required": "send hello first",
    "bad_token": "not a seat token of this table",
    "revoked": "this connection's seat token no longer holds the seat",
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
    "too_many_tournaments": "too many tournaments in play",
    "bad_origin": "a page of another origin",
    "bad_host": "a request for a host this server does not answer",
    "review_busy": "too many reviews are waiting",
    "too_many_reviews": "this client has as many reviews waiting as one client may",
    "no_reviews": "this server computes no reviews",
    "internal": "the server could not store the change",
    # requests over HTTP (docs/PROTOCOL.md, "HTTP API")
    "bad_request": "a field of the request is missing, malformed or out of range",
    "bad_rules": "the rules, preset, variations or seat count do not work together",
    "seat_taken": "that seat is taken",
    "unknown_game": "no such finished game at this table",
    "not_found": "no such page or resource",
    "method_not_allowed": "this resource does not take that method",
    "http_error": "the request was refused",
    # the review's practice (docs/PROTOCOL.md, "Practice")
    "unknown_exercise": "no such exercise",
    "bad_action": "not one of the exercise's choices",
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
    # playing together (issue 26: docs/PROTOCOL.md, "Play again", "Mail notices")
    "table_closed": "everyone left this table: no game is played here again",
    "not_agreed": "say Play again first",
    "no_open_seat": "every seat is taken",
    "mail_off": "this site sends no mail",
    "mail_limited": "too many mails today",
    "unknown_link": "this link does nothing (any more)",
    # who is online, follows and invitations (issue 26: docs/SERVER.md, "People")
    "follow_limited": "this profile follows as many profiles as one may",
    "not_invitable": "invite a profile you follow or one shown online",
    "already_invited": "this profile has an open invitation to this table already",
    "invite_limited": "too many invitations",
    "unknown_invite": "no such invitation for this profile",
    "invite_ended": "this invitation has ended",
    # pairing, "Play now with people" (issue 26: docs/PROTOCOL.md, "Pairing")
    "no_place": "no place in the queue has this ticket",
    "already_queued": "a place in the queue is held already",
    "too_many_places": "too many places in the queue from this address",
    "queue_full": "the pairing queue is full",
}
"""Every error code the server sends, with a default message."""

STATE_KEYS = (
    "seat", "players", "deal", "dealer", "phase", "round", "to_act", "scores", "locked",
    "stock", "discard_pile", "exchanges", "announcements", "reveals", "round_results", "shown",
    "one_up", "chicago", "trick_number", "trick", "tricks", "played", "over", "winners",
    "settlement", "chicago_declared", "chicago_made", "hand_sizes", "scoring_round",
    "chicago_points", "lock_at", "exchange_rounds", "hand", "hand_category", "discarded",
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


_FRAME_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""Frames are trees of dicts and lists (one may share a list with another frame, never
contain itself), so the check for cycles, a dict of every container's id, is left out."""


def dumps(frame: Mapping[str, object]) -> str:
    """A frame as compact JSON text (the one encoding of every frame)."""
    return _FRAME_ENCODER.encode(frame)


STATE_MARK: Final[dict[str, JSON]] = {"\x00state\x00": 0}
"""What stands for an update's state in a frame encoded with its states put in as text
(:func:`dumps_with_states`); no state, event or name holds its key (and were one to, the
frame would be encoded whole)."""

EVENTS_MARK: Final[list[EventJSON]] = [{"\x00events\x00": 0}]
"""What stands for an update's events in a frame encoded with its events put in as text
(:func:`dumps_with_states`, :func:`chicago.engine.eventtext.events_text`), as
:data:`STATE_MARK` does for its state."""

_MARK_HEAD = '{"\\u0000'
"""Where the text of a mark begins (an object whose first key begins with a NUL, which the
encoder writes escaped): nothing else in an encoded frame holds it, names and texts being
written with their quotes and NULs escaped."""

_STATE_REST = dumps(STATE_MARK)[len(_MARK_HEAD):]
_EVENTS_REST = _FRAME_ENCODER.encode(EVENTS_MARK)[1 + len(_MARK_HEAD):]  # after "[" and the head


_frame_json_text: Callable[..., Any] | None = (
    getattr(ENGINE, "frame_json_text", None) if ENGINE is not None else None)
"""The engine accelerator's writer of :func:`dumps_with_states` (a text, or NotImplemented
for a frame the Python code writes), or None."""


def dumps_with_states(frame: Mapping[str, object], states: Sequence[str],
                      events: Sequence[str] = ()) -> str:
    """``dumps(frame)`` of a frame whose updates' states are :data:`STATE_MARK`, each in turn
    standing for the next of ``states`` (compact JSON texts, :func:`seat_state_text`), and
    whose updates' events may be :data:`EVENTS_MARK`, each standing for the next of
    ``events`` (compact JSON texts of lists,
    :func:`chicago.engine.eventtext.events_text`): the frame encoded with the marks, then
    the texts put in their places, so that the states and events are neither made as
    objects nor encoded again. The same text as the frame with the states and events in
    it encoded by :func:`dumps`. The engine's accelerator writes it in one buffer when it is
    built (``frame_json_text``: the marks found by identity, the other values written as the
    stdlib's encoder writes them), a frame of another shape (a text to escape …) is written
    so here."""
    if _frame_json_text is not None:
        made = _frame_json_text(frame, STATE_MARK, EVENTS_MARK, states, events)
        if made is not NotImplemented:
            return made  # type: ignore[no-any-return]
    pieces = dumps(frame).split(_MARK_HEAD)
    if len(pieces) == len(states) + len(events) + 1:
        out = [pieces[0]]
        next_state, next_events = iter(states), iter(events)
        for piece in pieces[1:]:
            if piece.startswith(_STATE_REST):
                text = next(next_state, None)
                rest = piece[len(_STATE_REST):]
            elif piece.startswith(_EVENTS_REST) and out[-1].endswith("["):
                text = next(next_events, None)
                rest = piece[len(_EVENTS_REST):]
                out[-1] = out[-1][:-1]
            else:
                break
            if text is None:
                break
            out.append(text)
            out.append(rest)
        else:
            return "".join(out)
    # a mark's text elsewhere: the long way
    whole = _with_states(frame, iter([json.loads(state) for state in states]),
                         iter([json.loads(text) for text in events]))
    assert isinstance(whole, Mapping)
    return dumps(whole)


def _with_states(value: object, states: Iterator[object], events: Iterator[object]) -> object:
    """``value`` with each :data:`STATE_MARK` in it replaced by the next of ``states``, each
    :data:`EVENTS_MARK` by the next of ``events``."""
    if value is STATE_MARK:
        return next(states)
    if value is EVENTS_MARK:
        return next(events)
    if isinstance(value, Mapping):
        return {key: _with_states(item, states, events) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_with_states(item, states, events) for item in value]
    return value


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
# The update ``state`` of a seat is the JSON of the engine's view without its heavy fields,
# made by the engine's one view encoder (one public part per action, then each seat's own).
public_state = viewjson.public_state
seat_state = viewjson.seat_state
update_state = viewjson.update_state
seat_state_text = viewjson.seat_state_text
