"""The events an audience may see as compact JSON text, for the table server's frames.

:func:`events_text` is the text of ``[e.to_json() for e in events if e.visible_to(audience)]``
as the table server encodes its frames (``chicago.server.protocol.dumps``: no spaces,
ASCII): the hidden-information rule is :meth:`~chicago.engine.events.Event.visible_to`'s
(a private event, the cards a seat was dealt or exchanged, only for its seat; a spectator,
None, sees the public events only). The accelerator's ``events_json_text`` writes it
straight from the events' slots when it is built (issue 28, thirty-second pass), by a plan
per kind made here from the kinds' own declarations (their fields, types and defaults, in
the JSON form's order); a kind whose JSON form is written by a ``to_json`` of its own has a
plan written out below (:class:`Reshuffle`, :class:`Reveal`, :class:`Showdown`) or none, and
anything the plans do not cover (a kind without one, a text to escape, a float that is not
finite) is written by the Python code. tests/test_events_text.py proves the two the same.

>>> from chicago.cards import parse_card
>>> from chicago.engine.events import Dealt, Play
>>> played = [Play(seat=2, card=parse_card("Ah"), trick=3), Dealt(1, (parse_card("2c"),))]
>>> events_text(played, 1)
'[{"type":"play","seat":2,"card":"Ah","trick":3},{"type":"dealt","seat":1,"cards":["2c"],"to":1}]'
>>> events_text(played, None)
'[{"type":"play","seat":2,"card":"Ah","trick":3}]'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from chicago.cards import DECK
from chicago.engine.events import EVENT_TYPES, Event, Reshuffle, Reveal, Showdown
from chicago.engine.jsontypes import JSONObject
from chicago.engine.native import ENGINE

__all__ = ["events_json", "events_text", "plans"]

_CARD_TEXT = tuple(str(card) for card in DECK)

_TEXT_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""The compact encoding of the table server's frames (as ``chicago.server.protocol``'s)."""

# how the accelerator writes a field (the EJ_* of _engine.c's "events as JSON text")
_VALUE, _CARD, _CARDS, _VALUES, _CATEGORY, _OPTIONAL_CATEGORY, _RANK, _HANDS = range(8)

_CONVERSIONS = {
    "int": _VALUE, "bool": _VALUE, "str": _VALUE, "float": _VALUE,
    "int | None": _VALUE, "str | None": _VALUE, "bool | None": _VALUE,
    "Card": _CARD, "tuple[Card, ...]": _CARDS,
    "tuple[int, ...]": _VALUES, "tuple[bool, ...]": _VALUES, "tuple[float, ...]": _VALUES,
    "Category": _CATEGORY, "Category | None": _OPTIONAL_CATEGORY,
}
"""The conversion of each declared field type that ``Event.to_json`` converts (as its
``_TO_JSON``)."""

Field = tuple[str, str, int, tuple[object, ...]]
"""A field's plan: its key as text (``',"seat":'``), its slot, its conversion, and ``()``
when it is always written or ``(default,)`` when it is left out while equal to it."""

Plan = tuple[type[Event], str, bool, tuple[Field, ...]]
"""A kind's plan: the class, its head (``'{"type":"play"'``), whether it is private (its
first field the seat that sees it, ``"to"`` written last) and its fields in JSON order."""


def _field(key: str, slot: str, convert: int, *skip: object) -> Field:
    return (f',"{key}":', slot, convert, skip)


_OWN_PLANS: dict[type[Event], tuple[Field, ...]] = {
    # to_json: {"type": "reshuffle", "count": size}
    Reshuffle: (_field("count", "_size", _VALUE),),
    # to_json: the rank as its letter and the suit, each left out when None
    Reveal: (_field("seat", "_seat", _VALUE), _field("stage", "_stage", _VALUE),
             _field("rank", "_rank", _RANK, None), _field("suit", "_suit", _VALUE, None)),
    # to_json: the category by name, the hands an object of seat (as text) to cards
    Showdown: (_field("winner", "_winner", _VALUE), _field("category", "_category", _CATEGORY),
               _field("points", "_points", _VALUE), _field("hands", "_hands", _HANDS)),
}
"""The plans of the kinds whose ``to_json`` is their own, written out after it."""


def plans() -> tuple[Plan, ...]:
    """Every kind's plan for the accelerator (the kinds with a ``to_json`` of their own
    that has no plan here are left to the Python code)."""
    made: list[Plan] = []
    for kind in EVENT_TYPES.values():
        if kind.to_json is Event.to_json:
            fields = tuple(
                _field(name, f"_{name}", _CONVERSIONS[kind.field_types[name]],
                       *((kind.defaults[name],) if name in kind.defaults else ()))
                for name in kind.fields)
        elif kind in _OWN_PLANS and kind.to_json is vars(kind)["to_json"]:
            fields = _OWN_PLANS[kind]
        else:
            continue
        made.append((kind, f'{{"type":"{kind.type}"', kind.private, fields))
    return tuple(made)


def _install() -> Callable[..., Any] | None:
    if ENGINE is None or not hasattr(ENGINE, "events_json_text"):
        return None
    ENGINE.install_events(plans())
    writer: Callable[..., Any] = ENGINE.events_json_text
    return writer


_events_json_text: Callable[..., Any] | None = _install()
"""The accelerator's writer of :func:`events_text` (a text, or NotImplemented for what the
Python code writes), or None."""


def events_json(events: Sequence[Event], audience: int | None) -> list[JSONObject]:
    """The JSON forms of the ``events`` that ``audience`` may see (a seat, or None for a
    spectator), in order."""
    return [event.to_json() for event in events if event.visible_to(audience)]


def events_text(events: Sequence[Event], audience: int | None) -> str:
    """The compact JSON text of :func:`events_json` (no spaces, ASCII: as the table server
    encodes its frames), written by the accelerator when it is built and the events are of
    its plans' shapes, else by the Python encoder."""
    if _events_json_text is not None:
        made = _events_json_text(events, audience, _CARD_TEXT)
        if made is not NotImplemented:
            return made  # type: ignore[no-any-return]
    return _TEXT_ENCODER.encode(events_json(events, audience))
